//! Test harness: a scratch schema (runtime + profile tables) in `paysite_test`, a scratch
//! exchange, and the profile service on an ephemeral port, over the real PostgreSQL and RabbitMQ.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use chrono::Utc;
use profile::api::{CreateAccountRequest, TokenResponse};
use profile::config::{Argon2Cost, ProfileConfig};
use profile::State;
use proto_events::subscription::{MembershipKind, SubscriptionEvent};
use proto_events::{Actor, Envelope};
use runtime::testing::{self, Scratch, Served, ServiceAuth};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

pub const PASSWORD: &str = "Secret12345";

/// The scratch namespace with the service running on it.
pub struct TestEnv {
    scratch: Scratch,
    pub state: State,
    pub addr: SocketAddr,
    pub base: String,
    pub http: reqwest::Client,
    cancel: CancellationToken,
}

runtime::deref_scratch!(TestEnv, scratch);

/// A cheap argon2id cost: the tests check behaviour, not cost.
pub fn test_config(brand_origin: &str, queue: &str) -> ProfileConfig {
    ProfileConfig {
        argon2: Argon2Cost { memory_kib: 256, iterations: 1, parallelism: 1 },
        brand_origin: brand_origin.to_owned(),
        projections_queue: queue.to_owned(),
        ..ProfileConfig::default()
    }
}

impl TestEnv {
    pub async fn new() -> TestEnv {
        Self::with_brand_origin("http://{brand}.localhost:8080").await
    }

    pub async fn with_brand_origin(brand_origin: &str) -> TestEnv {
        Self::with_config(brand_origin, |_| {}).await
    }

    /// The service with the test configuration, changed by `tweak`.
    pub async fn with_config(brand_origin: &str, tweak: impl FnOnce(&mut ProfileConfig)) -> TestEnv {
        let scratch = Scratch::new(&[("profile", &profile::MIGRATIONS)], 8).await;
        let queue = format!("{}.profile", scratch.schema);
        let mut config = test_config(brand_origin, &queue);
        tweak(&mut config);
        let state = State::load(scratch.pool.clone(), scratch.store.clone(), config).await.unwrap();
        let Served { addr, base, stop } = testing::serve(profile::router(state.clone())).await;
        let http = runtime::tls::client_builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        TestEnv { scratch, state, addr, base, http, cancel: stop }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// An account made the way a biller's approval makes it.
    pub async fn account(&self, username: &str) -> Uuid {
        let request = CreateAccountRequest {
            user_id: None,
            username: Some(username.to_owned()),
            password: PASSWORD.to_owned(),
            password_hash: None,
            email: format!("{username}@example.com"),
            site: "vixen".into(),
            biller: Some("EPOCH".into()),
            tandem_parent_user_id: None,
            vip_invited: false,
        };
        let response =
            self.http.post(self.url("/internal/accounts")).service_auth("profile").json(&request).send().await.unwrap();
        assert_eq!(response.status(), 201, "{}", response.text().await.unwrap());
        response.json::<profile::api::AccountCreated>().await.unwrap().user_id
    }

    /// Opens the login form and posts it; answers the POST's response.
    pub async fn login(&self, login: &str, password: &str, uri: &str, address: &str) -> reqwest::Response {
        self.login_from(login, password, uri, address, None).await
    }

    /// [`Self::login`] from a browser holding `device` (the device cookie's `name=value`).
    pub async fn login_from(
        &self,
        login: &str,
        password: &str,
        uri: &str,
        address: &str,
        device: Option<&str>,
    ) -> reqwest::Response {
        let form = self
            .http
            .get(self.url("/oidc/login"))
            .query(&[("uri", uri)])
            .header("x-paysite-tenant", "vixenplus")
            .send()
            .await
            .unwrap();
        assert_eq!(form.status(), 200);
        let cookie = form.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
        let csrf = cookie.split_once('=').unwrap().1.to_owned();
        let cookie = match device {
            Some(device) => format!("{cookie}; {device}"),
            None => cookie,
        };
        self.http
            .post(self.url("/oidc/login"))
            .header("cookie", cookie)
            .header("x-forwarded-for", address)
            .header("x-paysite-tenant", "vixenplus")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form_body(&[("username", login), ("password", password), ("uri", uri), ("csrf", &csrf)]))
            .send()
            .await
            .unwrap()
    }

    /// Signs in on the vixen host and exchanges the code: a fresh session.
    pub async fn session(&self, login: &str) -> TokenResponse {
        let response = self.login(login, PASSWORD, "http://vixen.localhost:8080/", "10.0.0.1").await;
        assert_eq!(response.status(), 303);
        let code = code_of(response.headers()["location"].to_str().unwrap());
        let response = self
            .http
            .post(self.url("/internal/oidc/token"))
            .service_auth("profile")
            .json(&serde_json::json!({ "code": code, "audience": "vixen.localhost" }))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        response.json().await.unwrap()
    }

    /// Changes the password of the session holding `access_token` (`/internal/profile/password`).
    pub async fn change_password(&self, access_token: &str, old: &str, new: &str, confirm: &str) -> reqwest::Response {
        self.http
            .post(self.url("/internal/profile/password"))
            .bearer_auth(access_token)
            .json(&serde_json::json!({ "oldPassword": old, "newPassword": new, "confirmPassword": confirm }))
            .send()
            .await
            .unwrap()
    }

    /// Applies another service's event the way the consumer does (inbox row and projection in
    /// one transaction).
    pub async fn feed(&self, envelope: &Envelope) {
        let queue = &self.state.config.projections_queue;
        // The consumer's handler: the members read model, through the function its rebuild calls.
        let handler = runtime::projection::ProjectionHandler(std::sync::Arc::new(profile::projections::members(queue)));
        testing::feed(&self.pool, queue, &handler, std::slice::from_ref(envelope)).await;
    }

    pub async fn subscribe(&self, user_id: Uuid, site: &str, kind: MembershipKind) -> Uuid {
        let subscription_id = Uuid::now_v7();
        let event = started(subscription_id, user_id, site, kind, Utc::now() - chrono::Duration::days(100));
        self.feed(&envelope("subscription", &event, &format!("subscription-{subscription_id}"))).await;
        subscription_id
    }

    pub async fn cleanup(self) {
        self.cancel.cancel();
        tokio::time::sleep(Duration::from_millis(20)).await;
        self.scratch.cleanup().await;
    }
}

/// A subscription of `kind` on `site`, active since `at`.
pub fn started(
    subscription_id: Uuid,
    user_id: Uuid,
    site: &str,
    kind: MembershipKind,
    at: chrono::DateTime<Utc>,
) -> SubscriptionEvent {
    testing::subscription_started(subscription_id, user_id, kind, &[site], false, at)
}

/// `event` as the first of `stream_id`, of vixen, as the platform itself publishes it.
pub fn envelope<E: proto_events::EventFamily>(_domain: &str, event: &E, stream_id: &str) -> Envelope {
    testing::envelope(event, stream_id.to_owned(), 1, "vixen", Actor::System("test".into()))
}

/// The `code` of a callback location.
pub fn code_of(location: &str) -> String {
    let query = location.split_once('?').unwrap().1;
    query.split('&').find_map(|p| p.strip_prefix("code=")).unwrap().to_owned()
}

/// An `application/x-www-form-urlencoded` body.
pub fn form_body(pairs: &[(&str, &str)]) -> String {
    use profile::sessions::encode_component as e;
    pairs.iter().map(|(k, v)| format!("{}={}", e(k), e(v))).collect::<Vec<_>>().join("&")
}

/// Publishes envelopes on the test's exchange with publisher confirms, as a relay does.
pub async fn publish(env: &TestEnv, domain: &str, envelopes: &[Envelope]) {
    env.publish(domain, envelopes).await;
}
