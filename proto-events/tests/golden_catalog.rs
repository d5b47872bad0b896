mod support;

use chrono::{TimeZone, Utc};
use proto_events::catalog::{
    CatalogEvent as E, ChannelCategory, ChannelKind, CommentVote, ExpertReviewCriterion, ExpertReviewItem,
    FavouriteTarget, Picture, ReelAction, Video, VideoChannel, VideoQuality,
};
use uuid::Uuid;

fn id(n: u32) -> Uuid {
    Uuid::parse_str(&format!("0190f5a2-0000-7000-8000-{n:012x}")).unwrap()
}

fn video() -> Video {
    Video {
        video_id: id(0x71d),
        legacy_id: "200123".into(),
        new_id: "310045".into(),
        slug: "sunset-on-the-terrace".into(),
        site: "tushy".into(),
        title: "Sunset on the Terrace".into(),
        description: "Two friends share a quiet evening on a rooftop terrace.".into(),
        release_date: Utc.with_ymd_and_hms(2025, 12, 20, 0, 0, 0).unwrap(),
        duration_seconds: 2_345,
        performer_ids: vec![id(0x9e), id(0x9f)],
        category_slugs: vec!["romantic".into(), "outdoor".into()],
        channel: Some(VideoChannel {
            channel_id: id(0xc4),
            slug: "behind-the-lens".into(),
            channel_pack_id: Some(id(0xc9)),
            category: Some(ChannelCategory::BehindTheScenes),
        }),
        is_third_party_channel: false,
        is_free_limited_trial: true,
        award: 1,
        qualities: vec![VideoQuality::P480l, VideoQuality::P1080, VideoQuality::P2160, VideoQuality::Hls],
    }
}

fn samples() -> Vec<E> {
    let at = Utc.with_ymd_and_hms(2026, 1, 2, 3, 4, 5).unwrap();
    let (video_id, user_id, comment_id, moderator) = (id(0x71d), id(0xa1), id(0xc0), id(0xad));
    vec![
        E::VideoPublished { video: video(), published_at: at },
        E::VideoUpdated { video: Video { title: "Sunset on the Terrace, Part 1".into(), ..video() }, updated_at: at },
        E::VideoUnpublished { video_id, unpublished_at: at },
        E::PerformerPublished {
            performer_id: id(0x9e),
            slug: "alex-river".into(),
            name: "Alex River".into(),
            sex: "F".into(),
            sites: vec!["tushy".into(), "vixen".into()],
            published_at: at,
        },
        E::CategoryDefined {
            category_id: id(0xca7),
            slug: "romantic".into(),
            name: "Romantic".into(),
            sites: vec!["tushy".into()],
            defined_at: at,
        },
        E::ChannelPublished {
            channel_id: id(0xc4),
            slug: "behind-the-lens".into(),
            name: "Behind the Lens".into(),
            kind: ChannelKind::Internal,
            category: Some(ChannelCategory::BehindTheScenes),
            sites: vec!["tushy".into(), "vixen".into()],
            published_at: at,
        },
        E::ChannelPackPublished {
            channel_pack_id: id(0xc9),
            channel_id: id(0xc4),
            slug: "winter-sessions".into(),
            name: "Winter Sessions".into(),
            video_ids: vec![video_id, id(0x71e)],
            published_at: at,
        },
        E::PictureSetPublished {
            picture_set_id: id(0x915),
            video_id,
            site: "tushy".into(),
            pictures: vec![
                Picture { name: "sunset-on-the-terrace-01".into(), width: 1920, height: 1280 },
                Picture { name: "sunset-on-the-terrace-02".into(), width: 1280, height: 1920 },
            ],
            published_at: at,
        },
        E::CommentAdded {
            comment_id,
            video_id,
            user_id,
            text: "Lovely light in this one.".into(),
            added_at: at,
            author_name: None,
        },
        E::CommentReplied {
            comment_id: id(0xc2),
            parent_comment_id: comment_id,
            video_id,
            user_id: id(0xa2),
            text: "Agreed, the colours are great.".into(),
            replied_at: at,
            author_name: None,
        },
        E::CommentVoted { comment_id, video_id, user_id: id(0xa2), vote: CommentVote::Like, voted_at: at },
        E::CommentPinned { comment_id, video_id, pinned_by: moderator, pinned_at: at },
        E::CommentUnpinned { comment_id, video_id, unpinned_by: moderator, unpinned_at: at },
        E::CommentRemoved { comment_id, video_id, removed_by: moderator, removed_at: at },
        E::VideoRated { video_id, user_id, rating: 9, recomm_id: Some("rc-7f3a".into()), rated_at: at },
        E::ExpertReviewUpdated {
            video_id,
            user_id,
            item: ExpertReviewItem::Property { criterion: ExpertReviewCriterion::Lighting },
            rating: 4,
            recomm_id: Some("rc-7f3a".into()),
            updated_at: at,
        },
        E::FavouriteAdded { user_id, target: FavouriteTarget::Video { video_id }, added_at: at },
        E::FavouriteRemoved { user_id, target: FavouriteTarget::Channel { channel_id: id(0xc4) }, removed_at: at },
        E::ReelPublished {
            reel_id: id(0x4ee1),
            site: "tushy".into(),
            title: "Sunset on the Terrace, the quickie".into(),
            video_id,
            duration_seconds: 45,
            published_at: at,
        },
        E::ReelTracked {
            reel_id: id(0x4ee1),
            user_id,
            action: ReelAction::Rating,
            rating: Some(8),
            recomm_id: Some("rc-7f3a".into()),
            tracked_at: at,
        },
        E::RecommendationClicked {
            user_id,
            recomm_id: "rc-7f3a".into(),
            element_clicked: "video-card".into(),
            clicked_at: at,
        },
        E::ShowcasePublished {
            showcase_id: id(0x5c),
            slug: "golden-hour".into(),
            title: "Golden Hour".into(),
            description: "Scenes shot in the last light of the day.".into(),
            sites: vec!["tushy".into()],
            video_ids: vec![video_id],
            published_at: at,
        },
        E::AngelPublished {
            angel_id: id(0xa9),
            slug: "alex-river".into(),
            name: "Alex River".into(),
            performer_id: id(0x9e),
            bio: "Loves long walks and film photography.".into(),
            sites: vec!["vixen".into()],
            published_at: at,
        },
        E::CuratorPostPublished {
            post_id: id(0xcc),
            site: "vixen".into(),
            title: "This week's pick".into(),
            text: "A quiet evening, beautifully lit.".into(),
            video_id: Some(video_id),
            published_at: at,
        },
    ]
}

#[test]
fn every_catalog_event_keeps_its_wire_shape() {
    support::assert_golden(&samples());
}

#[test]
fn expert_review_items_and_favourite_targets_are_tagged_by_kind() {
    let items = [
        (ExpertReviewItem::Global {}, serde_json::json!({ "kind": "global" })),
        (
            ExpertReviewItem::Model { performer_id: id(0x9e), slug: "alex-river".into() },
            serde_json::json!({ "kind": "model", "performer_id": id(0x9e), "slug": "alex-river" }),
        ),
    ];
    for (item, json) in items {
        assert_eq!(serde_json::to_value(&item).unwrap(), json);
        assert_eq!(serde_json::from_value::<ExpertReviewItem>(json).unwrap(), item);
    }
    let performer = FavouriteTarget::Performer { performer_id: id(0x9e) };
    assert_eq!(
        serde_json::to_value(&performer).unwrap(),
        serde_json::json!({ "kind": "performer", "performer_id": id(0x9e) })
    );
}

#[test]
fn events_about_a_video_name_it() {
    let samples = samples();
    let about_the_video = samples.iter().filter(|e| e.video_id() == Some(id(0x71d))).count();
    // All but the performer, category, channel, pack, channel-favourite, reel tracking,
    // recommendation click, showcase and angel events.
    assert_eq!(about_the_video, samples.len() - 9);
}

#[test]
fn catalog_streams_are_named_after_their_entity() {
    use proto_events::catalog::*;
    let n = id(0x71d);
    let names = [
        video_stream_id(n),
        performer_stream_id(n),
        category_stream_id(n),
        channel_stream_id(n),
        channel_pack_stream_id(n),
        picture_set_stream_id(n),
        comment_stream_id(n),
        viewer_stream_id(n),
    ];
    let prefixes = ["video", "performer", "category", "channel", "channel-pack", "picture-set", "comment", "viewer"];
    for (name, prefix) in names.iter().zip(prefixes) {
        assert_eq!(name, &format!("{prefix}-0190f5a2-0000-7000-8000-00000000071d"));
    }
}
