//! What visitors and members browse: listings, pages, search, shelves. Open to everyone;
//! tenant-gated parts answer NOT_FOUND where the tenant's feature is off.

use async_graphql::{Context, Object, ID};
use catalog_contract::client::{AwardedParams, FreeTrialParams, PerformerListParams, VideoListParams};

use access::abilities::{action, subject};

use super::{caller, check_site, gate, loaders, not_found, paging, refused, types::*, uuid};
use crate::graphql::{abilities, context::request, context::upstreams, errors};

#[derive(Default)]
pub struct ContentQuery;

/// Most related videos getVideo returns (the catalog's page limit).
pub const MAX_RELATED: i32 = 100;
/// Performers are ordered by rating unless asked (product.md, "Business constants and limits").
pub const DEFAULT_PERFORMER_ORDER: &str = "rating";
/// Performers are girls unless asked (product.md, "Business constants and limits").
pub const DEFAULT_GENDER: &str = "girls";
/// A shelf's videos unless asked (the large recommended list size).
pub const DEFAULT_SHELF_LIMIT: i32 = 9;

fn features<'a>(ctx: &'a Context<'_>) -> &'a tenants::Features {
    &request(ctx).site.tenant.features
}

fn non_empty(s: Option<String>) -> Option<String> {
    s.filter(|s| !s.trim().is_empty())
}

/// Channels are shown with "see Channels": the tenant's feature, never to a tandem child.
async fn channels_shown(ctx: &Context<'_>) -> async_graphql::Result<()> {
    gate(abilities::can(ctx, action::SEE, subject::CHANNELS, None).await?)
}

/// A channel the caller may not see (an internal one without "see InternalChannels") is
/// not-found, as its route is.
async fn channel_shown(ctx: &Context<'_>, is_third_party: bool) -> async_graphql::Result<()> {
    gate(abilities::sees_channel(ctx, is_third_party).await?)
}

/// Videos of channels the caller may not see left out (internal channels' without "see
/// InternalChannels").
async fn without_hidden_channels(
    ctx: &Context<'_>,
    videos: Vec<catalog_contract::api::Video>,
) -> async_graphql::Result<(Vec<catalog_contract::api::Video>, i64)> {
    if abilities::can(ctx, action::SEE, subject::INTERNAL_CHANNELS, None).await? {
        return Ok((videos, 0));
    }
    let before = videos.len();
    let kept: Vec<_> = videos.into_iter().filter(|v| v.channel.is_none() || v.is_third_party_channel).collect();
    let removed = (before - kept.len()) as i64;
    Ok((kept, removed))
}

#[Object]
impl ContentQuery {
    /// The video listing (/videos): page (default 1), size (default 12, at most 100), order
    /// (`newest` default, `oldest`, `rating`), `filter` (an order name), the faceted
    /// `categories` (comma-separated slugs), a `performer` slug and a `search` (lower-cased
    /// into categories, as the route does).
    #[allow(clippy::too_many_arguments)]
    async fn videos(
        &self,
        ctx: &Context<'_>,
        page: Option<i32>,
        size: Option<i32>,
        order: Option<String>,
        filter: Option<String>,
        categories: Option<String>,
        performer: Option<String>,
        search: Option<String>,
    ) -> async_graphql::Result<VideoPage> {
        let params = VideoListParams {
            page: page.map(i64::from),
            size: size.map(i64::from),
            order: non_empty(order),
            filter: non_empty(filter),
            categories: non_empty(categories),
            performer: non_empty(performer),
            search: non_empty(search).map(|s| s.to_lowercase()),
            // The page and its performers' whole cards in one call, when the selection asks
            // for the cards.
            performer_cards: loaders::asks_performer_cards(&ctx.look_ahead().field("videos").field("performers")),
        };
        let mut page = upstreams(ctx).catalog.videos(&caller(ctx), &params).await.map_err(refused)?;
        loaders::keep_performers(ctx, std::mem::take(&mut page.performers)).await?;
        Ok(page.into())
    }

    /// "Free for your trial" (/free-trial-videos): the free limited trial's videos of the
    /// sites the signed-in user's trial covers, on this brand, newest first; the trial's
    /// videos taken are listed too (they stay open), `freeForYourTrial` marks those it may
    /// still take. Empty for anyone not on an active free limited trial; UNAUTHENTICATED for
    /// a visitor.
    async fn free_trial_videos(
        &self,
        ctx: &Context<'_>,
        page: Option<i32>,
        size: Option<i32>,
    ) -> async_graphql::Result<VideoPage> {
        request(ctx).viewer()?;
        let sites = abilities::free_trial_sites(ctx).await?;
        let paging = paging(page, size);
        if sites.is_empty() {
            return Ok(VideoPage {
                items: vec![],
                total_count: 0,
                page: paging.page.unwrap_or(1),
                size: paging.size.unwrap_or(12),
            });
        }
        let params = FreeTrialParams { sites: sites.join(","), page: paging.page, size: paging.size };
        Ok(upstreams(ctx).catalog.free_trial_videos(&caller(ctx), &params).await.map_err(refused)?.into())
    }

    /// Top rated (/toprated): the brand's videos by rating.
    async fn top_rated(
        &self,
        ctx: &Context<'_>,
        page: Option<i32>,
        size: Option<i32>,
    ) -> async_graphql::Result<VideoPage> {
        Ok(upstreams(ctx).catalog.top_rated(&caller(ctx), &paging(page, size)).await.map_err(refused)?.into())
    }

    /// getAwardedVideos(skip or page, first, site): award = 1, newest first, with totalCount.
    /// Only where the tenant's awards link is on. `page` (from 1) lets the catalog compute the
    /// offset in 64 bits: the awards route's last page (2147483647 / 3) is past a 32-bit skip.
    async fn get_awarded_videos(
        &self,
        ctx: &Context<'_>,
        skip: Option<i32>,
        page: Option<i32>,
        #[graphql(default_with = "Some(12)")] first: Option<i32>,
        site: Option<String>,
    ) -> async_graphql::Result<AwardedVideos> {
        check_site(ctx, site.as_deref())?;
        gate(request(ctx).site.tenant.header_features.awards_link)?;
        let params =
            AwardedParams { skip: skip.map(i64::from), page: page.map(i64::from), first: first.map(i64::from) };
        let a = upstreams(ctx).catalog.awarded_videos(&caller(ctx), &params).await.map_err(refused)?;
        Ok(AwardedVideos { items: a.videos, total_count: a.total_count })
    }

    /// getVideo(videoSlug, site, relatedCount): the video, `relatedCount` related videos
    /// (default 0; with `crossNavigation` from the sister brands too), and the viewer's rating.
    async fn get_video(
        &self,
        ctx: &Context<'_>,
        video_slug: String,
        site: Option<String>,
        #[graphql(default_with = "Some(0)")] related_count: Option<i32>,
        #[graphql(default_with = "Some(false)")] cross_navigation: Option<bool>,
    ) -> async_graphql::Result<VideoDetail> {
        let (related_count, cross_navigation) = (related_count.unwrap_or(0), cross_navigation.unwrap_or(false));
        check_site(ctx, site.as_deref())?;
        if !(0..=MAX_RELATED).contains(&related_count) {
            return Err(errors::bad_input(format!("relatedCount must be between 0 and {MAX_RELATED}")));
        }
        let d = upstreams(ctx)
            .catalog
            .video(&caller(ctx), &video_slug, i64::from(related_count), cross_navigation)
            .await
            .map_err(refused)?;
        if d.video.channel.is_some() {
            channels_shown(ctx).await?;
            channel_shown(ctx, d.video.is_third_party_channel).await?;
        }
        Ok(d.into())
    }

    /// getPictureSet(videoSlug, site): the picture set of a video (members: the route is
    /// authenticated).
    async fn get_picture_set(
        &self,
        ctx: &Context<'_>,
        video_slug: String,
        site: Option<String>,
    ) -> async_graphql::Result<PictureSet> {
        request(ctx).viewer()?;
        check_site(ctx, site.as_deref())?;
        let set = upstreams(ctx).catalog.picture_set(&caller(ctx), &video_slug).await.map_err(refused)?;
        // "see PictureSet" as its video: members of its site outside a locked pack, unlocks,
        // the active free limited trial's videos.
        let video = loaders::get(ctx)?.videos.load_one(set.video_id).await?.ok_or_else(not_found)?;
        abilities::require(ctx, action::SEE, subject::PICTURE_SET, Some(&abilities::video_facts(&video))).await?;
        Ok(set.into())
    }

    /// getAllFilters(site, filter, minScenes): the categories, performers and channels with at
    /// least `minScenes` published scenes; `filter` (`categories`, `performers`, `channels`)
    /// keeps only that list.
    async fn get_all_filters(
        &self,
        ctx: &Context<'_>,
        site: Option<String>,
        filter: Option<String>,
        min_scenes: Option<i32>,
    ) -> async_graphql::Result<Filters> {
        check_site(ctx, site.as_deref())?;
        let filter = non_empty(filter);
        let f = upstreams(ctx)
            .catalog
            .all_filters(&caller(ctx), filter.as_deref(), min_scenes.map(i64::from))
            .await
            .map_err(refused)?;
        Ok(f.into())
    }

    /// Performers (/performers): order (default `rating`; `name`, `newest`, `videos`), gender
    /// (default `girls`; `guys`, `all`), `sex` (`F`, `M`; faceted search, wins over gender).
    async fn performers(
        &self,
        ctx: &Context<'_>,
        #[graphql(default_with = "Some(DEFAULT_PERFORMER_ORDER.to_owned())")] order: Option<String>,
        #[graphql(default_with = "Some(DEFAULT_GENDER.to_owned())")] gender: Option<String>,
        sex: Option<String>,
        page: Option<i32>,
        size: Option<i32>,
    ) -> async_graphql::Result<PerformerPage> {
        let params = PerformerListParams {
            order: Some(non_empty(order).unwrap_or_else(|| DEFAULT_PERFORMER_ORDER.to_owned())),
            gender: Some(non_empty(gender).unwrap_or_else(|| DEFAULT_GENDER.to_owned())),
            sex: non_empty(sex),
            page: page.map(i64::from),
            size: size.map(i64::from),
        };
        Ok(upstreams(ctx).catalog.performers(&caller(ctx), &params).await.map_err(refused)?.into())
    }

    /// A performer's page (/performers/{slug}) with a page of their videos.
    async fn performer(
        &self,
        ctx: &Context<'_>,
        slug: String,
        page: Option<i32>,
        size: Option<i32>,
    ) -> async_graphql::Result<PerformerDetail> {
        let d = upstreams(ctx).catalog.performer(&caller(ctx), &slug, &paging(page, size)).await.map_err(refused)?;
        Ok(PerformerDetail { performer: Performer::full(d.performer), videos: d.videos.into() })
    }

    /// The brand's categories with their published video counts.
    async fn categories(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Category>> {
        let c = upstreams(ctx).catalog.categories(&caller(ctx)).await.map_err(refused)?;
        Ok(c.categories.into_iter().map(Into::into).collect())
    }

    /// The channels the brand carries (/channels).
    async fn channels(
        &self,
        ctx: &Context<'_>,
        page: Option<i32>,
        size: Option<i32>,
    ) -> async_graphql::Result<ChannelPage> {
        channels_shown(ctx).await?;
        let mut p = upstreams(ctx).catalog.channels(&caller(ctx), &paging(page, size)).await.map_err(refused)?;
        if !abilities::can(ctx, action::SEE, subject::INTERNAL_CHANNELS, None).await? {
            let before = p.channels.len();
            p.channels.retain(|c| c.is_third_party);
            p.total_count -= (before - p.channels.len()) as i64;
        }
        Ok(p.into())
    }

    /// A channel (/channels/{channelSlug}) with its packs.
    async fn channel(&self, ctx: &Context<'_>, channel_slug: String) -> async_graphql::Result<Channel> {
        channels_shown(ctx).await?;
        let channel = upstreams(ctx).catalog.channel(&caller(ctx), &channel_slug).await.map_err(refused)?;
        channel_shown(ctx, channel.is_third_party).await?;
        Ok(Channel(channel))
    }

    /// A channel's video list (/channels/{channelSlug}/videos).
    async fn channel_videos(
        &self,
        ctx: &Context<'_>,
        channel_slug: String,
        page: Option<i32>,
        size: Option<i32>,
    ) -> async_graphql::Result<VideoPage> {
        channels_shown(ctx).await?;
        let catalog = &upstreams(ctx).catalog;
        let caller = caller(ctx);
        let paging = paging(page, size);
        let (channel, p) = futures::try_join!(
            catalog.channel(&caller, &channel_slug),
            catalog.channel_video_page(&caller, &channel_slug, &paging)
        )
        .map_err(refused)?;
        channel_shown(ctx, channel.is_third_party).await?;
        Ok(p.into())
    }

    /// getChannelVideos(channelSlug): the channel widget's last 6 videos.
    async fn get_channel_videos(&self, ctx: &Context<'_>, channel_slug: String) -> async_graphql::Result<Vec<Video>> {
        channels_shown(ctx).await?;
        let catalog = &upstreams(ctx).catalog;
        let caller = caller(ctx);
        let (channel, items) =
            futures::try_join!(catalog.channel(&caller, &channel_slug), catalog.channel_videos(&caller, &channel_slug))
                .map_err(refused)?;
        channel_shown(ctx, channel.is_third_party).await?;
        video_list(ctx, &items).await
    }

    /// A channel pack's page (/channels/{channelSlug}/packs/{channelPackSlug}).
    async fn channel_pack(
        &self,
        ctx: &Context<'_>,
        channel_slug: String,
        channel_pack_slug: String,
        page: Option<i32>,
        size: Option<i32>,
    ) -> async_graphql::Result<ChannelPackDetail> {
        channels_shown(ctx).await?;
        let d = upstreams(ctx)
            .catalog
            .channel_pack(&caller(ctx), &channel_slug, &channel_pack_slug, &paging(page, size))
            .await
            .map_err(refused)?;
        channel_shown(ctx, d.channel.is_third_party).await?;
        Ok(ChannelPackDetail { channel: Channel(d.channel), pack: d.pack.into(), videos: d.videos.into() })
    }

    /// Every channel video of the brand (/channels/all-videos; signed-in users).
    async fn all_channel_videos(
        &self,
        ctx: &Context<'_>,
        page: Option<i32>,
        size: Option<i32>,
    ) -> async_graphql::Result<VideoPage> {
        request(ctx).viewer()?;
        channels_shown(ctx).await?;
        let p = upstreams(ctx).catalog.all_channel_videos(&caller(ctx), &paging(page, size)).await.map_err(refused)?;
        let (videos, removed) = without_hidden_channels(ctx, p.videos).await?;
        Ok(VideoPage { items: videos, total_count: p.total_count - removed, page: p.page, size: p.size })
    }

    /// search(q, page, size): ranked over titles, performers and categories, typo-tolerant.
    async fn search(
        &self,
        ctx: &Context<'_>,
        q: Option<String>,
        page: Option<i32>,
        size: Option<i32>,
    ) -> async_graphql::Result<SearchResult> {
        let q = q.unwrap_or_default();
        Ok(upstreams(ctx).catalog.search(&caller(ctx), &q, &paging(page, size)).await.map_err(refused)?.into())
    }

    /// /sites/{brand}/videos: a sister brand's videos; the brand must be one of the tenant's
    /// standalone sites and not the tenant itself (NOT_FOUND otherwise).
    async fn sister_site_videos(
        &self,
        ctx: &Context<'_>,
        brand: String,
        page: Option<i32>,
        size: Option<i32>,
    ) -> async_graphql::Result<VideoPage> {
        sister(ctx, &brand)?;
        let p =
            upstreams(ctx).catalog.sister_videos(&caller(ctx), &brand, &paging(page, size)).await.map_err(refused)?;
        Ok(p.into())
    }

    /// /sites/{brand}/performers: a sister brand's performers (same rule as the videos).
    async fn sister_site_performers(
        &self,
        ctx: &Context<'_>,
        brand: String,
        page: Option<i32>,
        size: Option<i32>,
    ) -> async_graphql::Result<PerformerPage> {
        sister(ctx, &brand)?;
        let p = upstreams(ctx)
            .catalog
            .sister_performers(&caller(ctx), &brand, &paging(page, size))
            .await
            .map_err(refused)?;
        Ok(p.into())
    }

    /// recommendations(site, videoId, limit): a shelf (default HOME_RECOMMENDATIONS, or
    /// VIDEO_PAGE_RECOMMENDATIONS[_WITH_CROSSNAVIGATION] with a videoId), with its recommId.
    /// `crossNavigation` takes the sister brands' videos in.
    async fn recommendations(
        &self,
        ctx: &Context<'_>,
        site: Option<String>,
        video_id: Option<ID>,
        #[graphql(default_with = "Some(9)")] limit: Option<i32>,
        shelf: Option<RecommendationShelf>,
        #[graphql(default_with = "Some(false)")] cross_navigation: Option<bool>,
    ) -> async_graphql::Result<Recommendations> {
        let (limit, cross_navigation) = (limit.unwrap_or(DEFAULT_SHELF_LIMIT), cross_navigation.unwrap_or(false));
        check_site(ctx, site.as_deref())?;
        let video_id = video_id.as_ref().map(|v| uuid(v, "video")).transpose()?;
        let shelf = shelf.unwrap_or(match (video_id.is_some(), cross_navigation) {
            (true, true) => RecommendationShelf::VideoPageRecommendationsWithCrossnavigation,
            (true, false) => RecommendationShelf::VideoPageRecommendations,
            (false, _) => RecommendationShelf::HomeRecommendations,
        });
        shelf_shown(ctx, shelf).await?;
        let r = upstreams(ctx)
            .catalog
            .recommendations(&caller(ctx), shelf.key(), video_id, i64::from(limit), cross_navigation, &sisters(ctx))
            .await
            .map_err(refused)?;
        Ok(r.into())
    }

    /// Reels (quickies), where the tenant has them.
    async fn reels(&self, ctx: &Context<'_>, page: Option<i32>, size: Option<i32>) -> async_graphql::Result<ReelPage> {
        gate(features(ctx).reels)?;
        Ok(upstreams(ctx).catalog.reels(&caller(ctx), &paging(page, size)).await.map_err(refused)?.into())
    }

    /// One reel (/quickies/{uuid}).
    async fn reel(&self, ctx: &Context<'_>, uuid: ID) -> async_graphql::Result<Reel> {
        gate(features(ctx).reels)?;
        let id = super::uuid(&uuid, "reel")?;
        let reel = upstreams(ctx).catalog.reel(&caller(ctx), id).await.map_err(refused)?;
        let tenant = request(ctx).tenant();
        // Another brand's reel is read through its own host.
        gate(reel.site == tenant || super::brand::combined(ctx))?;
        Ok(reel.into())
    }

    /// Showcases, where the tenant has the showcases page.
    async fn showcases(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Showcase>> {
        gate(features(ctx).showcases_page)?;
        let s = upstreams(ctx).catalog.showcases(&caller(ctx)).await.map_err(refused)?;
        Ok(s.showcases.into_iter().map(Into::into).collect())
    }

    async fn showcase(&self, ctx: &Context<'_>, slug: String) -> async_graphql::Result<Showcase> {
        gate(features(ctx).showcases_page)?;
        Ok(upstreams(ctx).catalog.showcase(&caller(ctx), &slug).await.map_err(refused)?.into())
    }

    /// Angels, where the tenant shows them.
    async fn angels(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Angel>> {
        gate(features(ctx).show_angels)?;
        let a = upstreams(ctx).catalog.angels(&caller(ctx)).await.map_err(refused)?;
        Ok(a.angels.into_iter().map(Into::into).collect())
    }

    async fn angel(&self, ctx: &Context<'_>, slug: String) -> async_graphql::Result<Angel> {
        gate(features(ctx).show_angels)?;
        Ok(upstreams(ctx).catalog.angel(&caller(ctx), &slug).await.map_err(refused)?.into())
    }

    /// The curator wall (/wall), where the tenant has the curator.
    async fn curator_wall(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<CuratorPost>> {
        gate(features(ctx).curator)?;
        let w = upstreams(ctx).catalog.wall(&caller(ctx)).await.map_err(refused)?;
        Ok(w.posts.into_iter().map(Into::into).collect())
    }
}

/// The tenant's sister sites: its standalone sites but itself (the cross-navigation shelf's).
fn sisters(ctx: &Context<'_>) -> Vec<String> {
    let tenant = &request(ctx).site.tenant;
    tenant.standalone_sites.iter().filter(|s| **s != tenant.tenant).cloned().collect()
}

/// `/sites/{brand}/{type}`: one of the tenant's standalone sites, not the tenant itself.
fn sister(ctx: &Context<'_>, brand: &str) -> async_graphql::Result<()> {
    let tenant = &request(ctx).site.tenant;
    gate(tenant.standalone_sites.iter().any(|s| s == brand) && tenant.tenant != brand)
}

/// The shelves with a rule of their own (product.md, "Roles and abilities"): RECOMMENDED_VIDEOS (the
/// /recommended-videos route) needs "see RecommendationShelf" (admins, and signed-in users who
/// are not on a trial); the channel shelves need "see Channels", the internal channels' ones
/// "see InternalChannels" too. Not-found otherwise, as their routes are.
async fn shelf_shown(ctx: &Context<'_>, shelf: RecommendationShelf) -> async_graphql::Result<()> {
    use RecommendationShelf as S;
    let sees = |subject: &'static str| async move { abilities::can(ctx, action::SEE, subject, None).await };
    let shown = match shelf {
        S::RecommendedVideos => sees(subject::RECOMMENDATION_SHELF).await?,
        S::HomeChannelsRecommendations | S::ExternalChannelVideoPageRecommendations => sees(subject::CHANNELS).await?,
        S::HomeRecommendedInternalChannels | S::InternalChannelVideoPageRecommendations => {
            sees(subject::CHANNELS).await? && sees(subject::INTERNAL_CHANNELS).await?
        }
        _ => true,
    };
    gate(shown)
}
