//! Access-denied routing, channel routes, and the facts as JSON.

mod common;

use access::{
    access_denied_route, channel_route_access, ChannelRoute, DeniedRoute, Group, ProfileFacts, Role, RouteAccess,
    SubscriptionKind, UserFacts, VideoFacts,
};
use common::user;

const CHANNEL_VIDEO: VideoFacts =
    VideoFacts { is_channel_video: true, is_third_party_channel: false, is_free_limited_trial: false };

fn with(column: &str, edit: impl FnOnce(&mut ProfileFacts)) -> UserFacts {
    let mut u = user(column);
    edit(u.profile.as_mut().unwrap());
    u
}

#[test]
fn a_multisite_user_with_access_goes_to_unlock_channel_for_a_channel_video() {
    let multisite = with("sub", |p| p.has_active_multisite_subscription = true);
    assert_eq!(access_denied_route(&multisite, &CHANNEL_VIDEO), DeniedRoute::UnlockChannel);
    let plain_video = VideoFacts { is_channel_video: false, ..CHANNEL_VIDEO };
    assert_eq!(access_denied_route(&multisite, &plain_video), DeniedRoute::PurchaseMembership);
    let single_site = user("sub");
    assert_eq!(access_denied_route(&single_site, &CHANNEL_VIDEO), DeniedRoute::PurchaseMembership);
    let without_access = with("subN", |p| p.has_active_multisite_subscription = true);
    assert_eq!(access_denied_route(&without_access, &CHANNEL_VIDEO), DeniedRoute::PurchaseMembership);
}

#[test]
fn an_active_trial_with_credits_goes_to_unlock_or_upgrade_unless_third_party_or_free_limited() {
    let trial = user("trial");
    assert_eq!(access_denied_route(&trial, &CHANNEL_VIDEO), DeniedRoute::UnlockOrUpgradeMembership);
    let third_party = VideoFacts { is_third_party_channel: true, ..CHANNEL_VIDEO };
    assert_eq!(access_denied_route(&trial, &third_party), DeniedRoute::PurchaseMembership);
    let no_credits = with("trial", |p| p.subscription.pay_per_video_credits = 0);
    assert_eq!(access_denied_route(&no_credits, &CHANNEL_VIDEO), DeniedRoute::PurchaseMembership);
    let flt = with("flt", |p| p.subscription.pay_per_video_credits = 3);
    assert_eq!(access_denied_route(&flt, &CHANNEL_VIDEO), DeniedRoute::PurchaseMembership);
    for column in ["anon", "exp", "pp", "ppG"] {
        assert_eq!(access_denied_route(&user(column), &CHANNEL_VIDEO), DeniedRoute::PurchaseMembership, "{column}");
    }
    assert_eq!(
        serde_json::to_string(&DeniedRoute::UnlockOrUpgradeMembership).unwrap(),
        "\"UnlockOrUpgradeMembership\""
    );
}

#[test]
fn channel_routes_are_not_found_without_the_ability_and_some_need_login() {
    let f = tenants::Features::default();
    assert_eq!(channel_route_access(&user("anon"), &f, ChannelRoute::Channels), RouteAccess::Allowed);
    assert_eq!(channel_route_access(&user("anon"), &f, ChannelRoute::AllChannelVideos), RouteAccess::Unauthenticated);
    assert_eq!(channel_route_access(&user("anon"), &f, ChannelRoute::ChannelTrailer), RouteAccess::Unauthenticated);
    assert_eq!(channel_route_access(&user("child"), &f, ChannelRoute::ChannelVideo), RouteAccess::NotFound);
    assert_eq!(channel_route_access(&user("child"), &f, ChannelRoute::AllChannelVideos), RouteAccess::NotFound);
    assert_eq!(channel_route_access(&user("sub"), &f, ChannelRoute::ChannelTrailer), RouteAccess::NotFound);
    assert_eq!(channel_route_access(&user("prev"), &f, ChannelRoute::ChannelTrailer), RouteAccess::Allowed);
    let trailers = tenants::Features { internal_channel_trailers: true, ..f.clone() };
    assert_eq!(channel_route_access(&user("sub"), &trailers, ChannelRoute::ChannelTrailer), RouteAccess::Allowed);
    let off = tenants::Features { channels: false, ..f };
    assert_eq!(channel_route_access(&user("sub"), &off, ChannelRoute::ChannelPack), RouteAccess::NotFound);
}

#[test]
fn user_facts_read_the_profile_json_as_the_profile_service_writes_it() {
    let json = serde_json::json!({
        "tenant": "wifey",
        "profile": {
            "userId": "0b6f0bd4-5f7c-4c36-9d86-8c8f8a6f1e01",
            "email": "a@b.cd",
            "groups": ["admin", "@paysite/role-video-preview", "someone-else"],
            "siteAccessArray": ["wifey"],
            "tenantsSubscriptionState": {"wifey": "full", "vixen": "none", "channels": "full"},
            "hasActiveMultisiteSubscription": false,
            "isFreeLimitedTrial": false,
            "unlockedChannelPackIds": ["p1"],
            "tandemSubscription": {"hasTandemChildAccount": true, "isTandemChildAccount": false, "tandemParentDisplayName": null},
            "subscription": {"type": "member", "subscriptionType": "member", "active": true, "isActive": true,
                             "cancelled": true, "biller": "RGNATIVE", "payPerVideoCredits": 2,
                             "unlockedVideoIds": ["u9"], "isFreeLimitedTrial": false, "isGuestUser": false},
            "userSubscriptionsState": {"subscriptionsStatus": [
                {"isActive": true, "isTandemChildAccount": false, "tenant": "wifey", "type": "member"}]},
            "state": {"userId": "x", "modals": {"gemsIntro": true, "teaserViewed": false,
                      "texasHealthWarningAcknowledged": false, "alabamaHealthWarningAcknowledged": true}}
        }
    });
    let u: UserFacts = serde_json::from_value(json).unwrap();
    let p = u.profile.as_ref().unwrap();
    assert_eq!(p.groups, [Group::Admin, Group::VideoPreview], "unknown groups are dropped");
    assert_eq!(p.subscription.kind, SubscriptionKind::Member);
    assert!(p.subscription.cancelled && p.state.modals.gems_intro);
    assert_eq!(access::role(&u), Role::ActiveSubscriber);
    let f = tenants::Features {
        faceted_search: true,
        show_angels: true,
        promotional_video_teaser_modal: tenants::Toggle { enabled: true },
        ..tenants::Features::default()
    };
    assert!(f.channels && f.upgrade_overlay && !f.expert_review && f.promotional_video_teaser_modal.enabled);
    assert!(access::can(&u, &f, "see", "ReactivateCancelledRebillModal", None));
    assert!(access::can(&u, &f, "edit", "RelationshipSection", None));
    let anonymous: UserFacts = serde_json::from_value(serde_json::json!({"tenant": "vixen"})).unwrap();
    assert_eq!(access::role(&anonymous), Role::Anonymous);
}
