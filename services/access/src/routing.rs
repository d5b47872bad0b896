//! Where a user goes when access is denied (product.md, "Access-denied
//! routing"), and how channel routes answer without the ability.

use serde::{Deserialize, Serialize};

use crate::abilities::{action, can, subject, Ability};
use crate::facts::{Role, Standing, UserFacts};
use crate::rules::ResourceFacts;
use tenants::Features;

/// The modal a denied access-guarded action opens, named by its modal id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeniedRoute {
    /// A channel video, for a multisite user with access.
    UnlockChannel,
    /// An active trial user with pay-per-video credits, a non-third-party channel, not on the
    /// free limited trial.
    UnlockOrUpgradeMembership,
    /// Everyone else: the purchase modal, single-site options only.
    PurchaseMembership,
}

/// The video whose access was denied, as product.md, "Access-denied routing"
/// names its fields.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct VideoFacts {
    /// The video belongs to a channel (it has `channel`).
    pub is_channel_video: bool,
    pub is_third_party_channel: bool,
    pub is_free_limited_trial: bool,
}

/// Where a denied action on `video` sends the user.
pub fn access_denied_route(user: &UserFacts, video: &VideoFacts) -> DeniedRoute {
    let st = Standing::of(user);
    if video.is_channel_video && st.multisite && st.tenant_access {
        DeniedRoute::UnlockChannel
    } else if st.role == Role::Trial && st.active && st.credits > 0 && !video.is_third_party_channel {
        // Role::Trial already excludes the free limited trial.
        DeniedRoute::UnlockOrUpgradeMembership
    } else {
        DeniedRoute::PurchaseMembership
    }
}

/// Why a video a user asked to play or download does not open, as the API names it
/// (getToken's `denied` extension, videoAccess's `deniedReason`), and so the step the page
/// offers (product.md, "Access-denied routing"): unlock,
/// reactivate, upgrade or support, never a purchase to someone who already pays for the site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Denied {
    /// A channel video in a pack the user may unlock but has not: the unlock-channel modal.
    ChannelPackLocked,
    /// One of the free limited trial's full videos the user may still take ("N left"):
    /// UnlockVideo opens it.
    FreeTrialVideo,
    /// The free limited trial is over, or its full videos are taken: 'limited trial
    /// expired', then the upgrade.
    FreeTrialExpired,
    /// A member or trial subscription that lapsed: reactivation.
    Reactivate,
    /// The user pays for this video's site and is still refused: support, not a purchase.
    Support,
    /// Nothing the user holds or may unlock opens it: the upgrade (or credits, for whoever
    /// holds them).
    NoAccess,
}

/// The reason `video` is refused to `user` (whose rules are `ability`), asked only once it
/// was refused. `free_trial_videos_left` is the free limited trial's full videos not yet
/// taken, a count the unlocks service owns.
pub fn denied_reason(
    user: &UserFacts,
    ability: &Ability,
    video: &ResourceFacts,
    free_trial_videos_left: u32,
) -> Denied {
    let st = Standing::of(user);
    let pays_for_site =
        st.role == Role::ActiveSubscriber && video.site.as_ref().is_some_and(|s| st.access_sites.contains(s));
    if video.channel_pack_id.is_some() && ability.can(action::UNLOCK, subject::CHANNEL_VIDEO, Some(video)) {
        Denied::ChannelPackLocked
    } else if st.role == Role::FreeLimitedTrial {
        if !st.active || free_trial_videos_left == 0 {
            Denied::FreeTrialExpired
        } else if ability.can(action::UNLOCK, subject::VIDEO, Some(video)) {
            Denied::FreeTrialVideo
        } else {
            Denied::NoAccess
        }
    } else if st.role == Role::ExpiredMember {
        Denied::Reactivate
    } else if pays_for_site {
        Denied::Support
    } else {
        Denied::NoAccess
    }
}

/// The channel routes of product.md, "Screens and routes".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ChannelRoute {
    /// /channels
    Channels,
    /// /channels/:channelSlug and /channels/:channelSlug/videos
    Channel,
    /// /channels/:channelSlug/packs/:channelPackSlug
    ChannelPack,
    /// /channels/:channelSlug/videos/:videoSlug
    ChannelVideo,
    /// /channels/:channelSlug/picturesets/:videoSlug
    ChannelPictureSet,
    /// /channels/:channelSlug/trailers/:videoSlug: authenticated plus "see ChannelTrailers"
    /// or "see InternalChannelTrailers".
    ChannelTrailer,
    /// /channels/all-videos: login plus "see Channels".
    AllChannelVideos,
}

/// How a channel route answers before its own checks (slug, page).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RouteAccess {
    Allowed,
    /// The route needs a signed-in user: members login in the members area, else not-found.
    Unauthenticated,
    /// A missing ability is not-found, never a login prompt.
    NotFound,
}

pub fn channel_route_access(user: &UserFacts, features: &Features, route: ChannelRoute) -> RouteAccess {
    let sees = |s: &str| can(user, features, action::SEE, s, None::<&ResourceFacts>);
    let needs_login = matches!(route, ChannelRoute::ChannelTrailer | ChannelRoute::AllChannelVideos);
    if needs_login && user.profile.is_none() {
        return RouteAccess::Unauthenticated;
    }
    let allowed = match route {
        ChannelRoute::ChannelTrailer => sees(subject::CHANNEL_TRAILERS) || sees(subject::INTERNAL_CHANNEL_TRAILERS),
        _ => sees(subject::CHANNELS),
    };
    if allowed {
        RouteAccess::Allowed
    } else {
        RouteAccess::NotFound
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{ProfileFacts, SubscriptionFacts, SubscriptionKind};

    fn user(kind: SubscriptionKind, active: bool, free_trial: bool, sites: &[&str]) -> UserFacts {
        UserFacts::signed_in(
            "vixen",
            ProfileFacts {
                site_access_array: if active { sites.iter().map(|s| s.to_string()).collect() } else { vec![] },
                subscription: SubscriptionFacts {
                    kind,
                    active,
                    is_free_limited_trial: free_trial,
                    ..Default::default()
                },
                ..Default::default()
            },
        )
    }

    fn video(site: &str, flagged: bool) -> ResourceFacts {
        ResourceFacts {
            id: Some("v1".into()),
            site: Some(site.into()),
            is_free_limited_trial: flagged,
            ..Default::default()
        }
    }

    fn reason(u: &UserFacts, v: &ResourceFacts, left: u32) -> Denied {
        denied_reason(u, &Ability::new(u, &Features::default()), v, left)
    }

    #[test]
    fn the_free_limited_trial_is_offered_its_free_videos_then_told_it_expired() {
        let trial = user(SubscriptionKind::Trial, true, true, &["vixen"]);
        assert_eq!(reason(&trial, &video("vixen", true), 3), Denied::FreeTrialVideo);
        assert_eq!(reason(&trial, &video("vixen", true), 1), Denied::FreeTrialVideo);
        assert_eq!(reason(&trial, &video("vixen", false), 2), Denied::NoAccess, "not one of the free ones: upgrade");
        assert_eq!(reason(&trial, &video("vixen", true), 0), Denied::FreeTrialExpired);
        assert_eq!(reason(&trial, &video("vixen", false), 0), Denied::FreeTrialExpired);
        let over = user(SubscriptionKind::Trial, false, true, &["vixen"]);
        assert_eq!(reason(&over, &video("vixen", true), 3), Denied::FreeTrialExpired);
    }

    #[test]
    fn a_lapsed_member_is_offered_reactivation_and_a_paying_member_support() {
        let expired = user(SubscriptionKind::Member, false, false, &["vixen"]);
        assert_eq!(reason(&expired, &video("vixen", false), 0), Denied::Reactivate);
        let member = user(SubscriptionKind::Member, true, false, &["vixen"]);
        let mut refused = video("vixen", false);
        refused.denied = true;
        assert_eq!(reason(&member, &refused, 0), Denied::Support);
        assert_eq!(reason(&member, &video("tushy", false), 0), Denied::NoAccess, "another site: the upgrade");
        let ppv = user(SubscriptionKind::PornPortal, true, false, &[]);
        assert_eq!(reason(&ppv, &video("vixen", false), 0), Denied::NoAccess);
    }
}
