//! The catalog's read models, from its own events: listings, pages, search words, counts,
//! comments, ratings, favourites, reels, showcases, angels and the curator wall.
//!
//! The live writers call [`apply`] in the append's transaction and a rebuild replays the
//! event store through the same function, so a rebuilt model equals the live one. The bulk
//! seed ([`apply_bulk`]) writes the same rows for many new entities at once; a test holds it
//! to the same result as a replay.
//!
//! The writers are split by subject (`content`, `community`, `favourites`, `discovery`) and
//! the bulk seed's set statements are in `bulk`; [`apply`] sends each event to its subject.

use std::collections::{BTreeMap, BTreeSet};

use proto_events::catalog::{
    CatalogEvent, ChannelCategory, ChannelKind, CommentVote, ExpertReviewItem, FavouriteTarget, ReelAction, Video,
};
use runtime::projection::ReadModel;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::{item_key, CHANNELS_SITE};

mod bulk;
mod community;
mod content;
mod discovery;
mod favourites;

pub use bulk::apply_bulk;

/// The tables of every catalog read model.
pub const TABLES: &[&str] = &[
    // Videos first: a rebuild empties the tables in this order, and emptying performers or
    // categories while videos name them would rewrite those videos' card names first.
    "video",
    "performer",
    "category",
    "channel",
    "channel_pack",
    "video_category",
    "listing_count",
    "search_term",
    "search_posting",
    "picture_set",
    "comment",
    "comment_vote",
    "video_rating",
    "expert_review",
    "favourite",
    "reel",
    "reel_bookmark",
    "reel_rating",
    "recommendation_click",
    "showcase",
    "angel",
    "curator_post",
];

/// Every read model of the catalog, from its own events.
pub const READ_MODELS: ReadModel = ReadModel::own_events("catalog.read-models", TABLES, |tx, event| {
    Box::pin(async move { apply(tx, &runtime::event_store::decode(event)?).await })
});

/// The spec's spelling of a channel category.
pub fn channel_category_name(c: ChannelCategory) -> &'static str {
    match c {
        ChannelCategory::Compilations => "Compilations",
        ChannelCategory::BehindTheScenes => "Behind The Scenes",
        ChannelCategory::Intimates => "Intimates",
    }
}

pub fn channel_kind_name(k: ChannelKind) -> &'static str {
    match k {
        ChannelKind::Internal => "internal",
        ChannelKind::ThirdParty => "third_party",
    }
}

fn vote_name(v: CommentVote) -> &'static str {
    match v {
        CommentVote::Like => "like",
        CommentVote::Dislike => "dislike",
    }
}

pub fn favourite_parts(t: &FavouriteTarget) -> (&'static str, Uuid) {
    match t {
        FavouriteTarget::Video { video_id } => ("video", *video_id),
        FavouriteTarget::Performer { performer_id } => ("performer", *performer_id),
        FavouriteTarget::Channel { channel_id } => ("channel", *channel_id),
    }
}

/// Lower-case words of a text, as search matches them.
pub fn words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = text
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The words a video is indexed under: each plain (the combined brand's search) and
/// prefixed with the video's site (a brand's search reads only its own postings).
pub fn indexed_words(site: &str, words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = words.iter().cloned().chain(words.iter().map(|w| format!("{site}:{w}"))).collect();
    out.sort();
    out
}

/// The listing facets a published video counts in: its site (and `*`, every brand, unless it
/// is a channel video) times the whole list, each category, performer, channel and award.
pub fn facets(video: &Video) -> Vec<(String, String)> {
    let mut keys = vec![String::new()];
    keys.extend(video.category_slugs.iter().map(|c| format!("category:{c}")));
    keys.extend(video.performer_ids.iter().map(|p| format!("performer:{p}")));
    if let Some(ch) = &video.channel {
        keys.push(format!("channel:{}", ch.channel_id));
    }
    if video.award == 1 {
        keys.push("award".into());
    }
    let mut sites = vec![video.site.clone()];
    if video.site != CHANNELS_SITE {
        sites.push("*".into());
    }
    let mut out = Vec::new();
    for s in &sites {
        for k in &keys {
            out.push((s.clone(), k.clone()));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Writes what one catalog event changes in the read models: each subject writes its own.
pub async fn apply(tx: &mut PgConnection, event: &CatalogEvent) -> anyhow::Result<()> {
    match event {
        CatalogEvent::VideoPublished { .. }
        | CatalogEvent::VideoUpdated { .. }
        | CatalogEvent::VideoUnpublished { .. }
        | CatalogEvent::PerformerPublished { .. }
        | CatalogEvent::CategoryDefined { .. }
        | CatalogEvent::ChannelPublished { .. }
        | CatalogEvent::ChannelPackPublished { .. }
        | CatalogEvent::PictureSetPublished { .. } => content::apply(tx, event).await,
        CatalogEvent::CommentAdded { .. }
        | CatalogEvent::CommentReplied { .. }
        | CatalogEvent::CommentVoted { .. }
        | CatalogEvent::CommentPinned { .. }
        | CatalogEvent::CommentUnpinned { .. }
        | CatalogEvent::CommentRemoved { .. }
        | CatalogEvent::VideoRated { .. }
        | CatalogEvent::ExpertReviewUpdated { .. } => community::apply(tx, event).await,
        CatalogEvent::FavouriteAdded { .. } | CatalogEvent::FavouriteRemoved { .. } => {
            favourites::apply(tx, event).await
        }
        CatalogEvent::ReelPublished { .. }
        | CatalogEvent::ReelTracked { .. }
        | CatalogEvent::RecommendationClicked { .. }
        | CatalogEvent::ShowcasePublished { .. }
        | CatalogEvent::AngelPublished { .. }
        | CatalogEvent::CuratorPostPublished { .. } => discovery::apply(tx, event).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lower_case_distinct_and_sorted() {
        assert_eq!(words("City Lights, city-LIGHTS!"), vec!["city", "lights"]);
    }
}
