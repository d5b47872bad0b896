//! Request and answer shapes of the internal API, shared by the service's handlers and the
//! typed client ([`crate::client`]). Answers use the spec's names (camelCase).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// The port the service listens on by default (`PAYSITE_PROFILE_URL` overrides the address).
pub const PORT: u16 = 8101;

/// The most users one `GET /internal/users/public` answers for.
pub const MAX_PUBLIC_PROFILES: usize = 200;

/// The login pages' CSRF cookie (`/oidc/login`): set by the page, checked on its form's post;
/// the brand host's gateway, which serves those pages on its origin, clears it after sign-in.
pub const CSRF_COOKIE: &str = "paysite_login_csrf";

/// How a value is put into the login pages' query strings (`/oidc/login?uri=…`,
/// `/oidc/callback?code=…&uri=…`): everything but the unreserved characters percent-encoded.
pub fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub use crate::badges::Badge;

/// What kind of user someone is, for others to see. Only public facts: a role, or whether
/// they are a member, a trial user, a pay-per-video (porn-portal) user, or a former member.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UserType {
    /// In the `admin` group.
    Admin,
    /// In the `commenteditor` group.
    Moderator,
    /// An active membership (their own, or their tandem parent's).
    Member,
    /// An active trial (the free limited trial included), and no active membership.
    Trial,
    /// Pay-per-video only, or nothing at all (the spec's default user type: porn-portal, inactive).
    PornPortal,
    /// A membership or trial that ended, and nothing active.
    Expired,
}

impl UserType {
    /// The name on the internal API (`porn-portal`).
    pub fn as_str(self) -> &'static str {
        match self {
            UserType::Admin => "admin",
            UserType::Moderator => "moderator",
            UserType::Member => "member",
            UserType::Trial => "trial",
            UserType::PornPortal => "porn-portal",
            UserType::Expired => "expired",
        }
    }
}

/// The profile service's part of findOneUserProfile (product.md, "Account and profile"): the facts
/// it owns, named as the spec names them. The gateway puts the whole profile together from
/// this and the other owners' answers (subscription: the subscription fields; wallet: credits,
/// `daysUntilRefreshGems`, `state.gems`; unlocks: unlocked packs and videos, recent unlocks,
/// `downloadQuotas`), so no fact is kept here that another service owns.
///
/// Badges and `relationshipInfo` are the profile's own rules; they read the memberships the
/// profile keeps from the subscription service's events (its `member_subscription`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnProfile {
    pub user_id: Uuid,
    pub email: String,
    pub username: Option<String>,
    pub display_name: Option<String>,
    /// When the account was registered.
    pub registered_at: DateTime<Utc>,
    pub badges: Vec<String>,
    pub groups: Vec<String>,
    pub scopes: Vec<String>,
    pub ab_test_variant: String,
    pub is_telemetry_enabled: bool,
    pub autoplay_enabled: bool,
    pub relationship_status: Option<String>,
    pub relationship_role: Option<String>,
    pub relationship_info: RelationshipInfo,
    pub has_email_consent: bool,
    pub tandem_subscription: TandemSubscription,
    pub special_attributes: SpecialAttributesView,
    pub gdpr: Consent,
    /// The user is a guest (`subscription.isGuestUser`).
    pub is_guest_user: bool,
    /// `state.modals`.
    pub modals: ModalFlags,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RelationshipInfo {
    pub relationship_status: Option<String>,
    pub relationship_role: Option<String>,
    /// product.md, "Account and profile": admin, or an active wifey subscription.
    pub is_visible: bool,
    /// product.md, "Account and profile": admin, or an active non-tandem-child wifey member.
    pub is_editable: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TandemSubscription {
    pub has_tandem_child_account: bool,
    pub is_tandem_child_account: bool,
    pub tandem_parent_display_name: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpecialAttributesView {
    pub is_pornstar_user: bool,
    pub model_id: Option<Uuid>,
    pub is_king_user: bool,
    pub is_director_user: bool,
    pub is_vip_user: bool,
    pub is_official_user: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Consent {
    pub should_request_terms_consent: bool,
    pub should_request_email_consent: bool,
    pub should_request_cams_consent: bool,
    pub request_terms_consent: bool,
    pub request_email_consent: bool,
    pub request_cams_consent: bool,
    pub has_email_consent: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModalFlags {
    pub gems_intro: bool,
    pub teaser_viewed: bool,
    pub texas_health_warning_acknowledged: bool,
    pub alabama_health_warning_acknowledged: bool,
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

/// `GET /internal/users/public`: what anyone may see of a user beside their comments (the
/// display name they chose, badges, user type), and nothing else (no e-mail, no subscription
/// detail).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PublicProfile {
    pub user_id: Uuid,
    /// The name the user chose to show beside their comments, when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    pub badges: Vec<Badge>,
    pub user_type: UserType,
}

/// `POST /internal/accounts/check`: whether an account with this username could be made now
/// (the join form's check before the visitor pays).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountCheckRequest {
    pub username: String,
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
    /// service's `passwords::Passwords` (the subscription service keeps only the hash
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
pub type Updated = OwnProfile;

/// `GET /internal/sessions/revoked`: the sessions ended recently enough that an access token
/// of theirs may still be unexpired, so a gateway (re)starting knows what to refuse before the
/// session events reach it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevokedSessions {
    /// How long an access token lives (`PROFILE_ACCESS_TOKEN_TTL_SECS`): a session revoked
    /// longer ago than this has no live access token left.
    pub access_token_ttl_secs: u64,
    pub sessions: Vec<RevokedSession>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RevokedSession {
    pub session_id: Uuid,
    pub revoked_at: DateTime<Utc>,
}
