//! Golden fixtures: the exact JSON every event type is written as.
//!
//! `fixtures/<domain>/<Type>.v<N>.json` holds one whole envelope per type and schema
//! version. A test builds the same envelope from a sample event and compares text, so a
//! renamed field, a changed enum spelling or a dropped attribute fails here, before it
//! reaches a queue or a store. Fixtures of older versions stay frozen and must keep
//! decoding (through the upcasters) into today's events.
//!
//! A new type gets its fixture written on the first local run; on CI (CI=true) a missing
//! fixture fails. `UPDATE_GOLDEN=1` rewrites fixtures on purpose (a deliberate wire change,
//! which then needs a new schema version and an upcaster, not an edit of the old fixture).
#![allow(dead_code)]

use std::{fmt::Debug, path::PathBuf};

use chrono::{TimeZone, Utc};
use proto_events::{decode, encode, Actor, Envelope, EventFamily};
use uuid::Uuid;

fn fixture_path(domain: &str, event_type: &str, version: u32) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(domain)
        .join(format!("{event_type}.v{version}.json"))
}

/// The envelope a sample is pinned in: every field but the payload fixed.
pub fn envelope_of<E: EventFamily>(event: &E) -> Envelope {
    let encoded = encode(event);
    Envelope {
        event_id: Uuid::parse_str("0190f5a2-7b1c-7d3e-8f40-123456789abc").unwrap(),
        stream_id: format!("{}-0190f5a2-0000-7000-8000-000000000001", E::DOMAIN),
        stream_version: 3,
        event_type: encoded.event_type,
        schema_version: encoded.schema_version,
        occurred_at: Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap(),
        tenant: Some("tushy".into()),
        correlation_id: Uuid::parse_str("0190f5a2-7b1c-7d3e-8f40-000000000c01").unwrap(),
        causation_id: Some(Uuid::parse_str("0190f5a2-7b1c-7d3e-8f40-000000000ca5").unwrap()),
        actor: Actor::System("fixtures".into()),
        payload: encoded.payload,
    }
}

/// Every type of `E` has a sample, writes exactly its fixture, and reads back equal.
pub fn assert_golden<E: EventFamily + Debug + PartialEq>(samples: &[E]) {
    let mut failures = Vec::new();
    for (event_type, _) in E::TYPES {
        if !samples.iter().any(|s| encode(s).event_type == *event_type) {
            failures.push(format!("{}::{event_type} has no golden sample", E::DOMAIN));
        }
    }
    for sample in samples {
        let envelope = envelope_of(sample);
        let text = serde_json::to_string_pretty(&envelope).unwrap() + "\n";
        let path = fixture_path(E::DOMAIN, &envelope.event_type, envelope.schema_version);
        let update = std::env::var_os("UPDATE_GOLDEN").is_some();
        match std::fs::read_to_string(&path) {
            Ok(pinned) if !update => {
                if pinned != text {
                    failures.push(format!(
                        "{} changed its wire shape.\n--- pinned {}\n{pinned}\n--- now\n{text}",
                        envelope.event_type,
                        path.display()
                    ));
                }
            }
            Err(_) if std::env::var("CI").as_deref() == Ok("true") && !update => {
                failures.push(format!("missing golden fixture {}", path.display()));
            }
            _ => {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &text).unwrap();
            }
        }
        let decoded: E = decode(&serde_json::from_str(&text).unwrap())
            .unwrap_or_else(|e| panic!("{} does not read back: {e}", envelope.event_type));
        if &decoded != sample {
            failures.push(format!("{} reads back as {decoded:?}", envelope.event_type));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A frozen fixture of an older schema version still decodes, upcast, into `expected`.
pub fn assert_upcasts<E: EventFamily + Debug + PartialEq>(event_type: &str, old_version: u32, expected: E) {
    let path = fixture_path(E::DOMAIN, event_type, old_version);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let envelope: Envelope = serde_json::from_str(&text).unwrap();
    assert_eq!(envelope.schema_version, old_version, "{} is not a v{old_version} fixture", path.display());
    assert_eq!(decode::<E>(&envelope).unwrap(), expected);
}
