//! Subscriptions and billing (product.md, "Subscriptions and their states"): the light subscription read,
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

pub mod rest;
mod types;

pub use types::*;

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
