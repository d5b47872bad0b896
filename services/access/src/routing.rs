//! Where a user goes when access is denied (account-payments-gems.md §4 "Access denied
//! routing") and how channel routes answer without the ability (screens-routes-access.md §6).

use serde::{Deserialize, Serialize};

use crate::abilities::{action, can, subject, Ability};
use crate::facts::{Role, Standing, TenantFeatures, UserFacts};
use crate::rules::ResourceFacts;

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

/// The video whose access was denied, as account-payments-gems.md §3 "Video unlock state"
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
/// (getToken's `denied` extension, videoAccess's `deniedReason`). The browser picks the
/// access-denied route from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Denied {
    /// A channel video in a pack the user may unlock but has not: the unlock-channel modal.
    ChannelPackLocked,
    /// Nothing the user holds or may unlock opens it.
    NoAccess,
}

/// The reason `video` is refused to a user with `ability` (asked only once it was refused).
pub fn denied_reason(ability: &Ability, video: &ResourceFacts) -> Denied {
    if video.channel_pack_id.is_some() && ability.can(action::UNLOCK, subject::CHANNEL_VIDEO, Some(video)) {
        Denied::ChannelPackLocked
    } else {
        Denied::NoAccess
    }
}

/// The channel routes of screens-routes-access.md §2.1.
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

pub fn channel_route_access(user: &UserFacts, features: &TenantFeatures, route: ChannelRoute) -> RouteAccess {
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
