//! Request and answer shapes of the subscription service's internal API, shared by the
//! service's handlers and the typed client ([`crate::client`]). Answers use the spec's names
//! (camelCase).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

/// The port the service listens on by default (`PAYSITE_SUBSCRIPTION_URL` overrides the address).
pub const PORT: u16 = 8102;

// Join options and retention deals as configured and as answered (read from `config/billing`).

/// A join option: what a join form offers, with its example price.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct JoinOption {
    pub id: u32,
    /// A brand key, or a multisite package name.
    pub site: String,
    /// `member` or `trial`.
    pub kind: String,
    #[serde(default)]
    pub free_limited_trial: bool,
    pub title: String,
    pub price: String,
    pub currency: String,
    pub rebill_price: String,
    pub rebill_period_days: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial_days: Option<u32>,
    pub payment_options: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TrialUpgrade {
    pub price: String,
    pub currency: String,
    pub rebill_period_days: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PriceRange {
    pub min: String,
    pub max: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DisplayRules {
    pub price_range: PriceRange,
    /// Days between rebills.
    pub rebill_period: u32,
    pub sites: Vec<String>,
    pub subscription_type: String,
    pub brands: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetentionDeal {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_price: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offered_gems: Option<u32>,
}

/// An outgoing upsell's price: the first charge and the rebill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpsellPrice {
    pub initial: String,
    pub recurring: String,
}

// Joins: the join form, its answer, the welcome data.

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JoinRequest {
    /// The brand the form is on.
    pub site: String,
    pub email: String,
    pub password: String,
    #[serde(default)]
    pub username: Option<String>,
    pub join_option_id: u32,
    /// The biller chosen.
    pub payment_option: String,
    #[serde(default, rename = "ref")]
    pub page_ref: Option<String>,
    #[serde(default)]
    pub elm: Option<String>,
    /// The stored affiliate (NATS) value.
    #[serde(default)]
    pub nats: Option<String>,
    /// The affiliate code of a `ujc` landing for a single-site sale (cookie `aff_code_single`).
    #[serde(default)]
    pub aff_code_single: Option<String>,
    /// The affiliate code of a `ujc` landing for a multisite sale (cookie `aff_code_multi`).
    #[serde(default)]
    pub aff_code_multi: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JoinStarted {
    pub signup_id: Uuid,
    /// The biller's payment page.
    pub location: String,
}

/// A brand's join form: its options with their example prices (its own, then the default
/// multisite package's), from config.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JoinOptions {
    pub site: String,
    pub site_id: Option<u32>,
    pub default_multisite_package: String,
    pub join_options: Vec<JoinOption>,
    pub vixen_plus_yearly_join_option_id: u32,
    /// The multisite package the purchase modal sells a member in one click.
    pub multisite_upsell_join_option_id: u32,
    pub trial_upgrade: TrialUpgrade,
}

/// The welcome data of product.md, "Sign-up and join", for the signup-success page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WelcomeData {
    pub memberid: Option<String>,
    pub hashed_member_id: Option<String>,
    pub username: Option<String>,
    pub site_id: Option<u32>,
    pub is_welcome: bool,
    pub is_trial: bool,
    pub autologin_id: Option<String>,
    pub traffik_junky_transaction_id: Option<String>,
    /// The join race: `username` was taken after the join form's check, so the account was
    /// made without one; the new member chooses another after signing in.
    #[serde(default)]
    pub username_lost: bool,
}

/// Where a signup stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignupStatus {
    pub signup_id: Uuid,
    /// pending, approved or denied.
    pub status: String,
    /// The biller's reason for a decline.
    pub reason: Option<String>,
    pub welcome: WelcomeData,
}

// Outgoing upsells (a partner's membership in one click) and their tracking.

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OutgoingUpsellRequest {
    #[serde(default)]
    pub epoch_upsell_id: Option<String>,
    #[serde(default)]
    pub segpay_upsell_id: Option<String>,
    #[serde(default)]
    pub rg_upsell_id: Option<String>,
    #[serde(default)]
    pub fallback_url: Option<String>,
    #[serde(default)]
    pub member_link: Option<String>,
    #[serde(default)]
    pub click_id: Option<String>,
    #[serde(default)]
    pub confirmation_required: bool,
    #[serde(default)]
    pub site: Option<String>,
}

/// The ConfirmOutgoingUpsell modal's content.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmationModal {
    pub price: UpsellPrice,
    pub title: String,
    pub description: String,
    pub component: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OutgoingUpsellAnswer {
    pub success: bool,
    pub redirect_url: Option<String>,
    pub redirect_to_confirmation_step: bool,
    pub confirmation_modal: Option<ConfirmationModal>,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackingRequest {
    /// True on the success route (/_upsell_signupsuccess), false on the failure route.
    pub status: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrackingAnswer {
    pub success: bool,
    pub redirect_url: Option<String>,
}

// One-click purchases.

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tracking {
    #[serde(default)]
    pub external_conversion: Option<Value>,
    #[serde(default)]
    pub marketing: Option<Value>,
}

/// `internalUpsellOneclickMultisite`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MultisitePurchase {
    pub option_id: u32,
    #[serde(default, rename = "ref")]
    pub page_ref: Option<String>,
    #[serde(default)]
    pub elm: Option<String>,
    #[serde(default)]
    pub multisite_nats_code: Option<String>,
    #[serde(default)]
    pub tracking: Option<Tracking>,
    #[serde(default)]
    pub consent: bool,
    pub idempotency_key: String,
}

/// `internalUpsellOneclickSinglesite`: reactivate (or buy) one site.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SinglesitePurchase {
    pub join_option_id: u32,
    #[serde(default, rename = "ref")]
    pub page_ref: Option<String>,
    #[serde(default)]
    pub elm: Option<String>,
    pub site_name: String,
    #[serde(default)]
    pub nats_code: Option<String>,
    #[serde(default)]
    pub tracking: Option<Tracking>,
    #[serde(default)]
    pub consent: bool,
    pub idempotency_key: String,
}

/// `internalUpsellTrialUpgrade` and `internalUpsellTrialUpgradeWelcomePage`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TrialUpgradePurchase {
    #[serde(default)]
    pub member_id: Option<String>,
    #[serde(default)]
    pub hashed_member_id: Option<String>,
    #[serde(default, rename = "ref")]
    pub page_ref: Option<String>,
    #[serde(default)]
    pub tracking: Option<Tracking>,
    /// From the welcome page (right after signup).
    #[serde(default)]
    pub welcome_page: bool,
    #[serde(default)]
    pub consent: bool,
    pub idempotency_key: String,
}

/// A pay-per-video credit pack for a porn-portal user.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreditsPurchase {
    pub pack_id: String,
    #[serde(default)]
    pub consent: bool,
    pub idempotency_key: String,
}

/// What a purchase answers (product.md, "Subscriptions and their states": success, location, username, memberId, hashedMemberId).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PurchaseAnswer {
    pub success: bool,
    pub location: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub member_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hashed_member_id: Option<String>,
}

// Retention.

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RetentionOfferView {
    pub name: String,
    pub currencies: Vec<String>,
    pub display_rules: DisplayRules,
    pub deal: RetentionDeal,
    pub current_rebill_amount: String,
    pub current_rebill_currency: String,
    pub subscription_id: Uuid,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReactivateCancelledRebill {
    pub user_uuid: Uuid,
    pub retention_offer_name: String,
    pub deal: RetentionDeal,
}

// The subscription reads (light and full).

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct XSiteInfo {
    pub site: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeOptions {
    pub is_upgradeable_to_vixen_plus_yearly: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BillerView {
    pub name: String,
    pub url: String,
}

/// `subscription` of product.md, "Subscriptions and their states" (credits and unlocked videos are the wallet's and unlocks').
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionInfo {
    #[serde(rename = "type")]
    pub kind: String,
    pub subscription_type: String,
    pub biller: Option<String>,
    pub porn_portal: bool,
    pub active: bool,
    pub is_active: bool,
    pub active_since: Option<DateTime<Utc>>,
    pub join_date: Option<DateTime<Utc>>,
    pub seniority: Option<u32>,
    pub x_site_info: Option<XSiteInfo>,
    pub cancelled: bool,
    pub is_free_limited_trial: bool,
    pub upgrade_options: UpgradeOptions,
}

/// The light read (getUserSubscription).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LightRead {
    pub site_access_array: Vec<String>,
    pub tenants_subscription_state: BTreeMap<String, String>,
    pub subscription: SubscriptionInfo,
    pub biller_name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionStatus {
    pub is_active: bool,
    pub is_tandem_child_account: bool,
    pub tenant: String,
    #[serde(rename = "type")]
    pub kind: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TandemView {
    pub is_tandem_child_account: bool,
    pub tandem_parent_user_id: Option<Uuid>,
}

/// One subscription as listed in the full read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionEntry {
    pub subscription_id: Uuid,
    pub site: String,
    pub sites: Vec<String>,
    #[serde(rename = "type")]
    pub kind: String,
    pub biller: String,
    pub active: bool,
    pub cancelled: bool,
    pub ended: Option<String>,
    pub active_since: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
    pub is_free_limited_trial: bool,
}

/// The full read: the light one and what else the account, access and purchase screens use.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FullRead {
    #[serde(flatten)]
    pub light: LightRead,
    pub user_id: Uuid,
    pub biller: Option<BillerView>,
    pub has_active_multisite_subscription: bool,
    pub multisite_type: Option<String>,
    pub site_type: String,
    pub is_free_limited_trial: bool,
    pub tandem_subscription: TandemView,
    pub subscriptions_status: Vec<SubscriptionStatus>,
    pub subscriptions: Vec<SubscriptionEntry>,
    /// Whole months since the current subscription became active (0 when none is active):
    /// the iterate profile's and the customer survey's `subscriptionLengthInMonths`.
    pub subscription_length_in_months: u32,
    /// Whole days since then: `subscriptionLengthInDays`.
    pub subscription_length_in_days: u32,
}
