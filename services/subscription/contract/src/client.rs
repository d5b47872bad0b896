//! The subscription service's internal API as the gateway calls it. Every call acts for the
//! user whose access token the [`CallContext`] carries (the service reads who and which brand
//! from the token), except the welcome reads, which are proven by the member's signed
//! `hashedMemberId`.

use runtime::client::{CallContext, Upstream, UpstreamError};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::api::{
    FullRead, JoinOptions, JoinRequest, JoinStarted, LightRead, MultisitePurchase, OutgoingUpsellAnswer,
    OutgoingUpsellRequest, PurchaseAnswer, ReactivateCancelledRebill, RetentionOfferView, SinglesitePurchase,
    TrackingAnswer, TrackingRequest, TrialUpgradePurchase, WelcomeData,
};
use crate::routes;

/// `getRetentionOffer`'s answer: the offer, or none.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RetentionOfferAnswer {
    pub retention_offer: Option<RetentionOfferView>,
}

/// A write's answer: success and the light read after it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WriteAnswer {
    pub success: bool,
    #[serde(flatten)]
    pub subscription: LightRead,
}

/// `creditCardUpdate`'s answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CardUpdateAnswer {
    pub url: String,
}

/// `/_signup-extern/{biller}`'s answer.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SignupExternAnswer {
    pub data: WelcomeData,
}

#[derive(Clone, Debug)]
pub struct SubscriptionClient {
    upstream: Upstream,
}

impl SubscriptionClient {
    pub fn new(upstream: Upstream) -> Self {
        SubscriptionClient { upstream }
    }

    /// The service at `PAYSITE_SUBSCRIPTION_URL`, else port 8102 on this machine.
    pub fn from_env() -> Self {
        Self::new(Upstream::from_env("subscription", crate::api::PORT))
    }

    /// `POST /billers/{biller}/postback`, passed on as the biller sent it (`path` names the
    /// biller), with the gateway's identity: the answer comes back undecoded.
    pub async fn pass_through(
        &self,
        path: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
        timeout: std::time::Duration,
        ctx: &CallContext,
    ) -> Result<runtime::client::Proxied, UpstreamError> {
        self.upstream.pass_through(reqwest::Method::POST, path, headers, body, timeout, ctx).await
    }

    pub fn base(&self) -> &str {
        self.upstream.base()
    }

    /// The signed-in user's light read (getUserSubscription).
    pub async fn light(&self, ctx: &CallContext) -> Result<LightRead, UpstreamError> {
        self.upstream.get(&routes::LIGHT_SUBSCRIPTION, &[], ctx).await
    }

    /// The signed-in user's full read (types, site type, multisite, tandem, every subscription).
    pub async fn full(&self, ctx: &CallContext) -> Result<FullRead, UpstreamError> {
        self.upstream.get(&routes::FULL_SUBSCRIPTION, &[], ctx).await
    }

    /// The full read of `user_id` on `tenant`, asked by another service: with that user's own
    /// token (`ctx.bearer`), or else the calling service's token.
    pub async fn read_of(&self, user_id: Uuid, tenant: &str, ctx: &CallContext) -> Result<FullRead, UpstreamError> {
        self.upstream
            .get(&routes::USER_SUBSCRIPTION.path_with(&[&user_id]), &[("tenant", tenant.to_owned())], ctx)
            .await
    }

    /// `/_signup-extern/{biller}`: the welcome data of a member the biller signed up
    /// (`memberId` proven by its signed `hashedMemberId`).
    pub async fn signup_extern(
        &self,
        biller: &str,
        site: &str,
        member_id: &str,
        hashed_member_id: &str,
        ctx: &CallContext,
    ) -> Result<SignupExternAnswer, UpstreamError> {
        let query = [
            ("site", site.to_owned()),
            ("memberId", member_id.to_owned()),
            ("hashedMemberId", hashed_member_id.to_owned()),
        ];
        self.upstream.get(&routes::SIGNUP_EXTERN.path_with(&[&biller]), &query, ctx).await
    }

    /// A brand's join options with their example prices (no session needed).
    pub async fn join_options(&self, site: &str, ctx: &CallContext) -> Result<JoinOptions, UpstreamError> {
        self.upstream.get(&routes::JOIN_OPTIONS, &[("site", site.to_owned())], ctx).await
    }

    /// The join form: the product.md, "Sign-up and join" checks, then the signup and the biller's payment page to go to.
    pub async fn join(&self, request: &JoinRequest, ctx: &CallContext) -> Result<JoinStarted, UpstreamError> {
        self.upstream.post(&routes::JOIN, request, ctx).await
    }

    /// `welcomeCheck(site, memberId, hashedMemberId)`.
    pub async fn welcome_check(
        &self,
        site: &str,
        member_id: &str,
        hashed_member_id: &str,
        ctx: &CallContext,
    ) -> Result<WelcomeData, UpstreamError> {
        let query = [
            ("site", site.to_owned()),
            ("memberId", member_id.to_owned()),
            ("hashedMemberId", hashed_member_id.to_owned()),
        ];
        self.upstream.get(&routes::WELCOME_CHECK, &query, ctx).await
    }

    pub async fn multisite(
        &self,
        request: &MultisitePurchase,
        ctx: &CallContext,
    ) -> Result<PurchaseAnswer, UpstreamError> {
        self.upstream.post(&routes::BUY_MULTISITE, request, ctx).await
    }

    pub async fn singlesite(
        &self,
        request: &SinglesitePurchase,
        ctx: &CallContext,
    ) -> Result<PurchaseAnswer, UpstreamError> {
        self.upstream.post(&routes::BUY_SINGLESITE, request, ctx).await
    }

    /// The trial upgrade, for the signed-in user or (welcome page) the member the request names.
    pub async fn trial_upgrade(
        &self,
        request: &TrialUpgradePurchase,
        ctx: &CallContext,
    ) -> Result<PurchaseAnswer, UpstreamError> {
        self.upstream.post(&routes::BUY_TRIAL_UPGRADE, request, ctx).await
    }

    pub async fn retention_offer(
        &self,
        user_uuid: Option<Uuid>,
        ctx: &CallContext,
    ) -> Result<RetentionOfferAnswer, UpstreamError> {
        let query: Vec<(&str, String)> = user_uuid.map(|u| ("userUuid", u.to_string())).into_iter().collect();
        self.upstream.get(&routes::RETENTION_OFFER, &query, ctx).await
    }

    pub async fn reactivate_cancelled_rebill(
        &self,
        request: &ReactivateCancelledRebill,
        ctx: &CallContext,
    ) -> Result<WriteAnswer, UpstreamError> {
        self.upstream.post(&routes::REACTIVATE_CANCELLED_REBILL, request, ctx).await
    }

    /// Cancels the signed-in user's native rebill.
    pub async fn cancel(&self, ctx: &CallContext) -> Result<WriteAnswer, UpstreamError> {
        self.upstream.post(&routes::CANCEL_SUBSCRIPTION, &(), ctx).await
    }

    pub async fn credit_card_update(&self, ctx: &CallContext) -> Result<CardUpdateAnswer, UpstreamError> {
        self.upstream.get(&routes::CREDIT_CARD_UPDATE, &[], ctx).await
    }

    /// `outgoingUpsellOneclick` for the signed-in member.
    pub async fn outgoing_upsell_oneclick(
        &self,
        request: &OutgoingUpsellRequest,
        ctx: &CallContext,
    ) -> Result<OutgoingUpsellAnswer, UpstreamError> {
        self.upstream.post(&routes::OUTGOING_UPSELL_ONECLICK, request, ctx).await
    }

    /// `outgoingUpsellOneclickTracking(status)` for the signed-in member.
    pub async fn outgoing_upsell_tracking(
        &self,
        status: bool,
        ctx: &CallContext,
    ) -> Result<TrackingAnswer, UpstreamError> {
        self.upstream.post(&routes::OUTGOING_UPSELL_TRACKING, &TrackingRequest { status }, ctx).await
    }
}
