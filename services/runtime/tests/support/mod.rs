//! Test harness: a scratch schema and exchange per test on the real Postgres and RabbitMQ.
#![allow(dead_code)]

pub mod probe;

use std::{
    process::{Child, Command, Stdio},
    sync::Arc,
    time::Duration,
};

use proto_events::{Actor, EventMeta};
use runtime::{consumer, relay, testing::Scratch};
use tokio_util::sync::CancellationToken;

use probe::ProbeEvent;

// Not every test binary takes each of them.
#[allow(unused_imports)]
pub use runtime::testing::{amqp_url, database_url, kill9};

/// A scratch namespace (see `runtime::testing`) with the probe's tables.
pub struct TestEnv {
    scratch: Scratch,
}

runtime::deref_scratch!(TestEnv, scratch);

impl std::ops::DerefMut for TestEnv {
    fn deref_mut(&mut self) -> &mut Scratch {
        &mut self.scratch
    }
}

impl TestEnv {
    pub async fn new() -> TestEnv {
        let scratch = Scratch::new(&[], 24).await;
        probe::create_tables(&scratch.pool).await.unwrap();
        TestEnv { scratch }
    }

    /// A queue name private to this test, bound to every probe event, declared now.
    pub async fn queue(&self, purpose: &str) -> String {
        let queue = format!("{}.{purpose}", self.schema);
        self.declare_queue(&queue, &["probe.#".to_owned()]).await;
        queue
    }

    pub fn meta() -> EventMeta {
        EventMeta::new(Actor::System("test".into())).with_tenant("vixen")
    }

    /// Appends one ping to `stream` at its current version (a fresh transaction).
    pub async fn ping(&self, stream: &str, n: u64) -> proto_events::Envelope {
        let mut tx = self.pool.begin().await.unwrap();
        let version = self.store.version(&mut tx, stream).await.unwrap();
        let written =
            self.store.append(&mut tx, stream, version, &[ProbeEvent::Pinged { n }], &Self::meta()).await.unwrap();
        tx.commit().await.unwrap();
        self.store.wake_relay();
        written.into_iter().next().unwrap()
    }

    /// Appends `per_stream` pings to each of `streams` streams, `concurrency` writers at a time.
    pub async fn produce(&self, streams: usize, per_stream: u64, concurrency: usize) {
        let streams: Vec<String> = (0..streams).map(|i| format!("probe-{i}")).collect();
        let chunks: Vec<Vec<String>> =
            streams.chunks(streams.len().div_ceil(concurrency)).map(|c| c.to_vec()).collect();
        let mut writers = tokio::task::JoinSet::new();
        for chunk in chunks {
            let store = self.store.clone();
            let pool = self.pool.clone();
            writers.spawn(async move {
                for n in 1..=per_stream {
                    for stream in &chunk {
                        let mut tx = pool.begin().await.unwrap();
                        store
                            .append(&mut tx, stream, n as i64 - 1, &[ProbeEvent::Pinged { n }], &TestEnv::meta())
                            .await
                            .unwrap();
                        tx.commit().await.unwrap();
                        store.wake_relay();
                    }
                }
            });
        }
        while let Some(r) = writers.join_next().await {
            r.unwrap();
        }
    }

    pub fn relay_task(&self, cancel: &CancellationToken) -> tokio::task::JoinHandle<()> {
        let mut s = relay::RelaySettings::new("probe", &self.schema, &self.settings);
        s.poll_interval = Duration::from_millis(200);
        tokio::spawn(relay::run(self.pool.clone(), s, cancel.clone()))
    }

    pub fn consumer_task(
        &self,
        queue: &str,
        handler: Arc<dyn consumer::Handler>,
        cancel: &CancellationToken,
        tune: impl FnOnce(&mut consumer::ConsumerSettings),
    ) -> tokio::task::JoinHandle<()> {
        let mut s = consumer::ConsumerSettings::new(&self.settings);
        tune(&mut s);
        let spec = consumer::ConsumerSpec { queue: queue.to_owned(), bindings: vec!["probe.#".into()], handler };
        tokio::spawn(consumer::run(self.pool.clone(), spec, s, cancel.clone()))
    }

    /// Starts the harness binary in `role` (relay or consume) as a separate process.
    pub fn spawn(&self, role: &str, queue: &str) -> Child {
        Command::new(env!("CARGO_BIN_EXE_runtime-harness"))
            .args([role, "--schema", &self.schema, "--exchange", &self.exchange, "--queue", queue])
            .env("DATABASE_URL", database_url())
            .env("AMQP_URL", amqp_url())
            .env("PAYSITE_RELAY_POLL_MS", "200")
            .env("RUST_LOG", "error")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("runtime-harness starts")
    }

    pub async fn cleanup(self) {
        self.scratch.cleanup().await;
    }
}
