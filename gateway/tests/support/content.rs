//! Content for the tests to publish: vixen videos (in a channel pack or not), a channel and
//! its pack, as the catalog's events carry them.
#![allow(dead_code)]

use chrono::Utc;
use proto_events::catalog::{CatalogEvent, ChannelKind, Video, VideoChannel};
use uuid::Uuid;

/// A vixen video, in the channel pack `pack` (pack, channel) when given; a channel video is
/// released on the channels site.
pub fn video(pack: Option<(Uuid, Uuid)>) -> Video {
    video_on(if pack.is_some() { "channels" } else { "vixen" }, pack)
}

/// A video released on `site`, in the channel pack `pack` (pack, channel) when given.
pub fn video_on(site: &str, pack: Option<(Uuid, Uuid)>) -> Video {
    let channel = pack.map(|(pack, channel)| VideoChannel {
        channel_id: channel,
        slug: "a-channel".into(),
        channel_pack_id: Some(pack),
        category: None,
    });
    runtime::testing::video(site, channel)
}

pub fn channel_published(channel: Uuid) -> CatalogEvent {
    CatalogEvent::ChannelPublished {
        channel_id: channel,
        slug: "a-channel".into(),
        name: "A channel".into(),
        kind: ChannelKind::Internal,
        category: None,
        sites: vec!["vixen".into()],
        published_at: Utc::now(),
    }
}

pub fn published(video: &Video) -> CatalogEvent {
    CatalogEvent::VideoPublished { video: video.clone(), published_at: Utc::now() }
}

/// A vixen channel (an internal one: vixen shows internal channels) and one of its packs.
pub fn pack_published(pack: Uuid, channel: Uuid, videos: Vec<Uuid>) -> CatalogEvent {
    CatalogEvent::ChannelPackPublished {
        channel_pack_id: pack,
        channel_id: channel,
        slug: format!("pack-{}", pack.simple()),
        name: "A pack".into(),
        video_ids: videos,
        published_at: Utc::now(),
    }
}

/// A vixen video flagged for the free limited trial.
pub fn free_trial_video() -> Video {
    Video { is_free_limited_trial: true, ..video(None) }
}
