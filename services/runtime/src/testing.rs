//! Scratch namespaces on the real PostgreSQL and RabbitMQ, for the integration tests of
//! the runtime and of every service: a fresh schema in the `paysite_test` database and a
//! fresh exchange per test, so tests run side by side and never see each other.
//!
//! And what the services' test harnesses share: a service's router on a free port and calls
//! to it ([`serve`], [`call`], [`member_claims`]), a hand-set clock ([`TestClock`]), other
//! services' events and feeding them to a consumer's handler ([`envelope`], [`feed`]), the
//! rebuild check of the read models ([`rows`], [`assert_rebuild_restores`]), a consumer run
//! against the scratch ([`Scratch::spawn_consumer`]), [`deref_scratch!`](crate::deref_scratch)
//! and [`kill9`]. Each service's `tests/support` keeps only what is its own.

mod clock;
mod events;
mod http;
mod rebuild;

pub use clock::{utc, TestClock};
pub use events::{envelope, feed, record_in_inbox, subscription_cancelled, subscription_started, video, Versions};
pub use http::{call, member_claims, serve, serve_on, Served};
pub use rebuild::{assert_rebuild_restores, rows};

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

use lapin::options::{ExchangeDeleteOptions, QueueDeleteOptions};
use sqlx::{migrate::Migrator, PgPool};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::consumer::{self, ConsumerSettings, ConsumerSpec};
use crate::{broker, db, EventStore, Settings};

/// `impl Deref<Target = Scratch>` for a test's environment that keeps its scratch namespace
/// in `field`: `runtime::deref_scratch!(TestEnv, scratch);`, and `env.pool`, `env.scalar(..)`
/// reach the scratch.
#[macro_export]
macro_rules! deref_scratch {
    ($env:ty, $field:ident) => {
        impl ::std::ops::Deref for $env {
            type Target = $crate::testing::Scratch;
            fn deref(&self) -> &$crate::testing::Scratch {
                &self.$field
            }
        }
    };
}

/// Kills a child process with SIGKILL and reaps it.
pub fn kill9(child: &mut std::process::Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// A service token for `audience` from this process (`paysite` unless named), as a
/// consumer, a scheduler or another service sends it: how a test calls an internal route on
/// the system's behalf.
pub fn service_token(audience: &str) -> String {
    crate::auth::ServiceTokens::process().token(audience)
}

/// This process's service key as `PAYSITE_SERVICE_KEY` holds it: give it to a process the
/// test starts, so the two trust each other's service tokens.
pub fn service_key() -> crate::Secret {
    crate::auth::ServiceKey::deployment().to_base64()
}

/// `request.service_auth("wallet")`: the request with a service token for `audience`.
pub trait ServiceAuth {
    fn service_auth(self, audience: &str) -> Self;
}

impl ServiceAuth for reqwest::RequestBuilder {
    fn service_auth(self, audience: &str) -> Self {
        self.bearer_auth(service_token(audience))
    }
}

/// `PAYSITE_TEST_DATABASE_URL`, by default the `paysite_test` database on 127.0.0.1.
pub fn database_url() -> String {
    std::env::var("PAYSITE_TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/paysite_test".to_owned())
}

/// `AMQP_URL`, by default the local broker.
pub fn amqp_url() -> String {
    std::env::var("AMQP_URL").unwrap_or_else(|_| crate::config::DEFAULT_AMQP_URL.to_owned())
}

/// How long each part of [`Scratch::cleanup`] may take.
pub const CLEANUP_BOUND: Duration = Duration::from_secs(15);

/// A RabbitMQ vhost of one test's own (made with `rabbitmqctl`, deleted when dropped): for a
/// test that runs whole services, whose queues have their real names (`wallet.subscriptions`).
/// Queues of one name may not be declared with other arguments (a classic queue left by an
/// older copy of the code is not a quorum queue), so such tests never share a vhost.
pub struct ScratchVhost {
    pub name: String,
    /// `AMQP_URL` for the vhost (guest on the local broker).
    pub url: String,
}

impl ScratchVhost {
    #[allow(clippy::new_without_default)]
    pub fn new() -> ScratchVhost {
        let name = format!("paysite_test_{}", &Uuid::new_v4().simple().to_string()[..12]);
        let ctl = |args: &[&str]| {
            let out =
                std::process::Command::new("rabbitmqctl").args(args).output().expect("rabbitmqctl runs (as root)");
            assert!(out.status.success(), "rabbitmqctl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        ctl(&["add_vhost", &name]);
        ctl(&["set_permissions", "-p", &name, "guest", ".*", ".*", ".*"]);
        ScratchVhost { url: format!("amqp://guest:guest@127.0.0.1:5672/{name}"), name }
    }
}

impl Drop for ScratchVhost {
    fn drop(&mut self) {
        let _ = std::process::Command::new("rabbitmqctl").args(["delete_vhost", &self.name]).output();
    }
}

/// One test's schema (runtime tables plus the given migrations), pool, store and exchange.
pub struct Scratch {
    pub schema: String,
    pub pool: PgPool,
    pub store: EventStore,
    pub exchange: String,
    /// Settings pointing at the test database and the test's exchange.
    pub settings: Settings,
    queues: Mutex<Vec<String>>,
}

impl Scratch {
    pub async fn new(migrations: &[(&str, &Migrator)], pool_size: u32) -> Scratch {
        let url = database_url();
        db::ensure_database(&url).await.expect("PostgreSQL must answer on 127.0.0.1:5432 (see README)");
        let schema = format!("t_{}", &Uuid::new_v4().simple().to_string()[..16]);
        let pool = db::connect(&url, &schema, pool_size).await.unwrap();
        let mut sources = vec![("runtime", &db::RUNTIME_MIGRATIONS)];
        sources.extend_from_slice(migrations);
        db::migrate(&pool, &schema, &sources).await.unwrap();
        let exchange = format!("test.{schema}");
        let settings = Settings::from_lookup(|key| match key {
            "DATABASE_URL" => Some(url.clone()),
            "AMQP_URL" => Some(amqp_url()),
            "PAYSITE_EXCHANGE" => Some(exchange.clone()),
            "PAYSITE_RELAY_POLL_MS" => Some("200".into()),
            _ => None,
        })
        .unwrap();
        Scratch {
            store: EventStore::new(pool.clone(), &schema),
            schema,
            pool,
            exchange,
            settings,
            queues: Mutex::default(),
        }
    }

    /// Deletes `queue` (and its dead-letter queue) at cleanup.
    pub fn track_queue(&self, queue: &str) {
        self.queues.lock().unwrap().push(queue.to_owned());
    }

    /// Declares a consumer queue on the test's exchange now, so nothing published before
    /// its consumer starts is dropped; it is deleted at cleanup.
    pub async fn declare_queue(&self, queue: &str, bindings: &[String]) {
        let connection =
            broker::connect(&amqp_url(), "test-setup").await.expect("RabbitMQ must answer on 127.0.0.1:5672");
        let channel = connection.create_channel().await.unwrap();
        broker::declare_consumer_queue(&channel, &self.exchange, queue, bindings).await.unwrap();
        connection.close(200, "ok".into()).await.unwrap();
        self.track_queue(queue);
    }

    /// Runs `spec`'s consumer on the test's exchange until `cancel`, its retries starting at
    /// 20 ms (a test's failures are retried quickly).
    pub fn spawn_consumer(&self, spec: ConsumerSpec, cancel: &CancellationToken) -> tokio::task::JoinHandle<()> {
        let mut settings = ConsumerSettings::new(&self.settings);
        settings.retry_base = Duration::from_millis(20);
        tokio::spawn(consumer::run(self.pool.clone(), spec, settings, cancel.clone()))
    }

    /// Publishes `domain`'s envelopes on the test's exchange as a relay does: persistent,
    /// routing key `<domain>.<Type>`, each confirmed by the broker.
    pub async fn publish(&self, domain: &str, envelopes: &[proto_events::Envelope]) {
        use lapin::options::{BasicPublishOptions, ConfirmSelectOptions};
        let connection = broker::connect(&amqp_url(), "test-publisher").await.expect("RabbitMQ must answer");
        let channel = connection.create_channel().await.unwrap();
        channel.confirm_select(ConfirmSelectOptions::default()).await.unwrap();
        broker::declare_exchange(&channel, &self.exchange).await.unwrap();
        for envelope in envelopes {
            let key = proto_events::routing_key(domain, &envelope.event_type);
            let confirm = channel
                .basic_publish(
                    self.exchange.as_str().into(),
                    key.as_str().into(),
                    BasicPublishOptions::default(),
                    &serde_json::to_vec(envelope).unwrap(),
                    lapin::BasicProperties::default().with_delivery_mode(2),
                )
                .await
                .unwrap()
                .await
                .unwrap();
            assert!(confirm.is_ack(), "the broker refused an event");
        }
        connection.close(200, "ok".into()).await.unwrap();
    }

    pub async fn scalar(&self, sql: &str) -> i64 {
        sqlx::query_scalar::<_, i64>(sql).fetch_one(&self.pool).await.unwrap()
    }

    /// Waits until `sql` returns at least `expected`, or panics after `timeout`.
    pub async fn wait_for(&self, sql: &str, expected: i64, timeout: Duration) -> i64 {
        self.wait_for_while_running(sql, expected, timeout, &[]).await
    }

    /// [`Self::wait_for`], failing as soon as one of `running` (a relay's or a consumer's task)
    /// has ended: a task that returned or panicked will not bring the count up, and the test
    /// says so rather than waiting out `timeout`.
    pub async fn wait_for_while_running(
        &self,
        sql: &str,
        expected: i64,
        timeout: Duration,
        running: &[&tokio::task::JoinHandle<()>],
    ) -> i64 {
        let start = Instant::now();
        loop {
            let got = self.scalar(sql).await;
            if got >= expected {
                return got;
            }
            assert!(
                running.iter().all(|task| !task.is_finished()),
                "a relay or consumer task ended while `{sql}` was at {got} of {expected}"
            );
            assert!(start.elapsed() < timeout, "timed out waiting for `{sql}`: {got} of {expected}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Drops the schema, the queues and the exchange: best effort, and each part within
    /// [`CLEANUP_BOUND`], so that a broker that does not answer, or a pool connection a task
    /// still holds, cannot hang a test that has passed (what was left is said on stderr).
    pub async fn cleanup(self) {
        let queues = self.queues.lock().unwrap().clone();
        let broker = async {
            if let Ok(connection) = broker::connect(&amqp_url(), "test-cleanup").await {
                if let Ok(channel) = connection.create_channel().await {
                    for q in queues {
                        for name in [broker::dead_letter_queue(&q), q] {
                            let _ = channel.queue_delete(name.as_str().into(), QueueDeleteOptions::default()).await;
                        }
                    }
                    let _ =
                        channel.exchange_delete(self.exchange.as_str().into(), ExchangeDeleteOptions::default()).await;
                }
                let _ = connection.close(200, "ok".into()).await;
            }
        };
        if tokio::time::timeout(CLEANUP_BOUND, broker).await.is_err() {
            eprintln!(
                "scratch cleanup: the broker did not answer within {CLEANUP_BOUND:?}; {}'s queues are left",
                self.schema
            );
        }
        let sql = format!("drop schema {} cascade", self.schema);
        let drop_schema = sqlx::query(&sql).execute(&self.pool);
        if tokio::time::timeout(CLEANUP_BOUND, drop_schema).await.is_err() {
            eprintln!("scratch cleanup: schema {} was not dropped within {CLEANUP_BOUND:?}", self.schema);
        }
        if tokio::time::timeout(CLEANUP_BOUND, self.pool.close()).await.is_err() {
            eprintln!("scratch cleanup: a connection of {}'s pool was still held after {CLEANUP_BOUND:?}", self.schema);
        }
    }
}

/// Sends this test's logs (`RUST_LOG`, or info with lapin's warnings) to its captured output,
/// which nextest shows when the test fails: what a relay or consumer went through.
pub fn logs_to_test_output() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,lapin=warn"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_test_writer().try_init();
}
