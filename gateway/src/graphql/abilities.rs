//! The request's abilities (services/access, product.md, "Roles and abilities"), enforced by the
//! resolvers themselves: the browser renders from the same rules, but never decides.
//!
//! A visitor's abilities cost nothing; a signed-in user's are computed from their profile
//! (findOneUserProfile as its owners answer it, shared with the operation's other resolvers,
//! with the groups their access token carries) the first time a resolver of the operation
//! asks, and reused by every other field of it.

use std::sync::Arc;

use access::{
    abilities::{action, subject},
    Ability, ResourceFacts, UserFacts,
};
use async_graphql::Context;
use catalog_contract::api;
use tokio::sync::OnceCell;

use super::{
    context::{request, RequestCtx},
    errors,
};

/// One operation's abilities, computed on first use.
pub type AbilityCell = Arc<OnceCell<Ability>>;

/// The abilities of the operation's caller on the host's brand.
pub async fn of<'a>(ctx: &'a Context<'_>) -> async_graphql::Result<&'a Ability> {
    let request = request(ctx);
    request.ability.get_or_try_init(|| compute(ctx, request)).await
}

async fn compute(ctx: &Context<'_>, request: &RequestCtx) -> async_graphql::Result<Ability> {
    let tenant = request.tenant();
    let user = match &request.viewer {
        None => UserFacts::anonymous(tenant),
        Some(viewer) => UserFacts::signed_in(tenant, facts_of(super::profile::of(ctx).await?, viewer)),
    };
    Ok(Ability::new(&user, &request.site.tenant.features))
}

fn facts_of(profile: &crate::user_profile::UserProfile, viewer: &super::context::Viewer) -> access::ProfileFacts {
    let mut facts = crate::viewer::profile_facts(profile);
    // The token's groups are the profile service's own, signed: a group granted since the
    // profile was read counts as well.
    for group in viewer.claims.groups.iter().filter_map(|g| access::Group::from_name(g)) {
        if !facts.groups.contains(&group) {
            facts.groups.push(group);
        }
    }
    facts
}

/// A video as the rules' conditions read it (the browser's `subject('Video', video)`).
pub fn video_facts(video: &api::Video) -> ResourceFacts {
    ResourceFacts {
        id: Some(video.uuid.to_string()),
        site: Some(video.site.clone()),
        channel_pack_id: video.channel.as_ref().and_then(|c| c.channel_pack_id).map(|p| p.to_string()),
        is_third_party_channel: video.is_third_party_channel,
        is_free_limited_trial: video.is_free_limited_trial,
        denied: false,
    }
}

/// The signed-in caller's facts as the access rules read them; none for a visitor.
async fn user_of(ctx: &Context<'_>) -> async_graphql::Result<Option<(UserFacts, u32)>> {
    let request = request(ctx);
    let Some(viewer) = &request.viewer else { return Ok(None) };
    let profile = super::profile::of(ctx).await?;
    let user = UserFacts::signed_in(request.tenant(), facts_of(profile, viewer));
    Ok(Some((user, profile.free_limited_trial_videos_left)))
}

/// The mark "free for your trial": the caller's free limited trial may take `video` now (the
/// access rules' `free_trial_take`, with the full videos the unlocks service counts as left),
/// a fact of the user and the video together, not of the video's flag alone.
pub async fn free_for_your_trial(ctx: &Context<'_>, video: &api::Video) -> async_graphql::Result<bool> {
    let facts = video_facts(video);
    let ability = of(ctx).await?;
    // Only the free limited trial unlocks a video outright: anyone else answers without the
    // profile's count.
    if !ability.can(action::UNLOCK, subject::VIDEO, Some(&facts)) {
        return Ok(false);
    }
    Ok(match user_of(ctx).await? {
        Some((user, left)) => access::is_free_trial_video_for(&user, ability, &facts, left),
        None => false,
    })
}

/// The sites whose flagged videos are the caller's free limited trial's (none for anyone
/// else).
pub async fn free_trial_sites(ctx: &Context<'_>) -> async_graphql::Result<Vec<String>> {
    Ok(user_of(ctx).await?.map(|(user, _)| access::free_trial_sites(&user)).unwrap_or_default())
}

/// Whether the caller may `action` the `subject` (for `resource` when given).
pub async fn can(
    ctx: &Context<'_>,
    action: &str,
    subject: &str,
    resource: Option<&ResourceFacts>,
) -> async_graphql::Result<bool> {
    Ok(of(ctx).await?.can(action, subject, resource))
}

/// The same as a refusal: UNAUTHENTICATED for a visitor, FORBIDDEN for a signed-in user.
pub async fn require(
    ctx: &Context<'_>,
    action: &str,
    subject: &str,
    resource: Option<&ResourceFacts>,
) -> async_graphql::Result<()> {
    if can(ctx, action, subject, resource).await? {
        Ok(())
    } else if request(ctx).viewer.is_none() {
        Err(errors::unauthenticated())
    } else {
        Err(errors::forbidden())
    }
}

/// Whether a channel the caller asks about is one they may see: every channel needs
/// "see Channels" (the tenant's feature; never a tandem child), an internal one (released by
/// the studio, not a third party) "see InternalChannels" (its flag or the preview role).
pub async fn sees_channel(ctx: &Context<'_>, is_third_party: bool) -> async_graphql::Result<bool> {
    let ability = of(ctx).await?;
    Ok(ability.can(action::SEE, subject::CHANNELS, None)
        && (is_third_party || ability.can(action::SEE, subject::INTERNAL_CHANNELS, None)))
}

/// Whether the caller may play a video's trailer: everyone may play a trailer that is not
/// denied; a channel video's trailer needs a signed-in user with "see ChannelTrailers" (a
/// third party's channel) or "see InternalChannelTrailers" (an internal channel).
pub async fn may_play_trailer(ctx: &Context<'_>, video: &api::Video) -> async_graphql::Result<bool> {
    let ability = of(ctx).await?;
    if !ability.can(action::PLAY, subject::TRAILER, Some(&video_facts(video))) {
        return Ok(false);
    }
    if video.channel.is_none() {
        return Ok(true);
    }
    let needed =
        if video.is_third_party_channel { subject::CHANNEL_TRAILERS } else { subject::INTERNAL_CHANNEL_TRAILERS };
    Ok(request(ctx).viewer.is_some() && ability.can(action::SEE, needed, None))
}
