//! Request and answer shapes of the internal API, shared by the handlers ([`crate::http`]) and
//! the typed client ([`crate::client`]). Answers use the spec's names (camelCase).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub use crate::badges::Badge;
pub use crate::user_type::UserType;

/// findOneUserProfile: every field of account-payments-gems.md §3 "User profile".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct UserProfile {
    pub user_id: Uuid,
    pub id: Uuid,
    pub uuid: Uuid,
    pub email: String,
    pub username: Option<String>,
    pub display_name: Option<String>,
    pub active_since: Option<DateTime<Utc>>,
    pub badges: Vec<String>,
    pub groups: Vec<String>,
    pub scopes: Vec<String>,
    pub ab_test_variant: String,
    pub is_telemetry_enabled: bool,
    pub autoplay_enabled: bool,
    pub biller_name: Option<String>,
    pub biller: Option<Biller>,
    pub days_until_refresh_gems: u32,
    pub unlocked_channel_pack_ids: Vec<Uuid>,
    pub percentage_of_unlocked_channel_packs: u32,
    pub has_active_multisite_subscription: bool,
    pub multisite_type: Option<String>,
    pub site_access_array: Vec<String>,
    pub relationship_status: Option<String>,
    pub relationship_role: Option<String>,
    pub relationship_info: RelationshipInfo,
    pub is_free_limited_trial: bool,
    pub has_email_consent: bool,
    pub tandem_subscription: TandemSubscription,
    pub special_attributes: SpecialAttributesView,
    pub gdpr: Consent,
    pub subscription: SubscriptionView,
    pub user_subscriptions_state: UserSubscriptionsState,
    /// One value per brand key plus `channels`; `full` means full access, `none` none.
    pub tenants_subscription_state: BTreeMap<String, String>,
    pub download_quotas: DownloadQuotas,
    pub state: ProfileState,
    pub iterate: IterateProfile,
    pub customer_survey: CustomerSurvey,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct Biller {
    pub name: String,
    pub url: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct RelationshipInfo {
    pub relationship_status: Option<String>,
    pub relationship_role: Option<String>,
    /// §6: admin, or an active wifey subscription.
    pub is_visible: bool,
    /// §6: admin, or an active non-tandem-child wifey member.
    pub is_editable: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TandemSubscription {
    pub has_tandem_child_account: bool,
    pub is_tandem_child_account: bool,
    pub tandem_parent_display_name: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "SpecialAttributes")]
pub struct SpecialAttributesView {
    pub is_pornstar_user: bool,
    pub model_id: Option<Uuid>,
    pub is_king_user: bool,
    pub is_director_user: bool,
    pub is_vip_user: bool,
    pub is_official_user: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "ProfileConsent")]
pub struct Consent {
    pub should_request_terms_consent: bool,
    pub should_request_email_consent: bool,
    pub should_request_cams_consent: bool,
    pub request_terms_consent: bool,
    pub request_email_consent: bool,
    pub request_cams_consent: bool,
    pub has_email_consent: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "UserSubscription")]
pub struct SubscriptionView {
    /// member, trial, porn-portal or expired.
    #[serde(rename = "type")]
    #[graphql(name = "type")]
    pub kind: String,
    pub subscription_type: String,
    pub biller: Option<String>,
    pub porn_portal: bool,
    pub pay_per_video_credits: u64,
    pub unlocked_video_ids: Vec<Uuid>,
    pub unlocked_videos: Vec<UnlockedVideo>,
    pub active: bool,
    pub is_active: bool,
    pub active_since: Option<DateTime<Utc>>,
    pub join_date: DateTime<Utc>,
    /// Whole months of membership (with the 7-day grace), if any.
    pub seniority: Option<u32>,
    pub x_site_info: Option<XSiteInfo>,
    pub cancelled: bool,
    pub is_free_limited_trial: bool,
    pub is_guest_user: bool,
    pub upgrade_options: UpgradeOptions,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "ProfileUnlockedVideo")]
pub struct UnlockedVideo {
    pub video_id: Uuid,
    pub new_id: String,
    pub unlocked_at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct XSiteInfo {
    pub site: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeOptions {
    pub is_upgradeable_to_vixen_plus_yearly: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct UserSubscriptionsState {
    pub subscriptions_status: Vec<SubscriptionStatus>,
    pub unlocked_videos: Vec<UnlockedVideo>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionStatus {
    pub is_active: bool,
    pub is_tandem_child_account: bool,
    pub tenant: String,
    #[serde(rename = "type")]
    #[graphql(name = "type")]
    pub kind: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "ProfileDownloadQuotas")]
pub struct DownloadQuotas {
    pub threshold_reached: bool,
    pub downloads_number: u32,
    pub download_quota_max: u32,
    pub download_days_period: u32,
    pub quota_left: u32,
    pub remaining_days: u32,
    pub zero_quota: bool,
    pub site: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct ProfileState {
    pub user_id: Uuid,
    pub modals: ModalFlags,
    pub gems: GemsState,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "ProfileModals")]
pub struct ModalFlags {
    pub gems_intro: bool,
    pub teaser_viewed: bool,
    pub texas_health_warning_acknowledged: bool,
    pub alabama_health_warning_acknowledged: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "ProfileGemsState")]
pub struct GemsState {
    pub last_acknowledgement_date: Option<DateTime<Utc>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct IterateProfile {
    pub user_id: Uuid,
    pub email: String,
    pub last_channel_pack_unlock_date: Option<DateTime<Utc>>,
    pub active_since: Option<DateTime<Utc>>,
    pub has_active_multisite_subscription: bool,
    pub tenants_subscription_state: BTreeMap<String, String>,
    pub subscription_type: String,
    pub subscription_active: bool,
    pub subscription_length_in_months: u32,
    pub subscription_length_in_days: u32,
    /// multi-site, trial, single-site, inactive or expired.
    pub site_type: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, async_graphql::SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct CustomerSurvey {
    pub user_id: Uuid,
    pub has_unlocked_channel_pack_in_last_two_weeks: bool,
    pub subscription_length_in_months: u32,
    pub subscription_length_in_days: u32,
}

/// Who a user is, for other services (comment authors, partner calls).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserSummary {
    pub user_id: Uuid,
    pub username: Option<String>,
    pub display_name: Option<String>,
    pub email: String,
    pub groups: Vec<String>,
    pub site: String,
    pub is_tandem_child_account: bool,
    pub tandem_parent_user_id: Option<Uuid>,
}

/// `GET /internal/users/public`: what anyone may see of a user beside their comments, and
/// nothing else (no e-mail, no name, no subscription detail).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PublicProfile {
    pub user_id: Uuid,
    pub badges: Vec<Badge>,
    pub user_type: UserType,
}

/// `POST /internal/accounts`: a biller approved a signup (the subscription service calls it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateAccountRequest {
    /// Chosen by the caller so a retried call creates nothing twice; a new v7 id when absent.
    #[serde(default)]
    pub user_id: Option<Uuid>,
    #[serde(default)]
    pub username: Option<String>,
    /// The chosen password (the password rule applies); empty when `password_hash` is given.
    #[serde(default)]
    pub password: String,
    /// Instead of the password: its argon2id PHC string, hashed by the caller with this
    /// service's [`crate::passwords::Passwords`] (the subscription service keeps only the hash
    /// of a join form's password while the biller decides).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password_hash: Option<String>,
    pub email: String,
    pub site: String,
    /// The biller that approved the signup (recorded in the log; the subscription carries it).
    #[serde(default)]
    pub biller: Option<String>,
    #[serde(default)]
    pub tandem_parent_user_id: Option<Uuid>,
    /// The studio invites a VIP (placeholder e-mail at the VIP domain until conversion).
    #[serde(default)]
    pub vip_invited: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountCreated {
    pub user_id: Uuid,
    pub username: Option<String>,
    pub email: String,
    /// False when the same account had already been created by an earlier call.
    pub created: bool,
}

/// The session tokens a brand host's gateway puts in its cookies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenResponse {
    pub access_token: String,
    pub refresh_token: String,
    /// Seconds the access token lives.
    pub expires_in: u64,
    /// Seconds the refresh token lives.
    pub refresh_expires_in: u64,
    pub id_token: String,
    pub user_id: Uuid,
    pub session_id: Uuid,
    pub tenant: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeExchange {
    pub code: String,
    /// The brand host exchanging it (must be the one the code was issued for).
    pub audience: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefreshRequest {
    pub refresh_token: String,
    pub audience: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogoutRequest {
    pub refresh_token: String,
    /// End every session of the user, on every brand host.
    #[serde(default)]
    pub everywhere: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutologinRequest {
    pub user_id: Uuid,
    pub site: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutologinIssued {
    pub al_token: String,
    pub expires_at: DateTime<Utc>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutologinRedeem {
    pub al_token: String,
    pub audience: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CrossSiteRequest {
    /// The brand key to switch to.
    pub site: String,
    /// A same-site path on the target brand (`deeplink`), `/` when absent.
    #[serde(default)]
    pub deeplink: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Redirect {
    pub location: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ParentRedirectRequest {
    pub id_token: String,
    pub audience: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangePasswordRequest {
    pub old_password: String,
    pub new_password: String,
    pub confirm_password: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VipCredentialsRequest {
    pub new_email: String,
    pub new_password: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TandemChildRequest {
    pub email: String,
    pub password: String,
    #[serde(default)]
    pub username: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DisplayNameRequest {
    pub display_name: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AutoplayRequest {
    pub autoplay_enabled: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmailConsentRequest {
    pub email_consent: bool,
    /// The brand it was given on; the request's tenant when absent.
    #[serde(default)]
    pub site: Option<String>,
    /// The consent text shown (POST /v2/user/email-consent sends it).
    #[serde(default)]
    pub consent_html_snippet: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RelationshipRequest {
    pub relationship_status: String,
    pub relationship_role: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GemsIntroRequest {
    pub when: DateTime<Utc>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HealthWarningRequest {
    /// `TX` or `AL` (also accepted as `US-TX`, `US-AL`).
    pub usa_health_warning_state_code: String,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsernameRequest {
    pub username: String,
}

/// A mutation's answer: the profile after it.
pub type Updated = UserProfile;
