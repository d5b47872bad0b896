//! Test harness: a scratch schema (runtime + subscription tables) in `paysite_test`, the service
//! on a free port, access tokens signed by a test key, and (for the join journey) the real
//! profile service in a scratch schema of its own. Real PostgreSQL, real HTTP.
#![allow(dead_code)]

use std::time::Duration;

use chrono::Utc;
use profile::config::{Argon2Cost, ProfileConfig};
use proto_events::subscription::SubscriptionEvent;
use runtime::auth::{Claims, Signer};
use runtime::testing::{self, Scratch};
use serde_json::Value;
use subscription::billers::{self, Outgoing, SignedRequest};
use subscription::domain::Step;
use subscription::{BillingConfig, State};
use uuid::Uuid;

pub struct TestEnv {
    scratch: Scratch,
    pub state: State,
    pub signer: Signer,
    pub base: String,
    pub http: reqwest::Client,
    /// The profile service, when the test needs accounts made.
    pub profile: Option<(Scratch, String)>,
}

runtime::deref_scratch!(TestEnv, scratch);

impl TestEnv {
    /// The service, with no profile service behind it (postbacks name their user).
    pub async fn new() -> TestEnv {
        Self::build(None, &[]).await
    }

    /// The service configured as a deployment would be, with these environment variables
    /// (`PAYSITE_BILLER_EPOCH_SECRET`, ...): a restart with new settings is a new one.
    pub async fn with_env(env: &[(&str, &str)]) -> TestEnv {
        Self::build(None, env).await
    }

    /// The service and a real profile service.
    pub async fn with_profile() -> TestEnv {
        let scratch = Scratch::new(&[("profile", &profile::MIGRATIONS)], 8).await;
        let config = ProfileConfig {
            argon2: Argon2Cost { memory_kib: 256, iterations: 1, parallelism: 1 },
            projections_queue: format!("{}.profile", scratch.schema),
            ..ProfileConfig::default()
        };
        let state = profile::State::load(scratch.pool.clone(), scratch.store.clone(), config).await.unwrap();
        let base = testing::serve(profile::router(state)).await.base;
        Self::build(Some((scratch, base)), &[]).await
    }

    async fn build(profile: Option<(Scratch, String)>, env: &[(&str, &str)]) -> TestEnv {
        let scratch = Scratch::new(&[("subscription", &subscription::MIGRATIONS)], 16).await;
        let signer = Signer::generate("test");
        let lookup = |key: &str| env.iter().find(|(k, _)| *k == key).map(|(_, v)| (*v).to_owned());
        let mut config = BillingConfig::from_lookup(lookup, false).unwrap();
        config.profiles_queue = format!("{}.profiles", scratch.schema);
        let profile_base = profile.as_ref().map(|p| p.1.clone()).unwrap_or_else(|| "http://127.0.0.1:9".into());
        let client = profile::client::ProfileClient::new(profile_base);
        let state = State::new(scratch.pool.clone(), scratch.store.clone(), config, client, signer.verifier());
        let base = testing::serve(subscription::router(state.clone())).await.base;
        TestEnv { scratch, state, signer, base, http: runtime::tls::client(), profile }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn token(&self, user: Uuid, tenant: &str) -> String {
        let claims =
            Claims::new(user, &format!("{tenant}.localhost"), tenant, Uuid::now_v7(), vec![], Duration::from_secs(600));
        self.signer.sign(&claims)
    }

    /// GET with an optional bearer token; the status and the JSON body.
    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        testing::call(self.http.get(self.url(path)), token, "subscription").await
    }

    /// POST of a JSON body with an optional bearer token; the status and the JSON body.
    pub async fn post(&self, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
        testing::call(self.http.post(self.url(path)).json(body), token, "subscription").await
    }

    /// A postback signed by `biller` now.
    pub fn signed(&self, biller: &str, out: &Outgoing) -> SignedRequest {
        billers::encode(&self.state.config.billers[biller], out, Utc::now().timestamp())
    }

    /// Sends a signed request to the biller's postback door: status and body text.
    pub async fn send(&self, biller: &str, request: &SignedRequest) -> (u16, String) {
        let mut r = self
            .http
            .post(self.url(&format!("/billers/{biller}/postback")))
            .header("content-type", request.content_type)
            .body(request.body.clone());
        if let Some(h) = &request.signature_header {
            r = r.header(billers::SIGNATURE_HEADER, h);
        }
        let response = r.send().await.unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    }

    pub async fn postback(&self, biller: &str, out: &Outgoing) -> (u16, String) {
        self.send(biller, &self.signed(biller, out)).await
    }

    /// The subscription events written, in order.
    pub async fn events(&self) -> Vec<SubscriptionEvent> {
        let rows: Vec<(String, i32, Value, String, Uuid, i64)> = sqlx::query_as(
            "select event_type, schema_version, payload, stream_id, event_id, stream_version from event order by global_position",
        )
        .fetch_all(&self.pool)
        .await
        .unwrap();
        rows.into_iter()
            .map(|(event_type, schema_version, payload, stream_id, event_id, stream_version)| {
                let envelope = proto_events::Envelope {
                    event_id,
                    stream_id,
                    stream_version,
                    event_type,
                    schema_version: schema_version as u32,
                    occurred_at: Utc::now(),
                    tenant: None,
                    correlation_id: Uuid::nil(),
                    causation_id: None,
                    actor: proto_events::Actor::System("test".into()),
                    payload,
                };
                proto_events::decode(&envelope).unwrap()
            })
            .collect()
    }

    /// The profile's accounts of `user` (`/internal/users?ids=`), with the profile served.
    pub async fn profile_users(&self, user: Uuid) -> Value {
        let profile_base = &self.profile.as_ref().expect("a TestEnv::with_profile").1;
        let request = self.http.get(format!("{profile_base}/internal/users?ids={user}"));
        let (status, users) = testing::call(request, None, "profile").await;
        assert_eq!(status, 200, "{users}");
        users
    }

    /// The subscription read of `user` on `tenant`.
    pub async fn read(&self, user: Uuid, tenant: &str) -> Value {
        let (status, body) = self.get(&format!("/internal/users/{user}/subscription?tenant={tenant}"), None).await;
        assert_eq!(status, 200, "{body}");
        body
    }

    pub async fn cleanup(self) {
        if let Some((p, _)) = self.profile {
            p.cleanup().await;
        }
        self.scratch.cleanup().await;
    }
}

/// A postback of `step` for `user` on vixen at the biller's subscription `reference`.
pub fn out(reference: &str, tx: &str, step: Step, user: Uuid) -> Outgoing {
    Outgoing::vixen(reference, tx, step, user, "NATS-AFF-42")
}
