//! The catalog's GraphQL types. Plain data is the catalog's own answer (`catalog::api`)
//! wrapped; what a page adds around it (a performer's whole card, a channel's packs, whether
//! the viewer favourited it) is resolved through the request's loaders, so a page costs the
//! same few internal calls whatever it holds.

use async_graphql::{ComplexObject, Context, Enum, Object, SimpleObject, ID};
use catalog_contract::api;
use chrono::{DateTime, Utc};

use access::abilities::{action, subject};

use super::loaders::{self, FavoriteKind};
use crate::graphql::abilities;

fn id(u: uuid::Uuid) -> ID {
    ID(u.to_string())
}

// ----- images and media -----

#[derive(SimpleObject, Clone)]
pub struct HighDpi {
    pub double: String,
    pub triple: String,
}

/// An image in the sizes the front end picks from.
#[derive(SimpleObject, Clone)]
pub struct Image {
    pub src: String,
    pub placeholder: String,
    pub width: u32,
    pub height: u32,
    pub file_extensions: Vec<String>,
    pub highdpi: HighDpi,
    pub name: Option<String>,
}

impl From<api::Image> for Image {
    fn from(i: api::Image) -> Self {
        Image {
            src: i.src,
            placeholder: i.placeholder,
            width: i.width,
            height: i.height,
            file_extensions: i.file_extensions,
            highdpi: HighDpi { double: i.highdpi.double, triple: i.highdpi.triple },
            name: i.name,
        }
    }
}

#[derive(SimpleObject, Clone)]
pub struct Trailer {
    pub src: String,
    pub poster: String,
}

impl From<api::Trailer> for Trailer {
    fn from(t: api::Trailer) -> Self {
        Trailer { src: t.src, poster: t.poster }
    }
}

#[derive(SimpleObject, Clone)]
pub struct VideoImages {
    pub poster: Image,
    pub listing: Image,
}

#[derive(SimpleObject, Clone)]
pub struct CategoryRef {
    pub slug: String,
    pub name: String,
}

impl From<api::CategoryRef> for CategoryRef {
    fn from(c: api::CategoryRef) -> Self {
        CategoryRef { slug: c.slug, name: c.name }
    }
}

// ----- videos -----

/// A video as lists and pages show it (account-payments-gems.md §3).
pub struct Video(pub api::Video);

#[Object]
impl Video {
    async fn uuid(&self) -> ID {
        id(self.0.uuid)
    }
    async fn id(&self) -> &str {
        &self.0.id
    }
    /// The list key.
    async fn new_id(&self) -> &str {
        &self.0.new_id
    }
    async fn slug(&self) -> &str {
        &self.0.slug
    }
    async fn site(&self) -> &str {
        &self.0.site
    }
    async fn title(&self) -> &str {
        &self.0.title
    }
    async fn description(&self) -> &str {
        &self.0.description
    }
    async fn release_date(&self) -> DateTime<Utc> {
        self.0.release_date
    }
    /// Seconds.
    async fn duration(&self) -> u32 {
        self.0.duration
    }
    /// The video's performers, in billing order. Asking only for `id`, `slug` and `name`
    /// costs nothing more; any other field loads the performers of the whole page at once.
    async fn performers(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Performer>> {
        performers(ctx, &self.0.performers).await
    }
    async fn categories(&self) -> Vec<CategoryRef> {
        self.0.categories.iter().cloned().map(Into::into).collect()
    }
    async fn channel(&self) -> Option<VideoChannel> {
        self.0.channel.clone().map(VideoChannel)
    }
    async fn is_third_party_channel(&self) -> bool {
        self.0.is_third_party_channel
    }
    async fn is_free_limited_trial(&self) -> bool {
        self.0.is_free_limited_trial
    }
    /// 1 for an awarded video.
    async fn award(&self) -> u32 {
        self.0.award
    }
    /// Average overall rating, one decimal; -1 when nobody rated it.
    async fn rating(&self) -> f64 {
        self.0.rating
    }
    async fn rating_count(&self) -> i64 {
        self.0.rating_count
    }
    /// p270 … p2160 (getToken's sizes): only for a caller who may play the full video (an
    /// active member of its site outside a locked pack, an unlock, the free limited trial's
    /// videos), empty for everyone else.
    async fn qualities(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<String>> {
        let plays = abilities::can(ctx, action::PLAY, subject::VIDEO, Some(&abilities::video_facts(&self.0))).await?;
        Ok(if plays { self.0.qualities.clone() } else { Vec::new() })
    }
    async fn images(&self) -> VideoImages {
        VideoImages { poster: self.0.images.poster.clone().into(), listing: self.0.images.listing.clone().into() }
    }
    /// The trailer: everyone's, but a channel video's only for a signed-in caller who sees
    /// channel trailers (internal channel trailers for an internal channel's video), by the
    /// tenant's flag or the preview role; to anyone else its `src` is empty (the poster stays).
    async fn trailer(&self, ctx: &Context<'_>) -> async_graphql::Result<Trailer> {
        let mut trailer: Trailer = self.0.trailer.clone().into();
        if !abilities::may_play_trailer(ctx, &self.0).await? {
            trailer.src = String::new();
        }
        Ok(trailer)
    }
    /// Whether the signed-in user favourited it (false for visitors).
    async fn is_favorite(&self, ctx: &Context<'_>) -> async_graphql::Result<bool> {
        loaders::is_favorite(ctx, FavoriteKind::Video, self.0.uuid).await
    }
}

/// The channel a video is in: what the video carries (`channelId`, `slug`, `channelPackId`,
/// `category`), and the channel's own fields, loaded for the whole page at once when asked.
pub struct VideoChannel(pub api::VideoChannelRef);

impl VideoChannel {
    async fn load(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<api::Channel>> {
        loaders::get(ctx)?.channels.load_one(self.0.channel_id).await
    }
}

#[Object]
impl VideoChannel {
    async fn channel_id(&self) -> ID {
        id(self.0.channel_id)
    }
    async fn slug(&self) -> &str {
        &self.0.slug
    }
    async fn channel_pack_id(&self) -> Option<ID> {
        self.0.channel_pack_id.map(id)
    }
    /// `Compilations`, `Behind The Scenes`, `Intimates`, or none.
    async fn category(&self) -> Option<&str> {
        self.0.category.as_deref()
    }
    async fn name(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<String>> {
        Ok(self.load(ctx).await?.map(|c| c.name))
    }
    async fn is_third_party(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<bool>> {
        Ok(self.load(ctx).await?.map(|c| c.is_third_party))
    }
    async fn image(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Image>> {
        Ok(self.load(ctx).await?.map(|c| c.image.into()))
    }
    /// The channel's packs.
    async fn packs(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<ChannelPack>> {
        Ok(self.load(ctx).await?.map(|c| c.packs.into_iter().map(ChannelPack::from).collect()).unwrap_or_default())
    }
    async fn is_favorite(&self, ctx: &Context<'_>) -> async_graphql::Result<bool> {
        loaders::is_favorite(ctx, FavoriteKind::Channel, self.0.channel_id).await
    }
}

#[derive(SimpleObject)]
#[graphql(complex)]
pub struct VideoPage {
    #[graphql(skip)]
    pub items: Vec<api::Video>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
}

#[ComplexObject]
impl VideoPage {
    async fn videos(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Video>> {
        video_list(ctx, &self.items).await
    }
}

impl From<api::VideoPage> for VideoPage {
    fn from(p: api::VideoPage) -> Self {
        VideoPage { items: p.videos, total_count: p.total_count, page: p.page, size: p.size }
    }
}

pub fn videos(v: Vec<api::Video>) -> Vec<Video> {
    v.into_iter().map(Video).collect()
}

/// A list of videos as the current field answers it, with what its fields will ask for
/// loaded first, in one batch per kind.
pub async fn video_list(ctx: &Context<'_>, items: &[api::Video]) -> async_graphql::Result<Vec<Video>> {
    loaders::prefetch_videos(ctx, items).await?;
    Ok(items.iter().cloned().map(Video).collect())
}

/// getVideo's answer: the video, its related videos and what the page shows beside it.
#[derive(SimpleObject)]
#[graphql(complex)]
pub struct VideoDetail {
    pub video: Video,
    #[graphql(skip)]
    pub related: Vec<api::Video>,
    pub has_picture_set: bool,
    pub comment_count: i64,
    /// The viewer's overall rating, -1 when none (or a visitor).
    pub user_rating: i32,
    pub channel_name: Option<String>,
}

impl From<api::VideoDetail> for VideoDetail {
    fn from(d: api::VideoDetail) -> Self {
        VideoDetail {
            video: Video(d.video),
            related: d.related,
            has_picture_set: d.has_picture_set,
            comment_count: d.comment_count,
            user_rating: d.user_rating,
            channel_name: d.channel_name,
        }
    }
}

#[ComplexObject]
impl VideoDetail {
    /// `relatedCount` related videos.
    async fn related(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Video>> {
        video_list(ctx, &self.related).await
    }
}

/// getAwardedVideos: award = 1, newest first.
#[derive(SimpleObject)]
#[graphql(complex)]
pub struct AwardedVideos {
    #[graphql(skip)]
    pub items: Vec<api::Video>,
    pub total_count: i64,
}

#[ComplexObject]
impl AwardedVideos {
    async fn videos(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Video>> {
        video_list(ctx, &self.items).await
    }
}

// ----- performers -----

/// Performers a list refers to: from the references alone when only `id`, `slug` and `name`
/// are asked, else loaded (with every other reference of the page) in one call.
pub async fn performers(ctx: &Context<'_>, refs: &[api::PerformerRef]) -> async_graphql::Result<Vec<Performer>> {
    if !loaders::selects_beyond(ctx, &loaders::PERFORMER_REF_FIELDS) {
        return Ok(refs.iter().map(Performer::from_ref).collect());
    }
    let ids: Vec<uuid::Uuid> = refs.iter().map(|p| p.id).collect();
    let found = loaders::get(ctx)?.performers.load_many(ids.iter().copied()).await?;
    Ok(ids.iter().filter_map(|i| found.get(i).cloned().map(Performer::full)).collect())
}

/// A performer: the whole card, or (inside a video, when only `id`, `slug` and `name` are
/// asked) the video's reference to them.
pub struct Performer(api::Performer);

impl Performer {
    pub fn full(p: api::Performer) -> Self {
        Performer(p)
    }

    /// Only `id`, `slug` and `name` are read from this one (see `Video.performers`).
    fn from_ref(p: &api::PerformerRef) -> Self {
        Performer(api::Performer {
            id: p.id,
            slug: p.slug.clone(),
            name: p.name.clone(),
            gender: String::new(),
            sex: String::new(),
            rating: -1.0,
            video_count: 0,
            sites: vec![],
            image: api::Image {
                src: String::new(),
                placeholder: String::new(),
                width: 0,
                height: 0,
                file_extensions: vec![],
                highdpi: api::HighDpi { double: String::new(), triple: String::new() },
                name: None,
            },
        })
    }
}

#[Object]
impl Performer {
    async fn id(&self) -> ID {
        id(self.0.id)
    }
    async fn slug(&self) -> &str {
        &self.0.slug
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    /// `girls` or `guys`.
    async fn gender(&self) -> &str {
        &self.0.gender
    }
    /// `F` or `M` (faceted search).
    async fn sex(&self) -> &str {
        &self.0.sex
    }
    async fn rating(&self) -> f64 {
        self.0.rating
    }
    async fn video_count(&self) -> i64 {
        self.0.video_count
    }
    async fn sites(&self) -> Vec<String> {
        self.0.sites.clone()
    }
    async fn image(&self) -> Image {
        self.0.image.clone().into()
    }
    async fn is_favorite(&self, ctx: &Context<'_>) -> async_graphql::Result<bool> {
        loaders::is_favorite(ctx, FavoriteKind::Performer, self.0.id).await
    }
}

#[derive(SimpleObject)]
pub struct PerformerPage {
    pub performers: Vec<Performer>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
}

impl From<api::PerformerPage> for PerformerPage {
    fn from(p: api::PerformerPage) -> Self {
        PerformerPage {
            performers: p.performers.into_iter().map(Performer).collect(),
            total_count: p.total_count,
            page: p.page,
            size: p.size,
        }
    }
}

/// A performer's page: the performer and a page of their videos.
#[derive(SimpleObject)]
pub struct PerformerDetail {
    pub performer: Performer,
    pub videos: VideoPage,
}

// ----- categories and filters -----

#[derive(SimpleObject)]
pub struct Category {
    pub slug: String,
    pub name: String,
    /// Published videos of the category on the site.
    pub video_count: i64,
    pub image: Image,
}

impl From<api::Category> for Category {
    fn from(c: api::Category) -> Self {
        Category { slug: c.slug, name: c.name, video_count: c.video_count, image: c.image.into() }
    }
}

#[derive(SimpleObject)]
pub struct FilterItem {
    pub slug: String,
    pub name: String,
    /// Published scenes with it on the site.
    pub scenes: i64,
}

/// getAllFilters: the filter lists of a site (only the asked one when `filter` names one).
#[derive(SimpleObject)]
pub struct Filters {
    pub categories: Vec<FilterItem>,
    pub performers: Vec<FilterItem>,
    pub channels: Vec<FilterItem>,
}

impl From<api::Filters> for Filters {
    fn from(f: api::Filters) -> Self {
        let items = |v: Vec<api::FilterItem>| {
            v.into_iter().map(|i| FilterItem { slug: i.slug, name: i.name, scenes: i.scenes }).collect()
        };
        Filters { categories: items(f.categories), performers: items(f.performers), channels: items(f.channels) }
    }
}

// ----- channels -----

#[derive(SimpleObject)]
#[graphql(complex)]
pub struct ChannelPack {
    pub channel_pack_id: ID,
    pub channel_id: ID,
    pub slug: String,
    pub name: String,
    pub video_ids: Vec<ID>,
}

#[ComplexObject]
impl ChannelPack {
    /// The pack's videos (all at once for every pack of the page).
    async fn videos(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Video>> {
        let ids: Vec<uuid::Uuid> = self.video_ids.iter().filter_map(|v| uuid::Uuid::parse_str(v).ok()).collect();
        let found = loaders::get(ctx)?.videos.load_many(ids.iter().copied()).await?;
        Ok(ids.iter().filter_map(|i| found.get(i).cloned().map(Video)).collect())
    }
}

impl From<api::ChannelPack> for ChannelPack {
    fn from(p: api::ChannelPack) -> Self {
        ChannelPack {
            channel_pack_id: id(p.channel_pack_id),
            channel_id: id(p.channel_id),
            slug: p.slug,
            name: p.name,
            video_ids: p.video_ids.into_iter().map(id).collect(),
        }
    }
}

pub struct Channel(pub api::Channel);

#[Object]
impl Channel {
    async fn channel_id(&self) -> ID {
        id(self.0.channel_id)
    }
    async fn slug(&self) -> &str {
        &self.0.slug
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn is_third_party(&self) -> bool {
        self.0.is_third_party
    }
    /// `Compilations`, `Behind The Scenes`, `Intimates`, or none.
    async fn category(&self) -> Option<&str> {
        self.0.category.as_deref()
    }
    async fn sites(&self) -> Vec<String> {
        self.0.sites.clone()
    }
    async fn video_count(&self) -> i64 {
        self.0.video_count
    }
    async fn packs(&self) -> Vec<ChannelPack> {
        self.0.packs.iter().cloned().map(Into::into).collect()
    }
    async fn image(&self) -> Image {
        self.0.image.clone().into()
    }
    async fn is_favorite(&self, ctx: &Context<'_>) -> async_graphql::Result<bool> {
        loaders::is_favorite(ctx, FavoriteKind::Channel, self.0.channel_id).await
    }
}

#[derive(SimpleObject)]
pub struct ChannelPage {
    pub channels: Vec<Channel>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
}

impl From<api::ChannelPage> for ChannelPage {
    fn from(p: api::ChannelPage) -> Self {
        ChannelPage {
            channels: p.channels.into_iter().map(Channel).collect(),
            total_count: p.total_count,
            page: p.page,
            size: p.size,
        }
    }
}

/// A channel pack's page: the pack, its channel and a page of its videos.
#[derive(SimpleObject)]
pub struct ChannelPackDetail {
    pub channel: Channel,
    pub pack: ChannelPack,
    pub videos: VideoPage,
}

// ----- picture sets, search, sister sites, recommendations -----

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

/// The recommendation shelves (account-payments-gems.md §3).
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

// ----- reels, showcases, angels, the wall -----

/// A reel (quickie).
#[derive(SimpleObject)]
pub struct Reel {
    pub uuid: ID,
    pub site: String,
    pub title: String,
    pub video_id: ID,
    pub video_slug: Option<String>,
    pub duration: u32,
    pub published_at: DateTime<Utc>,
    pub views: i64,
    pub bookmarks: i64,
    pub image: Image,
    pub clip: Trailer,
    /// Whether the viewer bookmarked it.
    pub bookmarked: bool,
}

impl From<api::Reel> for Reel {
    fn from(r: api::Reel) -> Self {
        Reel {
            uuid: id(r.uuid),
            site: r.site,
            title: r.title,
            video_id: id(r.video_id),
            video_slug: r.video_slug,
            duration: r.duration,
            published_at: r.published_at,
            views: r.views,
            bookmarks: r.bookmarks,
            image: r.image.into(),
            clip: r.clip.into(),
            bookmarked: r.bookmarked,
        }
    }
}

#[derive(SimpleObject)]
pub struct ReelPage {
    pub reels: Vec<Reel>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
}

impl From<api::ReelPage> for ReelPage {
    fn from(p: api::ReelPage) -> Self {
        ReelPage {
            reels: p.reels.into_iter().map(Into::into).collect(),
            total_count: p.total_count,
            page: p.page,
            size: p.size,
        }
    }
}

#[derive(SimpleObject)]
pub struct Showcase {
    pub slug: String,
    pub title: String,
    pub description: String,
    pub videos: Vec<Video>,
    pub image: Image,
}

impl From<api::Showcase> for Showcase {
    fn from(s: api::Showcase) -> Self {
        Showcase {
            slug: s.slug,
            title: s.title,
            description: s.description,
            videos: videos(s.videos),
            image: s.image.into(),
        }
    }
}

#[derive(SimpleObject)]
#[graphql(complex)]
pub struct Angel {
    pub slug: String,
    pub name: String,
    pub bio: String,
    #[graphql(skip)]
    pub performer_ref: api::PerformerRef,
    pub image: Image,
    pub videos: Vec<Video>,
}

impl From<api::Angel> for Angel {
    fn from(a: api::Angel) -> Self {
        Angel {
            slug: a.slug,
            name: a.name,
            bio: a.bio,
            performer_ref: a.performer,
            image: a.image.into(),
            videos: videos(a.videos),
        }
    }
}

#[ComplexObject]
impl Angel {
    async fn performer(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Performer>> {
        Ok(performers(ctx, std::slice::from_ref(&self.performer_ref)).await?.pop())
    }
}

/// A post of the curator wall.
#[derive(SimpleObject)]
pub struct CuratorPost {
    pub id: ID,
    pub title: String,
    pub text: String,
    pub published_at: DateTime<Utc>,
    pub video: Option<Video>,
}

impl From<api::CuratorPost> for CuratorPost {
    fn from(p: api::CuratorPost) -> Self {
        CuratorPost {
            id: id(p.id),
            title: p.title,
            text: p.text,
            published_at: p.published_at,
            video: p.video.map(Video),
        }
    }
}

// ----- community -----

/// How comments are ordered.
#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug, Default)]
#[graphql(rename_items = "lowercase")]
pub enum CommentSort {
    #[default]
    Newest,
    Oldest,
    /// Most liked first.
    Top,
}

impl CommentSort {
    pub fn key(self) -> &'static str {
        match self {
            CommentSort::Newest => "newest",
            CommentSort::Oldest => "oldest",
            CommentSort::Top => "top",
        }
    }
}

#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug)]
#[graphql(rename_items = "lowercase")]
pub enum CommentVote {
    Like,
    Dislike,
}

impl CommentVote {
    pub fn key(self) -> &'static str {
        match self {
            CommentVote::Like => "like",
            CommentVote::Dislike => "dislike",
        }
    }
}

#[derive(SimpleObject)]
#[graphql(complex)]
pub struct Comment {
    pub id: ID,
    pub video_id: ID,
    pub parent_id: Option<ID>,
    pub author_name: Option<String>,
    pub text: String,
    pub created_at: DateTime<Utc>,
    pub likes: i64,
    pub dislikes: i64,
    pub reply_count: i64,
    pub pinned: bool,
    /// The viewer's vote: `like`, `dislike` or none.
    pub user_vote: Option<String>,
    /// Written by the signed-in user.
    pub is_mine: bool,
    /// Who wrote it (their badges and user type: `author`, see [`super::authors`]).
    #[graphql(skip)]
    pub author_id: uuid::Uuid,
}

impl Comment {
    pub fn of(c: api::Comment, viewer: Option<uuid::Uuid>) -> Self {
        Comment {
            id: id(c.id),
            video_id: id(c.video_id),
            parent_id: c.parent_id.map(id),
            author_name: c.author_name,
            text: c.text,
            created_at: c.created_at,
            likes: c.likes,
            dislikes: c.dislikes,
            reply_count: c.reply_count,
            pinned: c.pinned,
            user_vote: c.user_vote,
            is_mine: viewer == Some(c.user_id),
            author_id: c.user_id,
        }
    }
}

#[derive(SimpleObject)]
pub struct CommentPage {
    pub comments: Vec<Comment>,
    pub total_count: i64,
    /// Pass as `after` to load more; none at the end.
    pub next_cursor: Option<String>,
}

impl CommentPage {
    pub fn of(p: api::CommentPage, viewer: Option<uuid::Uuid>) -> Self {
        CommentPage {
            comments: p.comments.into_iter().map(|c| Comment::of(c, viewer)).collect(),
            total_count: p.total_count,
            next_cursor: p.next_cursor,
        }
    }
}

#[derive(SimpleObject)]
pub struct RemovedComment {
    pub id: ID,
    pub removed: bool,
}

/// What an expert review item is.
#[derive(Enum, Clone, Copy, PartialEq, Eq, Debug)]
#[graphql(rename_items = "lowercase")]
pub enum ExpertReviewType {
    /// The overall rating (1 to 10); it comes first.
    Global,
    /// A criterion (1 to 5), named by its slug.
    Property,
    /// A performer of the video (1 to 5), named by their slug.
    Model,
}

impl ExpertReviewType {
    pub fn key(self) -> &'static str {
        match self {
            ExpertReviewType::Global => "global",
            ExpertReviewType::Property => "property",
            ExpertReviewType::Model => "model",
        }
    }
}

#[derive(SimpleObject)]
pub struct ExpertProperty {
    pub name: String,
    pub slug: String,
    pub tooltip: String,
    /// -1 when not rated.
    pub rating: i32,
}

#[derive(SimpleObject)]
pub struct ExpertModel {
    pub slug: String,
    pub name: String,
    pub rating: i32,
}

#[derive(SimpleObject)]
pub struct ExpertReview {
    /// The overall rating, -1 when none.
    pub global: i32,
    pub properties: Vec<ExpertProperty>,
    pub models: Vec<ExpertModel>,
}

#[derive(SimpleObject)]
pub struct UserVideoRating {
    pub video_id: ID,
    /// -1 when not rated.
    pub rating: i32,
}

/// updateExpertReview's answer (and the rating's).
#[derive(SimpleObject)]
pub struct ExpertReviewAnswer {
    pub expert_review: ExpertReview,
    pub user_video_ratings: UserVideoRating,
    /// The video's average after it.
    pub video_rating: f64,
}

impl From<api::ExpertReviewAnswer> for ExpertReviewAnswer {
    fn from(a: api::ExpertReviewAnswer) -> Self {
        let r = a.expert_review;
        ExpertReviewAnswer {
            expert_review: ExpertReview {
                global: r.global,
                properties: r
                    .properties
                    .into_iter()
                    .map(|p| ExpertProperty { name: p.name, slug: p.slug, tooltip: p.tooltip, rating: p.rating })
                    .collect(),
                models: r
                    .models
                    .into_iter()
                    .map(|m| ExpertModel { slug: m.slug, name: m.name, rating: m.rating })
                    .collect(),
            },
            user_video_ratings: UserVideoRating {
                video_id: id(a.user_video_ratings.video_id),
                rating: a.user_video_ratings.rating,
            },
            video_rating: a.video_rating,
        }
    }
}

/// A page of the signed-in user's favourites of one kind (the list matching the kind is filled).
#[derive(SimpleObject)]
pub struct FavoritePage {
    pub kind: FavoriteKind,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
    pub videos: Vec<Video>,
    pub performers: Vec<Performer>,
    pub channels: Vec<Channel>,
}

/// A batch (up to 100) of favourite ids, most recent first.
#[derive(SimpleObject)]
pub struct FavoriteIds {
    pub kind: FavoriteKind,
    pub ids: Vec<ID>,
    pub total_count: i64,
}

#[derive(SimpleObject)]
pub struct FavoriteAnswer {
    pub kind: FavoriteKind,
    pub id: ID,
    /// Whether it is a favourite now.
    pub favorite: bool,
}

pub fn favorite_kind(kind: &str) -> FavoriteKind {
    match kind {
        "video" => FavoriteKind::Video,
        "performer" => FavoriteKind::Performer,
        _ => FavoriteKind::Channel,
    }
}

pub fn ids(v: Vec<uuid::Uuid>) -> Vec<ID> {
    v.into_iter().map(id).collect()
}
