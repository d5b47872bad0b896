//! The typed client the gateway calls the catalog with: one method per internal endpoint,
//! forwarding the member's bearer token and the tenant, retrying idempotent reads on
//! connection errors and 5xx answers.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use uuid::Uuid;

use crate::api;

/// Who a call is made for: the tenant (brand key) and the member's access token, if any.
#[derive(Clone, Debug, Default)]
pub struct Caller {
    pub tenant: Option<String>,
    pub bearer: Option<String>,
}

impl Caller {
    pub fn tenant(tenant: impl Into<String>) -> Self {
        Caller { tenant: Some(tenant.into()), bearer: None }
    }

    pub fn with_token(mut self, token: impl Into<String>) -> Self {
        self.bearer = Some(token.into());
        self
    }
}

/// A refusal or failure, with the service's `{code, message}` when it gave one.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("{status} {code}: {message}")]
    Api { status: StatusCode, code: String, message: String },
    #[error("catalog unreachable: {0}")]
    Transport(#[from] reqwest::Error),
}

impl ClientError {
    pub fn code(&self) -> Option<&str> {
        match self {
            ClientError::Api { code, .. } => Some(code),
            ClientError::Transport(_) => None,
        }
    }

    pub fn status(&self) -> Option<StatusCode> {
        match self {
            ClientError::Api { status, .. } => Some(*status),
            ClientError::Transport(e) => e.status(),
        }
    }
}

#[derive(Deserialize)]
struct ErrorBody {
    code: String,
    message: String,
}

#[derive(Clone, Debug)]
pub struct CatalogClient {
    base: String,
    http: reqwest::Client,
}

/// A page request: `page` from 1, `size` up to 100.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Paging {
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
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(2))
            .timeout(Duration::from_secs(10))
            .build()
            .expect("http client");
        CatalogClient { base: base.into().trim_end_matches('/').to_owned(), http }
    }

    async fn call<B: Serialize + ?Sized, Q: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        caller: &Caller,
        query: &Q,
        body: Option<&B>,
    ) -> Result<T, ClientError> {
        let idempotent = method == Method::GET;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut request = self.http.request(method.clone(), format!("{}{path}", self.base)).query(query);
            if let Some(tenant) = &caller.tenant {
                request = request.header(runtime::auth::TENANT_HEADER, tenant);
            }
            request = runtime::client::with_caller(request, caller.bearer.as_deref(), "catalog");
            if let Some(body) = body {
                request = request.json(body);
            }
            let retry = idempotent && attempt < 3;
            match request.send().await {
                Err(e) if retry && (e.is_connect() || e.is_timeout()) => {}
                Err(e) => return Err(e.into()),
                Ok(response) if response.status().is_server_error() && retry => {}
                Ok(response) if response.status().is_success() => {
                    if response.status() == StatusCode::NO_CONTENT {
                        return serde_json::from_value(serde_json::Value::Null).map_err(|_| ClientError::Api {
                            status: StatusCode::NO_CONTENT,
                            code: "NO_CONTENT".into(),
                            message: "no body".into(),
                        });
                    }
                    return Ok(response.json().await?);
                }
                Ok(response) => {
                    let status = response.status();
                    let body: Option<ErrorBody> = response.json().await.ok();
                    let (code, message) =
                        body.map(|b| (b.code, b.message)).unwrap_or_else(|| ("HTTP".into(), status.to_string()));
                    return Err(ClientError::Api { status, code, message });
                }
            }
            tokio::time::sleep(Duration::from_millis(50 * attempt as u64)).await;
        }
    }

    async fn get<Q: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        path: &str,
        caller: &Caller,
        query: &Q,
    ) -> Result<T, ClientError> {
        self.call::<(), Q, T>(Method::GET, path, caller, query, None).await
    }

    async fn post<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        path: &str,
        caller: &Caller,
        body: &B,
    ) -> Result<T, ClientError> {
        self.call::<B, [(); 0], T>(Method::POST, path, caller, &[], Some(body)).await
    }

    // ----- videos -----

    pub async fn videos(&self, caller: &Caller, params: &VideoListParams) -> Result<api::VideoPage, ClientError> {
        self.get("/internal/videos", caller, params).await
    }

    pub async fn top_rated(&self, caller: &Caller, paging: &Paging) -> Result<api::VideoPage, ClientError> {
        self.get("/internal/videos/top-rated", caller, paging).await
    }

    /// getAwardedVideos(skip or page, first, site).
    pub async fn awarded_videos(
        &self,
        caller: &Caller,
        params: &AwardedParams,
    ) -> Result<api::AwardedVideos, ClientError> {
        self.get("/internal/videos/awarded", caller, params).await
    }

    /// Videos by uuid (DataLoader); unknown ids are left out.
    pub async fn videos_by_ids(&self, caller: &Caller, ids: &[Uuid]) -> Result<Vec<api::Video>, ClientError> {
        let body = api::IdsRequest { ids: ids.to_vec(), slugs: vec![] };
        Ok(self.post::<_, api::Videos>("/internal/videos/batch", caller, &body).await?.videos)
    }

    /// getVideo(videoSlug, site, relatedCount).
    pub async fn video(
        &self,
        caller: &Caller,
        slug: &str,
        related_count: i64,
        cross_navigation: bool,
    ) -> Result<api::VideoDetail, ClientError> {
        let query = [("relatedCount", related_count.to_string()), ("crossNavigation", cross_navigation.to_string())];
        self.get(&format!("/internal/videos/by-slug/{slug}"), caller, &query).await
    }

    /// getPictureSet(videoSlug, site).
    pub async fn picture_set(&self, caller: &Caller, slug: &str) -> Result<api::PictureSet, ClientError> {
        self.get(&format!("/internal/videos/by-slug/{slug}/picture-set"), caller, &[(); 0]).await
    }

    // ----- performers, categories, filters -----

    pub async fn performers(
        &self,
        caller: &Caller,
        params: &PerformerListParams,
    ) -> Result<api::PerformerPage, ClientError> {
        self.get("/internal/performers", caller, params).await
    }

    pub async fn performer(
        &self,
        caller: &Caller,
        slug: &str,
        paging: &Paging,
    ) -> Result<api::PerformerDetail, ClientError> {
        self.get(&format!("/internal/performers/{slug}"), caller, paging).await
    }

    pub async fn performers_by(
        &self,
        caller: &Caller,
        ids: &[Uuid],
        slugs: &[String],
    ) -> Result<Vec<api::Performer>, ClientError> {
        let body = api::IdsRequest { ids: ids.to_vec(), slugs: slugs.to_vec() };
        Ok(self.post::<_, Performers>("/internal/performers/batch", caller, &body).await?.performers)
    }

    pub async fn categories(&self, caller: &Caller) -> Result<api::Categories, ClientError> {
        self.get("/internal/categories", caller, &[(); 0]).await
    }

    /// getAllFilters(site, filter, minScenes).
    pub async fn all_filters(
        &self,
        caller: &Caller,
        filter: Option<&str>,
        min_scenes: Option<i64>,
    ) -> Result<api::Filters, ClientError> {
        let mut query: Vec<(&str, String)> = Vec::new();
        if let Some(f) = filter {
            query.push(("filter", f.to_owned()));
        }
        if let Some(m) = min_scenes {
            query.push(("minScenes", m.to_string()));
        }
        self.get("/internal/filters", caller, &query).await
    }

    // ----- channels -----

    pub async fn channels(&self, caller: &Caller, paging: &Paging) -> Result<api::ChannelPage, ClientError> {
        self.get("/internal/channels", caller, paging).await
    }

    pub async fn channel(&self, caller: &Caller, slug: &str) -> Result<api::Channel, ClientError> {
        self.get(&format!("/internal/channels/{slug}"), caller, &[(); 0]).await
    }

    pub async fn channel_video_page(
        &self,
        caller: &Caller,
        slug: &str,
        paging: &Paging,
    ) -> Result<api::VideoPage, ClientError> {
        self.get(&format!("/internal/channels/{slug}/videos"), caller, paging).await
    }

    /// getChannelVideos(channelSlug): the channel's last 6 videos.
    pub async fn channel_videos(&self, caller: &Caller, slug: &str) -> Result<Vec<api::Video>, ClientError> {
        Ok(self
            .get::<_, api::Videos>(&format!("/internal/channels/{slug}/latest-videos"), caller, &[(); 0])
            .await?
            .videos)
    }

    pub async fn channel_pack(
        &self,
        caller: &Caller,
        slug: &str,
        pack_slug: &str,
        paging: &Paging,
    ) -> Result<api::ChannelPackDetail, ClientError> {
        self.get(&format!("/internal/channels/{slug}/packs/{pack_slug}"), caller, paging).await
    }

    pub async fn all_channel_videos(&self, caller: &Caller, paging: &Paging) -> Result<api::VideoPage, ClientError> {
        self.get("/internal/channels/all-videos", caller, paging).await
    }

    pub async fn channels_by(
        &self,
        caller: &Caller,
        ids: &[Uuid],
        slugs: &[String],
    ) -> Result<Vec<api::Channel>, ClientError> {
        let body = api::IdsRequest { ids: ids.to_vec(), slugs: slugs.to_vec() };
        Ok(self.post::<_, api::Channels>("/internal/channels/batch", caller, &body).await?.channels)
    }

    // ----- search, sister sites, recommendations -----

    pub async fn search(&self, caller: &Caller, q: &str, paging: &Paging) -> Result<api::SearchResult, ClientError> {
        let mut query = vec![("q", q.to_owned())];
        query.extend(paging.page.map(|p| ("page", p.to_string())));
        query.extend(paging.size.map(|s| ("size", s.to_string())));
        self.get("/internal/search", caller, &query).await
    }

    /// `/sites/{brand}/videos`.
    pub async fn sister_videos(
        &self,
        caller: &Caller,
        brand: &str,
        paging: &Paging,
    ) -> Result<api::VideoPage, ClientError> {
        self.get(&format!("/internal/sites/{brand}/videos"), caller, paging).await
    }

    /// `/sites/{brand}/performers`.
    pub async fn sister_performers(
        &self,
        caller: &Caller,
        brand: &str,
        paging: &Paging,
    ) -> Result<api::PerformerPage, ClientError> {
        self.get(&format!("/internal/sites/{brand}/performers"), caller, paging).await
    }

    /// recommendations(site, videoId, limit) for a shelf, plain or with cross-navigation.
    pub async fn recommendations(
        &self,
        caller: &Caller,
        shelf: &str,
        video_id: Option<Uuid>,
        limit: i64,
        cross_navigation: bool,
    ) -> Result<api::Recommendations, ClientError> {
        let mut query = vec![
            ("shelf", shelf.to_owned()),
            ("limit", limit.to_string()),
            ("crossNavigation", cross_navigation.to_string()),
        ];
        query.extend(video_id.map(|v| ("videoId", v.to_string())));
        self.get("/internal/recommendations", caller, &query).await
    }

    pub async fn track_recommendation(
        &self,
        caller: &Caller,
        body: &api::RecommendationTrackingRequest,
    ) -> Result<api::Tracked, ClientError> {
        self.post("/internal/recommendations-tracking", caller, body).await
    }

    /// `action`: view, rating, add-bookmark, delete-bookmark, delete-rating, purchase.
    pub async fn track_reel(
        &self,
        caller: &Caller,
        action: &str,
        body: &api::ReelTrackingRequest,
    ) -> Result<api::Tracked, ClientError> {
        self.post(&format!("/internal/rest/reel/{action}"), caller, body).await
    }

    // ----- reels, showcases, angels, wall -----

    pub async fn reels(&self, caller: &Caller, paging: &Paging) -> Result<api::ReelPage, ClientError> {
        self.get("/internal/reels", caller, paging).await
    }

    pub async fn reel(&self, caller: &Caller, id: Uuid) -> Result<api::Reel, ClientError> {
        self.get(&format!("/internal/reels/{id}"), caller, &[(); 0]).await
    }

    pub async fn showcases(&self, caller: &Caller) -> Result<api::Showcases, ClientError> {
        self.get("/internal/showcases", caller, &[(); 0]).await
    }

    pub async fn showcase(&self, caller: &Caller, slug: &str) -> Result<api::Showcase, ClientError> {
        self.get(&format!("/internal/showcases/{slug}"), caller, &[(); 0]).await
    }

    pub async fn angels(&self, caller: &Caller) -> Result<api::Angels, ClientError> {
        self.get("/internal/angels", caller, &[(); 0]).await
    }

    pub async fn angel(&self, caller: &Caller, slug: &str) -> Result<api::Angel, ClientError> {
        self.get(&format!("/internal/angels/{slug}"), caller, &[(); 0]).await
    }

    pub async fn wall(&self, caller: &Caller) -> Result<api::Wall, ClientError> {
        self.get("/internal/wall", caller, &[(); 0]).await
    }

    // ----- community -----

    pub async fn comments(
        &self,
        caller: &Caller,
        video_id: Uuid,
        sort: &str,
        after: Option<&str>,
        size: i64,
    ) -> Result<api::CommentPage, ClientError> {
        let mut query = vec![("sort", sort.to_owned()), ("size", size.to_string())];
        query.extend(after.map(|a| ("after", a.to_owned())));
        self.get(&format!("/internal/videos/{video_id}/comments"), caller, &query).await
    }

    pub async fn replies(
        &self,
        caller: &Caller,
        comment_id: Uuid,
        after: Option<&str>,
        size: i64,
    ) -> Result<api::CommentPage, ClientError> {
        let mut query = vec![("size", size.to_string())];
        query.extend(after.map(|a| ("after", a.to_owned())));
        self.get(&format!("/internal/comments/{comment_id}/replies"), caller, &query).await
    }

    pub async fn add_comment(&self, caller: &Caller, video_id: Uuid, text: &str) -> Result<api::Comment, ClientError> {
        let body = api::AddCommentRequest { text: text.to_owned() };
        Ok(self
            .post::<_, api::CommentAnswer>(&format!("/internal/videos/{video_id}/comments"), caller, &body)
            .await?
            .comment)
    }

    pub async fn reply(&self, caller: &Caller, comment_id: Uuid, text: &str) -> Result<api::Comment, ClientError> {
        let body = api::AddCommentRequest { text: text.to_owned() };
        Ok(self
            .post::<_, api::CommentAnswer>(&format!("/internal/comments/{comment_id}/replies"), caller, &body)
            .await?
            .comment)
    }

    /// `vote`: like or dislike.
    pub async fn vote(&self, caller: &Caller, comment_id: Uuid, vote: &str) -> Result<api::Comment, ClientError> {
        let body = api::VoteRequest { vote: vote.to_owned() };
        Ok(self
            .post::<_, api::CommentAnswer>(&format!("/internal/comments/{comment_id}/votes"), caller, &body)
            .await?
            .comment)
    }

    pub async fn pin(&self, caller: &Caller, comment_id: Uuid) -> Result<api::Comment, ClientError> {
        Ok(self
            .post::<_, api::CommentAnswer>(&format!("/internal/comments/{comment_id}/pin"), caller, &())
            .await?
            .comment)
    }

    pub async fn unpin(&self, caller: &Caller, comment_id: Uuid) -> Result<api::Comment, ClientError> {
        Ok(self
            .post::<_, api::CommentAnswer>(&format!("/internal/comments/{comment_id}/unpin"), caller, &())
            .await?
            .comment)
    }

    pub async fn remove_comment(&self, caller: &Caller, comment_id: Uuid) -> Result<(), ClientError> {
        self.call::<(), [(); 0], Option<serde_json::Value>>(
            Method::DELETE,
            &format!("/internal/comments/{comment_id}"),
            caller,
            &[],
            None,
        )
        .await
        .map(|_| ())
    }

    pub async fn rate(
        &self,
        caller: &Caller,
        video_id: Uuid,
        rating: i64,
        recomm_id: Option<String>,
    ) -> Result<api::ExpertReviewAnswer, ClientError> {
        self.post(&format!("/internal/videos/{video_id}/rating"), caller, &api::RateRequest { rating, recomm_id }).await
    }

    pub async fn expert_review(&self, caller: &Caller, video_id: Uuid) -> Result<api::ExpertReviewAnswer, ClientError> {
        self.get(&format!("/internal/videos/{video_id}/expert-review"), caller, &[(); 0]).await
    }

    /// updateExpertReview(videoId, slug, type, rating, recommId).
    pub async fn update_expert_review(
        &self,
        caller: &Caller,
        request: &api::ExpertReviewRequest,
    ) -> Result<api::ExpertReviewAnswer, ClientError> {
        self.post("/internal/expert-review", caller, request).await
    }

    pub async fn add_favourite(
        &self,
        caller: &Caller,
        kind: &str,
        id: Uuid,
    ) -> Result<api::FavouriteAnswer, ClientError> {
        self.post("/internal/favourites", caller, &api::FavouriteRequest { kind: kind.to_owned(), id }).await
    }

    pub async fn remove_favourite(
        &self,
        caller: &Caller,
        kind: &str,
        id: Uuid,
    ) -> Result<api::FavouriteAnswer, ClientError> {
        self.post("/internal/favourites/remove", caller, &api::FavouriteRequest { kind: kind.to_owned(), id }).await
    }

    pub async fn favourites(
        &self,
        caller: &Caller,
        kind: &str,
        paging: &Paging,
    ) -> Result<api::FavouritePage, ClientError> {
        let mut query = vec![("kind", kind.to_owned())];
        query.extend(paging.page.map(|p| ("page", p.to_string())));
        query.extend(paging.size.map(|s| ("size", s.to_string())));
        self.get("/internal/favourites", caller, &query).await
    }

    /// A batch (up to 100) of the member's favourite ids, most recent first.
    pub async fn favourite_ids(
        &self,
        caller: &Caller,
        kind: &str,
        page: i64,
    ) -> Result<api::FavouriteIds, ClientError> {
        self.get("/internal/favourites/ids", caller, &[("kind", kind.to_owned()), ("page", page.to_string())]).await
    }

    pub async fn favourites_among(
        &self,
        caller: &Caller,
        kind: &str,
        ids: &[Uuid],
    ) -> Result<api::FavouriteIds, ClientError> {
        self.post("/internal/favourites/check", caller, &serde_json::json!({ "kind": kind, "ids": ids })).await
    }
}
