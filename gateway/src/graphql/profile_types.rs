//! The GraphQL types of the profile's facts: the gateway's own, made from the profile
//! service's wire types (`profile_contract::api`), which know nothing of GraphQL. Names,
//! fields and descriptions are the schema's; each has a `From` of its wire type.

use async_graphql::{Enum, SimpleObject};
use profile_contract::api as wire;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A badge, by the spec's names (`gold`, `silver`, …), in the order a user's badges are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Enum)]
#[serde(rename_all = "lowercase")]
#[graphql(rename_items = "lowercase")]
pub enum Badge {
    Gold,
    Silver,
    Bronze,
    Boss,
    Moderator,
    King,
    Director,
    Model,
    Founder,
}

impl From<wire::Badge> for Badge {
    fn from(b: wire::Badge) -> Self {
        match b {
            wire::Badge::Gold => Badge::Gold,
            wire::Badge::Silver => Badge::Silver,
            wire::Badge::Bronze => Badge::Bronze,
            wire::Badge::Boss => Badge::Boss,
            wire::Badge::Moderator => Badge::Moderator,
            wire::Badge::King => Badge::King,
            wire::Badge::Director => Badge::Director,
            wire::Badge::Model => Badge::Model,
            wire::Badge::Founder => Badge::Founder,
        }
    }
}

/// What kind of user someone is, for others to see. Only public facts: a role, or whether
/// they are a member, a trial user, a pay-per-video (porn-portal) user, or a former member.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Enum)]
#[serde(rename_all = "kebab-case")]
#[graphql(rename_items = "camelCase")]
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

impl From<wire::UserType> for UserType {
    fn from(t: wire::UserType) -> Self {
        match t {
            wire::UserType::Admin => UserType::Admin,
            wire::UserType::Moderator => UserType::Moderator,
            wire::UserType::Member => UserType::Member,
            wire::UserType::Trial => UserType::Trial,
            wire::UserType::PornPortal => UserType::PornPortal,
            wire::UserType::Expired => UserType::Expired,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct RelationshipInfo {
    pub relationship_status: Option<String>,
    pub relationship_role: Option<String>,
    /// product.md, "Roles and abilities": admin, or an active wifey subscription.
    pub is_visible: bool,
    /// product.md, "Roles and abilities": admin, or an active non-tandem-child wifey member.
    pub is_editable: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct TandemSubscription {
    pub has_tandem_child_account: bool,
    pub is_tandem_child_account: bool,
    pub tandem_parent_display_name: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
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

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
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

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "ProfileModals")]
pub struct ModalFlags {
    pub gems_intro: bool,
    pub teaser_viewed: bool,
    pub texas_health_warning_acknowledged: bool,
    pub alabama_health_warning_acknowledged: bool,
}

impl From<wire::RelationshipInfo> for RelationshipInfo {
    fn from(w: wire::RelationshipInfo) -> Self {
        RelationshipInfo {
            relationship_status: w.relationship_status,
            relationship_role: w.relationship_role,
            is_visible: w.is_visible,
            is_editable: w.is_editable,
        }
    }
}

impl From<wire::TandemSubscription> for TandemSubscription {
    fn from(w: wire::TandemSubscription) -> Self {
        TandemSubscription {
            has_tandem_child_account: w.has_tandem_child_account,
            is_tandem_child_account: w.is_tandem_child_account,
            tandem_parent_display_name: w.tandem_parent_display_name,
        }
    }
}

impl From<wire::SpecialAttributesView> for SpecialAttributesView {
    fn from(w: wire::SpecialAttributesView) -> Self {
        SpecialAttributesView {
            is_pornstar_user: w.is_pornstar_user,
            model_id: w.model_id,
            is_king_user: w.is_king_user,
            is_director_user: w.is_director_user,
            is_vip_user: w.is_vip_user,
            is_official_user: w.is_official_user,
        }
    }
}

impl From<wire::Consent> for Consent {
    fn from(w: wire::Consent) -> Self {
        Consent {
            should_request_terms_consent: w.should_request_terms_consent,
            should_request_email_consent: w.should_request_email_consent,
            should_request_cams_consent: w.should_request_cams_consent,
            request_terms_consent: w.request_terms_consent,
            request_email_consent: w.request_email_consent,
            request_cams_consent: w.request_cams_consent,
            has_email_consent: w.has_email_consent,
        }
    }
}

impl From<wire::ModalFlags> for ModalFlags {
    fn from(w: wire::ModalFlags) -> Self {
        ModalFlags {
            gems_intro: w.gems_intro,
            teaser_viewed: w.teaser_viewed,
            texas_health_warning_acknowledged: w.texas_health_warning_acknowledged,
            alabama_health_warning_acknowledged: w.alabama_health_warning_acknowledged,
        }
    }
}
