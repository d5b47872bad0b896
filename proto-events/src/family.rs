use serde::{de::DeserializeOwned, Serialize};
use serde_json::{json, Value};

use crate::Envelope;

/// The events of one domain, as one enum.
///
/// The enum must serialise adjacently tagged, `#[serde(tag = "type", content = "payload")]`,
/// so that its tag is the envelope's `type` and its content the payload.
pub trait EventFamily: Serialize + DeserializeOwned {
    /// The owning service; also the first part of the routing key.
    const DOMAIN: &'static str;

    /// Every type name of the family with its current schema version.
    const TYPES: &'static [(&'static str, u32)];

    /// Rewrites a payload of `event_type` from schema `version` to `version + 1`.
    ///
    /// Only types whose current version is above 1 need a step; the default knows none.
    fn upcast_step(event_type: &str, version: u32, payload: Value) -> Result<Value, DecodeError> {
        let _ = payload;
        Err(DecodeError::NoUpcaster { event_type: event_type.to_owned(), version })
    }

    /// Current schema version of a type name of this family.
    fn schema_version(event_type: &str) -> Option<u32> {
        Self::TYPES.iter().find(|(name, _)| *name == event_type).map(|(_, v)| *v)
    }
}

/// An event of a family split into the envelope fields it fills.
#[derive(Clone, Debug, PartialEq)]
pub struct EncodedEvent {
    pub event_type: String,
    pub schema_version: u32,
    pub payload: Value,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum DecodeError {
    #[error("event type {event_type} does not belong to {domain}")]
    UnknownType { domain: &'static str, event_type: String },
    #[error("{event_type} schema version {version} is newer than this reader ({current})")]
    FromTheFuture { event_type: String, version: u32, current: u32 },
    #[error("no upcaster for {event_type} from schema version {version}")]
    NoUpcaster { event_type: String, version: u32 },
    #[error("payload of {event_type} v{version} does not match its schema: {reason}")]
    BadPayload { event_type: String, version: u32, reason: String },
}

/// Splits an event into type, current schema version and payload.
pub fn encode<E: EventFamily>(event: &E) -> EncodedEvent {
    let tagged = serde_json::to_value(event).expect("an event family serialises to JSON");
    let Value::Object(mut map) = tagged else { panic!("{} events must serialise adjacently tagged", E::DOMAIN) };
    let event_type = match map.remove("type") {
        Some(Value::String(t)) => t,
        _ => panic!("{} events must carry a string `type` tag", E::DOMAIN),
    };
    let schema_version =
        E::schema_version(&event_type).unwrap_or_else(|| panic!("{event_type} is missing from {}::TYPES", E::DOMAIN));
    let payload = map.remove("payload").unwrap_or_else(|| json!({}));
    EncodedEvent { event_type, schema_version, payload }
}

/// Reads an envelope as an event of family `E`, upcasting an old payload first.
pub fn decode<E: EventFamily>(envelope: &Envelope) -> Result<E, DecodeError> {
    let event_type = envelope.event_type.as_str();
    let current = E::schema_version(event_type)
        .ok_or_else(|| DecodeError::UnknownType { domain: E::DOMAIN, event_type: event_type.to_owned() })?;
    let mut version = envelope.schema_version;
    if version > current {
        return Err(DecodeError::FromTheFuture { event_type: event_type.to_owned(), version, current });
    }
    let mut payload = envelope.payload.clone();
    while version < current {
        payload = E::upcast_step(event_type, version, payload)?;
        version += 1;
    }
    serde_json::from_value(json!({ "type": event_type, "payload": payload })).map_err(|e| DecodeError::BadPayload {
        event_type: event_type.to_owned(),
        version,
        reason: e.to_string(),
    })
}
