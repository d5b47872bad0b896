//! Who a user is and what they have told the site: one stream per user (`user-<uuid>`).
//!
//! Credentials never travel in events: the password hash lives in the profile service's
//! own credentials table, written in the same transaction as [`ProfileEvent::CredentialsChanged`],
//! which only records that it changed. That table is therefore not rebuilt from events.
//!
//! The gems balance acknowledgement (`state.gems.lastAcknowledgementDate`) is the wallet's
//! `NewGemsBalanceAcknowledged`; the gems intro flag is here.
//!
//! Readers: profile (findOneUserProfile, sessions), the gateway and the access rules (groups,
//! special attributes, modal flags), subscription (tandem child accounts share the parent's
//! membership), catalog (comment authors), deals and unlocks (consent, e-mail for partner calls).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::EventFamily;

/// The profile stream of a user.
pub fn stream_id(user_id: Uuid) -> String {
    format!("user-{user_id}")
}

/// The groups the spec knows (product.md, "Kinds of user"); each opens abilities in the access rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Group {
    #[serde(rename = "admin")]
    Admin,
    /// May pin, unpin and remove comments.
    #[serde(rename = "commenteditor")]
    CommentEditor,
    /// Sees channel trailers, internal channels and the expert-review modal before their flags are on.
    #[serde(rename = "@paysite/role-video-preview")]
    VideoPreview,
    /// A guest user (scope guest).
    #[serde(rename = "@paysites/guest-user")]
    GuestUser,
}

impl Group {
    pub const ALL: [Group; 4] = [Group::Admin, Group::CommentEditor, Group::VideoPreview, Group::GuestUser];

    /// The group named so; an unknown name is no group and carries no rights.
    pub fn from_name(name: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.as_str() == name)
    }

    /// The group's name as the spec and the browser's rules spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Group::Admin => "admin",
            Group::CommentEditor => "commenteditor",
            Group::VideoPreview => "@paysite/role-video-preview",
            Group::GuestUser => "@paysites/guest-user",
        }
    }
}

/// A US state whose law requires the health warning overlay (spec: US-TX, US-AL).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HealthWarningState {
    /// Texas: `texasHealthWarningAcknowledged`.
    #[serde(rename = "TX")]
    Texas,
    /// Alabama: `alabamaHealthWarningAcknowledged`.
    #[serde(rename = "AL")]
    Alabama,
}

/// Why a password was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CredentialsChangeReason {
    /// Chosen on the join form, with the account.
    Registration,
    /// The user changed it (the account page then shows `password_changed`).
    PasswordChange,
    /// A VIP user chose their own password when converting.
    VipUserConversion,
}

/// Why sessions were ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionsRevokedReason {
    /// A password change ends every session but the one that made it.
    PasswordChanged,
    /// A converted VIP user's old sessions belonged to the placeholder credentials.
    VipUserConverted,
    /// The user asked to be signed out everywhere.
    SignedOutEverywhere,
    /// An operator ended them (for example a disabled or banned account).
    Operator,
}

/// How a session began.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignInMethod {
    /// The login form on the members host, then the authorization code on the brand host.
    Password,
    /// A single-use `al_token` after a signup or an upgrade.
    Autologin,
    /// `/xsite/{site}`: a signed-in user switched to another brand host.
    CrossSite,
    /// `/parent-redirect` with an id token of another session.
    ParentRedirect,
}

/// Why one session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignOutReason {
    /// The user signed out on that host.
    Logout,
    /// A refresh token already rotated was presented again: the whole family is revoked.
    RefreshTokenReused,
}

/// The profile's `specialAttributes`, set by an operator; they drive badges and name colours.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecialAttributes {
    pub is_pornstar_user: bool,
    /// The performer (catalog) this account belongs to, when it is a performer's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_id: Option<Uuid>,
    pub is_king_user: bool,
    pub is_director_user: bool,
    pub is_vip_user: bool,
    pub is_official_user: bool,
}

/// Events of the profile service.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "payload")]
pub enum ProfileEvent {
    /// An account exists: always the first event of a user's stream. The password chosen with
    /// it is recorded by a [`ProfileEvent::CredentialsChanged`] in the same append.
    UserRegistered {
        user_id: Uuid,
        /// Lower-cased and trimmed.
        email: String,
        /// Chosen on the join form; `None` until a [`ProfileEvent::UsernameChosen`] (VIP,
        /// tandem child and external-biller signups choose later).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        username: Option<String>,
        /// Brand key the account was created on.
        site: String,
        /// Set for a tandem child account: the parent whose membership it shares.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tandem_parent_user_id: Option<Uuid>,
        registered_at: DateTime<Utc>,
    },
    /// A password was set or replaced. The secret itself stays out of the event.
    CredentialsChanged {
        user_id: Uuid,
        reason: CredentialsChangeReason,
        changed_at: DateTime<Utc>,
    },
    /// Sessions (refresh token families) were ended.
    SessionsRevoked {
        user_id: Uuid,
        reason: SessionsRevokedReason,
        /// The session that stays signed in (the one that changed the password); `None`: all ended.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kept_session_id: Option<Uuid>,
        revoked_at: DateTime<Utc>,
        /// The sessions this ended (every open one but `kept_session_id`), so that a reader
        /// refusing their access tokens needs no list of its own. Absent in events written
        /// before it was added: those name no session.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        session_ids: Vec<Uuid>,
    },
    /// The permanent username was chosen (3 to 20 lower-case letters and digits).
    UsernameChosen {
        user_id: Uuid,
        username: String,
        chosen_at: DateTime<Utc>,
    },
    DisplayNameSet {
        user_id: Uuid,
        display_name: String,
        set_at: DateTime<Utc>,
    },
    /// The user gave or withdrew consent to e-mail marketing, on a site, having been shown a text.
    EmailConsentSet {
        user_id: Uuid,
        /// Brand key the consent was given on.
        site: String,
        email_consent: bool,
        /// The consent wording the user saw (`consentHtmlSnippet`), kept as evidence.
        consent_html_snippet: String,
        set_at: DateTime<Utc>,
    },
    /// The user confirmed being 18 or over and agreed to the terms and privacy policy.
    TermsConsentGiven {
        user_id: Uuid,
        site: String,
        given_at: DateTime<Utc>,
    },
    /// The user agreed to share their e-mail with the cams partner (CamsConsent modal).
    CamsConsentGiven {
        user_id: Uuid,
        site: String,
        given_at: DateTime<Utc>,
    },
    AutoplaySet {
        user_id: Uuid,
        autoplay_enabled: bool,
        set_at: DateTime<Utc>,
    },
    /// Relationship status and role (the wifey brand's account section); values as the user chose.
    RelationshipSet {
        user_id: Uuid,
        relationship_status: String,
        relationship_role: String,
        set_at: DateTime<Utc>,
    },
    /// The gems intro modal was acknowledged (`state.modals.gemsIntro`).
    GemsIntroAcknowledged {
        user_id: Uuid,
        /// The `when` of acknowledgeGemsIntro.
        acknowledged_at: DateTime<Utc>,
    },
    /// The promotional video teaser was shown (`state.modals.teaserViewed`).
    PromotionalTeaserViewed {
        user_id: Uuid,
        viewed_at: DateTime<Utc>,
    },
    /// The health warning overlay of a state was acknowledged.
    HealthWarningAcknowledged {
        user_id: Uuid,
        state_code: HealthWarningState,
        acknowledged_at: DateTime<Utc>,
    },
    GroupGranted {
        user_id: Uuid,
        group: Group,
        granted_at: DateTime<Utc>,
    },
    GroupRevoked {
        user_id: Uuid,
        group: Group,
        revoked_at: DateTime<Utc>,
    },
    /// The special attributes now in force (the whole set, replacing the previous one).
    SpecialAttributesSet {
        user_id: Uuid,
        attributes: SpecialAttributes,
        set_at: DateTime<Utc>,
    },
    /// A tandem parent created a child account. Written on the parent's stream; the child's
    /// stream starts with a [`ProfileEvent::UserRegistered`] naming the parent.
    TandemChildAccountCreated {
        parent_user_id: Uuid,
        child_user_id: Uuid,
        created_at: DateTime<Utc>,
    },
    /// The studio set up a VIP account; its e-mail (in `UserRegistered`) is a placeholder at the
    /// studio's VIP domain until the user converts.
    VipUserInvited {
        user_id: Uuid,
        site: String,
        invited_at: DateTime<Utc>,
    },
    /// A VIP user gave their own e-mail (and, in a `CredentialsChanged`, password): a registered member now.
    VipUserConverted {
        user_id: Uuid,
        /// Lower-cased and trimmed; replaces the placeholder e-mail.
        new_email: String,
        converted_at: DateTime<Utc>,
    },
    /// A session (refresh-token family) began on a brand host. Token values never travel.
    SignedIn {
        user_id: Uuid,
        session_id: Uuid,
        /// The brand host the session's tokens are for (`vixen.localhost:8080`).
        audience: String,
        /// The brand key of that host.
        tenant: String,
        method: SignInMethod,
        signed_in_at: DateTime<Utc>,
    },
    /// One session ended (all of a user's sessions ending is [`ProfileEvent::SessionsRevoked`]).
    SignedOut {
        user_id: Uuid,
        session_id: Uuid,
        reason: SignOutReason,
        signed_out_at: DateTime<Utc>,
    },
}

impl ProfileEvent {
    /// The user whose stream the event belongs to (the parent, for a tandem child's creation).
    pub fn user_id(&self) -> Uuid {
        match self {
            ProfileEvent::UserRegistered { user_id, .. }
            | ProfileEvent::CredentialsChanged { user_id, .. }
            | ProfileEvent::SessionsRevoked { user_id, .. }
            | ProfileEvent::UsernameChosen { user_id, .. }
            | ProfileEvent::DisplayNameSet { user_id, .. }
            | ProfileEvent::EmailConsentSet { user_id, .. }
            | ProfileEvent::TermsConsentGiven { user_id, .. }
            | ProfileEvent::CamsConsentGiven { user_id, .. }
            | ProfileEvent::AutoplaySet { user_id, .. }
            | ProfileEvent::RelationshipSet { user_id, .. }
            | ProfileEvent::GemsIntroAcknowledged { user_id, .. }
            | ProfileEvent::PromotionalTeaserViewed { user_id, .. }
            | ProfileEvent::HealthWarningAcknowledged { user_id, .. }
            | ProfileEvent::GroupGranted { user_id, .. }
            | ProfileEvent::GroupRevoked { user_id, .. }
            | ProfileEvent::SpecialAttributesSet { user_id, .. }
            | ProfileEvent::VipUserInvited { user_id, .. }
            | ProfileEvent::VipUserConverted { user_id, .. }
            | ProfileEvent::SignedIn { user_id, .. }
            | ProfileEvent::SignedOut { user_id, .. } => *user_id,
            ProfileEvent::TandemChildAccountCreated { parent_user_id, .. } => *parent_user_id,
        }
    }
}

impl EventFamily for ProfileEvent {
    const DOMAIN: &'static str = "profile";
    const TYPES: &'static [(&'static str, u32)] = &[
        ("UserRegistered", 1),
        ("CredentialsChanged", 1),
        ("SessionsRevoked", 1),
        ("UsernameChosen", 1),
        ("DisplayNameSet", 1),
        ("EmailConsentSet", 1),
        ("TermsConsentGiven", 1),
        ("CamsConsentGiven", 1),
        ("AutoplaySet", 1),
        ("RelationshipSet", 1),
        ("GemsIntroAcknowledged", 1),
        ("PromotionalTeaserViewed", 1),
        ("HealthWarningAcknowledged", 1),
        ("GroupGranted", 1),
        ("GroupRevoked", 1),
        ("SpecialAttributesSet", 1),
        ("TandemChildAccountCreated", 1),
        ("VipUserInvited", 1),
        ("VipUserConverted", 1),
        ("SignedIn", 1),
        ("SignedOut", 1),
    ];
}
