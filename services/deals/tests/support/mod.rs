//! Test harness: a scratch schema (runtime + deals tables) in `paysite_test` and a scratch
//! exchange and queue per test, on the real PostgreSQL and RabbitMQ; the service's router on
//! a free port; a hand-set clock; access tokens signed by a test key.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use deals::{DealsConfig, Sites, State};
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::{Actor, Envelope};
use runtime::auth::{Claims, Signer};
use runtime::consumer::{self, ConsumerSettings, Handler};
use runtime::projection::ProjectionHandler;
use runtime::testing::Scratch;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

/// A clock the test sets by hand.
#[derive(Clone)]
pub struct TestClock(Arc<Mutex<DateTime<Utc>>>);

impl TestClock {
    pub fn at(now: DateTime<Utc>) -> Self {
        TestClock(Arc::new(Mutex::new(now)))
    }

    pub fn set(&self, now: DateTime<Utc>) {
        *self.0.lock().unwrap() = now;
    }

    pub fn as_clock(&self) -> Arc<dyn deals::Clock> {
        let inner = self.0.clone();
        Arc::new(move || *inner.lock().unwrap())
    }
}

pub fn utc(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap()
}

/// A scratch namespace with the deals tables, the service state and its HTTP address.
pub struct TestEnv {
    scratch: Scratch,
    pub queue: String,
    pub state: State,
    pub clock: TestClock,
    pub signer: Signer,
    pub base: String,
    pub http: reqwest::Client,
    serial: std::sync::atomic::AtomicI64,
}

impl std::ops::Deref for TestEnv {
    type Target = Scratch;
    fn deref(&self) -> &Scratch {
        &self.scratch
    }
}

impl TestEnv {
    /// A fresh schema and the service on a free port; the clock stands at 2026-01-31 09:30 UTC.
    pub async fn new() -> TestEnv {
        let scratch = Scratch::new(&[("deals", &deals::MIGRATIONS)], 8).await;
        let queue = format!("{}.subscriptions", scratch.schema);
        scratch.track_queue(&queue);
        let clock = TestClock::at(utc(2026, 1, 31, 9, 30));
        let signer = Signer::generate("test");
        let config = DealsConfig { subscriptions_queue: queue.clone(), ..DealsConfig::default() };
        let sites = Sites::load(&config.tenants_dir).unwrap();
        let state = State::new(scratch.pool.clone(), scratch.store.clone(), config, sites, signer.verifier())
            .with_clock(clock.as_clock());
        let app = deals::router(state.clone()).layer(axum::middleware::from_fn(runtime::http::correlate));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        TestEnv {
            scratch,
            queue,
            state,
            clock,
            signer,
            base: format!("http://{addr}"),
            http: runtime::tls::client(),
            serial: Default::default(),
        }
    }

    /// An access token of `user` on `tenant`, in `groups`.
    pub fn token(&self, user: Uuid, tenant: &str, groups: &[&str]) -> String {
        let groups = groups.iter().map(|g| (*g).to_owned()).collect();
        let claims = Claims::new(
            user,
            &format!("{tenant}.localhost:8080"),
            tenant,
            Uuid::now_v7(),
            groups,
            Duration::from_secs(600),
        );
        self.signer.sign(&claims)
    }

    pub fn admin(&self) -> String {
        self.token(Uuid::now_v7(), "tushy", &["admin"])
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// GET with an optional bearer token; the status and the JSON body.
    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let request = self.http.get(self.url(path));
        // No user's token: the call a service (the gateway, for a visitor) makes.
        let request = runtime::client::with_caller(request, token, "deals");
        let response = request.send().await.unwrap();
        (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
    }

    /// Any method with a JSON body and an optional bearer token.
    pub async fn send(&self, method: reqwest::Method, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
        let request = self.http.request(method, self.url(path)).json(body);
        // No user's token: the call a service (the gateway, for a visitor) makes.
        let request = runtime::client::with_caller(request, token, "deals");
        let response = request.send().await.unwrap();
        (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
        self.send(reqwest::Method::POST, path, token, body).await
    }

    /// Creates a deal through the admin API, as an admin of the deal's brand; panics unless it is created.
    pub async fn create_deal(&self, body: Value) -> Value {
        let admin = self.token(Uuid::now_v7(), body["site"].as_str().unwrap_or("tushy"), &["admin"]);
        let (status, deal) = self.post("/internal/admin/deals", Some(&admin), &body).await;
        assert_eq!(status, 201, "{deal}");
        deal
    }

    /// findDeals' ids in order.
    pub async fn find(&self, deal_type: &str, site: &str, limit: Option<u32>, token: Option<&str>) -> Vec<String> {
        let limit = limit.map(|l| format!("&limit={l}")).unwrap_or_default();
        let (status, body) = self.get(&format!("/internal/deals?type={deal_type}&site={site}{limit}"), token).await;
        assert_eq!(status, 200, "{body}");
        body["deals"].as_array().unwrap().iter().map(|d| d["name"].as_str().unwrap().to_owned()).collect()
    }

    /// Declares the consumer's queue now, so nothing published before the consumer starts is dropped.
    pub async fn declare_queue(&self) {
        let bindings: Vec<String> = deals::SUBSCRIPTION_BINDINGS.iter().map(|b| (*b).to_owned()).collect();
        self.scratch.declare_queue(&self.queue, &bindings).await;
    }

    /// Runs the subscription-events consumer until `cancel`.
    pub fn consumer_task(&self, cancel: &CancellationToken) -> tokio::task::JoinHandle<()> {
        let spec = deals::consumers(&self.state).remove(0);
        let mut settings = ConsumerSettings::new(&self.settings);
        settings.retry_base = Duration::from_millis(20);
        tokio::spawn(consumer::run(self.pool.clone(), spec, settings, cancel.clone()))
    }

    /// A subscription event as the subscription service would publish it.
    pub fn envelope(&self, event: &SubscriptionEvent) -> Envelope {
        let encoded = proto_events::encode(event);
        Envelope {
            event_id: Uuid::now_v7(),
            stream_id: format!("subscription-{}", event.subscription_id()),
            stream_version: self.serial.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
            event_type: encoded.event_type,
            schema_version: encoded.schema_version,
            occurred_at: Utc::now(),
            tenant: Some("tushy".into()),
            correlation_id: Uuid::now_v7(),
            causation_id: None,
            actor: Actor::Biller("EPOCH".into()),
            payload: encoded.payload,
        }
    }

    /// Publishes envelopes on the test's exchange, with publisher confirms.
    pub async fn publish(&self, envelopes: &[Envelope]) {
        self.scratch.publish("subscription", envelopes).await;
    }

    /// Applies an envelope the way the consumer does (inbox row and handler in one
    /// transaction), without the broker.
    pub async fn feed(&self, envelope: &Envelope) {
        let handler = ProjectionHandler(deals::projections(&self.state).remove(1));
        let mut tx = self.pool.begin().await.unwrap();
        let fresh =
            sqlx::query("insert into inbox (consumer, event_id, envelope) values ($1, $2, $3) on conflict do nothing")
                .bind(&self.queue)
                .bind(envelope.event_id)
                .bind(serde_json::to_value(envelope).unwrap())
                .execute(&mut *tx)
                .await
                .unwrap()
                .rows_affected()
                == 1;
        if fresh {
            handler.handle(&mut tx, envelope).await.unwrap();
        }
        tx.commit().await.unwrap();
    }

    pub async fn cleanup(self) {
        self.scratch.cleanup().await;
    }
}

pub fn started(subscription_id: Uuid, user_id: Uuid, kind: MembershipKind) -> SubscriptionEvent {
    SubscriptionEvent::SubscriptionStarted {
        subscription_id,
        user_id,
        site: "tushy".into(),
        sites: vec!["tushy".into()],
        kind,
        is_free_limited_trial: false,
        biller: "EPOCH".into(),
        transaction_id: format!("EPOCH-{}", Uuid::now_v7()),
        active_since: Utc::now(),
        nats_code: None,
    }
}

pub fn expired(subscription_id: Uuid, user_id: Uuid) -> SubscriptionEvent {
    SubscriptionEvent::SubscriptionExpired { subscription_id, user_id, expired_at: Utc::now() }
}

/// A deal as an operator sends it: named `name`, on `site`, with the given placements
/// (`(enabled, rank)` for carousel, listing and interstitial).
pub fn deal_body(
    name: &str,
    site: &str,
    carousel: (bool, i64),
    listing: (bool, i64),
    interstitial: (bool, i64),
) -> Value {
    json!({
        "name": name,
        "site": site,
        "partnerName": "Northwind Stream",
        "dealText": "A year at a member price",
        "url": "https://northwind.example.com/join",
        "initialPrice": "$1.00",
        "enabled": carousel.0, "rank": carousel.1,
        "enabledList": listing.0, "rankListing": listing.1,
        "enabledInterstitial": interstitial.0, "rankInterstitial": interstitial.1,
    })
}
