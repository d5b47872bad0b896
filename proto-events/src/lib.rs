//! The event contract shared by every service.
//!
//! An event travels as an [`Envelope`]: who, when, which stream and version, and a
//! JSON payload whose shape is fixed by its `type` and `schema_version`. Each domain
//! declares its events as one enum implementing [`EventFamily`]; readers decode an
//! envelope into that enum, and payloads written under an older schema version are
//! upcast first, so old events in the store stay readable forever.
//!
//! Golden fixtures in `fixtures/` pin every wire shape: a change that alters what is
//! written fails a test (see `tests/golden.rs`).

mod envelope;
mod family;

pub mod catalog;
pub mod deals;
pub mod profile;
pub mod subscription;
pub mod unlocks;
pub mod wallet;

pub use envelope::{Actor, Envelope, EventMeta};
pub use family::{decode, encode, DecodeError, EncodedEvent, EventFamily};

/// The durable topic exchange every service publishes to.
pub const EXCHANGE: &str = "paysite.events";

/// Routing key of an event on [`EXCHANGE`]: `<service>.<EventType>`.
pub fn routing_key(service: &str, event_type: &str) -> String {
    format!("{service}.{event_type}")
}
