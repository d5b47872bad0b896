use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// One recorded event, as stored, published and consumed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// UUIDv7: unique, and sortable by creation time.
    pub event_id: Uuid,
    pub stream_id: String,
    /// 1 for the first event of a stream; no gaps.
    pub stream_version: i64,
    #[serde(rename = "type")]
    pub event_type: String,
    pub schema_version: u32,
    pub occurred_at: DateTime<Utc>,
    /// Brand key (`vixen`, `tushy`, ...) when the event belongs to one.
    pub tenant: Option<String>,
    pub correlation_id: Uuid,
    /// The event or command that caused this one.
    pub causation_id: Option<Uuid>,
    pub actor: Actor,
    pub payload: serde_json::Value,
}

/// Who made a change happen. Serialised as `kind:id` (`user:…`, `system:wallet.friday-gems`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Actor {
    User(Uuid),
    /// An operator acting through an admin API.
    Admin(Uuid),
    /// A payment processor, by its biller name (`EPOCH`, `SEGPAY`, ...).
    Biller(String),
    /// A job or reaction of the platform itself, by name.
    System(String),
}

impl std::fmt::Display for Actor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Actor::User(id) => write!(f, "user:{id}"),
            Actor::Admin(id) => write!(f, "admin:{id}"),
            Actor::Biller(name) => write!(f, "biller:{name}"),
            Actor::System(name) => write!(f, "system:{name}"),
        }
    }
}

impl std::str::FromStr for Actor {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (kind, id) = s.split_once(':').ok_or_else(|| format!("actor without kind: {s}"))?;
        let uuid = || Uuid::parse_str(id).map_err(|e| format!("actor {s}: {e}"));
        match kind {
            "user" => Ok(Actor::User(uuid()?)),
            "admin" => Ok(Actor::Admin(uuid()?)),
            "biller" if !id.is_empty() => Ok(Actor::Biller(id.to_owned())),
            "system" if !id.is_empty() => Ok(Actor::System(id.to_owned())),
            _ => Err(format!("unknown actor: {s}")),
        }
    }
}

impl Serialize for Actor {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Actor {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// What a writer knows about the cause of the events it appends.
#[derive(Clone, Debug, PartialEq)]
pub struct EventMeta {
    pub tenant: Option<String>,
    pub correlation_id: Uuid,
    pub causation_id: Option<Uuid>,
    pub actor: Actor,
}

impl EventMeta {
    /// A fresh causal chain started by `actor`.
    pub fn new(actor: Actor) -> Self {
        EventMeta { tenant: None, correlation_id: Uuid::now_v7(), causation_id: None, actor }
    }

    pub fn with_tenant(mut self, tenant: impl Into<String>) -> Self {
        self.tenant = Some(tenant.into());
        self
    }

    pub fn with_correlation(mut self, correlation_id: Uuid) -> Self {
        self.correlation_id = correlation_id;
        self
    }

    /// Metadata for events written in reaction to `cause`: same correlation, caused by it.
    pub fn caused_by(cause: &Envelope, actor: Actor) -> Self {
        EventMeta {
            tenant: cause.tenant.clone(),
            correlation_id: cause.correlation_id,
            causation_id: Some(cause.event_id),
            actor,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_actor_round_trips_through_its_string_form() {
        let id = Uuid::now_v7();
        for actor in [
            Actor::User(id),
            Actor::Admin(id),
            Actor::Biller("EPOCH".into()),
            Actor::System("wallet.friday-gems".into()),
        ] {
            assert_eq!(actor.to_string().parse::<Actor>().unwrap(), actor);
        }
    }

    #[test]
    fn an_actor_without_kind_or_id_is_refused() {
        for bad in ["", "user", "user:not-a-uuid", "system:", "robot:x"] {
            assert!(bad.parse::<Actor>().is_err(), "{bad} was accepted");
        }
    }
}
