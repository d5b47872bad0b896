//! Read-side SQL: every list and page of the catalog, shaped as the API answers.
//!
//! This file holds the video card every list is made of; the queries are split by subject
//! (`content`, `discovery`, `community`, `favourites`) and re-exported here, so callers
//! keep writing `queries::list_videos`.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::types::Json;
use sqlx::{PgPool, Postgres, QueryBuilder};
use uuid::Uuid;

use crate::api;
use crate::domain::{is_combined, CRITERIA};
use crate::media;

mod community;
mod content;
mod discovery;
mod favourites;
mod sitemap;

pub use community::*;
pub use content::*;
pub use discovery::*;
pub use favourites::*;
pub use sitemap::*;

/// The card columns of a video, with its performers and categories in one row (kept on the
/// row by the projection: migration `0008_card_refs.sql`).
const CARD_COLUMNS: &str = "v.video_id, v.legacy_id, v.new_id, v.slug, v.site, v.title, v.description, v.release_date,
    v.duration_seconds, v.channel_id, v.channel_slug, v.channel_pack_id, v.channel_category, v.is_third_party_channel,
    v.is_free_limited_trial, v.award, v.rating, v.rating_count, v.qualities, v.published,
    v.performer_refs as performers, v.category_refs as categories";

#[derive(sqlx::FromRow)]
pub struct CardRow {
    video_id: Uuid,
    legacy_id: String,
    new_id: String,
    slug: String,
    site: String,
    title: String,
    description: String,
    release_date: DateTime<Utc>,
    duration_seconds: i32,
    channel_id: Option<Uuid>,
    channel_slug: Option<String>,
    channel_pack_id: Option<Uuid>,
    channel_category: Option<String>,
    is_third_party_channel: bool,
    is_free_limited_trial: bool,
    award: i32,
    rating: f64,
    rating_count: i64,
    qualities: Vec<String>,
    published: bool,
    performers: Json<Vec<api::PerformerRef>>,
    categories: Json<Vec<api::CategoryRef>>,
}

fn round1(x: f64) -> f64 {
    if x < 0.0 {
        -1.0
    } else {
        (x * 10.0).round() / 10.0
    }
}

impl CardRow {
    pub fn into_video(self) -> api::Video {
        let images = api::VideoImages {
            poster: media::image("video", &self.slug, 1280, 720, &self.title),
            listing: media::image("video", &self.slug, 640, 360, &self.title),
        };
        let trailer = api::Trailer { src: media::trailer(&self.slug), poster: images.poster.src.clone() };
        api::Video {
            uuid: self.video_id,
            id: self.legacy_id,
            new_id: self.new_id,
            slug: self.slug,
            site: self.site,
            title: self.title,
            description: self.description,
            release_date: self.release_date,
            duration: self.duration_seconds.max(0) as u32,
            performers: self.performers.0,
            categories: self.categories.0,
            channel: self.channel_id.map(|channel_id| api::VideoChannelRef {
                channel_id,
                slug: self.channel_slug.unwrap_or_default(),
                channel_pack_id: self.channel_pack_id,
                category: self.channel_category,
            }),
            is_third_party_channel: self.is_third_party_channel,
            is_free_limited_trial: self.is_free_limited_trial,
            award: self.award.max(0) as u32,
            rating: round1(self.rating),
            rating_count: self.rating_count,
            qualities: self.qualities,
            images,
            trailer,
            published: self.published,
        }
    }
}
