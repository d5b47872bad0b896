//! What every resolver knows about its request: the site, the signed-in user, the
//! correlation id, the upstream clients and the per-account rate limits.

use std::sync::Arc;

use async_graphql::Context;
use runtime::{auth::Claims, client::CallContext};
use uuid::Uuid;

use super::{errors, limits::RateLimiter, Upstreams};
use crate::hosts::Site;

/// The signed-in user of a request.
#[derive(Clone, Debug)]
pub struct Viewer {
    pub claims: Claims,
    /// The access token, forwarded to the services that act for the user.
    pub token: String,
}

impl Viewer {
    pub fn id(&self) -> Uuid {
        self.claims.sub
    }
}

/// Per-request data, set by the `/graphql` handler.
#[derive(Clone)]
pub struct RequestCtx {
    pub site: Arc<Site>,
    pub viewer: Option<Viewer>,
    pub correlation_id: Option<String>,
    /// The caller's abilities, computed when a resolver first asks (see [`super::abilities`]).
    pub ability: super::abilities::AbilityCell,
    /// The signed-in user's findOneUserProfile, asked of its owners when a resolver (or the
    /// abilities) first needs it, then shared (see [`super::profile::of`]).
    pub profile: ProfileCell,
}

/// One operation's profile, loaded on first use.
pub type ProfileCell = Arc<tokio::sync::OnceCell<crate::user_profile::UserProfile>>;

impl RequestCtx {
    pub fn new(site: Arc<Site>, viewer: Option<Viewer>, correlation_id: Option<String>) -> Self {
        RequestCtx { site, viewer, correlation_id, ability: Default::default(), profile: Default::default() }
    }

    /// The same caller for another operation of a batch (whose profile and abilities are its
    /// own: an earlier operation may have changed them).
    pub fn for_next_operation(&self) -> Self {
        RequestCtx { ability: Default::default(), profile: Default::default(), ..self.clone() }
    }

    /// The brand key of the host (`vixen`).
    pub fn tenant(&self) -> &str {
        &self.site.tenant.tenant
    }

    /// The signed-in user, or `UNAUTHENTICATED`.
    pub fn viewer(&self) -> async_graphql::Result<&Viewer> {
        self.viewer.as_ref().ok_or_else(errors::unauthenticated)
    }

    /// What a call to a service carries: the user's token (if any), the tenant, the correlation id.
    pub fn call(&self) -> CallContext {
        CallContext {
            bearer: self.viewer.as_ref().map(|v| v.token.clone()),
            tenant: Some(self.tenant().to_owned()),
            correlation_id: self.correlation_id.clone(),
        }
    }
}

/// The request's context.
pub fn request<'a>(ctx: &'a Context<'_>) -> &'a RequestCtx {
    ctx.data_unchecked::<RequestCtx>()
}

/// The upstream clients.
pub fn upstreams<'a>(ctx: &'a Context<'_>) -> &'a Upstreams {
    ctx.data_unchecked::<Arc<Upstreams>>()
}

/// Counts one operation of `bucket` against the signed-in user's limit (each field
/// invocation counts, so aliases inside one request count one by one); `RATE_LIMITED` past it.
pub fn limit(ctx: &Context<'_>, bucket: super::limits::Bucket) -> async_graphql::Result<()> {
    let viewer = request(ctx).viewer()?;
    ctx.data_unchecked::<RateLimiter>().check(bucket, &viewer.id().to_string())
}
