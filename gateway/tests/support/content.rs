//! Content for the tests to publish: vixen videos (in a channel pack or not), a channel and
//! its pack, as the catalog's events carry them.
#![allow(dead_code)]

use chrono::Utc;
use proto_events::catalog::{CatalogEvent, ChannelKind, Video, VideoChannel, VideoQuality};
use uuid::Uuid;

const QUALITIES: [VideoQuality; 8] = [
    VideoQuality::P270,
    VideoQuality::P360,
    VideoQuality::P480,
    VideoQuality::P480l,
    VideoQuality::P720,
    VideoQuality::P1080,
    VideoQuality::P2160,
    VideoQuality::Hls,
];

/// A vixen video, in the channel pack `pack` (pack, channel) when given; a channel video is
/// released on the channels site.
pub fn video(pack: Option<(Uuid, Uuid)>) -> Video {
    video_on(if pack.is_some() { "channels" } else { "vixen" }, pack)
}

/// A video released on `site`, in the channel pack `pack` (pack, channel) when given.
pub fn video_on(site: &str, pack: Option<(Uuid, Uuid)>) -> Video {
    let video_id = Uuid::now_v7();
    Video {
        video_id,
        legacy_id: format!("{}", video_id.as_u128() % 1_000_000),
        new_id: format!("n{}", video_id.simple()),
        slug: format!("video-{}", video_id.simple()),
        site: site.into(),
        title: "A neutral title".into(),
        description: "Generated.".into(),
        release_date: Utc::now(),
        duration_seconds: 600,
        performer_ids: vec![],
        category_slugs: vec![],
        channel: pack.map(|(pack, channel)| VideoChannel {
            channel_id: channel,
            slug: "a-channel".into(),
            channel_pack_id: Some(pack),
            category: None,
        }),
        is_third_party_channel: false,
        is_free_limited_trial: false,
        award: 0,
        qualities: QUALITIES.to_vec(),
    }
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
