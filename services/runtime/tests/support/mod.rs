//! Test harness: a scratch schema and exchange per test on the real Postgres and RabbitMQ.
#![allow(dead_code)]

pub mod probe;

use std::{
    process::{Child, Command, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use lapin::options::{ExchangeDeleteOptions, QueueDeleteOptions};
use proto_events::{Actor, EventMeta};
use runtime::{broker, consumer, db, relay, EventStore, Settings};
use sqlx::PgPool;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use probe::ProbeEvent;

pub fn database_url() -> String {
    std::env::var("PAYSITE_TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/paysite_test".to_owned())
}

pub fn amqp_url() -> String {
    std::env::var("AMQP_URL").unwrap_or_else(|_| runtime::config::DEFAULT_AMQP_URL.to_owned())
}

pub struct TestEnv {
    pub schema: String,
    pub pool: PgPool,
    pub store: EventStore,
    pub exchange: String,
    pub settings: Settings,
    queues: std::sync::Mutex<Vec<String>>,
}

impl TestEnv {
    /// A fresh schema (runtime tables + probe tables) and a fresh exchange name.
    pub async fn new() -> TestEnv {
        let url = database_url();
        db::ensure_database(&url).await.expect("PostgreSQL must answer on 127.0.0.1:5432 (see README)");
        let schema = format!("t_{}", &Uuid::new_v4().simple().to_string()[..16]);
        let pool = db::connect(&url, &schema, 24).await.unwrap();
        db::migrate(&pool, &schema, &[("runtime", &db::RUNTIME_MIGRATIONS)]).await.unwrap();
        probe::create_tables(&pool).await.unwrap();
        let exchange = format!("test.{schema}");
        let settings = Settings::from_lookup(|key| match key {
            "DATABASE_URL" => Some(url.clone()),
            "AMQP_URL" => Some(amqp_url()),
            "PAYSITE_EXCHANGE" => Some(exchange.clone()),
            "PAYSITE_RELAY_POLL_MS" => Some("200".into()),
            _ => None,
        })
        .unwrap();
        TestEnv {
            store: EventStore::new(pool.clone(), &schema),
            schema,
            pool,
            exchange,
            settings,
            queues: Default::default(),
        }
    }

    /// A queue name private to this test, bound to every probe event, declared now so
    /// nothing published before its consumer starts is dropped.
    pub async fn queue(&self, purpose: &str) -> String {
        let queue = format!("{}.{purpose}", self.schema);
        let connection =
            broker::connect(&amqp_url(), "test-setup").await.expect("RabbitMQ must answer on 127.0.0.1:5672");
        let channel = connection.create_channel().await.unwrap();
        broker::declare_consumer_queue(&channel, &self.exchange, &queue, &["probe.#".to_owned()]).await.unwrap();
        connection.close(200, "ok".into()).await.unwrap();
        self.queues.lock().unwrap().push(queue.clone());
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

    pub async fn scalar(&self, sql: &str) -> i64 {
        sqlx::query_scalar::<_, i64>(sql).fetch_one(&self.pool).await.unwrap()
    }

    /// Waits until `sql` returns at least `expected`, or panics after `timeout`.
    pub async fn wait_for(&self, sql: &str, expected: i64, timeout: Duration) -> i64 {
        let start = Instant::now();
        loop {
            let got = self.scalar(sql).await;
            if got >= expected {
                return got;
            }
            assert!(start.elapsed() < timeout, "timed out waiting for `{sql}`: {got} of {expected}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Drops the schema, the queues and the exchange.
    pub async fn cleanup(self) {
        if let Ok(connection) = broker::connect(&amqp_url(), "test-cleanup").await {
            if let Ok(channel) = connection.create_channel().await {
                let queues = self.queues.lock().unwrap().clone();
                for q in queues {
                    for name in [broker::dead_letter_queue(&q), q] {
                        let _ = channel.queue_delete(name.as_str().into(), QueueDeleteOptions::default()).await;
                    }
                }
                let _ = channel.exchange_delete(self.exchange.as_str().into(), ExchangeDeleteOptions::default()).await;
            }
            let _ = connection.close(200, "ok".into()).await;
        }
        let _ = sqlx::query(&format!("drop schema {} cascade", self.schema)).execute(&self.pool).await;
        self.pool.close().await;
    }
}

/// Kills a child process with SIGKILL and reaps it.
pub fn kill9(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}
