//! Whether what an id names is the host's brand's: a brand's host acts on its own catalog
//! only (its videos, the channels it carries and their videos and packs, its performers, the
//! comments on its videos), as the slug routes do. Another brand's item is NOT_FOUND here,
//! whoever asks: it is read and acted on through its own host. The combined brand (vixenplus)
//! carries every brand's videos.

use async_graphql::Context;
use catalog_contract::api;
use uuid::Uuid;

use super::{caller, loaders, not_found};
use crate::graphql::context::{request, upstreams};

/// The site channel videos are released on; a brand carries them through its channels.
pub const CHANNELS_SITE: &str = "channels";

fn tenant<'a>(ctx: &'a Context<'_>) -> &'a str {
    request(ctx).tenant()
}

/// Whether the host's brand is the combined brand: its lists show every brand's videos (not
/// the channels').
pub fn combined(ctx: &Context<'_>) -> bool {
    tenants::global().is_combined(tenant(ctx))
}

/// The channel, when the host's brand carries it.
pub async fn channel(ctx: &Context<'_>, id: Uuid) -> async_graphql::Result<api::Channel> {
    let channel = loaders::get(ctx)?.channels.load_one(id).await?.ok_or_else(not_found)?;
    if channel.sites.iter().any(|s| s == tenant(ctx)) {
        Ok(channel)
    } else {
        Err(not_found())
    }
}

/// The published video, when it is the host's brand's (a channel video: through a channel the
/// brand carries).
pub async fn video(ctx: &Context<'_>, id: Uuid) -> async_graphql::Result<api::Video> {
    let video = loaders::get(ctx)?.videos.load_one(id).await?.ok_or_else(not_found)?;
    let tenant = tenant(ctx);
    let ours = match &video.channel {
        Some(c) if video.site == CHANNELS_SITE => channel(ctx, c.channel_id).await.is_ok(),
        _ => video.site == tenant || (combined(ctx) && video.site != CHANNELS_SITE),
    };
    if ours {
        Ok(video)
    } else {
        Err(not_found())
    }
}

/// Of `ids`, the host's brand's videos (in the order asked; others left out).
pub async fn own_videos(ctx: &Context<'_>, ids: &[Uuid]) -> async_graphql::Result<Vec<Uuid>> {
    loaders::get(ctx)?.videos.load_many(ids.iter().copied()).await?;
    let mut kept = Vec::with_capacity(ids.len());
    for id in ids {
        if video(ctx, *id).await.is_ok() {
            kept.push(*id);
        }
    }
    Ok(kept)
}

/// The performer, when they appear on the host's brand.
pub async fn performer(ctx: &Context<'_>, id: Uuid) -> async_graphql::Result<api::Performer> {
    let performer = loaders::get(ctx)?.performers.load_one(id).await?.ok_or_else(not_found)?;
    let tenant = tenant(ctx);
    if combined(ctx) || performer.sites.iter().any(|s| s == tenant) {
        Ok(performer)
    } else {
        Err(not_found())
    }
}

/// The comment, when it is on one of the brand's videos.
pub async fn comment(ctx: &Context<'_>, id: Uuid) -> async_graphql::Result<api::Comment> {
    let comment = match upstreams(ctx).catalog.comment(&caller(ctx), id).await {
        Ok(comment) => comment,
        Err(e) if e.status() == Some(404) => return Err(not_found()),
        // Any other answer is the catalog failing this call: masked, as an unreachable one.
        Err(e) => {
            return Err(crate::graphql::errors::upstream(runtime::client::UpstreamError::unavailable(
                "catalog",
                e.to_string(),
            )))
        }
    };
    video(ctx, comment.video_id).await?;
    Ok(comment)
}
