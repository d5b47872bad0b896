//! The typed client of the profile service's internal API, for the gateway and the other
//! services. One method per endpoint; answers are the types of [`crate::api`].

use std::time::Duration;

use runtime::auth::JwkSet;
use runtime::client::{CallContext, Target, Upstream, UpstreamError};
use serde::de::DeserializeOwned;
use uuid::Uuid;

use crate::api::*;
use crate::routes;

#[derive(Clone, Debug)]
pub struct ProfileClient {
    upstream: Upstream,
}

/// A proxied answer of the login pages.
pub use runtime::client::Proxied;

/// `ctx` with the user's access token.
pub fn as_user(access_token: &str, tenant: &str) -> CallContext {
    CallContext { bearer: Some(access_token.to_owned()), tenant: Some(tenant.to_owned()), correlation_id: None }
}

/// The slowest call: a sign-in form hashes a password.
const LOGIN_PAGES_TIMEOUT: Duration = Duration::from_secs(10);

impl ProfileClient {
    pub fn new(base: impl Into<String>) -> Self {
        ProfileClient { upstream: Upstream::new("profile", base, LOGIN_PAGES_TIMEOUT) }
    }

    /// The service at `PAYSITE_PROFILE_URL`, else `http://127.0.0.1:8101`.
    pub fn from_env() -> Self {
        Self::new(runtime::config::service_url("profile", crate::api::PORT))
    }

    pub fn base(&self) -> &str {
        self.upstream.base()
    }

    /// The URL of the signing keys, for `Verifier::from_jwks_url`.
    pub fn jwks_url(&self) -> String {
        format!("{}/.well-known/jwks.json", self.base())
    }

    pub async fn jwks(&self) -> Result<JwkSet, UpstreamError> {
        self.upstream.get("/.well-known/jwks.json", &[], &CallContext::default()).await
    }

    async fn post<B: serde::Serialize, T: DeserializeOwned>(
        &self,
        path: &(impl Target + ?Sized),
        body: &B,
        ctx: &CallContext,
    ) -> Result<T, UpstreamError> {
        self.upstream.post(path, body, ctx).await
    }

    /// Passes a members-host request for `/oidc/…` to the login pages. Only the headers named
    /// in `headers` travel (the caller picks them: cookie, content type, tenant, client address).
    pub async fn proxy_oidc(
        &self,
        method: &str,
        path_and_query: &str,
        headers: &[(&str, String)],
        body: Vec<u8>,
    ) -> Result<Proxied, UpstreamError> {
        let unavailable = |reason: String| UpstreamError::unavailable("profile", reason);
        let path = path_and_query.split('?').next().unwrap_or_default();
        let plain = path.strip_prefix("/oidc/").is_some_and(|rest| {
            rest.split('/').all(|seg| {
                !seg.is_empty()
                    && seg != "."
                    && seg != ".."
                    && seg.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
            })
        });
        if !plain {
            return Err(unavailable("only plain /oidc/ paths are proxied".into()));
        }
        let method = reqwest::Method::from_bytes(method.as_bytes()).map_err(|e| unavailable(e.to_string()))?;
        self.upstream
            .pass_through(method, path_and_query, headers, body, LOGIN_PAGES_TIMEOUT, &CallContext::system())
            .await
    }

    /// `POST /internal/oidc/token`: exchanges a sign-in code on the brand host `audience`.
    pub async fn exchange_code(&self, code: &str, audience: &str) -> Result<TokenResponse, UpstreamError> {
        let body = CodeExchange { code: code.to_owned(), audience: audience.to_owned() };
        self.post(&routes::EXCHANGE_CODE, &body, &CallContext::default()).await
    }

    /// `POST /internal/oidc/refresh`: a 401 with code `INVALID_GRANT` when the session is over; a
    /// 409 `REFRESH_IN_PROGRESS` when the token was rotated a moment ago (retry, session kept).
    pub async fn refresh(&self, refresh_token: &str, audience: &str) -> Result<TokenResponse, UpstreamError> {
        let body = RefreshRequest { refresh_token: refresh_token.to_owned(), audience: audience.to_owned() };
        self.post(&routes::REFRESH, &body, &CallContext::default()).await
    }

    /// `POST /internal/oidc/logout`.
    pub async fn logout(&self, refresh_token: &str, everywhere: bool) -> Result<(), UpstreamError> {
        let body = LogoutRequest { refresh_token: refresh_token.to_owned(), everywhere };
        self.post::<_, serde_json::Value>(&routes::LOGOUT, &body, &CallContext::default()).await.map(|_| ())
    }

    /// `GET /internal/sessions/revoked`: the sessions whose access tokens are to be refused.
    pub async fn revoked_sessions(&self) -> Result<RevokedSessions, UpstreamError> {
        self.upstream.get(&routes::REVOKED_SESSIONS, &[], &CallContext::default()).await
    }

    /// `POST /internal/autologin-tokens` (the subscription service after a signup or an upgrade).
    pub async fn issue_autologin(&self, user_id: Uuid, site: &str) -> Result<AutologinIssued, UpstreamError> {
        let body = AutologinRequest { user_id, site: site.to_owned() };
        self.post(&routes::ISSUE_AUTOLOGIN, &body, &CallContext::default()).await
    }

    /// `POST /internal/oidc/autologin`: redeems `/?al_token=` on the brand host `audience`.
    pub async fn redeem_autologin(&self, al_token: &str, audience: &str) -> Result<TokenResponse, UpstreamError> {
        let body = AutologinRedeem { al_token: al_token.to_owned(), audience: audience.to_owned() };
        self.post(&routes::REDEEM_AUTOLOGIN, &body, &CallContext::default()).await
    }

    /// `POST /internal/oidc/xsite`: where to send a signed-in user switching to `site`.
    pub async fn cross_site(
        &self,
        ctx: &CallContext,
        site: &str,
        deeplink: Option<&str>,
    ) -> Result<Redirect, UpstreamError> {
        let body = CrossSiteRequest { site: site.to_owned(), deeplink: deeplink.map(str::to_owned) };
        self.post(&routes::CROSS_SITE, &body, ctx).await
    }

    /// `POST /internal/oidc/parent-redirect`.
    pub async fn parent_redirect(&self, id_token: &str, audience: &str) -> Result<TokenResponse, UpstreamError> {
        let body = ParentRedirectRequest { id_token: id_token.to_owned(), audience: audience.to_owned() };
        self.post(&routes::PARENT_REDIRECT, &body, &CallContext::default()).await
    }

    /// `POST /internal/accounts/check`: refused (422 INVALID_USERNAME, 409 USERNAME_TAKEN) when
    /// no account could have `username` now.
    pub async fn check_account(&self, username: &str) -> Result<(), UpstreamError> {
        let body = AccountCheckRequest { username: username.to_owned() };
        self.post::<_, serde_json::Value>(&routes::CHECK_ACCOUNT, &body, &CallContext::default()).await.map(|_| ())
    }

    /// `POST /internal/accounts` (the subscription service, when a biller approves a signup).
    pub async fn create_account(&self, request: &CreateAccountRequest) -> Result<AccountCreated, UpstreamError> {
        self.post(&routes::CREATE_ACCOUNT, request, &CallContext::default()).await
    }

    /// `GET /internal/users?ids=…`: many users' identity in one call.
    pub async fn users(&self, ids: &[Uuid]) -> Result<Vec<UserSummary>, UpstreamError> {
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let ids = ids.iter().map(Uuid::to_string).collect::<Vec<_>>().join(",");
        self.upstream.get(&routes::USERS, &[("ids", ids)], &CallContext::default()).await
    }

    /// `GET /internal/users/public?ids=…`: many users' badges and user type in one call (at most
    /// [`crate::api::MAX_PUBLIC_PROFILES`]); unknown ids are left out of the answer.
    pub async fn public_profiles(&self, ctx: &CallContext, ids: &[Uuid]) -> Result<Vec<PublicProfile>, UpstreamError> {
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let ids = ids.iter().map(Uuid::to_string).collect::<Vec<_>>().join(",");
        self.upstream.get(&routes::PUBLIC_PROFILES, &[("ids", ids)], ctx).await
    }

    /// The profile's part of findOneUserProfile: `GET /internal/profile` for the user of
    /// `ctx`'s token.
    pub async fn own_profile(&self, ctx: &CallContext) -> Result<OwnProfile, UpstreamError> {
        self.upstream.get(&routes::OWN_PROFILE, &[], ctx).await
    }

    pub async fn set_display_name(&self, ctx: &CallContext, display_name: &str) -> Result<OwnProfile, UpstreamError> {
        let body = DisplayNameRequest { display_name: display_name.to_owned() };
        self.post(&routes::SET_DISPLAY_NAME, &body, ctx).await
    }

    pub async fn update_user_autoplay(
        &self,
        ctx: &CallContext,
        autoplay_enabled: bool,
    ) -> Result<OwnProfile, UpstreamError> {
        self.post(&routes::UPDATE_USER_AUTOPLAY, &AutoplayRequest { autoplay_enabled }, ctx).await
    }

    /// setEmailConsent and `POST /v2/user/email-consent`.
    pub async fn set_email_consent(
        &self,
        ctx: &CallContext,
        request: &EmailConsentRequest,
    ) -> Result<OwnProfile, UpstreamError> {
        self.post(&routes::SET_EMAIL_CONSENT, request, ctx).await
    }

    pub async fn give_terms_consent(&self, ctx: &CallContext) -> Result<OwnProfile, UpstreamError> {
        self.post(&routes::GIVE_TERMS_CONSENT, &serde_json::json!({}), ctx).await
    }

    pub async fn give_cams_consent(&self, ctx: &CallContext) -> Result<OwnProfile, UpstreamError> {
        self.post(&routes::GIVE_CAMS_CONSENT, &serde_json::json!({}), ctx).await
    }

    pub async fn set_relationship(
        &self,
        ctx: &CallContext,
        relationship_status: &str,
        relationship_role: &str,
    ) -> Result<OwnProfile, UpstreamError> {
        let body = RelationshipRequest {
            relationship_status: relationship_status.to_owned(),
            relationship_role: relationship_role.to_owned(),
        };
        self.post(&routes::SET_RELATIONSHIP, &body, ctx).await
    }

    pub async fn acknowledge_gems_intro(
        &self,
        ctx: &CallContext,
        when: chrono::DateTime<chrono::Utc>,
    ) -> Result<OwnProfile, UpstreamError> {
        self.post(&routes::ACKNOWLEDGE_GEMS_INTRO, &GemsIntroRequest { when }, ctx).await
    }

    pub async fn acknowledge_promotional_teaser_viewed(&self, ctx: &CallContext) -> Result<OwnProfile, UpstreamError> {
        self.post(&routes::ACKNOWLEDGE_PROMOTIONAL_TEASER, &serde_json::json!({}), ctx).await
    }

    /// `state_code`: `TX` or `AL` (or `US-TX`, `US-AL`).
    pub async fn acknowledge_health_warning(
        &self,
        ctx: &CallContext,
        state_code: &str,
    ) -> Result<OwnProfile, UpstreamError> {
        let body = HealthWarningRequest { usa_health_warning_state_code: state_code.to_owned() };
        self.post(&routes::ACKNOWLEDGE_HEALTH_WARNING, &body, ctx).await
    }

    pub async fn choose_username(&self, ctx: &CallContext, username: &str) -> Result<OwnProfile, UpstreamError> {
        self.post(&routes::CHOOSE_USERNAME, &UsernameRequest { username: username.to_owned() }, ctx).await
    }

    pub async fn change_password(
        &self,
        ctx: &CallContext,
        request: &ChangePasswordRequest,
    ) -> Result<OwnProfile, UpstreamError> {
        self.post(&routes::CHANGE_PASSWORD, request, ctx).await
    }

    pub async fn create_tandem_child_account(
        &self,
        ctx: &CallContext,
        request: &TandemChildRequest,
    ) -> Result<OwnProfile, UpstreamError> {
        self.post(&routes::CREATE_TANDEM_CHILD, request, ctx).await
    }

    /// `POST /subscriptions/vip-user-credentials`.
    pub async fn convert_vip_user(
        &self,
        ctx: &CallContext,
        request: &VipCredentialsRequest,
    ) -> Result<OwnProfile, UpstreamError> {
        self.post(&routes::CONVERT_VIP_USER, request, ctx).await
    }
}
