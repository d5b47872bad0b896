//! Subscriptions and billing (account-payments-gems.md §4, §7): the light subscription read,
//! the welcome check after a signup, the one-click purchases (multisite, single site, trial
//! upgrade), retention (offer, reactivation of a cancelled rebill, cancel) and the card update.
//!
//! Every operation acts for the signed-in user: the subscription service reads who and which
//! brand from the forwarded access token, and an argument naming a user (`userUuid`) must be
//! the viewer (`FORBIDDEN` otherwise, before any call). One-click purchases need the user's
//! consent and an idempotency key (the same key answers the same and charges once) and count
//! against the upsell rate limit. The welcome page's reads and its trial upgrade may come
//! before any session: the member's signed `hashedMemberId` proves who they are.

use crate::user_profile::{UpgradeOptions, XSiteInfo};
use async_graphql::{Context, InputObject, Json, Object, SimpleObject};
use serde_json::Value;
use subscription_contract::api::{
    LightRead, MultisitePurchase, OutgoingUpsellRequest, PurchaseAnswer, ReactivateCancelledRebill, SinglesitePurchase,
    SubscriptionInfo, Tracking, TrialUpgradePurchase,
};
use uuid::Uuid;

use super::{
    context::{limit, request, upstreams},
    errors,
    limits::{Bucket, RateLimiter},
};

#[derive(Default)]
pub struct SubscriptionQuery;

#[derive(Default)]
pub struct SubscriptionMutation;

/// Longest idempotency key accepted.
pub const MAX_IDEMPOTENCY_KEY: usize = 200;

/// getUserSubscription: the light subset of the profile (§3).
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct LightSubscription {
    /// Brands the user's active member and trial subscriptions open.
    pub site_access_array: Vec<String>,
    /// One value per brand key plus `channels`; `full` means full access.
    pub tenants_subscription_state: std::collections::BTreeMap<String, String>,
    pub subscription: SubscriptionSlice,
    pub biller_name: Option<String>,
}

/// The `subscription` of the light read.
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct SubscriptionSlice {
    /// member, trial, porn-portal or expired.
    #[graphql(name = "type")]
    pub kind: String,
    pub subscription_type: String,
    pub biller: Option<String>,
    pub porn_portal: bool,
    pub active: bool,
    pub is_active: bool,
    pub active_since: Option<chrono::DateTime<chrono::Utc>>,
    pub join_date: Option<chrono::DateTime<chrono::Utc>>,
    /// Whole months of membership (with the 7-day grace), if any.
    pub seniority: Option<u32>,
    pub x_site_info: Option<XSiteInfo>,
    pub cancelled: bool,
    pub is_free_limited_trial: bool,
    pub upgrade_options: UpgradeOptions,
}

impl From<SubscriptionInfo> for SubscriptionSlice {
    fn from(s: SubscriptionInfo) -> Self {
        SubscriptionSlice {
            kind: s.kind,
            subscription_type: s.subscription_type,
            biller: s.biller,
            porn_portal: s.porn_portal,
            active: s.active,
            is_active: s.is_active,
            active_since: s.active_since,
            join_date: s.join_date,
            seniority: s.seniority,
            x_site_info: s.x_site_info.map(|x| XSiteInfo { site: x.site }),
            cancelled: s.cancelled,
            is_free_limited_trial: s.is_free_limited_trial,
            upgrade_options: UpgradeOptions {
                is_upgradeable_to_vixen_plus_yearly: s.upgrade_options.is_upgradeable_to_vixen_plus_yearly,
            },
        }
    }
}

impl From<LightRead> for LightSubscription {
    fn from(r: LightRead) -> Self {
        LightSubscription {
            site_access_array: r.site_access_array,
            tenants_subscription_state: r.tenants_subscription_state,
            subscription: r.subscription.into(),
            biller_name: r.biller_name,
        }
    }
}

/// welcomeCheck's answer: the welcome data of §3.
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct WelcomeCheck {
    pub memberid: Option<String>,
    pub hashed_member_id: Option<String>,
    pub username: Option<String>,
    pub site_id: Option<u32>,
    /// The account exists (false while it is being created: poll again in 5 s).
    pub is_welcome: bool,
    pub is_trial: bool,
    /// Signs the new member in (only within an hour of the approval).
    pub autologin_id: Option<String>,
    pub traffik_junky_transaction_id: Option<String>,
    /// The join race: `username` was taken while the payment went through, so the account has
    /// no username yet; the new member chooses another after signing in.
    pub username_lost: bool,
}

/// A one-click purchase's answer (§7).
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct OneclickPurchase {
    pub success: bool,
    /// Where the browser goes, when given.
    pub location: Option<String>,
    pub username: Option<String>,
    pub member_id: Option<String>,
    pub hashed_member_id: Option<String>,
}

impl From<PurchaseAnswer> for OneclickPurchase {
    fn from(a: PurchaseAnswer) -> Self {
        OneclickPurchase {
            success: a.success,
            location: a.location,
            username: a.username,
            member_id: a.member_id,
            hashed_member_id: a.hashed_member_id,
        }
    }
}

/// The tracking a purchase carries along (analytics, not read by the charge).
#[derive(InputObject)]
#[graphql(rename_fields = "camelCase")]
pub struct PurchaseTrackingInput {
    pub external_conversion: Option<Json<Value>>,
    pub marketing: Option<Json<Value>>,
}

impl From<PurchaseTrackingInput> for Tracking {
    fn from(t: PurchaseTrackingInput) -> Self {
        Tracking { external_conversion: t.external_conversion.map(|j| j.0), marketing: t.marketing.map(|j| j.0) }
    }
}

#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct RetentionPriceRange {
    pub min: String,
    pub max: String,
}

#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct RetentionDisplayRules {
    pub price_range: RetentionPriceRange,
    /// Days between rebills.
    pub rebill_period: u32,
    pub sites: Vec<String>,
    pub subscription_type: String,
    pub brands: Vec<String>,
}

/// A retention deal: a special rebill price, or gems.
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct RetentionDeal {
    pub new_price: Option<String>,
    pub offered_gems: Option<u32>,
}

/// The deal of the offer taken, as getRetentionOffer answered it.
#[derive(InputObject)]
#[graphql(rename_fields = "camelCase")]
pub struct RetentionDealInput {
    pub new_price: Option<String>,
    pub offered_gems: Option<u32>,
}

/// getRetentionOffer's answer (§3).
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct RetentionOffer {
    pub name: String,
    pub currencies: Vec<String>,
    pub display_rules: RetentionDisplayRules,
    pub deal: RetentionDeal,
    pub current_rebill_amount: String,
    pub current_rebill_currency: String,
}

/// A subscription write's answer: success and the light read after it.
#[derive(SimpleObject)]
pub struct SubscriptionChange {
    pub success: bool,
    pub subscription: LightSubscription,
}

/// creditCardUpdate's answer.
#[derive(SimpleObject)]
pub struct CreditCardUpdate {
    pub url: String,
}

/// An outgoing upsell's price: the first charge and the rebill.
#[derive(SimpleObject)]
pub struct OutgoingUpsellPrice {
    pub initial: String,
    pub recurring: String,
}

/// The ConfirmOutgoingUpsell modal's content, when the sale needs confirming first.
#[derive(SimpleObject)]
pub struct OutgoingUpsellConfirmationModal {
    pub price: OutgoingUpsellPrice,
    pub title: String,
    pub description: String,
    pub component: String,
}

/// outgoingUpsellOneclick's answer (§7).
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct OutgoingUpsellOneclick {
    pub success: bool,
    pub redirect_url: Option<String>,
    pub redirect_to_confirmation_step: bool,
    pub confirmation_modal: Option<OutgoingUpsellConfirmationModal>,
}

/// outgoingUpsellOneclickTracking's answer (§7).
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct OutgoingUpsellOneclickTracking {
    pub success: bool,
    pub redirect_url: Option<String>,
}

/// The cookies outgoingUpsellOneclickTracking sets when it answers a redirectUrl.
pub const SUCCESS_COOKIE: &str = "outgoing_upsell_oneclick_success";
pub const FALLBACK_COOKIE: &str = "outgoing_upsell_oneclick_fallback";
/// How long they last: one day (the final argument of 1 in §7, read as days).
pub const OUTGOING_COOKIE_MAX_AGE_SECS: u32 = 86_400;

/// The `Set-Cookie` value of an outgoing upsell outcome.
pub fn outgoing_cookie(success: bool, redirect_url: &str) -> String {
    let name = if success { SUCCESS_COOKIE } else { FALLBACK_COOKIE };
    const COOKIE_VALUE: &percent_encoding::AsciiSet =
        &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');
    let value = percent_encoding::utf8_percent_encode(redirect_url, COOKIE_VALUE);
    format!("{name}={value}; Path=/; Max-Age={OUTGOING_COOKIE_MAX_AGE_SECS}; SameSite=Lax")
}

/// getWelcomePagePictureSet's input: the brand, upper-case (`VIXEN`).
#[derive(InputObject)]
pub struct WelcomePagePictureSetInput {
    pub site: String,
}

/// The welcome page's pictures: a picture set of the brand's catalog.
#[derive(SimpleObject)]
pub struct WelcomePagePictureSet {
    /// The brand as asked (upper-case).
    pub site: String,
    pub images: Vec<super::catalog::types::Image>,
}

/// How many of the brand's top-rated videos are tried for a picture set.
pub const WELCOME_PICTURE_CANDIDATES: i64 = 12;
/// Most pictures the welcome page gets.
pub const WELCOME_PICTURES_MAX: usize = 12;

fn idempotency_key(key: String) -> async_graphql::Result<String> {
    let key = key.trim().to_owned();
    if key.is_empty() || key.len() > MAX_IDEMPOTENCY_KEY {
        return Err(errors::bad_input(format!("idempotencyKey must be 1 to {MAX_IDEMPOTENCY_KEY} characters")));
    }
    Ok(key)
}

/// `userUuid` must be the signed-in user.
fn own(ctx: &Context<'_>, user_uuid: Option<Uuid>) -> async_graphql::Result<()> {
    let viewer = request(ctx).viewer()?;
    match user_uuid {
        Some(u) if u != viewer.id() => Err(errors::forbidden()),
        _ => Ok(()),
    }
}

#[Object]
impl SubscriptionQuery {
    /// getUserSubscription: siteAccessArray, tenantsSubscriptionState, subscription and
    /// billerName of the signed-in user on this brand.
    async fn get_user_subscription(&self, ctx: &Context<'_>) -> async_graphql::Result<LightSubscription> {
        let request = request(ctx);
        request.viewer()?;
        let read = upstreams(ctx).subscription.light(&request.call()).await.map_err(errors::upstream)?;
        Ok(read.into())
    }

    /// welcomeCheck(site, memberId, hashedMemberId): the welcome data after a signup; not
    /// welcome yet while the account is being created; `SIGNUP_DENIED` with the biller's
    /// `reason` after a decline.
    async fn welcome_check(
        &self,
        ctx: &Context<'_>,
        site: String,
        member_id: String,
        hashed_member_id: String,
    ) -> async_graphql::Result<WelcomeCheck> {
        let request = request(ctx);
        let w = upstreams(ctx)
            .subscription
            .welcome_check(&site.to_lowercase(), &member_id, &hashed_member_id, &request.call())
            .await
            .map_err(errors::upstream)?;
        Ok(WelcomeCheck {
            memberid: w.memberid,
            hashed_member_id: w.hashed_member_id,
            username: w.username,
            site_id: w.site_id,
            is_welcome: w.is_welcome,
            is_trial: w.is_trial,
            autologin_id: w.autologin_id,
            traffik_junky_transaction_id: w.traffik_junky_transaction_id,
            username_lost: w.username_lost,
        })
    }

    /// getRetentionOffer(userUuid): the offer for the signed-in user's cancelled rebill, or
    /// null when none applies.
    async fn get_retention_offer(
        &self,
        ctx: &Context<'_>,
        user_uuid: Option<Uuid>,
    ) -> async_graphql::Result<Option<RetentionOffer>> {
        own(ctx, user_uuid)?;
        let request = request(ctx);
        let answer =
            upstreams(ctx).subscription.retention_offer(user_uuid, &request.call()).await.map_err(errors::upstream)?;
        Ok(answer.retention_offer.map(|o| RetentionOffer {
            name: o.name,
            currencies: o.currencies,
            display_rules: RetentionDisplayRules {
                price_range: RetentionPriceRange {
                    min: o.display_rules.price_range.min,
                    max: o.display_rules.price_range.max,
                },
                rebill_period: o.display_rules.rebill_period,
                sites: o.display_rules.sites,
                subscription_type: o.display_rules.subscription_type,
                brands: o.display_rules.brands,
            },
            deal: RetentionDeal { new_price: o.deal.new_price, offered_gems: o.deal.offered_gems },
            current_rebill_amount: o.current_rebill_amount,
            current_rebill_currency: o.current_rebill_currency,
        }))
    }

    /// getWelcomePagePictureSet(input: {site}): the welcome page's background pictures, from
    /// the picture set of the brand's best-rated video that has one; null when none does. The
    /// site is the host's brand, upper-case.
    async fn get_welcome_page_picture_set(
        &self,
        ctx: &Context<'_>,
        input: WelcomePagePictureSetInput,
    ) -> async_graphql::Result<Option<WelcomePagePictureSet>> {
        super::catalog::check_site(ctx, Some(&input.site))?;
        let caller = super::catalog::caller(ctx);
        let catalog = &upstreams(ctx).catalog;
        let paging = ::catalog_contract::client::Paging { page: Some(1), size: Some(WELCOME_PICTURE_CANDIDATES) };
        let top = catalog.top_rated(&caller, &paging).await.map_err(super::catalog::refused)?;
        for video in top.videos {
            match catalog.picture_set(&caller, &video.slug).await {
                Ok(set) if !set.images.is_empty() => {
                    let images = set.images.into_iter().take(WELCOME_PICTURES_MAX).map(Into::into).collect();
                    return Ok(Some(WelcomePagePictureSet { site: input.site.to_uppercase(), images }));
                }
                Ok(_) => {}
                Err(e) if e.status() == Some(404) => {}
                Err(e) => return Err(super::catalog::refused(e)),
            }
        }
        Ok(None)
    }

    /// creditCardUpdate: the biller's card update page, only for the biller path /vxnbill
    /// (`UPDATE_CREDIT_CARD_ERROR` with the flash account.update_credit_card_error otherwise).
    async fn credit_card_update(&self, ctx: &Context<'_>) -> async_graphql::Result<CreditCardUpdate> {
        let request = request(ctx);
        request.viewer()?;
        let answer = upstreams(ctx).subscription.credit_card_update(&request.call()).await.map_err(errors::upstream)?;
        Ok(CreditCardUpdate { url: answer.url })
    }
}

/// The call context of a one-click purchase by the signed-in user, counted against the limit.
fn buying(ctx: &Context<'_>) -> async_graphql::Result<runtime::client::CallContext> {
    let request = request(ctx);
    request.viewer()?;
    limit(ctx, Bucket::Upsell)?;
    Ok(request.call())
}

#[Object]
impl SubscriptionMutation {
    /// internalUpsellOneclickMultisite: the multisite package (sixSite) charged to the card
    /// on file. Needs `consent`; the same `idempotencyKey` charges once and answers the same.
    #[allow(clippy::too_many_arguments)]
    async fn internal_upsell_oneclick_multisite(
        &self,
        ctx: &Context<'_>,
        option_id: u32,
        #[graphql(name = "ref")] page_ref: Option<String>,
        elm: Option<String>,
        multisite_nats_code: Option<String>,
        tracking: Option<PurchaseTrackingInput>,
        consent: bool,
        idempotency_key: String,
    ) -> async_graphql::Result<OneclickPurchase> {
        let idempotency_key = self::idempotency_key(idempotency_key)?;
        let call = buying(ctx)?;
        let body = MultisitePurchase {
            option_id,
            page_ref,
            elm,
            multisite_nats_code,
            tracking: tracking.map(Tracking::from),
            consent,
            idempotency_key,
        };
        Ok(upstreams(ctx).subscription.multisite(&body, &call).await.map_err(errors::upstream)?.into())
    }

    /// internalUpsellOneclickSinglesite: one site (reactivate), like the multisite one.
    #[allow(clippy::too_many_arguments)]
    async fn internal_upsell_oneclick_singlesite(
        &self,
        ctx: &Context<'_>,
        join_option_id: u32,
        #[graphql(name = "ref")] page_ref: Option<String>,
        elm: Option<String>,
        site_name: String,
        nats_code: Option<String>,
        tracking: Option<PurchaseTrackingInput>,
        consent: bool,
        idempotency_key: String,
    ) -> async_graphql::Result<OneclickPurchase> {
        let idempotency_key = self::idempotency_key(idempotency_key)?;
        let call = buying(ctx)?;
        let body = SinglesitePurchase {
            join_option_id,
            page_ref,
            elm,
            site_name,
            nats_code,
            tracking: tracking.map(Tracking::from),
            consent,
            idempotency_key,
        };
        Ok(upstreams(ctx).subscription.singlesite(&body, &call).await.map_err(errors::upstream)?.into())
    }

    /// internalUpsellTrialUpgrade: the signed-in trial member's upgrade at the fixed price.
    #[allow(clippy::too_many_arguments)]
    async fn internal_upsell_trial_upgrade(
        &self,
        ctx: &Context<'_>,
        member_id: Option<String>,
        hashed_member_id: Option<String>,
        #[graphql(name = "ref")] page_ref: Option<String>,
        tracking: Option<PurchaseTrackingInput>,
        consent: bool,
        idempotency_key: String,
    ) -> async_graphql::Result<OneclickPurchase> {
        let idempotency_key = self::idempotency_key(idempotency_key)?;
        let call = buying(ctx)?;
        let body = TrialUpgradePurchase {
            member_id,
            hashed_member_id,
            page_ref,
            tracking: tracking.map(Tracking::from),
            welcome_page: false,
            consent,
            idempotency_key,
        };
        Ok(upstreams(ctx).subscription.trial_upgrade(&body, &call).await.map_err(errors::upstream)?.into())
    }

    /// internalUpsellTrialUpgradeWelcomePage: the same from the welcome page, where the new
    /// member may not be signed in yet: then `memberId` and its signed `hashedMemberId` name
    /// the buyer (and the limit counts per member).
    #[allow(clippy::too_many_arguments)]
    async fn internal_upsell_trial_upgrade_welcome_page(
        &self,
        ctx: &Context<'_>,
        member_id: String,
        hashed_member_id: String,
        #[graphql(name = "ref")] page_ref: Option<String>,
        tracking: Option<PurchaseTrackingInput>,
        consent: bool,
        idempotency_key: String,
    ) -> async_graphql::Result<OneclickPurchase> {
        let idempotency_key = self::idempotency_key(idempotency_key)?;
        let request = request(ctx);
        match &request.viewer {
            Some(_) => limit(ctx, Bucket::Upsell)?,
            None => ctx.data_unchecked::<RateLimiter>().check(Bucket::Upsell, &format!("member:{member_id}"))?,
        }
        let body = TrialUpgradePurchase {
            member_id: Some(member_id),
            hashed_member_id: Some(hashed_member_id),
            page_ref,
            tracking: tracking.map(Tracking::from),
            welcome_page: true,
            consent,
            idempotency_key,
        };
        Ok(upstreams(ctx).subscription.trial_upgrade(&body, &request.call()).await.map_err(errors::upstream)?.into())
    }

    /// reactivateCancelledRebill(userUuid, retentionOfferName, deal): the signed-in user's
    /// cancelled native rebill runs again on the offer's deal.
    async fn reactivate_cancelled_rebill(
        &self,
        ctx: &Context<'_>,
        user_uuid: Uuid,
        retention_offer_name: String,
        deal: RetentionDealInput,
    ) -> async_graphql::Result<SubscriptionChange> {
        own(ctx, Some(user_uuid))?;
        limit(ctx, Bucket::Upsell)?;
        let body = ReactivateCancelledRebill {
            user_uuid,
            retention_offer_name,
            deal: subscription_contract::api::RetentionDeal {
                new_price: deal.new_price,
                offered_gems: deal.offered_gems,
            },
        };
        let answer = upstreams(ctx)
            .subscription
            .reactivate_cancelled_rebill(&body, &request(ctx).call())
            .await
            .map_err(errors::upstream)?;
        Ok(SubscriptionChange { success: answer.success, subscription: answer.subscription.into() })
    }

    /// Cancels the signed-in user's native rebill (other billers cancel at the biller:
    /// `CANCEL_AT_BILLER`); a tandem child may not.
    async fn cancel_subscription(&self, ctx: &Context<'_>) -> async_graphql::Result<SubscriptionChange> {
        let request = request(ctx);
        request.viewer()?;
        limit(ctx, Bucket::Write)?;
        let answer = upstreams(ctx).subscription.cancel(&request.call()).await.map_err(errors::upstream)?;
        Ok(SubscriptionChange { success: answer.success, subscription: answer.subscription.into() })
    }
    /// outgoingUpsellOneclick: a partner's membership in one click, charged by the member's
    /// own biller under its upsell id; with `confirmationRequired` nothing is charged and the
    /// confirmation modal is answered; without a membership or an upsell id for its biller,
    /// the fallback. The links must be this site's paths or the partner's addresses.
    #[allow(clippy::too_many_arguments)]
    async fn outgoing_upsell_oneclick(
        &self,
        ctx: &Context<'_>,
        epoch_upsell_id: Option<String>,
        segpay_upsell_id: Option<String>,
        rg_upsell_id: Option<String>,
        fallback_url: Option<String>,
        member_link: Option<String>,
        click_id: Option<String>,
        #[graphql(default)] confirmation_required: bool,
        site: Option<String>,
    ) -> async_graphql::Result<OutgoingUpsellOneclick> {
        let call = buying(ctx)?;
        let body = OutgoingUpsellRequest {
            epoch_upsell_id,
            segpay_upsell_id,
            rg_upsell_id,
            fallback_url,
            member_link,
            click_id,
            confirmation_required,
            site,
        };
        let a = upstreams(ctx).subscription.outgoing_upsell_oneclick(&body, &call).await.map_err(errors::upstream)?;
        Ok(OutgoingUpsellOneclick {
            success: a.success,
            redirect_url: a.redirect_url,
            redirect_to_confirmation_step: a.redirect_to_confirmation_step,
            confirmation_modal: a.confirmation_modal.map(|m| OutgoingUpsellConfirmationModal {
                price: OutgoingUpsellPrice { initial: m.price.initial, recurring: m.price.recurring },
                title: m.title,
                description: m.description,
                component: m.component,
            }),
        })
    }

    /// outgoingUpsellOneclickTracking(status): true on the success route, false on the
    /// failure route; records the outcome and answers where to go, setting the cookie
    /// outgoing_upsell_oneclick_success or outgoing_upsell_oneclick_fallback to it.
    async fn outgoing_upsell_oneclick_tracking(
        &self,
        ctx: &Context<'_>,
        status: bool,
    ) -> async_graphql::Result<OutgoingUpsellOneclickTracking> {
        let request = request(ctx);
        request.viewer()?;
        limit(ctx, Bucket::Write)?;
        let a = upstreams(ctx)
            .subscription
            .outgoing_upsell_tracking(status, &request.call())
            .await
            .map_err(errors::upstream)?;
        if let Some(url) = &a.redirect_url {
            ctx.append_http_header(axum::http::header::SET_COOKIE, outgoing_cookie(status, url));
        }
        Ok(OutgoingUpsellOneclickTracking { success: a.success, redirect_url: a.redirect_url })
    }
}

/// The billers' door on the public hosts: `POST /billers/{BILLER}/postback` passed to the
/// subscription service byte for byte (the signature covers the raw body), with the biller's
/// headers, and the service's answer (the biller's OK text, or the refusal) passed back.
pub mod rest {
    use axum::{
        body::{Body, Bytes},
        extract::{Path, State},
        http::{header, HeaderMap, HeaderName, StatusCode},
        response::{IntoResponse, Response},
        routing::post,
        Router,
    };

    use crate::GatewayState;

    /// Largest postback body passed on.
    pub const MAX_POSTBACK_BYTES: usize = 64 * 1024;

    /// How long the subscription service may take to apply a postback.
    const POSTBACK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(15);

    /// Request headers not passed on: the connection's own, the browser session's, and what the
    /// gateway states itself (the client address, its own identity, the trace), which the sender
    /// could invent.
    const NOT_FORWARDED: [HeaderName; 10] = [
        HeaderName::from_static("x-forwarded-for"),
        header::AUTHORIZATION,
        HeaderName::from_static("traceparent"),
        header::HOST,
        header::CONNECTION,
        header::CONTENT_LENGTH,
        header::TRANSFER_ENCODING,
        header::TE,
        header::UPGRADE,
        header::COOKIE,
    ];

    pub fn router() -> Router<GatewayState> {
        Router::new()
            .route(
                "/billers/{biller}/postback",
                post(postback).layer(axum::extract::DefaultBodyLimit::max(MAX_POSTBACK_BYTES)),
            )
            .route(
                "/api/payments/v1/outgoing-upsells-oneclick/cams",
                post(cams).layer(axum::extract::DefaultBodyLimit::max(MAX_CAMS_BYTES)),
            )
            .route("/api/_signup-extern/{biller}", axum::routing::get(signup_extern))
    }

    /// The welcome data `/_signup-extern/{biller}` sends (the page's query names it `memberid`).
    #[derive(serde::Deserialize)]
    pub struct SignupExternQuery {
        #[serde(default)]
        memberid: String,
        #[serde(default, rename = "hashedMemberId")]
        hashed_member_id: String,
    }

    /// `GET {api host}/_signup-extern/{biller}` (the api host is `{origin}/api`): `{data: welcome}`
    /// for a member the biller signed up, or a 400 the page turns into signup denied (an unknown
    /// biller or member, a forged hash, a declined signup). No session: the signed
    /// `hashedMemberId` is the proof, as for welcomeCheck.
    async fn signup_extern(
        State(state): State<GatewayState>,
        axum::Extension(site): axum::Extension<std::sync::Arc<crate::hosts::Site>>,
        correlation: Option<axum::Extension<runtime::http::CorrelationId>>,
        Path(biller): Path<String>,
        axum::extract::Query(q): axum::extract::Query<SignupExternQuery>,
    ) -> Response {
        let biller = biller.to_ascii_uppercase();
        if !is_biller_name(&biller) || q.memberid.is_empty() || q.hashed_member_id.is_empty() {
            return failure(StatusCode::BAD_REQUEST, "BAD_REQUEST", "unknown signup");
        }
        let call = runtime::client::CallContext {
            bearer: None,
            tenant: Some(site.tenant.tenant.clone()),
            correlation_id: correlation.map(|axum::Extension(c)| c.0.to_string()),
        };
        let subscription = &state.upstreams.subscription;
        match subscription.signup_extern(&biller, &site.tenant.tenant, &q.memberid, &q.hashed_member_id, &call).await {
            Ok(answer) => {
                ([(header::CACHE_CONTROL, "no-store")], axum::Json(serde_json::json!({ "data": answer.data })))
                    .into_response()
            }
            Err(runtime::client::UpstreamError::Refused { status, code, message, .. })
                if (400..500).contains(&status) =>
            {
                failure(StatusCode::BAD_REQUEST, &code, &message)
            }
            Err(e) => {
                tracing::warn!(error = %e, "signup-extern: the subscription service did not answer");
                failure(StatusCode::BAD_GATEWAY, "SERVICE_UNAVAILABLE", "The subscription service did not answer")
            }
        }
    }

    /// Largest cams request body (the /cams query as JSON).
    pub const MAX_CAMS_BYTES: usize = 16 * 1024;

    fn failure(status: StatusCode, code: &str, message: &str) -> Response {
        (status, axum::Json(serde_json::json!({ "code": code, "message": message }))).into_response()
    }

    /// `POST {payments host}/v1/outgoing-upsells-oneclick/cams` (the tenant's payments host is
    /// `{origin}/api/payments`): for the signed-in user only; the body is the /cams query, and
    /// `email` and `siteName` are the gateway's (the user's e-mail, this brand), never the
    /// browser's. The payments host's answer (`{url}`, or a refusal the page shows as 'Failed
    /// to fetch cams oneclick url') is passed back.
    async fn cams(
        State(state): State<GatewayState>,
        axum::Extension(site): axum::Extension<std::sync::Arc<crate::hosts::Site>>,
        correlation: Option<axum::Extension<runtime::http::CorrelationId>>,
        headers: HeaderMap,
        body: Bytes,
    ) -> Response {
        // A cross-site form cannot send JSON without a preflight, which this host does not grant.
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return failure(
                StatusCode::FORBIDDEN,
                "CSRF_CHECK_FAILED",
                "The request needs content-type application/json",
            );
        }
        let Some((_, token)) = crate::session::current_user(&state, &site, &headers).await else {
            return failure(StatusCode::UNAUTHORIZED, "UNAUTHENTICATED", "You need to log in");
        };
        let Ok(serde_json::Value::Object(mut fields)) = serde_json::from_slice::<serde_json::Value>(&body) else {
            return failure(StatusCode::BAD_REQUEST, "BAD_REQUEST", "The body must be a JSON object");
        };
        let call = runtime::client::CallContext {
            bearer: Some(token),
            tenant: Some(site.tenant.tenant.clone()),
            correlation_id: correlation.map(|axum::Extension(c)| c.0.to_string()),
        };
        let profile = match state.upstreams.profile.own_profile(&call).await {
            Ok(p) => p,
            Err(e) => {
                tracing::warn!(error = %e, "cams: the profile could not be read");
                return failure(StatusCode::BAD_GATEWAY, "SERVICE_UNAVAILABLE", "The profile could not be read");
            }
        };
        // Nothing goes to the partner before the member agreed (CamsConsent, giveCamsConsent).
        if profile.gdpr.should_request_cams_consent {
            return failure(
                StatusCode::FORBIDDEN,
                "CAMS_CONSENT_REQUIRED",
                "Agree to share your e-mail address with the cams partner first",
            );
        }
        fields.insert("email".into(), serde_json::Value::String(profile.email));
        fields.insert("siteName".into(), serde_json::Value::String(site.tenant.tenant.clone()));
        let url = format!("{}/v1/outgoing-upsells-oneclick/cams", state.upstreams.payments_base);
        let upstream = match state.media_http.post(url).timeout(POSTBACK_TIMEOUT).json(&fields).send().await {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!(error = %e, "cams: the payments host did not answer");
                return failure(StatusCode::BAD_GATEWAY, "SERVICE_UNAVAILABLE", "The payments host did not answer");
            }
        };
        let status = upstream.status().as_u16();
        match upstream.bytes().await {
            Ok(bytes) => Response::builder()
                .status(status)
                .header(header::CONTENT_TYPE, "application/json")
                .header(header::CACHE_CONTROL, "no-store")
                .body(Body::from(bytes))
                .unwrap_or_else(|_| StatusCode::BAD_GATEWAY.into_response()),
            Err(_) => StatusCode::BAD_GATEWAY.into_response(),
        }
    }

    /// A biller name is upper-case letters and digits (EPOCH, RGNATIVE); anything else is 404
    /// here, so no other path of the service can be reached through this one.
    fn is_biller_name(name: &str) -> bool {
        !name.is_empty() && name.len() <= 32 && name.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
    }

    /// The billers' postbacks, passed to the subscription service with the sender's address,
    /// which limits forged deliveries per address and per biller (a well-signed one is never
    /// refused).
    async fn postback(
        State(state): State<GatewayState>,
        Path(biller): Path<String>,
        peer: Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>,
        headers: HeaderMap,
        body: Bytes,
    ) -> Response {
        if !is_biller_name(&biller) {
            return StatusCode::NOT_FOUND.into_response();
        }
        let mut forwarded: Vec<(&str, String)> = headers
            .iter()
            .filter(|(name, _)| !NOT_FORWARDED.contains(name))
            .filter_map(|(name, value)| Some((name.as_str(), value.to_str().ok()?.to_owned())))
            .collect();
        if let Some(address) =
            crate::rate_limits::client_address(state.trust_forwarded_for, &headers, peer.map(|p| p.0 .0.ip()))
        {
            forwarded.push(("x-forwarded-for", address));
        }
        let path = format!("/billers/{biller}/postback");
        let ctx = runtime::client::CallContext::system();
        let upstream = match state
            .upstreams
            .subscription
            .pass_through(&path, &forwarded, body.to_vec(), POSTBACK_TIMEOUT, &ctx)
            .await
        {
            Ok(answer) => answer,
            Err(e) => {
                tracing::warn!(error = %e, biller, "postback pass-through failed");
                return StatusCode::BAD_GATEWAY.into_response();
            }
        };
        let mut response = Response::builder().status(upstream.status);
        for (name, value) in &upstream.headers {
            if name.eq_ignore_ascii_case("content-type") || name.eq_ignore_ascii_case("retry-after") {
                response = response.header(name.as_str(), value.as_str());
            }
        }
        response.body(Body::from(upstream.body)).unwrap_or_else(|_| StatusCode::BAD_GATEWAY.into_response())
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn only_biller_names_pass() {
            for good in ["EPOCH", "RGNATIVE", "SEGPAY"] {
                assert!(super::is_biller_name(good), "{good}");
            }
            for bad in ["", "epoch", "..", "EPOCH/../x", "E%2e", "A".repeat(33).as_str()] {
                assert!(!super::is_biller_name(bad), "{bad}");
            }
        }
    }
}
