//! The typed client the gateway calls the catalog with: one method per internal endpoint
//! over the runtime's one internal client ([`Upstream`]), which carries the caller's token,
//! the tenant, the correlation id and the trace context, and retries idempotent reads.

use std::time::Duration;

use reqwest::Method;
use runtime::client::{CallContext, Target, Upstream, UpstreamError};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use uuid::Uuid;

use crate::{api, routes};

/// A slug for a path, by the slug rule first: one that breaks it names nothing the catalog
/// holds, so the answer is the catalog's own not-found, without a call; and nothing but a slug
/// (no `/`, no `..`, never empty) is ever put into a path.
fn slug_of<'a>(what: &str, slug: &'a str) -> Result<&'a str, UpstreamError> {
    if crate::is_valid_slug(slug) {
        return Ok(slug);
    }
    let message = format!("{what} not found");
    Err(UpstreamError::Refused {
        service: "catalog",
        status: 404,
        code: "NOT_FOUND".into(),
        body: serde_json::json!({ "code": "NOT_FOUND", "message": message }),
        message,
    })
}

#[derive(Clone, Debug)]
pub struct CatalogClient {
    upstream: Upstream,
}

/// A page request: `page` from 1, `size` up to 100.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Paging {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
}

/// The free-for-your-trial list's parameters: the trial's sites, comma separated, and the page.
#[derive(Clone, Debug, Default, Serialize)]
pub struct FreeTrialParams {
    pub sites: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
}

/// The awards list's parameters: a `skip` or a `page` (from 1; the service computes its
/// 64-bit offset), and `first` (up to 100). Neither: the first page.
#[derive(Clone, Debug, Default, Serialize)]
pub struct AwardedParams {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<i64>,
}

/// The video listing's parameters.
#[derive(Clone, Debug, Default, Serialize)]
pub struct VideoListParams {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub categories: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub performer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// Answer the page's performers' whole cards with it (`VideoPage::performers`).
    #[serde(rename = "performerCards", skip_serializing_if = "std::ops::Not::not")]
    pub performer_cards: bool,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct PerformerListParams {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gender: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sex: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
}

#[derive(Deserialize)]
pub struct Performers {
    pub performers: Vec<api::Performer>,
}

impl CatalogClient {
    /// A client of the catalog at `base` (for example `runtime::config::service_url("catalog", 8106)`).
    pub fn new(base: impl Into<String>) -> Self {
        CatalogClient { upstream: Upstream::new("catalog", base, Duration::from_secs(10)) }
    }

    async fn get<Q: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        path: &(impl Target + ?Sized),
        caller: &CallContext,
        query: &Q,
    ) -> Result<T, UpstreamError> {
        self.upstream.get_params(path, query, caller).await
    }

    async fn post<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        path: &(impl Target + ?Sized),
        caller: &CallContext,
        body: &B,
    ) -> Result<T, UpstreamError> {
        self.upstream.post(path, body, caller).await
    }

    /// A read sent as a POST (a batch of ids): retried as a GET is.
    async fn read<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        path: &(impl Target + ?Sized),
        caller: &CallContext,
        body: &B,
    ) -> Result<T, UpstreamError> {
        self.upstream.post_idempotent(path, body, caller).await
    }

    // ----- videos -----

    pub async fn videos(
        &self,
        caller: &CallContext,
        params: &VideoListParams,
    ) -> Result<api::VideoPage, UpstreamError> {
        self.get(&routes::VIDEOS, caller, params).await
    }

    /// The free limited trial's videos of `sites` (the sites a user's trial covers) on the
    /// caller's brand, newest first.
    pub async fn free_trial_videos(
        &self,
        caller: &CallContext,
        params: &FreeTrialParams,
    ) -> Result<api::VideoPage, UpstreamError> {
        self.get(&routes::FREE_TRIAL_VIDEOS, caller, params).await
    }

    pub async fn top_rated(&self, caller: &CallContext, paging: &Paging) -> Result<api::VideoPage, UpstreamError> {
        self.get(&routes::TOP_RATED_VIDEOS, caller, paging).await
    }

    /// getAwardedVideos(skip or page, first, site).
    pub async fn awarded_videos(
        &self,
        caller: &CallContext,
        params: &AwardedParams,
    ) -> Result<api::AwardedVideos, UpstreamError> {
        self.get(&routes::AWARDED_VIDEOS, caller, params).await
    }

    /// Videos by uuid (DataLoader); unknown ids are left out.
    pub async fn videos_by_ids(&self, caller: &CallContext, ids: &[Uuid]) -> Result<Vec<api::Video>, UpstreamError> {
        let body = api::IdsRequest { ids: ids.to_vec(), slugs: vec![] };
        Ok(self.read::<_, api::Videos>(&routes::VIDEOS_BATCH, caller, &body).await?.videos)
    }

    /// getVideo(videoSlug, site, relatedCount).
    pub async fn video(
        &self,
        caller: &CallContext,
        slug: &str,
        related_count: i64,
        cross_navigation: bool,
    ) -> Result<api::VideoDetail, UpstreamError> {
        let query = [("relatedCount", related_count.to_string()), ("crossNavigation", cross_navigation.to_string())];
        self.get(&routes::VIDEO.path_with(&[&slug_of("video", slug)?]), caller, &query).await
    }

    /// getPictureSet(videoSlug, site).
    pub async fn picture_set(&self, caller: &CallContext, slug: &str) -> Result<api::PictureSet, UpstreamError> {
        self.get(&routes::PICTURE_SET.path_with(&[&slug_of("video", slug)?]), caller, &[(); 0]).await
    }

    // ----- performers, categories, filters -----

    pub async fn performers(
        &self,
        caller: &CallContext,
        params: &PerformerListParams,
    ) -> Result<api::PerformerPage, UpstreamError> {
        self.get(&routes::PERFORMERS, caller, params).await
    }

    pub async fn performer(
        &self,
        caller: &CallContext,
        slug: &str,
        paging: &Paging,
    ) -> Result<api::PerformerDetail, UpstreamError> {
        self.get(&routes::PERFORMER.path_with(&[&slug_of("performer", slug)?]), caller, paging).await
    }

    pub async fn performers_by(
        &self,
        caller: &CallContext,
        ids: &[Uuid],
        slugs: &[String],
    ) -> Result<Vec<api::Performer>, UpstreamError> {
        let body = api::IdsRequest { ids: ids.to_vec(), slugs: slugs.to_vec() };
        Ok(self.read::<_, Performers>(&routes::PERFORMERS_BATCH, caller, &body).await?.performers)
    }

    pub async fn categories(&self, caller: &CallContext) -> Result<api::Categories, UpstreamError> {
        self.get(&routes::CATEGORIES, caller, &[(); 0]).await
    }

    /// getAllFilters(site, filter, minScenes).
    pub async fn all_filters(
        &self,
        caller: &CallContext,
        filter: Option<&str>,
        min_scenes: Option<i64>,
    ) -> Result<api::Filters, UpstreamError> {
        let mut query: Vec<(&str, String)> = Vec::new();
        if let Some(f) = filter {
            query.push(("filter", f.to_owned()));
        }
        if let Some(m) = min_scenes {
            query.push(("minScenes", m.to_string()));
        }
        self.get(&routes::FILTERS, caller, &query).await
    }

    // ----- channels -----

    pub async fn channels(&self, caller: &CallContext, paging: &Paging) -> Result<api::ChannelPage, UpstreamError> {
        self.get(&routes::CHANNELS, caller, paging).await
    }

    pub async fn channel(&self, caller: &CallContext, slug: &str) -> Result<api::Channel, UpstreamError> {
        self.get(&routes::CHANNEL.path_with(&[&slug_of("channel", slug)?]), caller, &[(); 0]).await
    }

    pub async fn channel_video_page(
        &self,
        caller: &CallContext,
        slug: &str,
        paging: &Paging,
    ) -> Result<api::VideoPage, UpstreamError> {
        self.get(&routes::CHANNEL_VIDEOS.path_with(&[&slug_of("channel", slug)?]), caller, paging).await
    }

    /// getChannelVideos(channelSlug): the channel's last 6 videos.
    pub async fn channel_videos(&self, caller: &CallContext, slug: &str) -> Result<Vec<api::Video>, UpstreamError> {
        Ok(self
            .get::<_, api::Videos>(
                &routes::LATEST_CHANNEL_VIDEOS.path_with(&[&slug_of("channel", slug)?]),
                caller,
                &[(); 0],
            )
            .await?
            .videos)
    }

    pub async fn channel_pack(
        &self,
        caller: &CallContext,
        slug: &str,
        pack_slug: &str,
        paging: &Paging,
    ) -> Result<api::ChannelPackDetail, UpstreamError> {
        self.get(
            &routes::CHANNEL_PACK.path_with(&[&slug_of("channel", slug)?, &slug_of("channel pack", pack_slug)?]),
            caller,
            paging,
        )
        .await
    }

    pub async fn all_channel_videos(
        &self,
        caller: &CallContext,
        paging: &Paging,
    ) -> Result<api::VideoPage, UpstreamError> {
        self.get(&routes::ALL_CHANNEL_VIDEOS, caller, paging).await
    }

    pub async fn channels_by(
        &self,
        caller: &CallContext,
        ids: &[Uuid],
        slugs: &[String],
    ) -> Result<Vec<api::Channel>, UpstreamError> {
        let body = api::IdsRequest { ids: ids.to_vec(), slugs: slugs.to_vec() };
        Ok(self.read::<_, api::Channels>(&routes::CHANNELS_BATCH, caller, &body).await?.channels)
    }

    // ----- search, sister sites, recommendations -----

    pub async fn search(
        &self,
        caller: &CallContext,
        q: &str,
        paging: &Paging,
    ) -> Result<api::SearchResult, UpstreamError> {
        let mut query = vec![("q", q.to_owned())];
        query.extend(paging.page.map(|p| ("page", p.to_string())));
        query.extend(paging.size.map(|s| ("size", s.to_string())));
        self.get(&routes::SEARCH, caller, &query).await
    }

    /// `/sites/{brand}/videos`.
    pub async fn sister_videos(
        &self,
        caller: &CallContext,
        brand: &str,
        paging: &Paging,
    ) -> Result<api::VideoPage, UpstreamError> {
        self.get(&routes::SISTER_SITE.path_with(&[&brand, &"videos"]), caller, paging).await
    }

    /// `/sites/{brand}/performers`.
    pub async fn sister_performers(
        &self,
        caller: &CallContext,
        brand: &str,
        paging: &Paging,
    ) -> Result<api::PerformerPage, UpstreamError> {
        self.get(&routes::SISTER_SITE.path_with(&[&brand, &"performers"]), caller, paging).await
    }

    /// recommendations(site, videoId, limit) for a shelf, plain or with cross-navigation.
    /// A shelf's videos. `sisters`: the brand's sister sites, whose videos alone the
    /// cross-navigation shelf (VIDEO_PAGE_RECOMMENDATIONS_WITH_CROSSNAVIGATION) shows (none: any other brand's).
    pub async fn recommendations(
        &self,
        caller: &CallContext,
        shelf: &str,
        video_id: Option<Uuid>,
        limit: i64,
        cross_navigation: bool,
        sisters: &[String],
    ) -> Result<api::Recommendations, UpstreamError> {
        let mut query = vec![
            ("shelf", shelf.to_owned()),
            ("limit", limit.to_string()),
            ("crossNavigation", cross_navigation.to_string()),
        ];
        query.extend(video_id.map(|v| ("videoId", v.to_string())));
        if !sisters.is_empty() {
            query.push(("sisters", sisters.join(",")));
        }
        self.get(&routes::RECOMMENDATIONS, caller, &query).await
    }

    pub async fn track_recommendation(
        &self,
        caller: &CallContext,
        body: &api::RecommendationTrackingRequest,
    ) -> Result<api::Tracked, UpstreamError> {
        self.post(&routes::TRACK_RECOMMENDATION, caller, body).await
    }

    /// `action`: view, rating, add-bookmark, delete-bookmark, delete-rating, purchase.
    pub async fn track_reel(
        &self,
        caller: &CallContext,
        action: &str,
        body: &api::ReelTrackingRequest,
    ) -> Result<api::Tracked, UpstreamError> {
        self.post(&routes::TRACK_REEL.path_with(&[&action]), caller, body).await
    }

    // ----- reels, showcases, angels, wall -----

    pub async fn reels(&self, caller: &CallContext, paging: &Paging) -> Result<api::ReelPage, UpstreamError> {
        self.get(&routes::REELS, caller, paging).await
    }

    pub async fn reel(&self, caller: &CallContext, id: Uuid) -> Result<api::Reel, UpstreamError> {
        self.get(&routes::REEL.path_with(&[&id]), caller, &[(); 0]).await
    }

    pub async fn showcases(&self, caller: &CallContext) -> Result<api::Showcases, UpstreamError> {
        self.get(&routes::SHOWCASES, caller, &[(); 0]).await
    }

    pub async fn showcase(&self, caller: &CallContext, slug: &str) -> Result<api::Showcase, UpstreamError> {
        self.get(&routes::SHOWCASE.path_with(&[&slug_of("showcase", slug)?]), caller, &[(); 0]).await
    }

    /// What the brand's sitemaps list (`caller`'s brand), and the generation it was read under.
    pub async fn sitemap(&self, caller: &CallContext) -> Result<api::SitemapManifest, UpstreamError> {
        self.get(&routes::SITEMAP, caller, &[(); 0]).await
    }

    /// Up to `limit` (at most [`api::SITEMAP_PAGE_ENTRIES`]) entries of `kind` from `offset`,
    /// oldest published first.
    pub async fn sitemap_entries(
        &self,
        caller: &CallContext,
        kind: api::SitemapKind,
        offset: u64,
        limit: u64,
    ) -> Result<api::SitemapPage, UpstreamError> {
        let query = [("offset", offset), ("limit", limit)];
        self.get(&routes::SITEMAP_ENTRIES.path_with(&[&kind.as_str()]), caller, &query).await
    }

    pub async fn angels(&self, caller: &CallContext) -> Result<api::Angels, UpstreamError> {
        self.get(&routes::ANGELS, caller, &[(); 0]).await
    }

    pub async fn angel(&self, caller: &CallContext, slug: &str) -> Result<api::Angel, UpstreamError> {
        self.get(&routes::ANGEL.path_with(&[&slug_of("angel", slug)?]), caller, &[(); 0]).await
    }

    pub async fn wall(&self, caller: &CallContext) -> Result<api::Wall, UpstreamError> {
        self.get(&routes::WALL, caller, &[(); 0]).await
    }

    // ----- community -----

    pub async fn comments(
        &self,
        caller: &CallContext,
        video_id: Uuid,
        sort: &str,
        after: Option<&str>,
        size: i64,
    ) -> Result<api::CommentPage, UpstreamError> {
        let mut query = vec![("sort", sort.to_owned()), ("size", size.to_string())];
        query.extend(after.map(|a| ("after", a.to_owned())));
        self.get(&routes::COMMENTS.path_with(&[&video_id]), caller, &query).await
    }

    /// One comment, wherever it is.
    pub async fn comment(&self, caller: &CallContext, comment_id: Uuid) -> Result<api::Comment, UpstreamError> {
        Ok(self
            .get::<_, api::CommentAnswer>(&routes::COMMENT.path_with(&[&comment_id]), caller, &[(); 0])
            .await?
            .comment)
    }

    pub async fn replies(
        &self,
        caller: &CallContext,
        comment_id: Uuid,
        after: Option<&str>,
        size: i64,
    ) -> Result<api::CommentPage, UpstreamError> {
        let mut query = vec![("size", size.to_string())];
        query.extend(after.map(|a| ("after", a.to_owned())));
        self.get(&routes::REPLIES.path_with(&[&comment_id]), caller, &query).await
    }

    pub async fn add_comment(
        &self,
        caller: &CallContext,
        video_id: Uuid,
        text: &str,
    ) -> Result<api::Comment, UpstreamError> {
        let body = api::AddCommentRequest { text: text.to_owned() };
        Ok(self
            .post::<_, api::CommentAnswer>(&routes::ADD_COMMENT.path_with(&[&video_id]), caller, &body)
            .await?
            .comment)
    }

    pub async fn reply(
        &self,
        caller: &CallContext,
        comment_id: Uuid,
        text: &str,
    ) -> Result<api::Comment, UpstreamError> {
        let body = api::AddCommentRequest { text: text.to_owned() };
        Ok(self.post::<_, api::CommentAnswer>(&routes::REPLY.path_with(&[&comment_id]), caller, &body).await?.comment)
    }

    /// `vote`: like or dislike.
    pub async fn vote(
        &self,
        caller: &CallContext,
        comment_id: Uuid,
        vote: &str,
    ) -> Result<api::Comment, UpstreamError> {
        let body = api::VoteRequest { vote: vote.to_owned() };
        Ok(self.post::<_, api::CommentAnswer>(&routes::VOTE.path_with(&[&comment_id]), caller, &body).await?.comment)
    }

    pub async fn pin(&self, caller: &CallContext, comment_id: Uuid) -> Result<api::Comment, UpstreamError> {
        Ok(self.post::<_, api::CommentAnswer>(&routes::PIN.path_with(&[&comment_id]), caller, &()).await?.comment)
    }

    pub async fn unpin(&self, caller: &CallContext, comment_id: Uuid) -> Result<api::Comment, UpstreamError> {
        Ok(self.post::<_, api::CommentAnswer>(&routes::UNPIN.path_with(&[&comment_id]), caller, &()).await?.comment)
    }

    pub async fn remove_comment(&self, caller: &CallContext, comment_id: Uuid) -> Result<(), UpstreamError> {
        self.upstream
            .call::<(), Option<serde_json::Value>>(
                Method::DELETE,
                &routes::REMOVE_COMMENT.path_with(&[&comment_id]),
                None,
                caller,
            )
            .await
            .map(|_| ())
    }

    pub async fn rate(
        &self,
        caller: &CallContext,
        video_id: Uuid,
        rating: i64,
        recomm_id: Option<String>,
    ) -> Result<api::ExpertReviewAnswer, UpstreamError> {
        self.post(&routes::RATE_VIDEO.path_with(&[&video_id]), caller, &api::RateRequest { rating, recomm_id }).await
    }

    pub async fn expert_review(
        &self,
        caller: &CallContext,
        video_id: Uuid,
    ) -> Result<api::ExpertReviewAnswer, UpstreamError> {
        self.get(&routes::EXPERT_REVIEW.path_with(&[&video_id]), caller, &[(); 0]).await
    }

    /// updateExpertReview(videoId, slug, type, rating, recommId).
    pub async fn update_expert_review(
        &self,
        caller: &CallContext,
        request: &api::ExpertReviewRequest,
    ) -> Result<api::ExpertReviewAnswer, UpstreamError> {
        self.post(&routes::UPDATE_EXPERT_REVIEW, caller, request).await
    }

    pub async fn add_favourite(
        &self,
        caller: &CallContext,
        kind: &str,
        id: Uuid,
    ) -> Result<api::FavouriteAnswer, UpstreamError> {
        self.post(&routes::ADD_FAVOURITE, caller, &api::FavouriteRequest { kind: kind.to_owned(), id }).await
    }

    pub async fn remove_favourite(
        &self,
        caller: &CallContext,
        kind: &str,
        id: Uuid,
    ) -> Result<api::FavouriteAnswer, UpstreamError> {
        self.post(&routes::REMOVE_FAVOURITE, caller, &api::FavouriteRequest { kind: kind.to_owned(), id }).await
    }

    pub async fn favourites(
        &self,
        caller: &CallContext,
        kind: &str,
        paging: &Paging,
    ) -> Result<api::FavouritePage, UpstreamError> {
        let mut query = vec![("kind", kind.to_owned())];
        query.extend(paging.page.map(|p| ("page", p.to_string())));
        query.extend(paging.size.map(|s| ("size", s.to_string())));
        self.get(&routes::FAVOURITES, caller, &query).await
    }

    /// A batch (up to 100) of the member's favourite ids, most recent first.
    pub async fn favourite_ids(
        &self,
        caller: &CallContext,
        kind: &str,
        page: i64,
    ) -> Result<api::FavouriteIds, UpstreamError> {
        self.get(&routes::FAVOURITE_IDS, caller, &[("kind", kind.to_owned()), ("page", page.to_string())]).await
    }

    pub async fn favourites_among(
        &self,
        caller: &CallContext,
        kind: &str,
        ids: &[Uuid],
    ) -> Result<api::FavouriteIds, UpstreamError> {
        self.read(&routes::CHECK_FAVOURITES, caller, &serde_json::json!({ "kind": kind, "ids": ids })).await
    }
}

#[cfg(test)]
mod slug_tests {
    use super::slug_of;

    #[test]
    fn a_slug_that_breaks_the_rule_is_the_catalogs_not_found_without_a_call() {
        assert_eq!(slug_of("video", "example-scene").unwrap(), "example-scene");
        for bad in ["", "../admin/content", "a/b", "A"] {
            let err = slug_of("video", bad).unwrap_err();
            assert_eq!((err.code(), err.status()), ("NOT_FOUND", Some(404)), "{bad:?}");
            assert_eq!(err.to_string(), "catalog refused: NOT_FOUND: video not found");
        }
    }
}
