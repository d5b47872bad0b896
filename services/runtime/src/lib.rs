//! Shared plumbing of every paysite service: configuration, telemetry, the event store,
//! the outbox relay, consumers with their inbox and dead-letter queue, projection
//! rebuilds, health and the way a service is started.

pub mod auth;
pub mod batch;
pub mod bench;
pub mod broker;
pub mod client;
pub mod clock;
pub mod config;
pub mod consumer;
pub mod db;
pub mod dlq;
pub mod event_store;
pub mod health;
pub mod http;
pub mod projection;
pub mod relay;
pub mod retry;
pub mod service;
pub mod telemetry;
pub mod testing;
pub mod throttle;
pub mod tls;

pub use config::{Secret, Settings};
pub use event_store::{Decider, EventStore, Executed, Pending, Projected, StoreError, StreamAppend};
