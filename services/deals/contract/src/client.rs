//! The typed client of the deals service's internal API, for the gateway. Reads are retried
//! on connect errors and 502/503/504 (see [`runtime::client`]); writes are sent once.
//! Every call forwards the caller's bearer token, tenant and correlation id ([`CallContext`]).

use std::time::Duration;

use proto_events::deals::DealType;
use reqwest::Method;
use runtime::client::{CallContext, Upstream, UpstreamError};
use uuid::Uuid;

use crate::api::*;
use crate::routes;

#[derive(Clone, Debug)]
pub struct DealsClient {
    upstream: Upstream,
}

impl DealsClient {
    /// `base` like `http://127.0.0.1:8105`.
    pub fn new(base: impl Into<String>, timeout: Duration) -> Self {
        DealsClient { upstream: Upstream::new("deals", base, timeout) }
    }

    /// The service at `PAYSITE_DEALS_URL`, else port 8105 on this machine.
    pub fn from_env() -> Self {
        DealsClient { upstream: Upstream::from_env("deals", crate::api::PORT) }
    }

    pub fn base(&self) -> &str {
        self.upstream.base()
    }

    /// Where a deal image path (`/media/deals/...`, a deal's `src`) is served: the gateway
    /// passes such requests through.
    pub fn media_url(&self, path: &str) -> String {
        format!("{}{path}", self.base())
    }

    /// findDeals(input: {limit, type, site}). The bearer token, when there is one, decides
    /// whether porn-portal special offers are included.
    pub async fn find_deals(&self, ctx: &CallContext, query: &FindDealsQuery) -> Result<DealsResponse, UpstreamError> {
        let mut params = vec![("type", deal_type_name(query.deal_type).to_owned()), ("site", query.site.clone())];
        if let Some(limit) = query.limit {
            params.push(("limit", limit.to_string()));
        }
        self.upstream.get(&routes::FIND_DEALS, &params, ctx).await
    }

    /// The offers page of `site`: offer page id, the offers grid and the user's interstitial.
    pub async fn offers(&self, ctx: &CallContext, site: &str) -> Result<OffersResponse, UpstreamError> {
        self.upstream.get(&routes::OFFERS, &[("site", site.to_owned())], ctx).await
    }

    /// The signed-in user's interstitial on `site` (needs the bearer token).
    pub async fn interstitial(&self, ctx: &CallContext, site: &str) -> Result<InterstitialView, UpstreamError> {
        self.upstream.get(&routes::INTERSTITIAL, &[("site", site.to_owned())], ctx).await
    }

    /// Hide the interstitial for one month (needs the bearer token). Safe to repeat.
    pub async fn snooze_interstitial(
        &self,
        ctx: &CallContext,
        answer: &InterstitialAnswer,
    ) -> Result<InterstitialView, UpstreamError> {
        self.upstream.post(&routes::SNOOZE_INTERSTITIAL, answer, ctx).await
    }

    /// Go on past the interstitial (needs the bearer token).
    pub async fn continue_interstitial(
        &self,
        ctx: &CallContext,
        answer: &InterstitialAnswer,
    ) -> Result<InterstitialView, UpstreamError> {
        self.upstream.post(&routes::CONTINUE_INTERSTITIAL, answer, ctx).await
    }

    /// A step of loading the deal carousel.
    pub async fn track_carousel_event(
        &self,
        ctx: &CallContext,
        request: &CarouselEventRequest,
    ) -> Result<CarouselEventResponse, UpstreamError> {
        self.upstream.post(&routes::TRACK_CAROUSEL_EVENT, request, ctx).await
    }

    /// Checks a /deals `confirmation` value; a refusal carries the code
    /// (`CONFIRMATION_NOT_BASE64`, `CONFIRMATION_NOT_JSON`, `CONFIRMATION_MALFORMED`,
    /// `CONFIRMATION_LINK_MISSING`, `CONFIRMATION_LINK_INVALID`) and the message to show.
    pub async fn check_confirmation(
        &self,
        ctx: &CallContext,
        confirmation: &str,
    ) -> Result<ConfirmOutgoingUpsellProps, UpstreamError> {
        self.upstream.get(&routes::CHECK_CONFIRMATION, &[("confirmation", confirmation.to_owned())], ctx).await
    }

    // --- operators (the bearer token must be an admin's) ---

    pub async fn admin_list(&self, ctx: &CallContext, site: &str) -> Result<DealsResponse, UpstreamError> {
        self.upstream.get(&routes::ADMIN_LIST_DEALS, &[("site", site.to_owned())], ctx).await
    }

    pub async fn admin_get(&self, ctx: &CallContext, deal_id: Uuid) -> Result<DealView, UpstreamError> {
        self.upstream.get(&routes::ADMIN_GET_DEAL.path_with(&[&deal_id]), &[], ctx).await
    }

    /// Creates a deal; sending the same deal (with its `id`) again is answered the same.
    pub async fn admin_create(&self, ctx: &CallContext, deal: &DealInput) -> Result<DealView, UpstreamError> {
        self.upstream.post(&routes::ADMIN_CREATE_DEAL, deal, ctx).await
    }

    /// Replaces a deal with `deal` (every field).
    pub async fn admin_edit(
        &self,
        ctx: &CallContext,
        deal_id: Uuid,
        deal: &DealInput,
    ) -> Result<DealView, UpstreamError> {
        self.upstream.call(Method::PUT, &routes::ADMIN_EDIT_DEAL.path_with(&[&deal_id]), Some(deal), ctx).await
    }

    pub async fn admin_enable(
        &self,
        ctx: &CallContext,
        deal_id: Uuid,
        deal_type: DealType,
    ) -> Result<DealView, UpstreamError> {
        self.upstream
            .post(&routes::ADMIN_ENABLE_DEAL.path_with(&[&deal_id]), &PlacementRequest { deal_type }, ctx)
            .await
    }

    pub async fn admin_disable(
        &self,
        ctx: &CallContext,
        deal_id: Uuid,
        deal_type: DealType,
    ) -> Result<DealView, UpstreamError> {
        self.upstream
            .post(&routes::ADMIN_DISABLE_DEAL.path_with(&[&deal_id]), &PlacementRequest { deal_type }, ctx)
            .await
    }

    pub async fn admin_rank(
        &self,
        ctx: &CallContext,
        deal_id: Uuid,
        deal_type: DealType,
        rank: i64,
    ) -> Result<DealView, UpstreamError> {
        self.upstream.post(&routes::ADMIN_RANK_DEAL.path_with(&[&deal_id]), &RankRequest { deal_type, rank }, ctx).await
    }
}
