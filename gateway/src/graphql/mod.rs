//! The browser's API: one async-graphql schema composing every service.
//!
//! Each domain has a file with its `…Query` and `…Mutation` objects, merged into the roots
//! below. Resolvers read the request with [`context::request`], call a service through
//! [`context::upstreams`] and turn its refusals into coded errors with [`errors::upstream`].
//! The schema is exported to `gateway/schema.graphql`; `tests/schema.rs` fails when the
//! file and the code disagree (`UPDATE_SCHEMA=1` rewrites it).

pub mod abilities;
pub mod catalog;
pub mod context;
pub mod cost;
pub mod deals;
pub mod errors;
pub mod fragments;
pub mod http;
pub mod join;
pub mod limits;
pub mod persisted;
pub mod profile;
pub mod profile_types;
pub mod stages;
pub mod subscription;
pub mod tenant;
pub mod unlocks;
pub mod user;
pub mod wallet;

use std::sync::Arc;

use async_graphql::{EmptySubscription, MergedObject, Schema};

/// Deepest selection accepted.
pub const MAX_DEPTH: usize = 15;
/// Largest complexity (one per selected field, aliases included) accepted.
pub const MAX_COMPLEXITY: usize = 1_000;
/// Most operations in one batch.
pub const MAX_BATCH: usize = 10;
/// Most directives on one field.
pub const MAX_DIRECTIVES: usize = 10;
/// Deepest nesting of any kind the parser's checks accept.
pub const MAX_RECURSION: usize = 32;
/// Largest request body.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

// domains: every domain's query object, merged.
#[derive(MergedObject, Default)]
pub struct QueryRoot(
    tenant::TenantQuery,
    wallet::WalletQuery,
    deals::DealsQuery,
    unlocks::UnlocksQuery,
    profile::ProfileQuery,
    user::UserQuery,
    catalog::CatalogQuery,
    subscription::SubscriptionQuery,
    join::JoinQuery,
);

// domains: every domain's mutation object, merged.
#[derive(MergedObject, Default)]
pub struct MutationRoot(
    wallet::WalletMutation,
    deals::DealsMutation,
    unlocks::UnlocksMutation,
    profile::ProfileMutation,
    catalog::CatalogMutation,
    subscription::SubscriptionMutation,
    join::JoinMutation,
);

pub type PaysiteSchema = Schema<QueryRoot, MutationRoot, EmptySubscription>;

/// The clients of the services behind the gateway.
pub struct Upstreams {
    pub wallet: ::wallet_contract::client::WalletClient,
    pub profile: ::profile_contract::client::ProfileClient,
    pub deals: ::deals_contract::client::DealsClient,
    pub unlocks: ::unlocks_contract::client::UnlocksClient,
    pub catalog: ::catalog_contract::client::CatalogClient,
    pub subscription: ::subscription_contract::client::SubscriptionClient,
    /// The payments host's base URL (`PAYSITE_PAYMENTS_URL`; locally the biller sandbox plays
    /// it), where `{payments host}/v1/outgoing-upsells-oneclick/cams` is passed.
    pub payments_base: String,
    /// The unlocks service's base URL, where `/media/videos/...` is passed through.
    pub unlocks_base: String,
    /// The catalog service's base URL, where the other `/media/...` (placeholder images and
    /// trailers, the tenant's `assetsUrlV2`) is passed through.
    pub catalog_base: String,
}

impl Upstreams {
    /// Every service at `PAYSITE_<NAME>_URL`, else its default port on this machine.
    pub fn from_env() -> Self {
        Self::with_base(runtime::config::service_url)
    }

    /// Every service at the base URL `base(name, default port)` gives (tests point some at
    /// real services and the rest nowhere).
    pub fn with_base(base: impl Fn(&str, u16) -> String) -> Self {
        let timeout = std::time::Duration::from_secs(5);
        Upstreams {
            wallet: ::wallet_contract::client::WalletClient::new(runtime::client::Upstream::new(
                "wallet",
                base("wallet", ::wallet_contract::api::PORT),
                timeout,
            )),
            deals: ::deals_contract::client::DealsClient::new(base("deals", ::deals_contract::api::PORT), timeout),
            profile: ::profile_contract::client::ProfileClient::new(base("profile", ::profile_contract::api::PORT)),
            unlocks: ::unlocks_contract::client::UnlocksClient::new(base("unlocks", ::unlocks_contract::api::PORT)),
            catalog: ::catalog_contract::client::CatalogClient::new(base("catalog", ::catalog_contract::api::PORT)),
            subscription: ::subscription_contract::client::SubscriptionClient::new(runtime::client::Upstream::new(
                "subscription",
                base("subscription", ::subscription_contract::api::PORT),
                timeout,
            )),
            payments_base: base("payments", 8090).trim_end_matches('/').to_owned(),
            unlocks_base: base("unlocks", ::unlocks_contract::api::PORT).trim_end_matches('/').to_owned(),
            catalog_base: base("catalog", ::catalog_contract::api::PORT).trim_end_matches('/').to_owned(),
        }
    }
}

/// The schema with its limits; introspection and suggestions only in development.
pub fn schema(upstreams: Option<Arc<Upstreams>>, development: bool) -> PaysiteSchema {
    build(upstreams, development, cost::CostGuard::default())
}

/// The same schema without the cost checks ([`cost::CostGuard::parse_cache_only`]: the same
/// memory of parsed texts, nothing checked): only for `paysite bench refusals`, which measures
/// what the checks cost a page's query.
pub fn schema_without_cost_guard(upstreams: Option<Arc<Upstreams>>) -> PaysiteSchema {
    build(upstreams, false, cost::CostGuard::parse_cache_only())
}

fn build(upstreams: Option<Arc<Upstreams>>, development: bool, guard: cost::CostGuard) -> PaysiteSchema {
    // The depth, complexity, recursion and directive limits are checked by [`cost::CostGuard`]
    // and [`stages::Stages`], which give each refusal its code. The engine's own recursion
    // check stays on at the same limit: it walks fragments entered, and only a bound stops it
    // on a cycle (docs/decisions/graphql/no-unbounded-recursion-over-input.md).
    let mut builder = Schema::build(QueryRoot::default(), MutationRoot::default(), EmptySubscription)
        .limit_recursive_depth(MAX_RECURSION)
        .extension(stages::Stages)
        .extension(guard);
    // Persisted documents are named before the engine sees a request ([`persisted`]).
    builder = builder.data(limits::RateLimiter::default());
    if !development {
        builder = builder.disable_introspection().disable_suggestions();
    }
    if let Some(upstreams) = upstreams {
        builder = builder.data(upstreams);
    }
    builder.finish()
}

/// The schema in SDL, as `gateway/schema.graphql` holds it.
pub fn sdl() -> String {
    schema(None, true).sdl()
}
