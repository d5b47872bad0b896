//! Properties of the rules over arbitrary users, tenants and resources.

mod common;

use access::facts::Role;
use access::{abilities, access_denied_route, can, role, DeniedRoute, Group, SubscriptionKind, VideoFacts};
use common::{any_features, any_resource, any_user};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn moderators_always_moderate_comments(u in any_user(), f in any_features()) {
        let moderator = u.profile.as_ref().is_some_and(|p| access::is_moderator(&p.groups));
        for action in ["remove", "pin", "unpin"] {
            prop_assert_eq!(can(&u, &f, action, "Comment", None), moderator);
        }
    }

    #[test]
    fn a_tandem_child_never_sees_channels(u in any_user(), f in any_features()) {
        let child = u.profile.as_ref().is_some_and(|p| p.tandem_subscription.is_tandem_child_account);
        if child {
            prop_assert!(!can(&u, &f, "see", "Channels", None));
        } else {
            prop_assert_eq!(can(&u, &f, "see", "Channels", None), f.channels);
        }
    }

    #[test]
    fn nobody_plays_a_video_outside_their_access_unless_unlocked(
        u in any_user(), f in any_features(), r in any_resource(),
    ) {
        if can(&u, &f, "play", "Video", Some(&r)) {
            let p = u.profile.as_ref().expect("visitors play no video");
            let site = r.site.clone().unwrap();
            let full = p.site_access_array.contains(&site)
                || p.tenants_subscription_state.get(&site).is_some_and(|v| v == "full");
            let pack_open = r.channel_pack_id.as_ref().is_none_or(|id| p.unlocked_channel_pack_ids.contains(id));
            let unlocked = p.subscription.unlocked_video_ids.contains(r.id.as_ref().unwrap());
            prop_assert!((full && pack_open) || unlocked);
            // Without an active membership, only what was unlocked (bought for good) plays.
            prop_assert!(p.subscription.active || p.subscription.kind == SubscriptionKind::PornPortal || unlocked);
        }
    }

    #[test]
    fn downloads_need_an_active_membership_and_access(u in any_user(), f in any_features(), r in any_resource()) {
        if can(&u, &f, "download", "Video", Some(&r)) {
            prop_assert_eq!(role(&u), Role::ActiveSubscriber);
            prop_assert!(can(&u, &f, "play", "Video", Some(&r)), "whoever downloads may play");
        }
    }

    #[test]
    fn admins_and_active_members_never_see_the_upgrade_overlay(u in any_user(), f in any_features()) {
        let admin = u.profile.as_ref().is_some_and(|p| p.groups.contains(&Group::Admin));
        if admin || role(&u) == Role::ActiveSubscriber {
            prop_assert!(!can(&u, &f, "see", "UpgradeOverlay", None));
        }
    }

    #[test]
    fn trials_see_no_recommendation_shelf_unless_admin(u in any_user(), f in any_features()) {
        let admin = u.profile.as_ref().is_some_and(|p| p.groups.contains(&Group::Admin));
        if matches!(role(&u), Role::Trial | Role::FreeLimitedTrial | Role::Anonymous) && !admin {
            prop_assert!(!can(&u, &f, "see", "RecommendationShelf", None));
        }
        if admin {
            prop_assert!(can(&u, &f, "see", "RecommendationShelf", None));
        }
    }

    #[test]
    fn whoever_may_edit_the_relationship_section_may_see_it(u in any_user(), f in any_features()) {
        if can(&u, &f, "edit", "RelationshipSection", None) {
            prop_assert!(can(&u, &f, "see", "RelationshipSection", None));
            prop_assert!(!u.profile.as_ref().unwrap().tandem_subscription.is_tandem_child_account
                || u.profile.as_ref().unwrap().groups.contains(&Group::Admin));
        }
    }

    #[test]
    fn the_preview_role_sees_every_preview_gated_thing(u in any_user(), f in any_features()) {
        if u.profile.as_ref().is_some_and(|p| p.groups.contains(&Group::VideoPreview)) {
            for s in ["InternalChannels", "ChannelTrailers", "InternalChannelTrailers"] {
                prop_assert!(can(&u, &f, "see", s, None));
            }
        }
    }

    #[test]
    fn a_visitor_only_plays_trailers_that_are_not_denied(tenant in "[a-z]{3,8}", f in any_features(), r in any_resource()) {
        let u = access::UserFacts::anonymous(tenant);
        prop_assert_eq!(can(&u, &f, "play", "Trailer", Some(&r)), !r.denied);
        prop_assert!(!can(&u, &f, "play", "Video", Some(&r)));
        prop_assert!(abilities(&u, &f).iter().all(|rule| !matches!(rule.action, "add" | "reply" | "vote" | "setDraft")));
    }

    #[test]
    fn unlock_or_upgrade_goes_only_to_active_trials_with_credits(u in any_user(), third: bool, channel: bool, flt: bool) {
        let video = VideoFacts { is_channel_video: channel, is_third_party_channel: third, is_free_limited_trial: flt };
        match access_denied_route(&u, &video) {
            DeniedRoute::UnlockOrUpgradeMembership => {
                let p = u.profile.as_ref().unwrap();
                prop_assert_eq!(role(&u), Role::Trial);
                prop_assert!(p.subscription.pay_per_video_credits > 0 && !third);
            }
            DeniedRoute::UnlockChannel => {
                prop_assert!(channel && u.profile.as_ref().unwrap().has_active_multisite_subscription);
            }
            DeniedRoute::PurchaseMembership => {}
        }
    }

    #[test]
    fn an_unlocked_video_is_never_offered_for_unlocking(u in any_user(), f in any_features(), r in any_resource()) {
        let unlocked = u.profile.as_ref().is_some_and(|p| p.subscription.unlocked_video_ids.contains(r.id.as_ref().unwrap()));
        if unlocked {
            prop_assert!(!can(&u, &f, "unlock", "ChannelVideo", Some(&r)));
        }
        if r.channel_pack_id.is_none() {
            prop_assert!(!can(&u, &f, "unlock", "ChannelVideo", Some(&r)));
        }
    }

    /// The unlocks service asks content questions with the default features (it holds no
    /// tenant configuration): they must not depend on the tenant's features.
    #[test]
    fn content_answers_do_not_read_the_tenants_features(
        u in any_user(), f in any_features(), g in any_features(), r in any_resource(),
    ) {
        for (action, subject) in
            [("play", "Video"), ("download", "Video"), ("unlock", "Video"), ("unlock", "ChannelVideo"), ("unlock", "ChannelPack")]
        {
            prop_assert_eq!(can(&u, &f, action, subject, Some(&r)), can(&u, &g, action, subject, Some(&r)), "{} {}", action, subject);
        }
    }

    #[test]
    fn the_free_limited_trial_plays_only_what_it_took(u in any_user(), f in any_features(), r in any_resource()) {
        let took = u.profile.as_ref().is_some_and(|p| p.subscription.unlocked_video_ids.contains(r.id.as_ref().unwrap()));
        if role(&u) == Role::FreeLimitedTrial && can(&u, &f, "play", "Video", Some(&r)) {
            prop_assert!(took);
        }
        if can(&u, &f, "unlock", "Video", Some(&r)) {
            prop_assert!(role(&u) == Role::FreeLimitedTrial && r.is_free_limited_trial && !r.is_third_party_channel && !took);
        }
    }

    #[test]
    fn a_refusal_names_the_pack_only_when_the_user_may_unlock_it(u in any_user(), f in any_features(), r in any_resource()) {
        let ability = access::Ability::new(&u, &f);
        if access::denied_reason(&u, &ability, &r, 3) == access::Denied::ChannelPackLocked {
            prop_assert!(r.channel_pack_id.is_some() && ability.can("unlock", "ChannelVideo", Some(&r)));
        }
    }

    /// A refusal offers the free video only where UnlockVideo would take it, and never a
    /// purchase (upgrade) to an active subscriber whose access covers the video's site.
    #[test]
    fn a_refusal_offers_the_step_that_fits(u in any_user(), f in any_features(), r in any_resource(), left in 0u32..4) {
        let ability = access::Ability::new(&u, &f);
        let reason = access::denied_reason(&u, &ability, &r, left);
        if reason == access::Denied::FreeTrialVideo {
            prop_assert!(left > 0 && ability.can("unlock", "Video", Some(&r)));
        }
        if reason == access::Denied::FreeTrialExpired {
            prop_assert_eq!(role(&u), Role::FreeLimitedTrial);
        }
        let pays = role(&u) == Role::ActiveSubscriber
            && u.profile.as_ref().is_some_and(|p| r.site.as_ref().is_some_and(|s| p.site_access_array.contains(s)));
        if pays {
            prop_assert!(matches!(reason, access::Denied::Support | access::Denied::ChannelPackLocked), "{:?}", reason);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The mark "free for your trial" is the trial's own: only an active free limited trial
    /// with videos left sees it, only on a flagged video of its own sites outside a third
    /// party's channel that it does not hold yet; and whatever the trial may not take it
    /// refuses with a reason of its own.
    #[test]
    fn the_free_trial_mark_is_the_users_and_the_videos_together(
        u in any_user(), f in any_features(), r in any_resource(), left in 0u32..4,
    ) {
        let ability = access::Ability::new(&u, &f);
        let answer = access::free_trial_take(&u, &ability, &r, left);
        prop_assert_eq!(answer.is_some(), role(&u) == Role::FreeLimitedTrial);
        if access::is_free_trial_video_for(&u, &ability, &r, left) {
            let p = u.profile.as_ref().expect("a visitor has no trial");
            prop_assert!(p.subscription.active && left > 0);
            prop_assert!(r.is_free_limited_trial && !r.is_third_party_channel);
            prop_assert!(access::free_trial_sites(&u).contains(r.site.as_ref().unwrap()));
            prop_assert!(!p.subscription.unlocked_video_ids.contains(r.id.as_ref().unwrap()));
        }
        if let Some(Err(refusal)) = answer {
            match refusal {
                access::TrialRefusal::NotATrialVideo => {
                    prop_assert!(!r.is_free_limited_trial || r.is_third_party_channel)
                }
                access::TrialRefusal::OtherSite => {
                    prop_assert!(r.is_free_limited_trial && !r.is_third_party_channel);
                    prop_assert!(!access::free_trial_sites(&u).contains(r.site.as_ref().unwrap()));
                }
                access::TrialRefusal::NoneLeft => prop_assert_eq!(left, 0),
                access::TrialRefusal::Expired | access::TrialRefusal::AlreadyTaken => {}
            }
        }
    }
}
