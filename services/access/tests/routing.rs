//! Access-denied routing, channel routes, modal auto-opening, and the facts as JSON.

mod common;

use access::modals::GEMS_MODAL_QUIET_MS;
use access::{
    access_denied_route, channel_route_access, opens_gems_intro, opens_promotional_teaser, opens_upgrade_modal,
    ChannelRoute, DeniedRoute, Group, PageContext, ProfileFacts, Role, RouteAccess, SubscriptionKind, TenantFeatures,
    UserFacts, VideoFacts,
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
    let f = TenantFeatures::default();
    assert_eq!(channel_route_access(&user("anon"), &f, ChannelRoute::Channels), RouteAccess::Allowed);
    assert_eq!(channel_route_access(&user("anon"), &f, ChannelRoute::AllChannelVideos), RouteAccess::Unauthenticated);
    assert_eq!(channel_route_access(&user("anon"), &f, ChannelRoute::ChannelTrailer), RouteAccess::Unauthenticated);
    assert_eq!(channel_route_access(&user("child"), &f, ChannelRoute::ChannelVideo), RouteAccess::NotFound);
    assert_eq!(channel_route_access(&user("child"), &f, ChannelRoute::AllChannelVideos), RouteAccess::NotFound);
    assert_eq!(channel_route_access(&user("sub"), &f, ChannelRoute::ChannelTrailer), RouteAccess::NotFound);
    assert_eq!(channel_route_access(&user("prev"), &f, ChannelRoute::ChannelTrailer), RouteAccess::Allowed);
    let trailers = TenantFeatures { internal_channel_trailers: true, ..f.clone() };
    assert_eq!(channel_route_access(&user("sub"), &trailers, ChannelRoute::ChannelTrailer), RouteAccess::Allowed);
    let off = TenantFeatures { channels: false, ..f };
    assert_eq!(channel_route_access(&user("sub"), &off, ChannelRoute::ChannelPack), RouteAccess::NotFound);
}

fn home(now_ms: i64) -> PageContext {
    PageContext { page: "home".into(), now_ms, ..Default::default() }
}

#[test]
fn the_gems_intro_opens_for_an_active_member_with_nothing_in_the_way() {
    let f = TenantFeatures::default();
    let member = with("sub", |p| p.unlocked_channel_pack_ids.clear());
    assert!(opens_gems_intro(&member, &f, &home(10 * GEMS_MODAL_QUIET_MS)));
    let blocked: Vec<(&str, UserFacts, PageContext)> = vec![
        ("offers page", member.clone(), PageContext { page: "offers".into(), ..home(0) }),
        ("signup notification", member.clone(), PageContext { signup_notification: true, ..home(0) }),
        (
            "shown within the day",
            member.clone(),
            PageContext { gems_modal_last_shown_ms: Some(1), ..home(GEMS_MODAL_QUIET_MS) },
        ),
        ("health warning", member.clone(), PageContext { health_warning_unacknowledged: true, ..home(0) }),
        ("packs unlocked", user("sub"), home(0)),
        (
            "seen",
            with("sub", |p| {
                p.unlocked_channel_pack_ids.clear();
                p.state.modals.gems_intro = true
            }),
            home(0),
        ),
        ("trial", user("trial"), home(0)),
        ("inactive", user("exp"), home(0)),
        ("porn-portal", with("pp", |p| p.subscription.active = false), home(0)),
        ("tandem child", with("child", |p| p.unlocked_channel_pack_ids.clear()), home(0)),
        ("visitor", user("anon"), home(0)),
    ];
    for (why, u, page) in blocked {
        assert!(!opens_gems_intro(&u, &f, &page), "{why}");
    }
    let teaser = TenantFeatures { promotional_video_teaser_modal: access::facts::Toggle { enabled: true }, ..f };
    assert!(!opens_gems_intro(&member, &teaser, &home(0)), "teaser pending");
    assert!(opens_gems_intro(
        &member,
        &f,
        &PageContext { gems_modal_last_shown_ms: Some(0), ..home(GEMS_MODAL_QUIET_MS) }
    ));
}

#[test]
fn the_teaser_opens_when_enabled_unseen_and_not_a_guest_and_expired_users_get_the_upgrade_modal() {
    let on = TenantFeatures {
        promotional_video_teaser_modal: access::facts::Toggle { enabled: true },
        ..Default::default()
    };
    assert!(opens_promotional_teaser(&user("sub"), &on));
    assert!(!opens_promotional_teaser(&user("sub"), &TenantFeatures::default()));
    assert!(!opens_promotional_teaser(&user("ppG"), &on));
    assert!(!opens_promotional_teaser(&with("sub", |p| p.state.modals.teaser_viewed = true), &on));
    assert!(!opens_promotional_teaser(&user("anon"), &on));
    assert!(opens_upgrade_modal(&user("exp")));
    assert!(!opens_upgrade_modal(&user("fltX")), "the free limited trial has its own prompts");
    assert!(!opens_upgrade_modal(&user("sub")));
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
    let f: TenantFeatures = serde_json::from_value(serde_json::json!({
        "facetedSearch": true, "showAngels": true, "promotionalVideoTeaserModal": {"enabled": true},
        "healthWarning": {"US-TX": {"enabled": true, "regionName": "Texas"}}
    }))
    .unwrap();
    assert!(f.channels && f.upgrade_overlay && !f.expert_review && f.promotional_video_teaser_modal.enabled);
    assert!(access::can(&u, &f, "see", "ReactivateCancelledRebillModal", None));
    assert!(access::can(&u, &f, "edit", "RelationshipSection", None));
    let anonymous: UserFacts = serde_json::from_value(serde_json::json!({"tenant": "vixen"})).unwrap();
    assert_eq!(access::role(&anonymous), Role::Anonymous);
}
