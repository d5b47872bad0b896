//! The services a page's abilities need, real and each on its own scratch schema, with a
//! gateway in front: the catalog (its calls counted), the profile service (whose signing key
//! signs the test's tokens, so it reads the same users), the subscription service, the unlocks
//! service paying through the wallet, and optionally the deals service. findOneUserProfile is
//! put together from the profile, subscription, wallet and unlocks services. Subscriptions,
//! accounts and published content reach each service the way their consumers apply them.
#![allow(dead_code)]

use std::{
    collections::BTreeMap,
    sync::{Arc, Mutex},
};

use axum::{extract::Request, middleware::Next, response::Response};
use chrono::Utc;
use gateway::graphql::Upstreams;
use profile::config::{Argon2Cost, ProfileConfig};
use proto_events::{
    catalog::CatalogEvent,
    subscription::{MembershipKind, SubscriptionEvent},
    Actor, Envelope, EventFamily,
};
use runtime::{auth::Claims, service::ServiceContext, testing::Scratch};
use serde_json::{json, Value};
use unlocks::{
    quota::{QuotaRule, QuotaRules},
    UnlocksConfig,
};
use uuid::Uuid;

use super::{bare_dist, short, spawn_serving, Gateway};
use runtime::testing::ServiceAuth;

/// Every call the catalog received, as `METHOD /path`.
pub type Calls = Arc<Mutex<Vec<String>>>;

/// The `traceparent` each call to the unlocks and wallet services carried, as
/// `(service, traceparent)` (`None`: the call carried none).
pub type Traces = Arc<Mutex<Vec<(&'static str, Option<String>)>>>;

/// A settable clock: `None` tells the system time.
pub type UnlocksClock = Arc<Mutex<Option<chrono::DateTime<Utc>>>>;

pub struct Stack {
    /// Each upstream service's base URL, for another gateway replica.
    upstreams: Vec<(&'static str, String)>,
    /// Stops the relay and the gateway's session follower at cleanup.
    background: tokio_util::sync::CancellationToken,
    pub catalog: Scratch,
    pub profile: Scratch,
    pub profile_state: profile::State,
    pub subscription: Scratch,
    subscription_state: subscription::State,
    pub unlocks: Scratch,
    pub unlocks_state: unlocks::State,
    /// The unlocks service's time: `None` is the system clock.
    pub unlocks_clock: UnlocksClock,
    pub wallet: Scratch,
    pub wallet_config: wallet::WalletConfig,
    wallet_state: wallet::State,
    pub deals: Option<Scratch>,
    pub gw: Gateway,
    pub calls: Calls,
    /// Every call the profile service received.
    pub profile_calls: Calls,
    /// The trace context of every call the unlocks and wallet services received.
    pub traces: Traces,
    http: reqwest::Client,
    catalog_url: String,
    pub profile_url: String,
    pub subscription_url: String,
    pub unlocks_url: String,
    pub wallet_url: String,
}

#[derive(Default)]
pub struct Options {
    /// The demo catalog seeded.
    pub seed_catalog: bool,
    pub with_deals: bool,
    /// When the wallet's weekly gems arrive (default: Fridays, midnight UTC).
    pub gems_calendar: Option<wallet::calendar::GemsCalendar>,
    /// The profile's events go out through its relay, and the gateway follows the session
    /// events (its revocation set), as in service.
    pub follow_sessions: bool,
    /// The SPA's page is served (a bare one), with its inline session.
    pub serve_page: bool,
    /// The catalog's events go out through its relay, and the gateway keeps visitors'
    /// answers fresh by them, as in service.
    pub follow_answers: bool,
    /// Pages without their first screen (`PAYSITE_FIRST_SCREEN=false`): a test counting the
    /// edge's own catalog calls.
    pub without_first_screen: bool,
}

pub fn media_dir() -> std::path::PathBuf {
    std::env::var("UNLOCKS_TEST_MEDIA_DIR").unwrap_or_else(|_| "/var/tmp/paysite-media-test".into()).into()
}

/// `app`, recording every call it receives in `calls`.
fn counted(app: axum::Router, calls: Calls) -> axum::Router {
    app.layer(axum::middleware::from_fn(move |request: Request, next: Next| {
        let calls = calls.clone();
        async move {
            calls.lock().unwrap().push(format!("{} {}", request.method(), request.uri().path()));
            let response: Response = next.run(request).await;
            response
        }
    }))
}

/// `app` of `service`, recording the `traceparent` of every call it receives in `traces`.
fn traced(app: axum::Router, service: &'static str, traces: Traces) -> axum::Router {
    app.layer(axum::middleware::from_fn(move |request: Request, next: Next| {
        let traces = traces.clone();
        async move {
            let traceparent = request.headers().get("traceparent").and_then(|v| v.to_str().ok()).map(str::to_owned);
            traces.lock().unwrap().push((service, traceparent));
            let response: Response = next.run(request).await;
            response
        }
    }))
}

async fn serve(app: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let app = app.layer(axum::middleware::from_fn(runtime::http::correlate));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

fn envelope<E: EventFamily>(event: &E, tenant: &str) -> Envelope {
    let encoded = proto_events::encode(event);
    Envelope {
        event_id: Uuid::now_v7(),
        stream_id: format!("test-{}", Uuid::now_v7()),
        stream_version: 1,
        event_type: encoded.event_type,
        schema_version: encoded.schema_version,
        occurred_at: Utc::now(),
        tenant: Some(tenant.into()),
        correlation_id: Uuid::now_v7(),
        causation_id: None,
        actor: Actor::System("test".into()),
        payload: encoded.payload,
    }
}

impl Stack {
    pub async fn start(options: Options) -> Stack {
        // Every service records the calls it receives, for a trace's hops.
        let traces: Traces = Arc::default();
        // The profile first: its key signs every token of the test.
        let profile = Scratch::new(&[("profile", &profile::MIGRATIONS)], 2).await;
        let config = ProfileConfig {
            argon2: Argon2Cost { memory_kib: 256, iterations: 1, parallelism: 1 },
            brand_origin: "http://{brand}.localhost:8080".to_owned(),
            projections_queue: format!("{}.profile", profile.schema),
            ..ProfileConfig::default()
        };
        let profile_state = profile::State::load(profile.pool.clone(), profile.store.clone(), config).await.unwrap();
        let signer = profile_state.signer.clone();
        let profile_calls: Calls = Arc::default();
        let profile_app = counted(profile::router(profile_state.clone()), profile_calls.clone());
        let profile_url = serve(traced(profile_app, "profile", traces.clone())).await;

        let catalog = Scratch::new(&[("catalog", &catalog::MIGRATIONS)], 4).await;
        if options.seed_catalog {
            let ctx = ServiceContext {
                pool: catalog.pool.clone(),
                store: catalog.store.clone(),
                settings: catalog.settings.clone(),
            };
            catalog::SERVICE.seed.expect("the catalog seeds")(ctx).await.unwrap();
        }
        let state = catalog::AppState::new(
            catalog.pool.clone(),
            catalog.store.clone(),
            signer.verifier(),
            catalog::CatalogConfig::default(),
        );
        let calls: Calls = Arc::default();
        let catalog_url =
            serve(traced(counted(catalog::router(state), calls.clone()), "catalog", traces.clone())).await;

        let subscription = Scratch::new(&[("subscription", &subscription::MIGRATIONS)], 3).await;
        let mut billing = subscription::BillingConfig::from_lookup(|_| None, false).unwrap();
        billing.profiles_queue = format!("{}.profiles", subscription.schema);
        let subscription_state = subscription::State::new(
            subscription.pool.clone(),
            subscription.store.clone(),
            billing,
            profile::client::ProfileClient::new(profile_url.clone()),
            signer.verifier(),
        );
        let subscription_app = subscription::router(subscription_state.clone());
        let subscription_url = serve(traced(subscription_app, "subscription", traces.clone())).await;

        let wallet = Scratch::new(&[("wallet", &wallet::MIGRATIONS)], 2).await;
        let wallet_config = wallet::WalletConfig {
            calendar: options.gems_calendar.unwrap_or_default(),
            subscriptions_queue: format!("{}.subscriptions", wallet.schema),
            ..Default::default()
        };
        let wallet_state = wallet::State::new(wallet.pool.clone(), wallet.store.clone(), wallet_config.clone());
        let wallet_router = wallet::router(wallet_state.clone().with_verifier(signer.verifier()));
        let wallet_url = serve(traced(wallet_router, "wallet", traces.clone())).await;
        let unlocks = Scratch::new(&[("unlocks", &unlocks::MIGRATIONS)], 3).await;
        let config = UnlocksConfig {
            wallet_url: wallet_url.clone(),
            subscription_url: subscription_url.clone(),
            media_dir: media_dir(),
            media_base_url: "/media/videos".into(),
            catalog_queue: format!("{}.catalog", unlocks.schema),
            subscriptions_queue: format!("{}.subscriptions", unlocks.schema),
            quotas: QuotaRules {
                site: QuotaRule { max: 2, days: 7 },
                channels: QuotaRule { max: 5, days: 7 },
                tenants: BTreeMap::new(),
            },
            ..UnlocksConfig::default()
        };
        unlocks.track_queue(&config.catalog_queue);
        unlocks.track_queue(&config.subscriptions_queue);
        let unlocks_clock: UnlocksClock = Arc::default();
        let clock = unlocks_clock.clone();
        let unlocks_state = unlocks::State::new(unlocks.pool.clone(), unlocks.store.clone(), config, signer.verifier())
            .with_clock(move || clock.lock().unwrap().unwrap_or_else(Utc::now));
        let dir = media_dir();
        tokio::task::spawn_blocking(move || unlocks::demo::ensure(&dir)).await.unwrap().unwrap();
        let unlocks_url = serve(traced(unlocks::router(unlocks_state.clone()), "unlocks", traces.clone())).await;
        let unlocks_base = unlocks_url.clone();

        let (deals, deals_url) = if options.with_deals {
            let deals = Scratch::new(&[("deals", &deals::MIGRATIONS)], 2).await;
            let config = deals::DealsConfig {
                subscriptions_queue: format!("{}.subscriptions", deals.schema),
                ..deals::DealsConfig::default()
            };
            let sites = deals::Sites::load(&config.tenants_dir).unwrap();
            let state = deals::State::new(deals.pool.clone(), deals.store.clone(), config, sites, signer.verifier());
            let url = serve(traced(deals::router(state), "deals", traces.clone())).await;
            (Some(deals), url)
        } else {
            (None, "http://127.0.0.1:9".to_owned())
        };

        let (c, p, u) = (catalog_url.clone(), profile_url.clone(), unlocks_url);
        let (sub, w) = (subscription_url.clone(), wallet_url.clone());
        let upstream_urls: Vec<(&'static str, String)> = vec![
            ("catalog", c.clone()),
            ("profile", p.clone()),
            ("unlocks", u.clone()),
            ("subscription", sub.clone()),
            ("wallet", w.clone()),
            ("deals", deals_url.clone()),
        ];
        let upstreams = Upstreams::with_base(move |name, _| match name {
            "catalog" => c.clone(),
            "profile" => p.clone(),
            "unlocks" => u.clone(),
            "subscription" => sub.clone(),
            "wallet" => w.clone(),
            "deals" => deals_url.clone(),
            _ => "http://127.0.0.1:9".to_owned(),
        });
        let settings: &[(&str, &str)] =
            if options.without_first_screen { &[("PAYSITE_FIRST_SCREEN", "false")] } else { &[] };
        let gw = super::spawn_configured(upstreams, signer, options.serve_page.then(bare_dist), settings).await;
        let background = tokio_util::sync::CancellationToken::new();
        if options.follow_sessions {
            let relay = runtime::relay::RelaySettings {
                poll_interval: std::time::Duration::from_millis(50),
                ..runtime::relay::RelaySettings::new("profile", &profile.schema, &profile.settings)
            };
            tokio::spawn(runtime::relay::run(profile.pool.clone(), relay, background.clone()));
            let source = gateway::revocations::Source::from_settings(&profile.settings);
            gateway::follow_sessions(&gw.state, source, background.clone()).await;
            assert!(gw.state.revocations.is_loaded(), "the gateway loaded the revoked sessions");
        }
        if options.follow_answers {
            let relay = runtime::relay::RelaySettings {
                poll_interval: std::time::Duration::from_millis(20),
                ..runtime::relay::RelaySettings::new("catalog", &catalog.schema, &catalog.settings)
            };
            tokio::spawn(runtime::relay::run(catalog.pool.clone(), relay, background.clone()));
            let source = gateway::revocations::Source::from_settings(&catalog.settings);
            gateway::follow_answers(&gw.state, source, background.clone()).await;
            assert!(gw.state.answers.is_following(), "the gateway follows the catalog's events");
            // The seed's events go out first: each of them drops the kept answers.
            let started = std::time::Instant::now();
            while sqlx::query_scalar::<_, i64>("select count(*) from outbox").fetch_one(&catalog.pool).await.unwrap()
                > 0
            {
                assert!(started.elapsed() < std::time::Duration::from_secs(60), "the catalog's outbox drains");
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
        Stack {
            upstreams: upstream_urls,
            background,
            catalog,
            profile,
            profile_state,
            subscription,
            subscription_state,
            unlocks,
            unlocks_state,
            unlocks_clock,
            wallet,
            wallet_config,
            wallet_state,
            deals,
            gw,
            calls,
            profile_calls,
            traces,
            http: runtime::tls::client(),
            catalog_url,
            profile_url,
            subscription_url,
            unlocks_url: unlocks_base,
            wallet_url,
        }
    }

    /// A token for `user` on `host` (`vixen.localhost:8080`), with `groups`.
    pub fn token(&self, user: Uuid, host: &str, groups: &[&str]) -> String {
        let tenant = host.split('.').next().unwrap();
        self.gw.token_in(user, host.split(':').next().unwrap(), tenant, groups)
    }

    /// The demo users of `paysite seed` (profile) and their memberships (subscription, through
    /// the billers' postbacks), handed to the other services as their consumers receive them.
    pub async fn seed_demo_users(&self) {
        profile::seed::seed_demo_users(&self.profile_state).await.unwrap();
        for user in profile::DEMO_USERS {
            self.sync_profile_to_subscription(profile::demo_user_id(user.username)).await;
        }
        subscription::seed::seed_demo_memberships(&self.subscription_state).await.unwrap();
        self.sync_subscriptions().await;
    }

    /// Hands every event of the subscription service's store to the profile, unlocks and
    /// wallet services, in order, as their consumers receive them.
    pub async fn sync_subscriptions(&self) {
        let streams: Vec<String> =
            sqlx::query_scalar("select stream_id from event group by stream_id order by min(global_position)")
                .fetch_all(&self.subscription.pool)
                .await
                .unwrap();
        let unlocks = unlocks::consumers(&self.unlocks_state);
        let wallet = wallet::consumers(&self.wallet_state);
        for stream in streams {
            for envelope in self.subscription.store.load(&stream).await.unwrap() {
                let mut tx = self.profile.pool.begin().await.unwrap();
                profile::projections::apply_member_event(&mut tx, &envelope).await.unwrap();
                tx.commit().await.unwrap();
                let mut tx = self.unlocks.pool.begin().await.unwrap();
                unlocks[1].handler.handle(&mut tx, &envelope).await.unwrap();
                tx.commit().await.unwrap();
                let mut tx = self.wallet.pool.begin().await.unwrap();
                wallet[0].handler.handle(&mut tx, &envelope).await.unwrap();
                tx.commit().await.unwrap();
            }
        }
    }

    /// An account for `user`, signed up on `site`.
    pub async fn account(&self, user: Uuid, site: &str) {
        let request = json!({
            "userId": user,
            "username": format!("u{}", &user.simple().to_string()[20..]),
            "password": "Secret12345",
            "email": format!("{}@example.com", user.simple()),
            "site": site,
            "biller": "EPOCH",
        });
        let response = self
            .http
            .post(format!("{}/internal/accounts", self.profile_url))
            .service_auth("profile")
            .json(&request)
            .send()
            .await
            .unwrap();
        assert!(response.status().is_success(), "{}", response.text().await.unwrap());
        self.sync_profile_to_subscription(user).await;
    }

    /// Hands `user`'s profile events (the account, a tandem child's link to its parent) to the
    /// subscription service, as its profile-events consumer receives them.
    pub async fn sync_profile_to_subscription(&self, user: Uuid) {
        let specs = subscription::consumers(&self.subscription_state);
        let events = self.profile.store.load(&proto_events::profile::stream_id(user)).await.unwrap();
        let mut tx = self.subscription.pool.begin().await.unwrap();
        for envelope in events {
            specs[0].handler.handle(&mut tx, &envelope).await.unwrap();
        }
        tx.commit().await.unwrap();
    }

    /// Records a subscription event in the subscription service (its read model, as its append
    /// writes it) and applies it to the profile and unlocks services, as their consumers do.
    pub async fn subscription_event(&self, event: &SubscriptionEvent) {
        let mut tx = self.subscription.pool.begin().await.unwrap();
        subscription::projections::apply_subscription_event(&mut tx, event).await.unwrap();
        tx.commit().await.unwrap();
        let envelope = envelope(event, "vixen");
        let mut tx = self.profile.pool.begin().await.unwrap();
        sqlx::query("insert into inbox (consumer, event_id, envelope) values ($1, $2, $3)")
            .bind(&self.profile_state.config.projections_queue)
            .bind(envelope.event_id)
            .bind(serde_json::to_value(&envelope).unwrap())
            .execute(&mut *tx)
            .await
            .unwrap();
        profile::projections::apply_member_event(&mut tx, &envelope).await.unwrap();
        tx.commit().await.unwrap();
        let specs = unlocks::consumers(&self.unlocks_state);
        let mut tx = self.unlocks.pool.begin().await.unwrap();
        specs[1].handler.handle(&mut tx, &envelope).await.unwrap();
        tx.commit().await.unwrap();
    }

    /// An account for `user` with an active subscription of `kind` to `sites` (the first is where
    /// they signed up).
    pub async fn member(&self, user: Uuid, sites: &[&str], kind: MembershipKind, free_limited_trial: bool) {
        self.member_since(user, sites, kind, free_limited_trial, Utc::now() - chrono::Duration::days(40)).await;
    }

    /// As [`Stack::member`], active since `active_since` (badges by membership length).
    pub async fn member_since(
        &self,
        user: Uuid,
        sites: &[&str],
        kind: MembershipKind,
        free_limited_trial: bool,
        active_since: chrono::DateTime<Utc>,
    ) {
        self.account(user, sites[0]).await;
        let started =
            runtime::testing::subscription_started(Uuid::now_v7(), user, kind, sites, free_limited_trial, active_since);
        self.subscription_event(&started).await;
    }

    /// Signs `login` in on `brand_host` (`vixen.localhost:8080`) as a browser does: the login
    /// form on the members host, then the brand host's callback. Answers the session cookies
    /// (`name=value`), the refresh cookie last.
    pub async fn sign_in(&self, login: &str, password: &str, brand_host: &str) -> Vec<String> {
        let members = "members.localhost:8080";
        let brand_origin = format!("http://{brand_host}");
        let http = runtime::tls::client_builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        let uri = format!("{brand_origin}/");
        let form = http
            .get(format!("{}/oidc/login", self.gw.base))
            .query(&[("uri", uri.as_str())])
            .header(reqwest::header::HOST, members)
            .send()
            .await
            .unwrap();
        assert_eq!(form.status(), 200);
        let csrf_cookie =
            form.headers()[reqwest::header::SET_COOKIE].to_str().unwrap().split(';').next().unwrap().to_owned();
        let csrf = csrf_cookie.split_once('=').unwrap().1.to_owned();
        let body = [("username", login), ("password", password), ("uri", uri.as_str()), ("csrf", csrf.as_str())]
            .iter()
            .map(|(k, v)| format!("{k}={}", profile::sessions::encode_component(v)))
            .collect::<Vec<_>>()
            .join("&");
        let posted = http
            .post(format!("{}/oidc/login", self.gw.base))
            .header(reqwest::header::HOST, members)
            .header(reqwest::header::COOKIE, csrf_cookie)
            .header(reqwest::header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(posted.status(), 303, "{login} signs in");
        let location = posted.headers()[reqwest::header::LOCATION].to_str().unwrap().to_owned();
        let path = location.strip_prefix(&brand_origin).expect("the callback is on the brand host").to_owned();
        let callback =
            http.get(format!("{}{path}", self.gw.base)).header(reqwest::header::HOST, brand_host).send().await.unwrap();
        assert_eq!(callback.status(), 302);
        let mut cookies: Vec<String> = callback
            .headers()
            .get_all(reqwest::header::SET_COOKIE)
            .iter()
            .map(|c| c.to_str().unwrap().split(';').next().unwrap().to_owned())
            .collect();
        cookies.sort_by_key(|c| c.starts_with("paysite_rt="));
        assert_eq!(cookies.len(), 2, "{cookies:?}");
        cookies
    }

    /// An account for `user` with a subscription of `kind` to `sites` billed by `biller`,
    /// started forty days ago; its id.
    pub async fn subscribe_with(
        &self,
        user: Uuid,
        sites: &[&str],
        kind: MembershipKind,
        free_limited_trial: bool,
        biller: &str,
    ) -> Uuid {
        self.account(user, sites[0]).await;
        let subscription_id = Uuid::now_v7();
        self.subscription_event(&SubscriptionEvent::SubscriptionStarted {
            subscription_id,
            user_id: user,
            site: sites[0].into(),
            sites: sites.iter().map(|s| (*s).to_owned()).collect(),
            kind,
            is_free_limited_trial: free_limited_trial,
            biller: biller.into(),
            transaction_id: format!("{biller}-{}", Uuid::now_v7()),
            active_since: Utc::now() - chrono::Duration::days(40),
            nats_code: None,
        })
        .await;
        subscription_id
    }

    /// The member or biller cancels (the paid period runs on).
    pub async fn cancel(&self, subscription_id: Uuid, user: Uuid) {
        self.subscription_event(&SubscriptionEvent::SubscriptionCancelled {
            subscription_id,
            user_id: user,
            transaction_id: format!("CANCEL-{}", Uuid::now_v7()),
            cancelled_at: Utc::now(),
        })
        .await;
    }

    /// The paid period ran out.
    pub async fn expire(&self, subscription_id: Uuid, user: Uuid) {
        self.subscription_event(&SubscriptionEvent::SubscriptionExpired {
            subscription_id,
            user_id: user,
            expired_at: Utc::now(),
        })
        .await;
    }

    /// A tandem child account of `parent` (an active member), made through the profile
    /// service's own command, its link heard by the subscription service as its consumer does.
    pub async fn tandem_child(&self, parent: Uuid, host: &str) -> Uuid {
        let email = format!("child-{}@example.com", Uuid::now_v7().simple());
        let response = self
            .http
            .post(format!("{}/internal/profile/tandem-child", self.profile_url))
            .bearer_auth(self.token(parent, host, &[]))
            .header("x-paysite-tenant", host.split('.').next().unwrap())
            .json(&json!({ "email": email, "password": "Secret12345" }))
            .send()
            .await
            .unwrap();
        let status = response.status();
        let body: Value = response.json().await.unwrap_or_default();
        assert!(status.is_success(), "{status}: {}", short(&body));
        let child: Uuid = sqlx::query_scalar("select user_id from user_profile where tandem_parent_user_id = $1")
            .bind(parent)
            .fetch_one(&self.profile.pool)
            .await
            .unwrap();
        self.sync_profile_to_subscription(child).await;
        child
    }

    /// An operator's (admin group) short-lived token for a service's internal admin endpoints.
    fn operator_token(&self, audience: &str) -> String {
        let groups = vec!["admin".into()];
        let claims =
            Claims::new(Uuid::now_v7(), audience, "vixen", Uuid::now_v7(), groups, std::time::Duration::from_secs(60));
        self.gw.signer.sign(&claims)
    }

    /// Publishes content in the catalog (through its admin endpoint) and hands the same events
    /// to the unlocks service's catalog consumer.
    pub async fn publish(&self, events: &[CatalogEvent]) {
        let admin = self.operator_token("catalog");
        let response = self
            .http
            .post(format!("{}/internal/admin/content", self.catalog_url))
            .bearer_auth(admin)
            .header("x-paysite-tenant", "vixen")
            .json(events)
            .send()
            .await
            .unwrap();
        let status = response.status();
        let body: Value = response.json().await.unwrap_or_default();
        assert!(status.is_success(), "{status}: {}", short(&body));
        let specs = unlocks::consumers(&self.unlocks_state);
        let mut tx = self.unlocks.pool.begin().await.unwrap();
        for event in events {
            specs[0].handler.handle(&mut tx, &envelope(event, "vixen")).await.unwrap();
        }
        tx.commit().await.unwrap();
    }

    /// Hands the catalog's content events (videos, channels, packs) to the unlocks service, as
    /// its catalog consumer receives them (after the demo seed).
    pub async fn sync_catalog_to_unlocks(&self) {
        let streams: Vec<String> = sqlx::query_scalar(
            "select stream_id from event where event_type in ('VideoPublished', 'VideoUpdated', 'VideoUnpublished', \
             'ChannelPublished', 'ChannelPackPublished') group by stream_id order by min(global_position)",
        )
        .fetch_all(&self.catalog.pool)
        .await
        .unwrap();
        let specs = unlocks::consumers(&self.unlocks_state);
        let mut tx = self.unlocks.pool.begin().await.unwrap();
        for stream in streams {
            for envelope in self.catalog.store.load(&stream).await.unwrap() {
                if matches!(
                    envelope.event_type.as_str(),
                    "VideoPublished"
                        | "VideoUpdated"
                        | "VideoUnpublished"
                        | "ChannelPublished"
                        | "ChannelPackPublished"
                ) {
                    specs[0].handler.handle(&mut tx, &envelope).await.unwrap();
                }
            }
        }
        tx.commit().await.unwrap();
    }

    /// Runs a wallet command for `user`.
    pub async fn wallet(&self, user: Uuid, command: wallet::domain::Command) {
        wallet::testing::run(&self.wallet.pool, &self.wallet.store, user, command).await;
    }

    pub async fn fund_gems(&self, user: Uuid, gems: u64) {
        wallet::testing::fund_gems(&self.wallet.pool, &self.wallet.store, user, gems).await
    }

    pub async fn fund_credits(&self, user: Uuid, credits: u64) {
        wallet::testing::fund_credits(&self.wallet.pool, &self.wallet.store, user, credits).await
    }

    /// The calls the catalog received since the last take.
    pub fn take_calls(&self) -> Vec<String> {
        std::mem::take(&mut *self.calls.lock().unwrap())
    }

    /// The calls the profile service received since the last take.
    pub fn take_profile_calls(&self) -> Vec<String> {
        std::mem::take(&mut *self.profile_calls.lock().unwrap())
    }

    /// Grants `group` (`commenteditor`, `admin`) to `user` in the profile service, as an operator.
    pub async fn grant_group(&self, user: Uuid, group: &str) {
        let admin = self.operator_token("profile");
        let response = self
            .http
            .post(format!("{}/internal/users/{user}/groups", self.profile_url))
            .bearer_auth(admin)
            .json(&json!({ "group": group, "granted": true }))
            .send()
            .await
            .unwrap();
        assert!(response.status().is_success(), "{}", response.text().await.unwrap());
    }

    /// Another gateway replica over the same services and signer, following the catalog's
    /// events for its visitors' answers (its own queue, as every replica has).
    pub async fn replica(&self) -> Gateway {
        let gw = spawn_serving(self.replica_upstreams(), self.gw.signer.clone(), None).await;
        let source = gateway::revocations::Source::from_settings(&self.catalog.settings);
        gateway::follow_answers(&gw.state, source, self.background.clone()).await;
        assert!(gw.state.answers.is_following(), "the replica follows the catalog's events");
        gw
    }

    /// Clients of this stack's services, for another gateway over them.
    pub fn replica_upstreams(&self) -> Upstreams {
        let urls = self.upstreams.clone();
        Upstreams::with_base(move |name, _| {
            urls.iter().find(|(n, _)| *n == name).map_or_else(|| "http://127.0.0.1:9".to_owned(), |(_, u)| u.clone())
        })
    }

    pub async fn cleanup(self) {
        self.background.cancel();
        self.catalog.cleanup().await;
        self.profile.cleanup().await;
        self.subscription.cleanup().await;
        self.unlocks.cleanup().await;
        self.wallet.cleanup().await;
        if let Some(deals) = self.deals {
            deals.cleanup().await;
        }
    }
}
