//! Test harness: a scratch schema (runtime + deals tables) in `paysite_test` and a scratch
//! exchange and queue per test, on the real PostgreSQL and RabbitMQ; the service's router on
//! a free port; a hand-set clock; access tokens signed by a test key.
#![allow(dead_code)]

use chrono::Utc;
use deals::{DealsConfig, Sites, State};
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::{Actor, Envelope};
use runtime::auth::Signer;
use runtime::projection::ProjectionHandler;
use runtime::testing::{self, Scratch, Versions};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

// Not every test binary takes each of them.
#[allow(unused_imports)]
pub use runtime::testing::{utc, TestClock};

/// A scratch namespace with the deals tables, the service state and its HTTP address.
pub struct TestEnv {
    scratch: Scratch,
    pub queue: String,
    pub state: State,
    pub clock: TestClock,
    pub signer: Signer,
    pub base: String,
    pub http: reqwest::Client,
    versions: Versions,
}

runtime::deref_scratch!(TestEnv, scratch);

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
        let base = testing::serve(deals::router(state.clone())).await.base;
        TestEnv {
            scratch,
            queue,
            state,
            clock,
            signer,
            base,
            http: runtime::tls::client(),
            versions: Versions::default(),
        }
    }

    /// An access token of `user` on `tenant`, in `groups`.
    pub fn token(&self, user: Uuid, tenant: &str, groups: &[&str]) -> String {
        self.signer.sign(&testing::member_claims(user, tenant, groups))
    }

    pub fn admin(&self) -> String {
        self.token(Uuid::now_v7(), "tushy", &["admin"])
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// GET with an optional bearer token; the status and the JSON body.
    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        testing::call(self.http.get(self.url(path)), token, "deals").await
    }

    /// Any method with a JSON body and an optional bearer token.
    pub async fn send(&self, method: reqwest::Method, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
        testing::call(self.http.request(method, self.url(path)).json(body), token, "deals").await
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
        self.spawn_consumer(deals::consumers(&self.state).remove(0), cancel)
    }

    /// A subscription event as the subscription service would publish it.
    pub fn envelope(&self, event: &SubscriptionEvent) -> Envelope {
        let stream_id = format!("subscription-{}", event.subscription_id());
        testing::envelope(event, stream_id, self.versions.next(), "tushy", Actor::Biller("EPOCH".into()))
    }

    /// Publishes envelopes on the test's exchange, with publisher confirms.
    pub async fn publish(&self, envelopes: &[Envelope]) {
        self.scratch.publish("subscription", envelopes).await;
    }

    /// Applies an envelope the way the consumer does (inbox row and handler in one
    /// transaction), without the broker.
    pub async fn feed(&self, envelope: &Envelope) {
        let handler = ProjectionHandler(deals::projections(&self.state).remove(1));
        testing::feed(&self.pool, &self.queue, &handler, std::slice::from_ref(envelope)).await;
    }

    pub async fn cleanup(self) {
        self.scratch.cleanup().await;
    }
}

/// A subscription of `kind` on tushy, started now.
pub fn started(subscription_id: Uuid, user_id: Uuid, kind: MembershipKind) -> SubscriptionEvent {
    testing::subscription_started(subscription_id, user_id, kind, &["tushy"], false, Utc::now())
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
