//! A probe service for the runtime's own tests and benchmark: a tiny event family and a
//! projection that records every effect, so lost, doubled or reordered events show.
//! Shared by the integration tests and the `runtime-harness` binary they kill and restart.
#![allow(dead_code)]

use async_trait::async_trait;
use proto_events::{Envelope, EventFamily};
use serde::{Deserialize, Serialize};
use sqlx::{PgConnection, PgPool};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "payload")]
pub enum ProbeEvent {
    Pinged { n: u64 },
}

impl EventFamily for ProbeEvent {
    const DOMAIN: &'static str = "probe";
    const TYPES: &'static [(&'static str, u32)] = &[("Pinged", 1)];
}

pub const PROBE_SQL: &str = "
create table if not exists probe_effect (
    event_id uuid not null,
    stream_id text not null,
    stream_version bigint not null,
    lag_us bigint not null
);
create table if not exists probe_stream (stream_id text primary key, last_version bigint not null);
create table if not exists probe_violation (event_id uuid not null, stream_id text not null, expected bigint not null, got bigint not null);
create table if not exists probe_poison (event_id uuid primary key);
create table if not exists probe_count (stream_id text primary key, events bigint not null, last_version bigint not null);
";

pub async fn create_tables(pool: &PgPool) -> anyhow::Result<()> {
    sqlx::raw_sql(PROBE_SQL).execute(pool).await?;
    Ok(())
}

/// Consumer-side probe: records each effect and checks per-stream order.
pub struct ProbeHandler;

#[async_trait]
impl runtime::consumer::Handler for ProbeHandler {
    async fn handle(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()> {
        let poisoned: bool = sqlx::query_scalar("select exists (select 1 from probe_poison where event_id = $1)")
            .bind(event.event_id)
            .fetch_one(&mut *tx)
            .await?;
        anyhow::ensure!(!poisoned, "probe: event {} is poison", event.event_id);
        let lag_us = (chrono::Utc::now() - event.occurred_at).num_microseconds().unwrap_or(0);
        sqlx::query("insert into probe_effect (event_id, stream_id, stream_version, lag_us) values ($1, $2, $3, $4)")
            .bind(event.event_id)
            .bind(&event.stream_id)
            .bind(event.stream_version)
            .bind(lag_us)
            .execute(&mut *tx)
            .await?;
        let last: Option<i64> = sqlx::query_scalar("select last_version from probe_stream where stream_id = $1")
            .bind(&event.stream_id)
            .fetch_optional(&mut *tx)
            .await?;
        let expected = last.unwrap_or(0) + 1;
        if event.stream_version != expected {
            sqlx::query("insert into probe_violation (event_id, stream_id, expected, got) values ($1, $2, $3, $4)")
                .bind(event.event_id)
                .bind(&event.stream_id)
                .bind(expected)
                .bind(event.stream_version)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "insert into probe_stream (stream_id, last_version) values ($1, $2)
             on conflict (stream_id) do update set last_version = greatest(probe_stream.last_version, excluded.last_version)",
        )
        .bind(&event.stream_id)
        .bind(event.stream_version)
        .execute(&mut *tx)
        .await?;
        Ok(())
    }
}

/// A read model of event counts per stream, fed either by own events or a consumer.
pub struct CountProjection {
    pub source: runtime::projection::Source,
}

#[async_trait]
impl runtime::projection::Projection for CountProjection {
    fn name(&self) -> &str {
        "probe_count"
    }

    fn source(&self) -> runtime::projection::Source {
        self.source.clone()
    }

    fn tables(&self) -> &[&'static str] {
        &["probe_count"]
    }

    async fn apply(&self, tx: &mut PgConnection, event: &Envelope) -> anyhow::Result<()> {
        sqlx::query(
            "insert into probe_count (stream_id, events, last_version) values ($1, 1, $2)
             on conflict (stream_id) do update set events = probe_count.events + 1,
                 last_version = greatest(probe_count.last_version, excluded.last_version)",
        )
        .bind(&event.stream_id)
        .bind(event.stream_version)
        .execute(&mut *tx)
        .await?;
        Ok(())
    }
}
