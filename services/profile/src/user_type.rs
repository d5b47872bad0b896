//! The user type shown beside a user's comments (product.md, "Roles and
//! abilities"): the role first, else the membership, in the spec's words.

use crate::queries::SubscriptionRow;

pub use profile_contract::api::UserType;

/// A user's type from their groups and the subscriptions that count for them: admin, then
/// moderator, then the best active subscription (member, trial, porn-portal), then expired when a
/// membership or trial ended; porn-portal when there is nothing.
pub fn user_type(groups: &[String], subs: &[SubscriptionRow]) -> UserType {
    let in_group = |g: &str| groups.iter().any(|x| x == g);
    let active = |kind: &str| subs.iter().any(|s| s.active && s.kind == kind);
    if in_group("admin") {
        UserType::Admin
    } else if in_group("commenteditor") {
        UserType::Moderator
    } else if active("member") {
        UserType::Member
    } else if active("trial") {
        UserType::Trial
    } else if active("porn-portal") {
        UserType::PornPortal
    } else if subs.iter().any(|s| s.kind != "porn-portal") {
        UserType::Expired
    } else {
        UserType::PornPortal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeZone, Utc};

    fn sub(kind: &str, active: bool) -> SubscriptionRow {
        let at = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        SubscriptionRow {
            site: "vixen".into(),
            sites: vec!["vixen".into()],
            kind: kind.into(),
            is_free_limited_trial: false,
            biller: "EPOCH".into(),
            active_since: at,
            active,
            cancelled: false,
            ended_at: (!active).then_some(at),
            updated_at: at,
        }
    }

    fn groups(names: &[&str]) -> Vec<String> {
        names.iter().map(|g| (*g).to_owned()).collect()
    }

    #[test]
    fn a_role_comes_before_the_membership() {
        assert_eq!(user_type(&groups(&["admin", "commenteditor"]), &[sub("member", true)]), UserType::Admin);
        assert_eq!(user_type(&groups(&["commenteditor"]), &[sub("member", true)]), UserType::Moderator);
        assert_eq!(user_type(&groups(&["admin"]), &[]), UserType::Admin);
    }

    #[test]
    fn other_groups_are_not_roles_shown_to_others() {
        let previewer = groups(&["@paysite/role-video-preview"]);
        assert_eq!(user_type(&previewer, &[sub("member", true)]), UserType::Member);
    }

    #[test]
    fn the_best_active_subscription_decides() {
        assert_eq!(user_type(&[], &[sub("trial", true), sub("member", true)]), UserType::Member);
        assert_eq!(user_type(&[], &[sub("porn-portal", true), sub("trial", true)]), UserType::Trial);
        assert_eq!(user_type(&[], &[sub("porn-portal", true), sub("member", false)]), UserType::PornPortal);
    }

    #[test]
    fn an_ended_membership_or_trial_is_expired_and_nothing_is_porn_portal() {
        assert_eq!(user_type(&[], &[sub("member", false)]), UserType::Expired);
        assert_eq!(user_type(&[], &[sub("trial", false)]), UserType::Expired);
        assert_eq!(user_type(&[], &[sub("porn-portal", false)]), UserType::PornPortal);
        assert_eq!(user_type(&[], &[]), UserType::PornPortal);
    }
}
