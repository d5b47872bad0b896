//! Pure access rules: what a user may see and do, from their profile, subscriptions, groups
//! and the tenant's features (screens-routes-access.md §6). No I/O: the gateway and the
//! services call these with facts they have looked up, and the browser receives the same
//! answers to render with.
//!
//! This crate starts with the rules that need nothing but groups, flags and a subscription's
//! standing; the full ability matrix grows here with the gateway.

use serde::{Deserialize, Serialize};

/// The groups the spec names, as profiles carry them.
pub use proto_events::profile::Group;

/// Moderators (admin, commenteditor) may remove comments and pin or unpin them.
pub fn is_moderator(groups: &[Group]) -> bool {
    groups.iter().any(|g| matches!(g, Group::Admin | Group::CommentEditor))
}

/// Channel trailers, internal channels, internal channel trailers and the expert-review
/// modal show when their feature flag is on or the user has the preview role.
pub fn shows_flag_or_preview(feature_enabled: bool, groups: &[Group]) -> bool {
    feature_enabled || groups.contains(&Group::VideoPreview)
}

/// A subscription's kind as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoredKind {
    Member,
    Trial,
    PornPortal,
}

/// The kind the rules see: "expired" when the subscription is not active and not porn-portal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SubscriptionKind {
    Member,
    Trial,
    PornPortal,
    Expired,
}

pub fn subscription_kind(stored: StoredKind, active: bool) -> SubscriptionKind {
    match (stored, active) {
        (StoredKind::PornPortal, _) => SubscriptionKind::PornPortal,
        (_, false) => SubscriptionKind::Expired,
        (StoredKind::Member, true) => SubscriptionKind::Member,
        (StoredKind::Trial, true) => SubscriptionKind::Trial,
    }
}

/// What the relationship-status section rule needs to know about a user.
#[derive(Clone, Copy, Debug, Default)]
pub struct RelationshipFacts {
    pub is_admin: bool,
    /// An active subscription of the wifey brand.
    pub has_active_wifey_subscription: bool,
    pub is_tandem_child_account: bool,
}

/// Visible to admin or users with an active subscription of the wifey brand.
pub fn may_see_relationship_section(f: RelationshipFacts) -> bool {
    f.is_admin || f.has_active_wifey_subscription
}

/// Editable by admin, or by an active wifey member who is not a tandem child account.
pub fn may_edit_relationship(f: RelationshipFacts) -> bool {
    f.is_admin || (f.has_active_wifey_subscription && !f.is_tandem_child_account)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn group_names_are_the_specs() {
        for g in Group::ALL {
            assert_eq!(Group::from_name(g.as_str()), Some(g));
            assert_eq!(serde_json::to_string(&g).unwrap(), format!("\"{}\"", g.as_str()));
        }
        assert_eq!(Group::from_name("moderator"), None, "an unknown group carries no rights");
    }

    #[test]
    fn admins_and_comment_editors_moderate_and_nobody_else() {
        assert!(is_moderator(&[Group::Admin]));
        assert!(is_moderator(&[Group::GuestUser, Group::CommentEditor]));
        assert!(!is_moderator(&[Group::VideoPreview, Group::GuestUser]));
        assert!(!is_moderator(&[]));
    }

    #[test]
    fn the_preview_role_sees_what_a_flag_hides() {
        assert!(shows_flag_or_preview(true, &[]));
        assert!(shows_flag_or_preview(false, &[Group::VideoPreview]));
        assert!(!shows_flag_or_preview(false, &[Group::Admin]));
    }

    #[test]
    fn an_inactive_subscription_is_expired_unless_porn_portal() {
        assert_eq!(subscription_kind(StoredKind::Member, false), SubscriptionKind::Expired);
        assert_eq!(subscription_kind(StoredKind::Trial, false), SubscriptionKind::Expired);
        assert_eq!(subscription_kind(StoredKind::PornPortal, false), SubscriptionKind::PornPortal);
        assert_eq!(subscription_kind(StoredKind::Member, true), SubscriptionKind::Member);
        assert_eq!(serde_json::to_string(&SubscriptionKind::PornPortal).unwrap(), "\"porn-portal\"");
    }

    #[test]
    fn a_tandem_child_sees_the_relationship_section_but_may_not_edit_it() {
        let child = RelationshipFacts {
            has_active_wifey_subscription: true,
            is_tandem_child_account: true,
            ..Default::default()
        };
        assert!(may_see_relationship_section(child));
        assert!(!may_edit_relationship(child));
    }

    proptest! {
        #[test]
        fn whoever_may_edit_the_relationship_section_may_see_it(admin: bool, wifey: bool, child: bool) {
            let f = RelationshipFacts { is_admin: admin, has_active_wifey_subscription: wifey, is_tandem_child_account: child };
            prop_assert!(!may_edit_relationship(f) || may_see_relationship_section(f));
            prop_assert_eq!(may_see_relationship_section(f), admin || wifey);
        }
    }
}
