//! The subscription operations' GraphQL types, and the outgoing upsell's cookies.

use super::*;

/// Longest idempotency key accepted.
pub const MAX_IDEMPOTENCY_KEY: usize = 200;

/// getUserSubscription: the light subset of the profile (product.md, "Subscriptions and their states").
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

/// welcomeCheck's answer: the welcome data of product.md, "Sign-up and join".
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

/// A one-click purchase's answer (product.md, "Subscriptions and their states").
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

/// getRetentionOffer's answer (product.md, "Subscriptions and their states").
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

/// outgoingUpsellOneclick's answer (product.md, "Deals, offers and upsells").
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct OutgoingUpsellOneclick {
    pub success: bool,
    pub redirect_url: Option<String>,
    pub redirect_to_confirmation_step: bool,
    pub confirmation_modal: Option<OutgoingUpsellConfirmationModal>,
}

/// outgoingUpsellOneclickTracking's answer (product.md, "Deals, offers and upsells").
#[derive(SimpleObject)]
#[graphql(rename_fields = "camelCase")]
pub struct OutgoingUpsellOneclickTracking {
    pub success: bool,
    pub redirect_url: Option<String>,
}

/// The cookies outgoingUpsellOneclickTracking sets when it answers a redirectUrl.
pub const SUCCESS_COOKIE: &str = "outgoing_upsell_oneclick_success";
pub const FALLBACK_COOKIE: &str = "outgoing_upsell_oneclick_fallback";
/// How long they last: one day (the final argument of 1 in product.md, "Deals, offers and upsells", read as days).
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
    pub images: Vec<crate::graphql::catalog::types::Image>,
}

/// How many of the brand's top-rated videos are tried for a picture set.
pub const WELCOME_PICTURE_CANDIDATES: i64 = 12;
/// Most pictures the welcome page gets.
pub const WELCOME_PICTURES_MAX: usize = 12;
