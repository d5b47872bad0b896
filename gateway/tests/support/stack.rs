//! The services a page's abilities need, real and each on its own scratch schema, with a
//! gateway in front: the catalog (its calls counted), the profile service (whose signing key
//! signs the test's tokens, so it reads the same users), the unlocks service paying through
//! the wallet, and optionally the deals service. Subscriptions and published content reach
//! each service the way their consumers apply them.
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
    Actor, Envelope, EventFamily, EventMeta,
};
use runtime::{auth::Claims, service::ServiceContext, testing::Scratch};
use serde_json::{json, Value};
use unlocks::{
    quota::{QuotaRule, QuotaRules},
    UnlocksConfig,
};
use uuid::Uuid;

use super::{short, spawn_with, Gateway};
use runtime::testing::ServiceAuth;

/// Every call the catalog received, as `METHOD /path`.
pub type Calls = Arc<Mutex<Vec<String>>>;

pub struct Stack {
    pub catalog: Scratch,
    pub profile: Scratch,
    profile_state: profile::State,
    pub unlocks: Scratch,
    unlocks_state: unlocks::State,
    pub wallet: Scratch,
    pub deals: Option<Scratch>,
    pub gw: Gateway,
    pub calls: Calls,
    /// Every call the profile service received.
    pub profile_calls: Calls,
    http: reqwest::Client,
    catalog_url: String,
    profile_url: String,
}

pub struct Options {
    /// The demo catalog seeded.
    pub seed_catalog: bool,
    pub with_deals: bool,
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
        let profile_url = serve(counted(profile::router(profile_state.clone()), profile_calls.clone())).await;

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
        let catalog_url = serve(counted(catalog::router(state), calls.clone())).await;

        let wallet = Scratch::new(&[("wallet", &wallet::MIGRATIONS)], 2).await;
        let wallet_state = wallet::State::new(
            wallet.pool.clone(),
            wallet.store.clone(),
            wallet::WalletConfig {
                subscriptions_queue: format!("{}.subscriptions", wallet.schema),
                ..Default::default()
            },
        );
        let wallet_url = serve(wallet::router(wallet_state.with_verifier(signer.verifier()))).await;
        let unlocks = Scratch::new(&[("unlocks", &unlocks::MIGRATIONS)], 3).await;
        let config = UnlocksConfig {
            wallet_url,
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
        let unlocks_state = unlocks::State::new(unlocks.pool.clone(), unlocks.store.clone(), config, signer.verifier());
        let dir = media_dir();
        tokio::task::spawn_blocking(move || unlocks::demo::ensure(&dir)).await.unwrap().unwrap();
        let unlocks_url = serve(unlocks::router(unlocks_state.clone())).await;

        let (deals, deals_url) = if options.with_deals {
            let deals = Scratch::new(&[("deals", &deals::MIGRATIONS)], 2).await;
            let config = deals::DealsConfig {
                subscriptions_queue: format!("{}.subscriptions", deals.schema),
                ..deals::DealsConfig::default()
            };
            let sites = deals::Sites::load(&config.tenants_dir).unwrap();
            let state = deals::State::new(deals.pool.clone(), deals.store.clone(), config, sites, signer.verifier());
            let url = serve(deals::router(state)).await;
            (Some(deals), url)
        } else {
            (None, "http://127.0.0.1:9".to_owned())
        };

        let (c, p, u) = (catalog_url.clone(), profile_url.clone(), unlocks_url);
        let upstreams = Upstreams::with_base(move |name, _| match name {
            "catalog" => c.clone(),
            "profile" => p.clone(),
            "unlocks" => u.clone(),
            "deals" => deals_url.clone(),
            _ => "http://127.0.0.1:9".to_owned(),
        });
        let gw = spawn_with(upstreams, signer).await;
        Stack {
            catalog,
            profile,
            profile_state,
            unlocks,
            unlocks_state,
            wallet,
            deals,
            gw,
            calls,
            profile_calls,
            http: reqwest::Client::new(),
            catalog_url,
            profile_url,
        }
    }

    /// A token for `user` on `host` (`vixen.localhost:8080`), with `groups`.
    pub fn token(&self, user: Uuid, host: &str, groups: &[&str]) -> String {
        let tenant = host.split('.').next().unwrap();
        self.gw.token_in(user, host.split(':').next().unwrap(), tenant, groups)
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
    }

    /// Applies a subscription event to the profile and unlocks services, as their consumers do.
    pub async fn subscription_event(&self, event: &SubscriptionEvent) {
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
        let started = SubscriptionEvent::SubscriptionStarted {
            subscription_id: Uuid::now_v7(),
            user_id: user,
            site: sites[0].into(),
            sites: sites.iter().map(|s| (*s).to_owned()).collect(),
            kind,
            is_free_limited_trial: free_limited_trial,
            biller: "EPOCH".into(),
            transaction_id: format!("EPOCH-{}", Uuid::now_v7()),
            active_since,
            nats_code: None,
        };
        self.subscription_event(&started).await;
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
        let mut tx = self.wallet.pool.begin().await.unwrap();
        let items = [wallet::ledger::Item::new(command, EventMeta::new(Actor::System("test".into())))];
        let outcome = wallet::ledger::run_in(&mut tx, &self.wallet.store, user, &items).await.unwrap().remove(0);
        tx.commit().await.unwrap();
        outcome.expect("the wallet accepts");
    }

    pub async fn fund_gems(&self, user: Uuid, gems: u64) {
        let command = wallet::domain::Command::GrantRetentionGems {
            subscription_id: Uuid::now_v7(),
            transaction_id: format!("FUND-{}", Uuid::now_v7()),
            amount: gems,
        };
        self.wallet(user, command).await;
    }

    pub async fn fund_credits(&self, user: Uuid, credits: u64) {
        let command = wallet::domain::Command::GrantPurchasedCredits {
            subscription_id: Uuid::now_v7(),
            transaction_id: format!("PPV-{}", Uuid::now_v7()),
            amount: credits,
        };
        self.wallet(user, command).await;
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

    pub async fn cleanup(self) {
        self.catalog.cleanup().await;
        self.profile.cleanup().await;
        self.unlocks.cleanup().await;
        self.wallet.cleanup().await;
        if let Some(deals) = self.deals {
            deals.cleanup().await;
        }
    }
}
