//! Shared plumbing of every paysite service: configuration, telemetry, the event store,
//! the outbox relay, consumers with their inbox and dead-letter queue, projection
//! rebuilds, health and the way a service is started.
//!
//! Feature `store` (on by default) brings everything that needs PostgreSQL or RabbitMQ (sqlx,
//! lapin). Without it only the parts a service's contract needs are left: the internal client
//! ([`client`]), its caller identity ([`auth`]), configuration, telemetry and the HTTP helpers.
//!
//! Feature `bench` brings what the service benchmarks share (`bench`), feature `testing` what
//! tests share (`testing`); production builds leave both off.

pub mod api_error;
pub mod auth;
#[cfg(feature = "store")]
pub mod batch;
#[cfg(feature = "bench")]
pub mod bench;
#[cfg(feature = "store")]
pub mod broker;
pub mod client;
pub mod clock;
pub mod config;
#[cfg(feature = "store")]
pub mod consumer;
#[cfg(feature = "store")]
pub mod db;
#[cfg(feature = "store")]
pub mod dlq;
#[cfg(feature = "store")]
pub mod event_store;
#[cfg(feature = "store")]
pub mod health;
pub mod http;
#[cfg(feature = "store")]
pub mod projection;
#[cfg(feature = "store")]
pub mod relay;
pub mod retry;
#[cfg(feature = "store")]
pub mod service;
pub mod telemetry;
#[cfg(feature = "testing")]
pub mod testing;
pub mod throttle;
pub mod tls;

pub use config::{Secret, Settings};
#[cfg(feature = "store")]
pub use event_store::{Decider, EventStore, Executed, Pending, Projected, StoreError, StreamAppend};
