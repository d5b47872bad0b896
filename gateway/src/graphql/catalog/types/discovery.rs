//! Picture sets, search, sister sites and recommendations.

use super::*;

/// getPictureSet.
#[derive(SimpleObject)]
pub struct PictureSet {
    pub id: ID,
    pub video_id: ID,
    pub video_slug: String,
    pub site: String,
    pub title: String,
    pub images: Vec<Image>,
}

impl From<api::PictureSet> for PictureSet {
    fn from(p: api::PictureSet) -> Self {
        PictureSet {
            id: id(p.id),
            video_id: id(p.video_id),
            video_slug: p.video_slug,
            site: p.site,
            title: p.title,
            images: p.images.into_iter().map(Into::into).collect(),
        }
    }
}

/// search: videos ranked over titles, performers and categories, and the performers and
/// categories whose names match.
#[derive(SimpleObject)]
#[graphql(complex)]
pub struct SearchResult {
    pub q: String,
    #[graphql(skip)]
    pub items: Vec<api::Video>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
    #[graphql(skip)]
    pub performer_refs: Vec<api::PerformerRef>,
    pub categories: Vec<CategoryRef>,
    /// The words searched for after typo correction.
    pub terms: Vec<String>,
}

impl From<api::SearchResult> for SearchResult {
    fn from(s: api::SearchResult) -> Self {
        SearchResult {
            q: s.q,
            items: s.videos,
            total_count: s.total_count,
            page: s.page,
            size: s.size,
            performer_refs: s.performers,
            categories: s.categories.into_iter().map(Into::into).collect(),
            terms: s.terms,
        }
    }
}

#[ComplexObject]
impl SearchResult {
    /// The videos, best match first.
    async fn videos(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Video>> {
        video_list(ctx, &self.items).await
    }

    /// Performers whose names match.
    async fn performers(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Performer>> {
        performers(ctx, &self.performer_refs).await
    }
}

/// The recommendation shelves (product.md, "Recommendations").
#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug)]
#[graphql(rename_items = "SCREAMING_SNAKE_CASE")]
pub enum RecommendationShelf {
    HomeRecommendations,
    HomeTagRecommendations,
    HomeChannelsRecommendations,
    RecommendedModels,
    HomeRecommendedVmg,
    HomeRecommendedInternalChannels,
    ExternalChannelVideoPageRecommendations,
    InternalChannelVideoPageRecommendations,
    VideoPageRecommendationsWithCrossnavigation,
    VideoPageRecommendations,
    RecommendedVideos,
}

impl RecommendationShelf {
    /// The name the catalog knows the shelf by.
    pub fn key(self) -> &'static str {
        match self {
            RecommendationShelf::HomeRecommendations => "HOME_RECOMMENDATIONS",
            RecommendationShelf::HomeTagRecommendations => "HOME_TAG_RECOMMENDATIONS",
            RecommendationShelf::HomeChannelsRecommendations => "HOME_CHANNELS_RECOMMENDATIONS",
            RecommendationShelf::RecommendedModels => "RECOMMENDED_MODELS",
            RecommendationShelf::HomeRecommendedVmg => "HOME_RECOMMENDED_VMG",
            RecommendationShelf::HomeRecommendedInternalChannels => "HOME_RECOMMENDED_INTERNAL_CHANNELS",
            RecommendationShelf::ExternalChannelVideoPageRecommendations => {
                "EXTERNAL_CHANNEL_VIDEO_PAGE_RECOMMENDATIONS"
            }
            RecommendationShelf::InternalChannelVideoPageRecommendations => {
                "INTERNAL_CHANNEL_VIDEO_PAGE_RECOMMENDATIONS"
            }
            RecommendationShelf::VideoPageRecommendationsWithCrossnavigation => {
                "VIDEO_PAGE_RECOMMENDATIONS_WITH_CROSSNAVIGATION"
            }
            RecommendationShelf::VideoPageRecommendations => "VIDEO_PAGE_RECOMMENDATIONS",
            RecommendationShelf::RecommendedVideos => "RECOMMENDED_VIDEOS",
        }
    }
}

/// A shelf's answer: its recommId (sent back with tracking calls), its videos, and for
/// RECOMMENDED_MODELS its performers.
#[derive(SimpleObject)]
#[graphql(complex)]
pub struct Recommendations {
    pub recomm_id: String,
    pub shelf: String,
    #[graphql(skip)]
    pub items: Vec<api::Video>,
    pub performers: Vec<Performer>,
}

impl From<api::Recommendations> for Recommendations {
    fn from(r: api::Recommendations) -> Self {
        Recommendations {
            recomm_id: r.recomm_id,
            shelf: r.shelf,
            items: r.videos,
            performers: r.performers.into_iter().map(Performer).collect(),
        }
    }
}

#[ComplexObject]
impl Recommendations {
    async fn videos(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Video>> {
        video_list(ctx, &self.items).await
    }
}
