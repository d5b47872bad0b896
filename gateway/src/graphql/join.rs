//! Join (product.md, "Sign-up and join"): the join form of the members host's `/joinnow`.
//! `joinOptions` lists the host's brand's options with their example prices (config);
//! `join` runs the form's checks on the subscription service, records the signup and answers
//! the biller's payment page the browser goes to. The biller's postback then makes the
//! account, and the browser comes back to `/_signupsuccess` or `/_signupdenial`.
//!
//! The spec names no GraphQL operation for the join form (its original posts a form to the
//! members area), so the names are ours. The brand is always the host's: a members host per
//! brand joins that brand; the shared local one joins its default tenant.

use async_graphql::{Context, InputObject, Object, SimpleObject};
use subscription_contract::api::JoinRequest;
use uuid::Uuid;

use super::{
    context::{request, upstreams},
    errors,
    limits::{Bucket, RateLimiter},
};

#[derive(Default)]
pub struct JoinQuery;

#[derive(Default)]
pub struct JoinMutation;

/// A join option of the form, with its example price.
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct JoinOption {
    pub id: u32,
    /// The brand it opens, or the multisite package's name.
    pub site: String,
    /// `member` or `trial`.
    pub kind: String,
    pub free_limited_trial: bool,
    pub title: String,
    pub price: String,
    pub currency: String,
    pub rebill_price: String,
    pub rebill_period_days: u32,
    pub trial_days: Option<u32>,
    /// The billers this option can be paid with (the form's payment options).
    pub payment_options: Vec<String>,
}

/// joinOptions' answer.
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct JoinOptions {
    /// The brand key the form joins.
    pub site: String,
    pub site_id: Option<u32>,
    /// The brand's own options first, then the default multisite package's.
    pub join_options: Vec<JoinOption>,
    /// The fixed price a trial upgrades at (the upgrade membership page).
    pub trial_upgrade: TrialUpgradePrice,
    /// The VP yearly plan's join option (UpgradeToYearlyMembership offers it).
    pub vixen_plus_yearly_join_option_id: u32,
    /// The multisite package the purchase modal sells a member in one click
    /// (internalUpsellOneclickMultisite's optionId).
    pub multisite_upsell_join_option_id: u32,
}

/// The trial upgrade's fixed price.
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct TrialUpgradePrice {
    pub price: String,
    pub currency: String,
    pub rebill_period_days: u32,
}

/// The join form.
#[derive(InputObject)]
#[graphql(rename_fields = "camelCase")]
pub struct JoinInput {
    pub email: String,
    pub password: String,
    pub username: Option<String>,
    pub join_option_id: u32,
    /// The biller chosen (one of the option's paymentOptions).
    pub payment_option: String,
    /// The page the visitor came from (the join link's `ref`).
    #[graphql(name = "ref")]
    pub page_ref: Option<String>,
    /// The element clicked (`elm`).
    pub elm: Option<String>,
    /// The stored affiliate value (`nats`).
    pub nats: Option<String>,
    /// The affiliate code of a `ujc` landing kept for a single-site sale (`aff_code_single`).
    pub aff_code_single: Option<String>,
    /// The affiliate code of a `ujc` landing kept for a multisite sale (`aff_code_multi`).
    pub aff_code_multi: Option<String>,
}

/// join's answer: where the browser goes to pay.
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct JoinStarted {
    pub signup_id: Uuid,
    /// The biller's payment page.
    pub location: String,
}

#[Object]
impl JoinQuery {
    /// joinOptions: the host's brand's join options with their example prices.
    async fn join_options(&self, ctx: &Context<'_>) -> async_graphql::Result<JoinOptions> {
        let request = request(ctx);
        let options = upstreams(ctx)
            .subscription
            .join_options(request.tenant(), &request.call())
            .await
            .map_err(errors::upstream)?;
        Ok(JoinOptions {
            site: options.site,
            site_id: options.site_id,
            join_options: options
                .join_options
                .into_iter()
                .map(|o| JoinOption {
                    id: o.id,
                    site: o.site,
                    kind: o.kind,
                    free_limited_trial: o.free_limited_trial,
                    title: o.title,
                    price: o.price,
                    currency: o.currency,
                    rebill_price: o.rebill_price,
                    rebill_period_days: o.rebill_period_days,
                    trial_days: o.trial_days,
                    payment_options: o.payment_options,
                })
                .collect(),
            vixen_plus_yearly_join_option_id: options.vixen_plus_yearly_join_option_id,
            multisite_upsell_join_option_id: options.multisite_upsell_join_option_id,
            trial_upgrade: TrialUpgradePrice {
                price: options.trial_upgrade.price,
                currency: options.trial_upgrade.currency,
                rebill_period_days: options.trial_upgrade.rebill_period_days,
            },
        })
    }
}

#[Object]
impl JoinMutation {
    /// join: the form's checks with the messages of product.md, "Validation rules" (codes INVALID_EMAIL, INVALID_PASSWORD,
    /// INVALID_USERNAME, INVALID_JOIN_OPTION, INVALID_PAYMENT_OPTION, MEMBERSHIP_UNAVAILABLE,
    /// ACCOUNT_EXISTS_LOG_IN), then the biller's payment page. At most [`Bucket::Join`]'s limit
    /// per e-mail address a minute: a form sent again and again for one address stops there.
    /// It does not cap hashing across addresses (a sender can change the address each time);
    /// that is a per-client limit, which the gateway cannot key on (it has no client address).
    async fn join(&self, ctx: &Context<'_>, input: JoinInput) -> async_graphql::Result<JoinStarted> {
        let request = request(ctx);
        // The join form is for visitors (product.md, "Sign-up and join": an authenticated user on /joinnow goes home); a
        // member buys another brand through the purchase modal's one-click options.
        if request.viewer().is_ok() {
            return Err(errors::coded(
                "ALREADY_SIGNED_IN",
                "You are already signed in: log out to join with another account",
            ));
        }
        let email_key = input.email.trim().to_lowercase();
        ctx.data_unchecked::<RateLimiter>().check(Bucket::Join, &email_key)?;
        let join = JoinRequest {
            site: request.tenant().to_owned(),
            email: input.email,
            password: input.password,
            username: input.username.filter(|u| !u.trim().is_empty()),
            join_option_id: input.join_option_id,
            payment_option: input.payment_option,
            page_ref: input.page_ref.filter(|v| !v.is_empty()),
            elm: input.elm.filter(|v| !v.is_empty()),
            nats: input.nats.filter(|v| !v.is_empty()),
            aff_code_single: input.aff_code_single.filter(|v| !v.is_empty()),
            aff_code_multi: input.aff_code_multi.filter(|v| !v.is_empty()),
        };
        let started = upstreams(ctx).subscription.join(&join, &request.call()).await.map_err(errors::upstream)?;
        Ok(JoinStarted { signup_id: started.signup_id, location: started.location })
    }
}
