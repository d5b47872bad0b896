//! The typed client of the internal API, for the gateway (and other services).
//!
//! One method per endpoint; answers are the same structs the handlers write ([`crate::api`]).
//! A refusal comes back as [`ClientError::Api`] with the service's `code` (ALREADY_UNLOCKED,
//! NOT_ENOUGH_GEMS, REACHED_DOWNLOAD_QUOTA, ...) and its whole body, whose extra fields
//! (`daysUntilRefreshGems`, `downloadQuotaMax`, `remainingDays`, `denied`) the gateway maps
//! into GraphQL error extensions. Reads are retried twice on connect errors and 5xx.

use std::time::Duration;

use reqwest::{Method, RequestBuilder, StatusCode};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use uuid::Uuid;

use crate::api::*;

/// Who the call is made for: the browser's access token and the brand, as the gateway has them.
#[derive(Clone, Debug, Default)]
pub struct Caller {
    pub bearer: Option<String>,
    pub tenant: Option<String>,
    pub correlation_id: Option<Uuid>,
}

impl Caller {
    pub fn new(bearer: impl Into<String>, tenant: impl Into<String>) -> Self {
        Caller { bearer: Some(bearer.into()), tenant: Some(tenant.into()), correlation_id: None }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The service answered with a refusal or an error.
    #[error("{status} {code}: {message}")]
    Api { status: StatusCode, code: String, message: String, body: Value },
    #[error("the unlocks service cannot be reached: {0}")]
    Transport(String),
    #[error("the unlocks service answered something unreadable: {0}")]
    Decode(String),
}

impl ClientError {
    /// The SCREAMING_SNAKE code of a refusal.
    pub fn code(&self) -> Option<&str> {
        match self {
            ClientError::Api { code, .. } => Some(code),
            _ => None,
        }
    }
}

#[derive(Clone)]
pub struct UnlocksClient {
    base: String,
    http: reqwest::Client,
}

impl UnlocksClient {
    /// A client of the service at `base` (`runtime::config::service_url("unlocks", 8104)`).
    pub fn new(base: impl Into<String>) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .connect_timeout(Duration::from_secs(2))
            .build()
            .expect("http client");
        UnlocksClient { base: base.into().trim_end_matches('/').to_owned(), http }
    }

    fn request(&self, method: Method, path: &str, caller: &Caller) -> RequestBuilder {
        let r = self.http.request(method, format!("{}{path}", self.base));
        let mut r = runtime::client::with_caller(r, caller.bearer.as_deref(), "unlocks");
        if let Some(tenant) = &caller.tenant {
            r = r.header(runtime::auth::TENANT_HEADER, tenant);
        }
        if let Some(id) = caller.correlation_id {
            r = r.header("x-correlation-id", id.to_string());
        }
        r
    }

    async fn send<T: DeserializeOwned>(&self, request: RequestBuilder, retries: u32) -> Result<T, ClientError> {
        let mut attempt = 0;
        loop {
            let r = request.try_clone().expect("requests without streaming bodies clone");
            match r.send().await {
                Ok(response) if response.status().is_success() => {
                    return response.json::<T>().await.map_err(|e| ClientError::Decode(e.to_string()));
                }
                Ok(response) if response.status().is_server_error() && attempt < retries => {}
                Ok(response) => {
                    let status = response.status();
                    let body: Value = response.json().await.unwrap_or(Value::Null);
                    let code = body["code"].as_str().unwrap_or("UNKNOWN").to_owned();
                    let message = body["message"].as_str().unwrap_or_default().to_owned();
                    return Err(ClientError::Api { status, code, message, body });
                }
                Err(e) if (e.is_connect() || e.is_timeout()) && attempt < retries => {}
                Err(e) => return Err(ClientError::Transport(e.to_string())),
            }
            attempt += 1;
            tokio::time::sleep(Duration::from_millis(50 << attempt)).await;
        }
    }

    async fn get<T: DeserializeOwned>(&self, path: &str, caller: &Caller) -> Result<T, ClientError> {
        self.send(self.request(Method::GET, path, caller), 2).await
    }

    async fn post<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        caller: &Caller,
        body: &B,
    ) -> Result<T, ClientError> {
        self.send(self.request(Method::POST, path, caller).json(body), 0).await
    }

    /// The channel-pack unlock (UnlockChannel modal).
    pub async fn unlock_channel_pack(
        &self,
        caller: &Caller,
        channel_pack_id: Uuid,
    ) -> Result<PackUnlockResponse, ClientError> {
        self.post(&format!("/internal/unlocks/channel-packs/{channel_pack_id}"), caller, &serde_json::json!({})).await
    }

    /// UnlockVideo.
    pub async fn unlock_video(
        &self,
        caller: &Caller,
        input: &UnlockVideoInput,
    ) -> Result<UnlockVideoResponse, ClientError> {
        self.post("/internal/unlocks/videos", caller, input).await
    }

    /// The signed-in user's unlocks (profile fields).
    pub async fn unlock_state(&self, caller: &Caller) -> Result<UnlockStateResponse, ClientError> {
        self.get("/internal/unlocks/state", caller).await
    }

    /// Any user's unlocks, for trusted internal callers.
    pub async fn user_unlock_state(&self, user_id: Uuid) -> Result<UnlockStateResponse, ClientError> {
        self.get(&format!("/internal/users/{user_id}/unlocks"), &Caller::default()).await
    }

    /// Access to a page of videos at once (the videos' `denied`).
    pub async fn video_access(&self, caller: &Caller, video_ids: &[Uuid]) -> Result<VideoAccessResponse, ClientError> {
        // A read, so safe to retry.
        let request = self
            .request(Method::POST, "/internal/videos/access", caller)
            .json(&VideoAccessRequest { video_ids: video_ids.to_vec() });
        self.send(request, 2).await
    }

    /// getToken.
    pub async fn video_tokens(
        &self,
        caller: &Caller,
        video_id: Uuid,
        device: &str,
    ) -> Result<TokenResponse, ClientError> {
        self.post(&format!("/internal/videos/{video_id}/tokens"), caller, &TokenRequest { device: device.into() }).await
    }

    pub async fn download_resolutions(
        &self,
        caller: &Caller,
        video_id: Uuid,
    ) -> Result<DownloadResolutionsResponse, ClientError> {
        self.get(&format!("/internal/videos/{video_id}/download-resolutions"), caller).await
    }

    /// The video download (id and size).
    pub async fn download(&self, caller: &Caller, video_id: Uuid, size: &str) -> Result<DownloadResponse, ClientError> {
        self.post(&format!("/internal/videos/{video_id}/downloads"), caller, &DownloadRequest { size: size.into() })
            .await
    }

    /// downloadQuotas of a site (default: the caller's brand) and of the channel categories.
    pub async fn download_quotas(
        &self,
        caller: &Caller,
        site: Option<&str>,
    ) -> Result<DownloadQuotasResponse, ClientError> {
        let path = match site {
            Some(site) => format!("/internal/download-quotas?site={}", urlencode(site)),
            None => "/internal/download-quotas".to_owned(),
        };
        self.get(&path, caller).await
    }
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
