//! A user's profile as a decider: one stream per user (`user-<uuid>`).
//!
//! Everything that needs I/O (whether the old password matched, whether the user may edit the
//! relationship section, the clock) is looked up first and carried in the command; `decide`
//! and `evolve` are pure.
//!
//! The user, its commands and the rules' refusals are here; [`decide`] and [`evolve`] in
//! `decider.rs`.

mod decider;

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use proto_events::profile::{
    Group, HealthWarningState, ProfileEvent, SessionsRevokedReason, SignInMethod, SignOutReason, SpecialAttributes,
};
use runtime::Decider;
use uuid::Uuid;

use crate::validation::{self as v};

pub use decider::{decide, evolve};

/// What the profile's rules need to know of a user.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct User {
    pub registered: bool,
    pub user_id: Uuid,
    pub email: String,
    pub username: Option<String>,
    pub site: String,
    pub display_name: Option<String>,
    pub tandem_parent: Option<Uuid>,
    pub tandem_child: Option<Uuid>,
    pub groups: BTreeSet<GroupKey>,
    pub special_attributes: SpecialAttributes,
    pub vip_invited: bool,
    pub vip_converted: bool,
    pub autoplay_enabled: bool,
    pub email_consent: Option<bool>,
    pub terms_consent: bool,
    pub cams_consent: bool,
    pub relationship: Option<(String, String)>,
    pub gems_intro_acknowledged_at: Option<DateTime<Utc>>,
    pub teaser_viewed: bool,
    pub texas_acknowledged: bool,
    pub alabama_acknowledged: bool,
    /// Sessions begun and not ended one by one (a revocation of all ends them too).
    pub open_sessions: BTreeSet<Uuid>,
}

/// [`Group`] with an order, for a set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct GroupKey(pub u8);

impl GroupKey {
    pub fn of(group: Group) -> Self {
        GroupKey(Group::ALL.iter().position(|g| *g == group).expect("known group") as u8)
    }

    pub fn group(self) -> Group {
        Group::ALL[self.0 as usize]
    }
}

impl User {
    pub fn in_group(&self, group: Group) -> bool {
        self.groups.contains(&GroupKey::of(group))
    }

    pub fn group_names(&self) -> Vec<String> {
        self.groups.iter().map(|g| g.group().as_str().to_owned()).collect()
    }

    pub fn is_tandem_child(&self) -> bool {
        self.tandem_parent.is_some()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// A biller approved a signup, a parent created a tandem child, or the studio invited a VIP.
    /// The password hash is written by the caller beside the events.
    Register {
        user_id: Uuid,
        email: String,
        username: Option<String>,
        site: String,
        tandem_parent: Option<Uuid>,
        vip_invited: bool,
        at: DateTime<Utc>,
    },
    ChooseUsername {
        username: String,
        at: DateTime<Utc>,
    },
    SetDisplayName {
        display_name: String,
        at: DateTime<Utc>,
    },
    SetEmailConsent {
        site: String,
        email_consent: bool,
        consent_html_snippet: String,
        at: DateTime<Utc>,
    },
    GiveTermsConsent {
        site: String,
        at: DateTime<Utc>,
    },
    GiveCamsConsent {
        site: String,
        at: DateTime<Utc>,
    },
    SetAutoplay {
        autoplay_enabled: bool,
        at: DateTime<Utc>,
    },
    SetRelationship {
        relationship_status: String,
        relationship_role: String,
        /// product.md, "Roles and abilities": admin, or an active non-tandem-child member of the wifey brand.
        may_edit: bool,
        at: DateTime<Utc>,
    },
    AcknowledgeGemsIntro {
        when: DateTime<Utc>,
    },
    ViewPromotionalTeaser {
        at: DateTime<Utc>,
    },
    AcknowledgeHealthWarning {
        state: HealthWarningState,
        at: DateTime<Utc>,
    },
    GrantGroup {
        group: Group,
        at: DateTime<Utc>,
    },
    RevokeGroup {
        group: Group,
        at: DateTime<Utc>,
    },
    SetSpecialAttributes {
        attributes: SpecialAttributes,
        at: DateTime<Utc>,
    },
    /// The old password was checked against the stored hash before deciding.
    ChangePassword {
        old_password_correct: bool,
        new_password_valid: bool,
        confirmation_matches: bool,
        same_as_old: bool,
        /// The session that asked: it stays signed in, the others end.
        session_id: Option<Uuid>,
        at: DateTime<Utc>,
    },
    RecordTandemChild {
        child_user_id: Uuid,
        /// The parent's membership is active (a tandem child shares it).
        parent_active: bool,
        at: DateTime<Utc>,
    },
    ConvertVip {
        new_email: String,
        password_valid: bool,
        session_id: Option<Uuid>,
        at: DateTime<Utc>,
    },
    StartSession {
        session_id: Uuid,
        audience: String,
        tenant: String,
        method: SignInMethod,
        at: DateTime<Utc>,
    },
    EndSession {
        session_id: Uuid,
        reason: SignOutReason,
        at: DateTime<Utc>,
    },
    RevokeSessions {
        reason: SessionsRevokedReason,
        kept_session_id: Option<Uuid>,
        at: DateTime<Utc>,
    },
}

/// A rule said no. Each maps to a SCREAMING_SNAKE code and the spec's message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    #[error("no such user")]
    UnknownUser,
    #[error("the account already exists")]
    AccountExists,
    #[error("{}", v::INVALID_USERNAME_MESSAGE)]
    InvalidUsername,
    #[error("the username is permanent once chosen")]
    UsernameAlreadyChosen,
    #[error("{}", v::INVALID_EMAIL_MESSAGE)]
    InvalidEmail,
    #[error("{}", v::PASSWORD_RULE_MESSAGE)]
    InvalidPassword,
    #[error("{}", v::INVALID_DISPLAY_NAME_MESSAGE)]
    InvalidDisplayName,
    #[error("{}", v::INVALID_RELATIONSHIP_MESSAGE)]
    InvalidRelationship,
    #[error("only an admin or an active wifey member may edit the relationship status")]
    RelationshipNotEditable,
    #[error("{}", v::OLD_PASSWORD_INCORRECT_MESSAGE)]
    OldPasswordIncorrect,
    #[error("{}", v::CONFIRMATION_MISMATCH_MESSAGE)]
    ConfirmationMismatch,
    #[error("{}", v::NEW_PASSWORD_NOT_SECURE_MESSAGE)]
    NewPasswordNotSecure,
    #[error("a tandem child account cannot create another")]
    TandemChildCannotCreate,
    #[error("the account already has a tandem child account")]
    TandemChildExists,
    #[error("a tandem child account shares an active membership")]
    TandemParentInactive,
    #[error("the account is not an invited VIP account")]
    NotAVipUser,
    #[error("{}", v::VIP_INVALID_EMAIL_MESSAGE)]
    VipInvalidEmail,
    #[error("{}", v::PASSWORD_RULE_MESSAGE)]
    VipInvalidPassword,
}

impl DomainError {
    pub fn code(&self) -> &'static str {
        match self {
            DomainError::UnknownUser => "NOT_FOUND",
            DomainError::AccountExists => "ACCOUNT_EXISTS",
            DomainError::InvalidUsername => "INVALID_USERNAME",
            DomainError::UsernameAlreadyChosen => "USERNAME_PERMANENT",
            DomainError::InvalidEmail => "INVALID_EMAIL",
            DomainError::InvalidPassword => "INVALID_PASSWORD",
            DomainError::InvalidDisplayName => "INVALID_DISPLAY_NAME",
            DomainError::InvalidRelationship => "INVALID_RELATIONSHIP",
            DomainError::RelationshipNotEditable => "FORBIDDEN",
            DomainError::OldPasswordIncorrect => "OLD_PASSWORD_INCORRECT",
            DomainError::ConfirmationMismatch => "PASSWORD_CONFIRMATION_MISMATCH",
            DomainError::NewPasswordNotSecure => "NEW_PASSWORD_NOT_SECURE",
            DomainError::TandemChildCannotCreate => "FORBIDDEN",
            DomainError::TandemChildExists => "TANDEM_CHILD_EXISTS",
            DomainError::TandemParentInactive => "TANDEM_PARENT_INACTIVE",
            DomainError::NotAVipUser => "NOT_A_VIP_USER",
            DomainError::VipInvalidEmail => "INVALID_EMAIL",
            DomainError::VipInvalidPassword => "INVALID_PASSWORD",
        }
    }
}

pub struct Profile;

impl Decider for Profile {
    type Event = ProfileEvent;
    type State = User;
    type Command = Command;
    type Error = DomainError;

    fn decide(user: &User, command: Command) -> Result<Vec<ProfileEvent>, DomainError> {
        decide(user, command)
    }

    fn evolve(user: User, event: &ProfileEvent) -> User {
        evolve(user, event)
    }
}
