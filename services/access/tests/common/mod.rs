//! Fixtures shared by the tests: the users of the role table, the resources, a generator of
//! arbitrary users, and a MongoDB-subset evaluator of CASL raw rules written against the JSON
//! the browser receives (not against the crate's own types).
#![allow(dead_code)]

use std::collections::BTreeMap;

use access::facts::{SubscriptionStatus, TandemFacts, UserSubscriptionsState};
use access::{Group, ProfileFacts, ResourceFacts, StoredKind, SubscriptionFacts, SubscriptionKind, UserFacts};
use proptest::prelude::*;
use serde_json::{json, Value};

pub const TENANT: &str = "vixen";

pub fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

fn full(keys: &[&str]) -> BTreeMap<String, String> {
    keys.iter().map(|k| ((*k).to_owned(), "full".to_owned())).collect()
}

fn sub(kind: SubscriptionKind, active: bool) -> SubscriptionFacts {
    SubscriptionFacts { kind, active, ..SubscriptionFacts::default() }
}

fn status(tenant: &str, kind: StoredKind, active: bool) -> SubscriptionStatus {
    SubscriptionStatus { is_active: active, is_tandem_child_account: false, tenant: tenant.into(), kind }
}

fn porn_portal() -> ProfileFacts {
    ProfileFacts {
        subscription: SubscriptionFacts {
            pay_per_video_credits: 5,
            unlocked_video_ids: strings(&["u1"]),
            ..sub(SubscriptionKind::PornPortal, true)
        },
        ..Default::default()
    }
}

fn subscriber() -> ProfileFacts {
    ProfileFacts {
        site_access_array: strings(&[TENANT]),
        tenants_subscription_state: full(&[TENANT, "channels"]),
        unlocked_channel_pack_ids: strings(&["p1"]),
        subscription: SubscriptionFacts {
            unlocked_video_ids: strings(&["u1"]),
            biller: Some("EPOCH".into()),
            ..sub(SubscriptionKind::Member, true)
        },
        user_subscriptions_state: UserSubscriptionsState {
            subscriptions_status: vec![status(TENANT, StoredKind::Member, true)],
        },
        ..Default::default()
    }
}

/// The columns of the role table, in order.
pub const COLUMNS: [&str; 16] = [
    "anon", "flt", "fltX", "trial", "exp", "ppG", "pp", "ppP", "sub", "subN", "subC", "adm", "ced", "child", "prev",
    "ppT",
];

/// The user of a column of the role table.
pub fn user(column: &str) -> UserFacts {
    let on = |p: ProfileFacts| UserFacts::signed_in(TENANT, p);
    match column {
        "anon" => UserFacts::anonymous(TENANT),
        // Free limited trial, active.
        "flt" => on(ProfileFacts {
            site_access_array: strings(&[TENANT]),
            is_free_limited_trial: true,
            subscription: SubscriptionFacts { is_free_limited_trial: true, ..sub(SubscriptionKind::Trial, true) },
            ..Default::default()
        }),
        // Free limited trial, no longer active.
        "fltX" => on(ProfileFacts {
            subscription: SubscriptionFacts { is_free_limited_trial: true, ..sub(SubscriptionKind::Expired, false) },
            ..Default::default()
        }),
        // Other trial (non-plus), active, with credits and one unlocked video.
        "trial" => on(ProfileFacts {
            site_access_array: strings(&[TENANT]),
            subscription: SubscriptionFacts {
                pay_per_video_credits: 3,
                unlocked_video_ids: strings(&["u1"]),
                ..sub(SubscriptionKind::Trial, true)
            },
            user_subscriptions_state: UserSubscriptionsState {
                subscriptions_status: vec![status(TENANT, StoredKind::Trial, true)],
            },
            ..Default::default()
        }),
        // Expired member (who once unlocked u1).
        "exp" => on(ProfileFacts {
            subscription: SubscriptionFacts {
                unlocked_video_ids: strings(&["u1"]),
                ..sub(SubscriptionKind::Expired, false)
            },
            ..Default::default()
        }),
        // Porn-portal guest (non-plus).
        "ppG" => on(ProfileFacts {
            groups: vec![Group::GuestUser],
            subscription: SubscriptionFacts { is_guest_user: true, ..sub(SubscriptionKind::PornPortal, true) },
            ..Default::default()
        }),
        // Porn-portal, not a guest (non-plus).
        "pp" => on(porn_portal()),
        // Porn-portal on the plus tenant without full access.
        "ppP" => UserFacts::signed_in("vixenplus", porn_portal()),
        // Active subscriber with tenant access (vixen, channels), pack p1 and video u1 unlocked.
        "sub" => on(subscriber()),
        // Active subscriber without tenant access: a blacked member on vixen.
        "subN" => on(ProfileFacts {
            site_access_array: strings(&["blacked"]),
            tenants_subscription_state: full(&["blacked", "channels"]),
            ..subscriber()
        }),
        // Active subscriber, cancelled, billed by RGNATIVE.
        "subC" => on(ProfileFacts {
            subscription: SubscriptionFacts {
                cancelled: true,
                biller: Some("RGNATIVE".into()),
                ..subscriber().subscription
            },
            ..subscriber()
        }),
        // Admin (porn-portal standing).
        "adm" => on(ProfileFacts { groups: vec![Group::Admin], ..porn_portal() }),
        // Comment editor (active subscriber).
        "ced" => on(ProfileFacts { groups: vec![Group::CommentEditor], ..subscriber() }),
        // Tandem child of an active vixen + wifey member (channels not full for a child).
        "child" => on(ProfileFacts {
            site_access_array: strings(&[TENANT, "wifey"]),
            tenants_subscription_state: full(&[TENANT, "wifey"]),
            tandem_subscription: TandemFacts { is_tandem_child_account: true, has_tandem_child_account: false },
            ..subscriber()
        }),
        // Preview role (porn-portal standing).
        "prev" => on(ProfileFacts { groups: vec![Group::VideoPreview], ..porn_portal() }),
        // Porn-portal with plus status and an active trial but no membership.
        "ppT" => on(ProfileFacts {
            user_subscriptions_state: UserSubscriptionsState {
                subscriptions_status: vec![status("vixenplus", StoredKind::Trial, true)],
            },
            ..porn_portal()
        }),
        other => panic!("no column {other}"),
    }
}

/// The resources the role table names.
pub fn resource(name: &str) -> ResourceFacts {
    let video =
        |id: &str, site: &str| ResourceFacts { id: Some(id.into()), site: Some(site.into()), ..Default::default() };
    match name {
        // A video of the tenant, in no pack.
        "vS" => video("v1", TENANT),
        // A video of another brand.
        "vO" => video("v2", "blacked"),
        // The unlocked video u1 (of another brand).
        "vU" => video("u1", "blacked"),
        // A free-limited-trial video of the tenant.
        "vF" => ResourceFacts { is_free_limited_trial: true, ..video("v3", TENANT) },
        // A channel video in pack p2 (nobody unlocked it).
        "cL" => ResourceFacts { channel_pack_id: Some("p2".into()), ..video("c2", "channels") },
        // A channel video in pack p1 (subscribers unlocked it).
        "cU" => ResourceFacts { channel_pack_id: Some("p1".into()), ..video("c1", "channels") },
        // A trailer denied in the visitor's region, of the tenant.
        "tD" => ResourceFacts { denied: true, ..video("v1", TENANT) },
        // A trailer of another brand.
        "tO" => video("v2", "blacked"),
        "pk1" => ResourceFacts { channel_pack_id: Some("p1".into()), ..Default::default() },
        "pk2" => ResourceFacts { channel_pack_id: Some("p2".into()), ..Default::default() },
        other => panic!("no resource {other}"),
    }
}

/// Every (action, subject) of the vocabulary.
pub const VOCABULARY: &[(&str, &str)] = &[
    ("play", "Trailer"),
    ("play", "Video"),
    ("comment", "Video"),
    ("download", "Video"),
    ("unlock", "Video"),
    ("see", "PictureSet"),
    ("unlock", "ChannelVideo"),
    ("unlock", "ChannelPack"),
    ("unlock", "Channel"),
    ("access", "Channel"),
    ("see", "Channels"),
    ("see", "InternalChannels"),
    ("see", "ChannelTrailers"),
    ("see", "InternalChannelTrailers"),
    ("see", "ExpertReviewModal"),
    ("see", "PurchaseMembershipModal"),
    ("see", "UpgradeBar"),
    ("see", "UpgradeOverlay"),
    ("see", "TrialDeals"),
    ("see", "ExpiredDeals"),
    ("see", "PornPortalBar"),
    ("see", "SpecialOffers"),
    ("see", "FreeLimitedTrialVideos"),
    ("see", "LockedVideo"),
    ("see", "LockedChannel"),
    ("see", "HideMonthInterstitialButton"),
    ("see", "UnlockChannelModal"),
    ("see", "GemAnimation"),
    ("see", "ReactivateCancelledRebillModal"),
    ("see", "RecommendationShelf"),
    ("see", "RelationshipSection"),
    ("edit", "RelationshipSection"),
    ("loadMore", "Comment"),
    ("sort", "Comment"),
    ("focus", "Comment"),
    ("add", "Comment"),
    ("reply", "Comment"),
    ("vote", "Comment"),
    ("setDraft", "Comment"),
    ("remove", "Comment"),
    ("pin", "Comment"),
    ("unpin", "Comment"),
];

// ---- The browser's reading of the JSON rules: the crate's own (`access::casl`). ----

#[allow(unused_imports)]
pub use access::casl::{can as casl_can, matches_query};

pub fn resource_json(r: &ResourceFacts) -> Value {
    let v = serde_json::to_value(r).unwrap();
    assert_eq!(v["channelPackId"], r.channel_pack_id.as_ref().map_or(Value::Null, |p| json!(p)));
    v
}

// ---- Generators. ----

const SITES: [&str; 5] = ["vixen", "blacked", "wifey", "vixenplus", "channels"];

fn subset(items: &'static [&'static str]) -> impl Strategy<Value = Vec<String>> {
    proptest::sample::subsequence(items, 0..=items.len()).prop_map(|v| v.into_iter().map(String::from).collect())
}

fn kind() -> impl Strategy<Value = SubscriptionKind> {
    prop_oneof![
        Just(SubscriptionKind::Member),
        Just(SubscriptionKind::Trial),
        Just(SubscriptionKind::PornPortal),
        Just(SubscriptionKind::Expired)
    ]
}

fn stored() -> impl Strategy<Value = StoredKind> {
    prop_oneof![Just(StoredKind::Member), Just(StoredKind::Trial), Just(StoredKind::PornPortal)]
}

fn group() -> impl Strategy<Value = Group> {
    proptest::sample::select(Group::ALL.to_vec())
}

prop_compose! {
    pub fn any_profile()(
        groups in proptest::collection::vec(group(), 0..3),
        site_access in subset(&["vixen", "blacked", "wifey", "vixenplus"]),
        channels_full: bool,
        multisite: bool,
        flt_profile: bool,
        packs in subset(&["p1", "p2"]),
        child: bool,
        parent: bool,
        kind in kind(),
        active: bool,
        cancelled: bool,
        biller in proptest::sample::select(vec![None, Some("RGNATIVE"), Some("EPOCH")]),
        credits in 0u64..3,
        videos in subset(&["u1", "u2"]),
        flt_sub: bool,
        guest_sub: bool,
        statuses in proptest::collection::vec((proptest::sample::select(SITES[..4].to_vec()), stored(), any::<bool>()), 0..3),
    ) -> ProfileFacts {
        let mut tenants: BTreeMap<String, String> = site_access.iter().map(|s| (s.clone(), "full".to_owned())).collect();
        if channels_full { tenants.insert("channels".into(), "full".into()); }
        ProfileFacts {
            groups,
            site_access_array: site_access,
            tenants_subscription_state: tenants,
            has_active_multisite_subscription: multisite,
            is_free_limited_trial: flt_profile,
            unlocked_channel_pack_ids: packs,
            tandem_subscription: TandemFacts { has_tandem_child_account: parent, is_tandem_child_account: child },
            subscription: SubscriptionFacts {
                kind, active, cancelled, biller: biller.map(String::from), pay_per_video_credits: credits,
                unlocked_video_ids: videos, is_free_limited_trial: flt_sub, is_guest_user: guest_sub,
            },
            user_subscriptions_state: UserSubscriptionsState {
                subscriptions_status: statuses.into_iter().map(|(t, k, a)| SubscriptionStatus {
                    is_active: a, is_tandem_child_account: child, tenant: t.into(), kind: k,
                }).collect(),
            },
            state: Default::default(),
        }
    }
}

pub fn any_user() -> impl Strategy<Value = UserFacts> {
    (
        proptest::sample::select(vec!["vixen", "vixenplus", "wifey", "blacked"]),
        proptest::option::weighted(0.9, any_profile()),
    )
        .prop_map(|(tenant, profile)| UserFacts { tenant: tenant.into(), profile })
}

prop_compose! {
    pub fn any_resource()(
        id in proptest::sample::select(vec!["u1", "u2", "u3"]),
        site in proptest::sample::select(SITES.to_vec()),
        pack in proptest::sample::select(vec![None, Some("p1"), Some("p2"), Some("p3")]),
        third_party: bool,
        flt: bool,
        denied: bool,
    ) -> ResourceFacts {
        ResourceFacts {
            id: Some(id.into()), site: Some(site.into()), channel_pack_id: pack.map(String::from),
            is_third_party_channel: third_party, is_free_limited_trial: flt, denied,
        }
    }
}

pub fn any_features() -> impl Strategy<Value = tenants::Features> {
    (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(
            channels,
            internal_channels,
            channel_trailers,
            internal_channel_trailers,
            expert_review,
            upgrade_overlay,
            teaser,
        )| {
            tenants::Features {
                channels,
                internal_channels,
                channel_trailers,
                internal_channel_trailers,
                expert_review,
                upgrade_overlay,
                promotional_video_teaser_modal: tenants::Toggle { enabled: teaser },
                ..tenants::Features::default()
            }
        },
    )
}
