//! Pure access rules: what a user may see and do, from their profile, subscriptions, groups
//! and the tenant's features (product.md, "Roles and abilities" and
//! product.md, "Roles and abilities"). No I/O beyond the brands, which the `tenants` crate loads once per process: the
//! gateway and the services call these with facts they have looked up, and
//! the browser receives the same rules as `user.abilities` to render with.
//!
//! - [`facts`]: the inputs, [`UserFacts`] (deserialisable from findOneUserProfile's JSON) and
//!   `tenants::Features` (a tenant's `features`), and the derived [`Role`].
//! - [`abilities()`]: the CASL rule list; [`can`]: the same list asked a question.
//! - [`rules`]: [`Rule`] as @casl/ability's raw rule, its MongoDB-style conditions.
//! - [`routing`]: access-denied routing and channel routes.
//! - [`free_trial`]: which videos a user's free limited trial may take, and why not.
//! - [`relationship`]: the relationship-status section.
//! - [`casl`]: the serialised list read back as the browser reads it (for tests).
//!
//! # Vocabulary
//!
//! Subjects with conditions are matched against [`ResourceFacts`] (`id`, `site`,
//! `channelPackId` (null when in no pack), `isThirdPartyChannel`, `isFreeLimitedTrial`,
//! `denied`); the browser wraps a video as `subject('Video', {...})` with those fields.
//!
//! | action | subject | who (conditions) |
//! |---|---|---|
//! | play | Trailer | everyone `{denied: {$ne: true}}`; active subscriber also in access |
//! | play, comment | Video | active subscriber in access; unlocked (`{id: {$in: unlocked}}`) for active subscriber, trial, active free limited trial, porn-portal on the plus tenant without full access |
//! | unlock | Video | active free limited trial: `{site: {$in: access}, id: {$nin: unlocked}, isFreeLimitedTrial: true, isThirdPartyChannel: {$ne: true}}` (one of its three full videos) |
//! | play (inverted) | Video | porn-portal guest `{denied: true}` |
//! | download | Video | active subscriber in access |
//! | see | PictureSet | as play Video (not the porn-portal guest's denial) |
//! | unlock | ChannelVideo | trial, expired, porn-portal (not guest), active subscriber: `{channelPackId: {$nin: [null, ...unlockedPacks]}, id: {$nin: unlocked}}` |
//! | unlock | ChannelPack | active subscriber with tenant access `{channelPackId: {$nin: unlockedPacks}}` |
//! | unlock, access | Channel | active subscriber with tenant access |
//! | see | Channels | everyone when feature `channels`; inverted for a tandem child |
//! | see | InternalChannels, ChannelTrailers, InternalChannelTrailers | everyone when the flag is on, or the preview role |
//! | see | ExpertReviewModal | signed in, flag or preview role; the free limited trial only while active |
//! | see | PurchaseMembershipModal | free limited trial, trial, expired, porn-portal |
//! | see | UpgradeBar | free limited trial, trial, expired, porn-portal (not guest), cancelled RGNATIVE subscriber |
//! | see | UpgradeOverlay | free limited trial, trial (`{id: {$nin: unlocked}}`), expired, porn-portal (not guest); feature `upgradeOverlay`; never admins and active members |
//! | see | TrialDeals / ExpiredDeals / PornPortalBar / SpecialOffers | trials / expired / expired / porn-portal |
//! | see | FreeLimitedTrialVideos | free limited trial, active subscriber |
//! | see | LockedVideo | active free limited trial |
//! | see | LockedChannel | active free limited trial, expired, porn-portal (not guest) |
//! | see | HideMonthInterstitialButton, UnlockChannelModal, GemAnimation | active subscriber with tenant access |
//! | see | ReactivateCancelledRebillModal | cancelled active subscriber of biller RGNATIVE |
//! | see | RecommendationShelf | signed-in admins, and users not trial or free limited trial (not porn-portal with plus status and a trial but no membership) |
//! | see, edit | RelationshipSection | admin or active wifey; edit not for a tandem child |
//! | loadMore, sort, focus | Comment | everyone |
//! | add, reply, vote, setDraft | Comment | signed in |
//! | remove, pin, unpin | Comment | moderators (admin, commenteditor) |

pub mod abilities;
pub mod casl;
pub mod facts;
pub mod free_trial;
pub mod relationship;
pub mod routing;
pub mod rules;

pub use abilities::{abilities, can, Ability};
pub use facts::{
    is_moderator, role, shows_flag_or_preview, subscription_kind, Group, OwnerFacts, ProfileFacts, Role, StoredKind,
    SubscriptionFacts, SubscriptionKind, SubscriptionRead, SubscriptionStatus, UserFacts,
};
pub use free_trial::{free_trial_sites, free_trial_take, is_free_trial_video_for, TrialRefusal};
pub use relationship::{may_edit_relationship, may_see_relationship_section, RelationshipFacts};
pub use routing::{
    access_denied_route, channel_route_access, denied_reason, ChannelRoute, Denied, DeniedRoute, RouteAccess,
    VideoFacts,
};
pub use rules::{evaluate, Cond, Conditions, ResourceFacts, Rule};

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

    #[test]
    fn the_owners_answers_make_the_facts_a_cancelled_member_and_a_tandem_child_play_with() {
        // The subscription service's read, as its wire carries it (services/subscription view.rs).
        let read = |cancelled: bool, child: bool| {
            serde_json::from_value::<SubscriptionRead>(serde_json::json!({
                "siteAccessArray": ["vixen"],
                "tenantsSubscriptionState": {"vixen": "full", "tushy": "none", "channels": if child { "none" } else { "full" }},
                "subscription": {"type": "member", "subscriptionType": "member", "active": true, "isActive": true,
                                 "cancelled": cancelled, "biller": "RGNATIVE", "isFreeLimitedTrial": false},
                "billerName": "RGNATIVE",
                "hasActiveMultisiteSubscription": false,
                "isFreeLimitedTrial": false,
                "tandemSubscription": {"isTandemChildAccount": child, "tandemParentUserId": null},
                "subscriptionsStatus": [{"isActive": true, "isTandemChildAccount": child, "tenant": "vixen", "type": "member"}],
                "subscriptions": []
            }))
            .unwrap()
        };
        let video = ResourceFacts { id: Some("v".into()), site: Some("vixen".into()), ..Default::default() };
        for (cancelled, child) in [(true, false), (false, true)] {
            let facts =
                ProfileFacts::from_owners(OwnerFacts { subscription: read(cancelled, child), ..Default::default() });
            let user = UserFacts::signed_in("vixen", facts);
            assert_eq!(role(&user), Role::ActiveSubscriber);
            let ability = Ability::new(&user, &tenants::Features::default());
            assert!(ability.can(abilities::action::PLAY, abilities::subject::VIDEO, Some(&video)));
            assert!(ability.can(abilities::action::DOWNLOAD, abilities::subject::VIDEO, Some(&video)));
            assert_eq!(ability.can(abilities::action::SEE, abilities::subject::CHANNELS, None), !child);
            assert_eq!(
                ability.can(abilities::action::SEE, abilities::subject::REACTIVATE_CANCELLED_REBILL_MODAL, None),
                cancelled
            );
        }
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
