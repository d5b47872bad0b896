//! Videos: cards, pages, details, awards.

use super::*;

/// A video as lists and pages show it (product.md, "Unlocks").
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
    /// The video is flagged as free-limited-trial content (for anyone; whether the caller's
    /// trial may take it is `freeForYourTrial`).
    async fn is_free_limited_trial(&self) -> bool {
        self.0.is_free_limited_trial
    }
    /// One of the caller's free limited trial's videos, which the trial may take now: a
    /// flagged video of a site the trial covers, outside a third party's channel, not taken,
    /// with full videos left (services/access `free_trial_take`). False for everyone else.
    async fn free_for_your_trial(&self, ctx: &Context<'_>) -> async_graphql::Result<bool> {
        abilities::free_for_your_trial(ctx, &self.0).await
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
