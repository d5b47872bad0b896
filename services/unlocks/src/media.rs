//! Video tokens, downloads against their quotas, and the media endpoint that serves a file
//! only for a valid token.

use access::abilities::action;
use axum::body::Body;
use axum::extract::{Path, Query, Request, State as AxumState};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use proto_events::catalog::VideoQuality;
use proto_events::EventMeta;
use serde::Deserialize;
use tower::ServiceExt;
use uuid::Uuid;

use crate::api::{
    DownloadQuotasResponse, DownloadResolutionsResponse, DownloadResponse, TokenResponse, TokenView, VideoAccess,
    VideoTokens,
};
use crate::domain::Command;
use crate::entitlement::{self, Access, Asker};
use crate::error::ApiError;
use crate::queries::{self, CatalogVideo};
use crate::quota::{self, DownloadQuotas, DownloadResolution};
use crate::token::{Ground, MediaGrant, Purpose};
use crate::State;

/// The length of every HLS segment the media directory holds (the demo media's are six
/// seconds), stated in the playlist.
pub const HLS_SEGMENT_SECONDS: u32 = 6;

/// Whether the asker may watch each of `videos` now.
pub async fn access_of(state: &State, asker: &Asker, videos: &[CatalogVideo]) -> Result<Vec<VideoAccess>, ApiError> {
    let standing = entitlement::standing(state, asker).await?;
    Ok(videos
        .iter()
        .map(|video| {
            let verdict = entitlement::verdict(&standing, video, action::PLAY);
            VideoAccess {
                video_id: video.video_id,
                denied: verdict.is_err(),
                access: verdict.ok(),
                denied_reason: verdict.err(),
                unlocked: standing.holdings.video(video.video_id).is_some(),
                channel_pack_id: video.channel_pack_id,
                is_free_limited_trial: video.is_free_limited_trial,
                free_for_your_trial: entitlement::is_free_trial_video_for(&standing, video),
            }
        })
        .collect())
}

/// What a token for `video` rests on, if the asker may `act` on it (play, download).
async fn entitled(state: &State, asker: &Asker, video: &CatalogVideo, act: &str) -> Result<Ground, ApiError> {
    let standing = entitlement::standing(state, asker).await?;
    let access = entitlement::verdict(&standing, video, act).map_err(ApiError::AccessDenied)?;
    Ok(match access {
        Access::Credits => Ground::Credits,
        Access::ChannelPack => Ground::ChannelPack(video.channel_pack_id.expect("a pack opened it")),
        Access::Subscription | Access::FreeLimitedTrial => {
            Ground::Subscriptions(entitlement::grounds(&standing, video, access))
        }
    })
}

fn token_view(state: &State, grant: &MediaGrant) -> TokenView {
    let token = state.signer.sign(grant);
    let cdn = state.config.media_base_url.clone();
    let url = format!("{cdn}/{}/{}?token={token}", grant.video_id, quota::spec_of(grant.quality).key);
    TokenView { token, cdn, url }
}

fn grant(
    state: &State,
    user_id: Uuid,
    video_id: Uuid,
    quality: VideoQuality,
    purpose: Purpose,
    ground: &Ground,
) -> MediaGrant {
    let ttl = match purpose {
        Purpose::Play => state.config.play_token_ttl,
        Purpose::Download => state.config.download_token_ttl,
    };
    let issued = state.now().timestamp();
    MediaGrant {
        user_id,
        video_id,
        quality,
        purpose,
        issued,
        expires: issued + ttl.as_secs() as i64,
        ground: ground.clone(),
    }
}

fn put(tokens: &mut VideoTokens, quality: VideoQuality, view: TokenView) {
    let slot = match quality {
        VideoQuality::P270 => &mut tokens.p270,
        VideoQuality::P360 => &mut tokens.p360,
        VideoQuality::P480 => &mut tokens.p480,
        VideoQuality::P480l => &mut tokens.p480l,
        VideoQuality::P720 => &mut tokens.p720,
        VideoQuality::P1080 => &mut tokens.p1080,
        VideoQuality::P2160 => &mut tokens.p2160,
        VideoQuality::Hls => &mut tokens.hls,
    };
    *slot = Some(view);
}

/// getToken: playback tokens for every quality of the video, or (device `download`) one
/// download counted and download tokens for every downloadable size.
pub async fn video_tokens(
    state: &State,
    asker: &Asker,
    video_id: Uuid,
    device: &str,
    meta: &EventMeta,
) -> Result<TokenResponse, ApiError> {
    if device.is_empty() || device.len() > 32 {
        return Err(ApiError::Invalid("device must have 1 to 32 characters".into()));
    }
    let (user_id, tenant) = (asker.user_id, Some(asker.tenant.as_str()));
    let video = queries::video(&state.pool, video_id).await?.ok_or_else(ApiError::video_not_found)?;
    let act = if device == "download" { action::DOWNLOAD } else { action::PLAY };
    let ground = entitled(state, asker, &video, act).await?;
    let mut tokens = VideoTokens::default();
    if device == "download" {
        let best = video.qualities.iter().copied().filter(|q| quota::is_downloadable(*q)).max();
        let Some(best) = best else { return Err(ApiError::Invalid("the video has no downloadable size".into())) };
        let (_, quotas) = count_download(state, user_id, &video, best, tenant, meta).await?;
        for q in video.qualities.iter().copied().filter(|q| quota::is_downloadable(*q)) {
            put(&mut tokens, q, token_view(state, &grant(state, user_id, video_id, q, Purpose::Download, &ground)));
        }
        return Ok(TokenResponse { tokens, download_quotas: Some(quotas) });
    }
    for q in &video.qualities {
        put(&mut tokens, *q, token_view(state, &grant(state, user_id, video_id, *q, Purpose::Play, &ground)));
    }
    Ok(TokenResponse { tokens, download_quotas: None })
}

fn bucket_rule(
    state: &State,
    video: &CatalogVideo,
    tenant: Option<&str>,
) -> (proto_events::unlocks::DownloadQuotaBucket, quota::QuotaRule) {
    let bucket = quota::bucket_of(&video.site, video.channel_category);
    let rule = state.config.quotas.rule(&bucket, tenant);
    (bucket, rule)
}

/// Counts one download of `video` at `quality` against its bucket, under the user's lock.
async fn count_download(
    state: &State,
    user_id: Uuid,
    video: &CatalogVideo,
    quality: VideoQuality,
    tenant: Option<&str>,
    meta: &EventMeta,
) -> Result<(Uuid, DownloadQuotas), ApiError> {
    let (bucket, rule) = bucket_rule(state, video, tenant);
    let download_id = Uuid::now_v7();
    let now = state.now();
    let command = Command::GrantDownload {
        download_id,
        video_id: video.video_id,
        resolution: quality,
        bucket: bucket.clone(),
        rule,
        now,
    };
    let outcome = state.book.submit(user_id, command, meta).await??;
    let key = quota::bucket_key(&bucket);
    let granted = outcome.state.downloads.get(&key).cloned().unwrap_or_default();
    Ok((download_id, quota::standing(rule, &bucket, &granted, now)))
}

/// The REST download: one size, counted against the quota, with its token.
pub async fn download(
    state: &State,
    asker: &Asker,
    video_id: Uuid,
    size: &str,
    meta: &EventMeta,
) -> Result<DownloadResponse, ApiError> {
    let (user_id, tenant) = (asker.user_id, Some(asker.tenant.as_str()));
    let quality = quota::quality_from_key(size)
        .filter(|q| quota::is_downloadable(*q))
        .ok_or_else(|| ApiError::Invalid(format!("size must be one of the download resolutions, got {size:?}")))?;
    let video = queries::video(&state.pool, video_id).await?.ok_or_else(ApiError::video_not_found)?;
    if !video.qualities.contains(&quality) {
        return Err(ApiError::Invalid(format!("the video has no {size} download")));
    }
    let ground = entitled(state, asker, &video, action::DOWNLOAD).await?;
    let (download_id, quotas) = count_download(state, user_id, &video, quality, tenant, meta).await?;
    let spec = quota::spec_of(quality);
    Ok(DownloadResponse {
        download_id,
        resolution: DownloadResolution {
            label: spec.label.into(),
            size: spec.key.into(),
            width: spec.width,
            res: spec.res.into(),
        },
        token: token_view(state, &grant(state, user_id, video_id, quality, Purpose::Download, &ground)),
        download_quotas: quotas,
    })
}

async fn standing_of(
    state: &State,
    user_id: Uuid,
    bucket: &proto_events::unlocks::DownloadQuotaBucket,
    rule: quota::QuotaRule,
    now: DateTime<Utc>,
) -> Result<DownloadQuotas, ApiError> {
    let granted =
        queries::downloads_since(&state.pool, user_id, &quota::bucket_key(bucket), quota::window_start(rule, now))
            .await?;
    Ok(quota::standing(rule, bucket, &granted, now))
}

/// The sizes a user who may download the video may take, and the quota they count in.
pub async fn download_resolutions(
    state: &State,
    asker: &Asker,
    video_id: Uuid,
) -> Result<DownloadResolutionsResponse, ApiError> {
    let (user_id, tenant) = (asker.user_id, Some(asker.tenant.as_str()));
    let video = queries::video(&state.pool, video_id).await?.ok_or_else(ApiError::video_not_found)?;
    entitled(state, asker, &video, action::DOWNLOAD).await?;
    let (bucket, rule) = bucket_rule(state, &video, tenant);
    Ok(DownloadResolutionsResponse {
        resolutions: quota::download_resolutions(&video.qualities),
        download_quotas: standing_of(state, user_id, &bucket, rule, state.now()).await?,
    })
}

pub async fn download_quotas(
    state: &State,
    user_id: Uuid,
    site: &str,
    tenant: Option<&str>,
) -> Result<DownloadQuotasResponse, ApiError> {
    let now = state.now();
    let site_bucket = quota::bucket_of(site, None);
    let channels = proto_events::unlocks::DownloadQuotaBucket::ChannelCategory {
        category: proto_events::catalog::ChannelCategory::Compilations,
    };
    let site_rule = state.config.quotas.rule(&site_bucket, tenant);
    let channels_rule = state.config.quotas.rule(&channels, tenant);
    Ok(DownloadQuotasResponse {
        site: standing_of(state, user_id, &site_bucket, site_rule, now).await?,
        channels: standing_of(state, user_id, &channels, channels_rule, now).await?,
    })
}

#[derive(Deserialize)]
pub struct MediaQuery {
    pub token: Option<String>,
}

fn forbidden(reason: &'static str) -> Response {
    let body = serde_json::json!({ "code": "FORBIDDEN", "message": reason });
    (StatusCode::FORBIDDEN, axum::Json(body)).into_response()
}

/// A video's own file of a quality, relative to the media directory:
/// `videos/<video id>/<quality>.mp4`. `paysite publish` names it to the operator who uploads it.
pub fn own_file(video_id: Uuid, quality: VideoQuality) -> std::path::PathBuf {
    own_dir(video_id).join(format!("{}.mp4", quota::spec_of(quality).key))
}

/// A video's own HLS segments' directory, relative to the media directory:
/// `videos/<video id>/hls/` (its `*.ts` files, played in name order).
pub fn own_hls_dir(video_id: Uuid) -> std::path::PathBuf {
    own_dir(video_id).join("hls")
}

fn own_dir(video_id: Uuid) -> std::path::PathBuf {
    std::path::Path::new("videos").join(video_id.to_string())
}

/// The file of a video at a quality: the video's own under `videos/<id>/`, else the demo clip.
pub fn media_file(dir: &std::path::Path, video_id: Uuid, quality: VideoQuality) -> Option<std::path::PathBuf> {
    let demo = dir.join("demo").join(format!("{}.mp4", quota::spec_of(quality).key));
    [dir.join(own_file(video_id, quality)), demo].into_iter().find(|p| p.is_file())
}

/// The HLS segments of a video: its own `videos/<id>/hls/*.ts`, else the demo stream's.
fn hls_dir(dir: &std::path::Path, video_id: Uuid) -> Option<(std::path::PathBuf, Vec<String>)> {
    [dir.join(own_hls_dir(video_id)), dir.join("demo").join("hls")].into_iter().find_map(|d| {
        let mut segments: Vec<String> = std::fs::read_dir(&d)
            .ok()?
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| is_segment_name(n))
            .collect();
        segments.sort();
        (!segments.is_empty()).then_some((d, segments))
    })
}

fn is_segment_name(name: &str) -> bool {
    name.len() <= 64
        && name.ends_with(".ts")
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.')
        && !name.starts_with('.')
}

fn not_found() -> Response {
    let body = serde_json::json!({ "code": "MEDIA_NOT_FOUND", "message": "the file is not there" });
    (StatusCode::NOT_FOUND, axum::Json(body)).into_response()
}

/// Checks a media request: its token for `video`/`quality`, that the request comes from the
/// token's user (the gateway forwards the session's access token), and that what opened the
/// video was not taken away since the token was issued (a subscription ended, a pack
/// forfeited): a revocation ends playback within seconds, not at the token's expiry.
async fn check(
    state: &State,
    video_id: &str,
    quality: &str,
    token: Option<&str>,
    headers: &HeaderMap,
) -> Result<(Uuid, VideoQuality, MediaGrant), Response> {
    let video_id = video_id.parse::<Uuid>().map_err(|_| forbidden("no such file"))?;
    let key = quality.trim_end_matches(".mp4").trim_end_matches(".m3u8");
    let quality = quota::quality_from_key(key).ok_or_else(|| forbidden("no such file"))?;
    let token = token.ok_or_else(|| forbidden("a media token is required"))?;
    let grant = state.signer.verify_for(token, video_id, quality, state.now().timestamp()).map_err(|e| {
        tracing::debug!(%video_id, error = %e, "media token refused");
        forbidden("the media token is not valid")
    })?;
    let bearer =
        headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "));
    let Some(bearer) = bearer else { return Err(forbidden("the media token belongs to a signed-in user")) };
    // The access token may have lapsed during playback (it lives minutes, a video longer):
    // it still names its user for as long as a play token lasts. A token verified before is
    // not verified again (its text verifies the same way each time).
    let grace = state.config.play_token_ttl.as_secs();
    let bearer = bearer.trim();
    let now = state.now().timestamp();
    let user = match state.media_checks.identity(bearer, now) {
        Some(user) => user,
        None => match state.verifier.verify_with_leeway(bearer, grace).await {
            Ok(claims) => {
                state.media_checks.remember_identity(bearer, claims.sub, claims.exp + grace as i64);
                claims.sub
            }
            Err(_) => return Err(forbidden("the media token belongs to a signed-in user")),
        },
    };
    if user != grant.user_id {
        return Err(forbidden("the media token belongs to another user"));
    }
    if revoked(state, &grant).await? {
        return Err(forbidden("what opened the video has ended"));
    }
    Ok((video_id, quality, grant))
}

/// Whether the ground of `grant` was taken away since it was issued.
async fn revoked(state: &State, grant: &MediaGrant) -> Result<bool, Response> {
    let issued = DateTime::<Utc>::from_timestamp(grant.issued, 0).unwrap_or_default();
    let (subscriptions, pack) = match &grant.ground {
        Ground::Credits => return Ok(false),
        Ground::Subscriptions(ids) => (ids.as_slice(), None),
        Ground::ChannelPack(id) => (&[][..], Some(*id)),
    };
    let key = format!("{}:{}:{:?}:{:?}", grant.user_id, grant.issued, subscriptions, pack);
    if let Some(revoked) = state.media_checks.revocation(&key) {
        return Ok(revoked);
    }
    let revoked =
        queries::revoked_since(&state.pool, grant.user_id, subscriptions, pack, issued).await.map_err(|e| {
            tracing::warn!(error = %e, "media revocation check failed");
            let body = serde_json::json!({ "code": "RETRY", "message": "try again" });
            (StatusCode::SERVICE_UNAVAILABLE, axum::Json(body)).into_response()
        })?;
    state.media_checks.remember_revocation(key, revoked);
    Ok(revoked)
}

async fn serve_file(path: &std::path::Path, request: Request) -> Response {
    let mut response = match tower_http::services::ServeFile::new(path).oneshot(request).await {
        Ok(r) => r.map(Body::new),
        Err(e) => match e {},
    };
    // Kept by the browser, but asked again before each reuse: a revoked token stops playback
    // within seconds, also for ranges the player read before (a revalidation is a 304).
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    response
}

/// `GET /media/videos/{video}/{quality}?token=…`: the file, with Range support, for a valid,
/// unexpired token of this video and quality; 403 for anything else. For `hls` the answer is
/// a playlist whose segment addresses carry the same token.
pub async fn serve(
    AxumState(state): AxumState<State>,
    Path((video_id, quality)): Path<(String, String)>,
    Query(query): Query<MediaQuery>,
    headers: HeaderMap,
    request: Request,
) -> Response {
    let (video_id, quality, grant) = match check(&state, &video_id, &quality, query.token.as_deref(), &headers).await {
        Ok(checked) => checked,
        Err(refused) => return refused,
    };
    if quality == VideoQuality::Hls {
        let Some((_, segments)) = hls_dir(&state.config.media_dir, video_id) else { return not_found() };
        let token = query.token.unwrap_or_default();
        let seconds = HLS_SEGMENT_SECONDS;
        let mut playlist = format!(
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:{seconds}\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        );
        for segment in segments {
            playlist.push_str(&format!("#EXTINF:{seconds}.000,\nhls/{segment}?token={token}\n"));
        }
        playlist.push_str("#EXT-X-ENDLIST\n");
        return (
            [(header::CONTENT_TYPE, "application/vnd.apple.mpegurl"), (header::CACHE_CONTROL, "private, no-store")],
            playlist,
        )
            .into_response();
    }
    let Some(path) = media_file(&state.config.media_dir, video_id, quality) else { return not_found() };
    let mut response = serve_file(&path, request).await;
    if grant.purpose == Purpose::Download {
        let name = format!("attachment; filename=\"{video_id}-{}.mp4\"", quota::spec_of(quality).key);
        if let Ok(v) = HeaderValue::from_str(&name) {
            response.headers_mut().insert(header::CONTENT_DISPOSITION, v);
        }
    }
    response
}

/// `GET /media/videos/{video}/hls/{segment}?token=…`: one HLS segment, for the hls token.
pub async fn serve_segment(
    AxumState(state): AxumState<State>,
    Path((video_id, quality, segment)): Path<(String, String, String)>,
    Query(query): Query<MediaQuery>,
    headers: HeaderMap,
    request: Request,
) -> Response {
    let (video_id, quality, _) = match check(&state, &video_id, &quality, query.token.as_deref(), &headers).await {
        Ok(checked) => checked,
        Err(refused) => return refused,
    };
    if quality != VideoQuality::Hls || !is_segment_name(&segment) {
        return forbidden("no such file");
    }
    let Some((dir, segments)) = hls_dir(&state.config.media_dir, video_id) else { return not_found() };
    if !segments.contains(&segment) {
        return not_found();
    }
    let mut response = serve_file(&dir.join(&segment), request).await;
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("video/mp2t"));
    response
}
