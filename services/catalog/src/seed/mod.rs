//! The demo catalog: generated deterministically (the same ids, titles and dates on every
//! run), neutral titles and names, placeholder images. It goes through the catalog's own
//! commands, so every entity is an event other services hear of.
//!
//! `paysite seed` writes the demo catalog ([`seed_demo`]); `paysite seed --scale N` writes a
//! large one of N videos for benchmarks ([`seed_scale`]), projecting new videos in bulk.

use std::collections::HashMap;

use chrono::{DateTime, Duration, TimeZone, Utc};
use proto_events::catalog::{
    viewer_stream_id, CatalogEvent, ChannelCategory, ChannelKind, Picture, Video, VideoChannel, VideoQuality,
};
use proto_events::{Actor, EventMeta};
use runtime::service::{BoxFuture, ServiceContext};
use runtime::{Decider, EventStore};
use uuid::Uuid;

use crate::commands::{self, Published};
use crate::domain::{ViewerCommand, ViewerCommandFor, ViewerDecider, CHANNELS_SITE};
use crate::projections;

mod generate;

pub use generate::{generate, Catalog};

pub(crate) const ADJECTIVES: [&str; 40] = [
    "Golden", "Quiet", "Summer", "Velvet", "Silver", "Morning", "Midnight", "Gentle", "Bright", "Hidden", "Endless",
    "Crimson", "Lazy", "Secret", "Wild", "Soft", "Distant", "Electric", "Sunny", "Rainy", "Warm", "Amber", "Blue",
    "Quiet", "First", "Last", "Little", "Open", "Easy", "Slow", "Private", "Sweet", "Early", "Late", "Lucky",
    "Northern", "Coastal", "Autumn", "Winter", "Spring",
];
pub(crate) const NOUNS: [&str; 40] = [
    "Hour",
    "Lights",
    "Morning",
    "Afternoon",
    "Weekend",
    "Escape",
    "Getaway",
    "Terrace",
    "Garden",
    "Harbor",
    "Balcony",
    "Studio",
    "Journey",
    "Melody",
    "Reflection",
    "Horizon",
    "Breeze",
    "Window",
    "Promise",
    "Daydream",
    "Picnic",
    "Road Trip",
    "Sunset",
    "Sunrise",
    "Cabin",
    "Loft",
    "Villa",
    "Rooftop",
    "Lake",
    "Meadow",
    "Story",
    "Secret",
    "Visit",
    "Encounter",
    "Affair",
    "Retreat",
    "Holiday",
    "Vacation",
    "Serenade",
    "Glow",
];
pub(crate) const FIRST_NAMES: [&str; 40] = [
    "Alex", "Maya", "Sofia", "Lena", "Nora", "Ivy", "Clara", "Mila", "Ava", "Zoe", "Luna", "Iris", "Elle", "Ruby",
    "Jade", "Skye", "Lola", "Nina", "Tess", "Vera", "Eva", "Gia", "Rosa", "Kira", "Leah", "Dana", "Emma", "Lily",
    "Anna", "Bella", "Max", "Leo", "Sam", "Owen", "Theo", "Jack", "Luke", "Eli", "Noah", "Ben",
];
pub(crate) const LAST_NAMES: [&str; 40] = [
    "River", "Stone", "Vale", "Brooks", "Hart", "Lane", "Wells", "Rose", "Snow", "Frost", "Gray", "West", "North",
    "Moon", "Star", "Reed", "Ford", "Banks", "Hill", "Park", "Dale", "Shore", "Bloom", "Fox", "Wren", "Ash", "Bell",
    "Cole", "Day", "Fair", "Glen", "Hale", "Knight", "Lake", "Marsh", "Noble", "Pine", "Quinn", "Sage", "Vance",
];
const CATEGORIES: [&str; 24] = [
    "Romantic",
    "Outdoor",
    "City",
    "Beach",
    "Vacation",
    "Couples",
    "Threesome",
    "Lingerie",
    "Massage",
    "Office",
    "Luxury",
    "Blonde",
    "Brunette",
    "Redhead",
    "Petite",
    "Tall",
    "Big Scene",
    "Behind The Camera",
    "Morning",
    "Evening",
    "Pool",
    "Road Trip",
    "Art",
    "Dance",
];
/// Channels: name, kind, category.
const CHANNELS: [(&str, ChannelKind, Option<ChannelCategory>); 8] = [
    ("Best Of The Year", ChannelKind::Internal, Some(ChannelCategory::Compilations)),
    ("Behind The Lens", ChannelKind::Internal, Some(ChannelCategory::BehindTheScenes)),
    ("Close Moments", ChannelKind::Internal, Some(ChannelCategory::Intimates)),
    ("Studio Diaries", ChannelKind::Internal, None),
    ("Harbor Films", ChannelKind::ThirdParty, None),
    ("Northern Light Pictures", ChannelKind::ThirdParty, None),
    ("Velvet Lane Studio", ChannelKind::ThirdParty, None),
    ("Open Road Productions", ChannelKind::ThirdParty, None),
];
/// The order the demo catalog deals its videos out to the brands in (demo data: which brand
/// gets the n-th video). The brands themselves are the tenant configuration's; a test holds
/// this list to it.
const BRANDS: [&str; 10] =
    ["blacked", "blackedraw", "tushy", "tushyraw", "vixen", "deeper", "slayed", "milfy", "wifey", "vixenplus"];
/// Demo brands that carry no third-party channel.
const WITHOUT_CHANNELS: [&str; 2] = ["slayed", "wifey"];

/// Brands that show angels, as the tenant configuration says.
fn angel_brands() -> Vec<String> {
    tenants::global().brands.iter().filter(|t| t.features.show_angels).map(|t| t.tenant.clone()).collect()
}

/// The demo catalog's size.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    pub brand_videos: usize,
    pub channel_videos: usize,
    pub performers: usize,
    /// Every how-many-th video has a picture set.
    pub picture_set_every: usize,
    pub reels_per_brand: usize,
    pub raters: usize,
    /// Every how-many-th video a rater rates.
    pub rate_every: usize,
}

impl Scale {
    pub const DEMO: Scale = Scale {
        brand_videos: 400,
        channel_videos: 64,
        performers: 160,
        picture_set_every: 2,
        reels_per_brand: 6,
        raters: 8,
        rate_every: 2,
    };

    /// About `n` videos in all.
    pub fn videos(n: usize) -> Scale {
        let channel_videos = (n / 20).max(16);
        Scale {
            brand_videos: n.saturating_sub(channel_videos).max(10),
            channel_videos,
            performers: (n / 25).clamp(160, 5_000),
            picture_set_every: 10,
            reels_per_brand: (n / 2_000).clamp(6, 60),
            raters: 4,
            rate_every: 3,
        }
    }
}

/// splitmix64: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A stable id for the `n`th entity of `kind`.
pub fn seed_id(kind: &str, n: u64) -> Uuid {
    let h = kind.bytes().fold(0xcbf29ce484222325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100000001b3));
    let mut rng = Rng::new(h ^ n.wrapping_mul(0x9E3779B97F4A7C15));
    let bytes = ((rng.next() as u128) << 64 | rng.next() as u128).to_be_bytes();
    uuid::Builder::from_random_bytes(bytes).into_uuid()
}

fn slugify(text: &str) -> String {
    text.to_lowercase()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

/// The instant the demo catalog is "published": fixed, so every run writes the same events.
fn epoch() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 1, 12, 0, 0).unwrap()
}

fn seed_meta() -> EventMeta {
    EventMeta::new(Actor::System("catalog.seed".into()))
}

/// Rates through the viewer decider, one stream per rater, many events per append.
async fn seed_ratings(store: &EventStore, ratings: &[(Uuid, Uuid, u8)], bulk: bool) -> anyhow::Result<usize> {
    let mut by_rater: HashMap<Uuid, Vec<(Uuid, u8)>> = HashMap::new();
    for (rater, video, rating) in ratings {
        by_rater.entry(*rater).or_default().push((*video, *rating));
    }
    let mut raters: Vec<_> = by_rater.into_iter().collect();
    raters.sort_by_key(|(r, _)| *r);
    let meta = seed_meta();
    let mut written = 0;
    for (rater, items) in raters {
        let stream = viewer_stream_id(rater);
        let mut tx = store.pool().begin().await?;
        let (mut state, version) = store.state_of::<ViewerDecider>(&mut tx, &stream).await?;
        let mut events = Vec::new();
        for (video_id, rating) in items {
            let command = ViewerCommandFor {
                user_id: rater,
                command: ViewerCommand::RateVideo { video_id, rating, recomm_id: None, at: epoch() },
            };
            // Rated before (a second seed run): nothing to do.
            if let Ok(new) = ViewerDecider::decide(&state, command) {
                state = new.iter().fold(state, ViewerDecider::evolve);
                events.extend(new);
            }
        }
        if events.is_empty() {
            continue;
        }
        store.append(&mut tx, &stream, version, &events, &meta).await?;
        if bulk {
            projections::apply_bulk(&mut tx, &events).await?;
        } else {
            for e in &events {
                projections::apply(&mut tx, e).await?;
            }
        }
        tx.commit().await?;
        written += events.len();
    }
    store.wake_relay();
    Ok(written)
}

async fn write(store: &EventStore, catalog: &Catalog, chunk: usize, bulk: bool) -> anyhow::Result<(Published, usize)> {
    let published = commands::publish_all(store, &seed_meta(), &catalog.content, chunk, bulk)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let rated = seed_ratings(store, &catalog.ratings, bulk).await?;
    Ok((published, rated))
}

/// The demo catalog for all ten brands; running it again writes nothing new.
pub fn seed_demo(ctx: ServiceContext) -> BoxFuture<anyhow::Result<()>> {
    Box::pin(async move {
        let catalog = generate(Scale::DEMO);
        let (published, rated) = write(&ctx.store, &catalog, 500, false).await?;
        tracing::info!(
            events = published.written,
            unchanged = published.unchanged,
            ratings = rated,
            "catalog demo seeded"
        );
        Ok(())
    })
}

/// `paysite seed --scale N`: a catalog of about `n` videos, events first, read models in bulk.
pub async fn seed_scale(ctx: ServiceContext, n: usize) -> anyhow::Result<()> {
    seed_scale_with_progress(ctx, n, &|_, _| {}).await
}

/// [`seed_scale`], telling `progress(done, total)` (events and ratings written) as it goes.
pub async fn seed_scale_with_progress(
    ctx: ServiceContext,
    n: usize,
    progress: &(dyn Fn(u64, u64) + Send + Sync),
) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    let catalog = generate(Scale::videos(n));
    let total = (catalog.content.len() + catalog.ratings.len()) as u64;
    const CHUNK: usize = 2_000;
    let mut published = Published::default();
    let mut done = 0u64;
    // The same chunks as one publish_all over everything, a few at a time between reports.
    for part in catalog.content.chunks(CHUNK * 5) {
        let p = commands::publish_all(&ctx.store, &seed_meta(), part, CHUNK, true)
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        published.written += p.written;
        published.unchanged += p.unchanged;
        done += part.len() as u64;
        progress(done, total);
    }
    let mut rated = 0;
    for part in catalog.ratings.chunks(5_000) {
        rated += seed_ratings(&ctx.store, part, true).await?;
        done += part.len() as u64;
        progress(done, total);
    }
    // The ratings rewrote every rated video row: vacuum so the indexes point at live rows only.
    sqlx::query(
        "vacuum analyze video, video_category, performer, video_rating, listing_count, search_term, search_posting,
         picture_set, reel",
    )
    .execute(&ctx.pool)
    .await?;
    println!(
        "catalog: {} events written ({} unchanged), {} ratings, in {:.1} s",
        published.written,
        published.unchanged,
        rated,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_demo_brands_are_the_configured_brands() {
        let mut demo: Vec<&str> = super::BRANDS.to_vec();
        demo.sort_unstable();
        assert_eq!(demo, tenants::global().keys().collect::<Vec<_>>());
        assert_eq!(super::BRANDS.last().copied(), Some(tenants::global().combined().tenant.as_str()));
        assert!(super::WITHOUT_CHANNELS.iter().all(|b| tenants::global().is_brand(b)));
        assert_eq!(super::angel_brands(), ["vixen", "vixenplus"]);
    }

    use super::*;

    #[test]
    fn the_demo_catalog_is_deterministic_and_believable() {
        let a = generate(Scale::DEMO);
        let b = generate(Scale::DEMO);
        assert_eq!(a.content, b.content);
        let videos = a.content.iter().filter(|e| matches!(e, CatalogEvent::VideoPublished { .. })).count();
        assert!(videos >= 400, "{videos}");
        for brand in BRANDS {
            let on = a
                .content
                .iter()
                .filter(|e| matches!(e, CatalogEvent::VideoPublished { video, .. } if video.site == brand))
                .count();
            assert!(on >= 30, "{brand}: {on}");
        }
        for e in &a.content {
            crate::domain::validate_content(e).unwrap_or_else(|err| panic!("{e:?}: {err}"));
        }
    }

    /// Every brand sells the free limited trial (config/billing: a free trial join option per
    /// brand): each brand's own videos hold more than the trial's three, some on the first
    /// page of its default listing (newest first), the combined brand's too.
    #[test]
    fn every_brand_has_free_trial_videos_on_its_first_page() {
        let a = generate(Scale::DEMO);
        let videos: Vec<&Video> = a
            .content
            .iter()
            .filter_map(|e| match e {
                CatalogEvent::VideoPublished { video, .. } => Some(video),
                _ => None,
            })
            .collect();
        for brand in BRANDS {
            let mut own: Vec<&&Video> = videos.iter().filter(|v| v.site == brand).collect();
            own.sort_by_key(|v| std::cmp::Reverse(v.release_date));
            let flagged = own.iter().filter(|v| v.is_free_limited_trial).count();
            assert!(flagged >= 6, "{brand}: {flagged} free trial videos");
            let first_page = own.iter().take(12).filter(|v| v.is_free_limited_trial).count();
            assert!(first_page >= 4, "{brand}: {first_page} on its first page");
        }
        let mut all: Vec<&&Video> = videos.iter().filter(|v| v.channel.is_none()).collect();
        all.sort_by_key(|v| std::cmp::Reverse(v.release_date));
        let combined = tenants::global().combined().tenant.clone();
        let own_on_first = all.iter().take(12).filter(|v| v.site == combined && v.is_free_limited_trial).count();
        assert!(own_on_first >= 2, "the combined brand's first page: {own_on_first} of its own trial's videos");
        assert!(videos.iter().all(|v| v.channel.is_none() || !v.is_free_limited_trial), "no channel video is flagged");
    }

    #[test]
    fn seed_ids_are_stable_and_distinct() {
        assert_eq!(seed_id("video", 1), seed_id("video", 1));
        assert_ne!(seed_id("video", 1), seed_id("video", 2));
        assert_ne!(seed_id("video", 1), seed_id("performer", 1));
    }
}
