//! The brand host's side of sign-in: session cookies, the code callback, refresh, logout,
//! autologin, the cross-site switch and the members host's `/oidc/*` proxy.
//!
//! Owned by the profile work. Contract with the rest of the gateway, keep it:
//! - `router()` is merged into the tenant-resolved edge (the `Site` is in the request's
//!   extensions, as for every edge handler);
//! - `current_user` is how GraphQL and the edge learn who is signed in;
//! - `csrf_ok` is the CSRF rule every state-changing request passes.
//!
//! Access tokens are issued for the brand host (`Site::host`, no port) as audience.
//!
//! Routes: `/oidc/callback` (brand host: code -> cookies -> `uri`), `/oidc/*` on the members
//! host (proxied to the profile service's login pages), `GET /api/refresh` and `GET /refresh`
//! (rotation; 401 `{error: "invalid_grant"}` when the session is over, 409
//! `{error: "refresh_in_progress"}` when another tab rotated the cookie a moment ago), `/logout`
//! (`?everywhere=true` for every session; GET only with `Sec-Fetch-Site: same-origin|none`), `/` with `al_token` ([`autologin`]; any other `/` is
//! the edge page), `/xsite/{site}`, `/parent-redirect`, and the REST calls
//! `POST /v2/user/email-consent` and `POST /subscriptions/vip-user-credentials`.

use std::sync::Arc;

use axum::{
    body::Bytes,
    extract::{Path, Query, Request, State},
    http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri},
    response::{IntoResponse, Response},
    routing::{any, get, post},
    Extension, Json, Router,
};
use profile_contract::api::{EmailConsentRequest, TokenResponse, VipCredentialsRequest};
use runtime::{auth::Claims, client::CallContext, client::UpstreamError};
use serde::Deserialize;
use serde_json::json;
use tenants::Tenant;

use crate::{hosts::Site, GatewayState};

/// The access-token cookie on an https host (`__Host-` needs Secure, Path=/, no Domain).
pub const ACCESS_COOKIE_SECURE: &str = "__Host-paysite_at";
/// The access-token cookie on a plain-http development host, where browsers refuse
/// `__Host-` cookies (docs/decisions/).
pub const ACCESS_COOKIE_PLAIN: &str = "paysite_at";
/// The refresh-token cookie, https and plain-http development.
pub const REFRESH_COOKIE_SECURE: &str = "__Host-paysite_rt";
pub const REFRESH_COOKIE_PLAIN: &str = "paysite_rt";
/// The header a state-changing request must carry (any non-empty value): a page on another
/// origin cannot set it without a CORS preflight, which the gateway never grants.
pub const CSRF_HEADER: &str = "x-paysite-csrf";
/// Largest body passed to the login pages.
const MAX_PROXIED_BODY: usize = 16 * 1024;

/// The routes of sign-in on brand and members hosts.
pub fn router() -> Router<GatewayState> {
    Router::new()
        .route("/", get(home))
        .route("/oidc/callback", get(callback))
        .route("/oidc/{*rest}", any(members_oidc))
        .route("/api/refresh", get(refresh))
        .route("/refresh", get(refresh))
        .route("/logout", get(logout_link).post(logout))
        .route("/xsite/{site}", get(cross_site))
        .route("/parent-redirect", get(parent_redirect))
        .route("/v2/user/email-consent", post(email_consent))
        .route("/subscriptions/vip-user-credentials", post(vip_user_credentials))
}

/// The access cookie's name on this gateway.
pub fn access_cookie(state: &GatewayState) -> &'static str {
    if state.secure_cookies {
        ACCESS_COOKIE_SECURE
    } else {
        ACCESS_COOKIE_PLAIN
    }
}

/// The signed-in user of a request on `site` and their access token, when the access cookie
/// holds a valid token issued for this host whose session has not ended. A token of an ended
/// session (logout, logout everywhere, password change, …) reads as no token at all, as an
/// expired one does: GraphQL answers UNAUTHENTICATED and the browser's refresh then fails
/// with `invalid_grant`.
pub async fn current_user(state: &GatewayState, site: &Site, headers: &HeaderMap) -> Option<(Claims, String)> {
    let token = cookie(headers, access_cookie(state))?;
    match state.verifier.verify_for(&token, &site.host).await {
        Ok(claims) if state.revocations.is_revoked(claims.sid, chrono::Utc::now()) => {
            tracing::debug!(session = %claims.sid, host = %site.host, "access cookie of an ended session refused");
            None
        }
        Ok(claims) => Some((claims, token)),
        Err(e) => {
            tracing::debug!(error = %e, host = %site.host, "access cookie refused");
            None
        }
    }
}

/// Who a page load is for, and the cookies its answer sets.
#[derive(Debug, Default)]
pub struct PageSession {
    /// The signed-in user and their access token, as [`current_user`] answers.
    pub user: Option<(Claims, String)>,
    /// `Set-Cookie` values: a renewed session's cookies, or the cleared ones of a session that
    /// is over; empty when nothing changed.
    pub set_cookies: Vec<String>,
}

/// The signed-in user of a page load. When the access cookie has lapsed (the browser dropped
/// it at its Max-Age) or names an ended session, and a refresh cookie is present, the session
/// is renewed here, before the page is built: the first screen already shows the user, with no
/// signed-out header first and no `/api/refresh` from the page. A session that is
/// over clears the cookies; a refresh another tab made a moment ago (409) or an unreachable
/// profile service leaves the page signed out and the cookies as they are, and the page's
/// first GraphQL call refreshes as always (product.md, "Calls and sessions").
pub async fn page_user(state: &GatewayState, site: &Site, headers: &HeaderMap) -> PageSession {
    if let Some(user) = current_user(state, site, headers).await {
        return PageSession { user: Some(user), set_cookies: Vec::new() };
    }
    let Some(refresh_token) = cookie(headers, refresh_cookie(state)).filter(|t| !t.is_empty()) else {
        return PageSession::default();
    };
    match state.upstreams.profile.refresh(&refresh_token, &site.host).await {
        Ok(tokens) => {
            let set_cookies = session_cookies(state, &tokens).to_vec();
            match state.verifier.verify_for(&tokens.access_token, &site.host).await {
                Ok(claims) => PageSession { user: Some((claims, tokens.access_token)), set_cookies },
                Err(e) => {
                    tracing::warn!(error = %e, host = %site.host, "a renewed access token was refused");
                    PageSession { user: None, set_cookies }
                }
            }
        }
        Err(UpstreamError::Refused { status: 401, .. }) => {
            PageSession { user: None, set_cookies: cleared_cookies(state).to_vec() }
        }
        Err(e) => {
            tracing::debug!(error = %e, host = %site.host, "the page's session was not renewed");
            PageSession::default()
        }
    }
}

/// The signed-in user of a media request: as [`current_user`], but an access token that
/// lapsed during playback still names its session for up to the play token's lifetime (the
/// player's range requests go on for the length of a video; the page renews the cookie only
/// every 48 minutes). Revocation of the session ends it as it ends every other request.
pub async fn media_user(state: &GatewayState, site: &Site, headers: &HeaderMap) -> Option<(Claims, String)> {
    const PLAYBACK_GRACE_SECS: u64 = 3600;
    let token = cookie(headers, access_cookie(state))?;
    match state.verifier.verify_with_leeway(&token, PLAYBACK_GRACE_SECS).await {
        Ok(claims) if claims.aud == site.host => Some((claims, token)),
        Ok(_) => None,
        Err(e) => {
            tracing::debug!(error = %e, host = %site.host, "access cookie refused for media");
            None
        }
    }
}

/// A cookie's value from the request's `Cookie` headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    runtime::http::cookie(headers, name).map(str::to_owned)
}

/// Whether the request carries a session cookie of any kind (access or refresh, plain or
/// `__Host-`), valid or not: such a caller's answers are theirs, never a visitor's shared one.
pub fn has_session_cookie(headers: &HeaderMap) -> bool {
    [ACCESS_COOKIE_SECURE, ACCESS_COOKIE_PLAIN, REFRESH_COOKIE_SECURE, REFRESH_COOKIE_PLAIN]
        .iter()
        .any(|name| runtime::http::cookie(headers, name).is_some())
}

/// Whether a request may change state: safe methods always; anything else needs a JSON body
/// type and the custom header. text/plain, form and multipart bodies (which a page on another
/// site can send without a preflight) are refused.
pub fn csrf_ok(method: &Method, headers: &HeaderMap) -> bool {
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return true;
    }
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"));
    let marked = headers.get(CSRF_HEADER).is_some_and(|v| !v.as_bytes().is_empty());
    json && marked
}

/// The refresh cookie's name on this gateway.
pub fn refresh_cookie(state: &GatewayState) -> &'static str {
    if state.secure_cookies {
        REFRESH_COOKIE_SECURE
    } else {
        REFRESH_COOKIE_PLAIN
    }
}

fn set_cookie(state: &GatewayState, name: &str, value: &str, max_age: u64) -> String {
    cookie_header(name, value, max_age, state.secure_cookies)
}

/// A `Set-Cookie` value as the gateway sets its cookies: whole site, HttpOnly, SameSite=Lax,
/// and Secure when the site is served over https.
pub(crate) fn cookie_header(name: &str, value: &str, max_age: u64, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}")
}

/// The two session cookies for fresh tokens.
pub fn session_cookies(state: &GatewayState, tokens: &TokenResponse) -> [String; 2] {
    [
        set_cookie(state, access_cookie(state), &tokens.access_token, tokens.expires_in),
        set_cookie(state, refresh_cookie(state), &tokens.refresh_token, tokens.refresh_expires_in),
    ]
}

/// Cookies that end the session in the browser.
pub fn cleared_cookies(state: &GatewayState) -> [String; 2] {
    [set_cookie(state, access_cookie(state), "", 0), set_cookie(state, refresh_cookie(state), "", 0)]
}

fn with_cookies(mut response: Response, cookies: &[String]) -> Response {
    for c in cookies {
        if let Ok(value) = HeaderValue::from_str(c) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn found(location: &str) -> Response {
    match HeaderValue::from_str(location) {
        Ok(value) => (StatusCode::FOUND, [(header::LOCATION, value)]).into_response(),
        Err(_) => (StatusCode::FOUND, [(header::LOCATION, HeaderValue::from_static("/"))]).into_response(),
    }
}

/// A path on this site (`/x`), never another host (`//evil`, `/\evil`, `https://…`).
pub fn same_site_path(path: Option<&str>) -> String {
    match path {
        Some(p)
            if p.starts_with('/')
                && !p.starts_with("//")
                && !p.starts_with("/\\")
                && !p.chars().any(char::is_control) =>
        {
            p.to_owned()
        }
        _ => "/".to_owned(),
    }
}

/// `{members}/oidc/login?uri={this brand's URL of path}`: where an unauthenticated user goes,
/// from a page, a route rule or a failed callback. The return target is absolute, so the
/// members host (shared by every brand) sends the user back to this brand.
pub fn login_url(tenant: &Tenant, path_and_query: &str) -> String {
    let uri = format!("{}{}", tenant.tour_url, path_and_query);
    format!("{}/oidc/login?uri={}", tenant.members_url, profile_contract::api::encode_component(&uri))
}

/// What a call to a service for the signed-in user of `site` carries.
pub(crate) fn call_context(site: &Site, token: &str, headers: &HeaderMap) -> CallContext {
    CallContext {
        bearer: Some(token.to_owned()),
        tenant: Some(site.tenant.tenant.clone()),
        correlation_id: headers.get("x-correlation-id").and_then(|v| v.to_str().ok()).map(str::to_owned),
    }
}

fn invalid_grant(state: &GatewayState) -> Response {
    let response = (StatusCode::UNAUTHORIZED, Json(json!({ "error": "invalid_grant" }))).into_response();
    with_cookies(response, &cleared_cookies(state))
}

fn unavailable() -> Response {
    (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "error": "temporarily_unavailable" }))).into_response()
}

#[derive(Debug, Deserialize)]
struct CallbackQuery {
    code: Option<String>,
    uri: Option<String>,
}

/// `GET /oidc/callback?code=…&uri=…` on a brand host: exchanges the code, sets the session
/// cookies and goes to `uri` (a path on this host).
async fn callback(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    Query(query): Query<CallbackQuery>,
) -> Response {
    let path = same_site_path(query.uri.as_deref());
    let Some(code) = query.code.filter(|c| !c.is_empty()) else { return found(&login_url(&site.tenant, &path)) };
    match state.upstreams.profile.exchange_code(&code, &site.host).await {
        Ok(tokens) => with_cookies(found(&path), &session_cookies(&state, &tokens)),
        Err(UpstreamError::Refused { .. }) => found(&login_url(&site.tenant, &path)),
        Err(e) => {
            tracing::warn!(error = %e, "code exchange failed");
            unavailable()
        }
    }
}

/// `GET /api/refresh` and `GET /refresh`: rotates the session with the refresh cookie. A dead
/// session answers 401 `{error: "invalid_grant"}` and clears the cookies; the browser then goes
/// to the members login (product.md, "Calls and sessions").
async fn refresh(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    headers: HeaderMap,
) -> Response {
    let Some(token) = cookie(&headers, refresh_cookie(&state)) else { return invalid_grant(&state) };
    match state.upstreams.profile.refresh(&token, &site.host).await {
        Ok(tokens) => {
            let body = Json(json!({ "expiresIn": tokens.expires_in, "userId": tokens.user_id }));
            with_cookies(body.into_response(), &session_cookies(&state, &tokens))
        }
        Err(UpstreamError::Refused { status: 401, .. }) => invalid_grant(&state),
        // Another tab or a retry rotated this cookie a moment ago: keep the cookies (the
        // browser's jar holds the successor by now) and let the front end retry (product.md, "Calls and sessions").
        Err(UpstreamError::Refused { status: 409, .. }) => {
            let response = (StatusCode::CONFLICT, Json(json!({ "error": "refresh_in_progress" }))).into_response();
            with_cookies(response, &[])
        }
        Err(UpstreamError::Refused { status, code, .. }) => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
            (status, Json(json!({ "error": code }))).into_response()
        }
        Err(e) => {
            tracing::warn!(error = %e, "refresh failed");
            unavailable()
        }
    }
}

#[derive(Debug, Default, Deserialize)]
struct LogoutQuery {
    /// `true`: every session of the user, on every brand host.
    everywhere: Option<bool>,
}

async fn end_session(state: &GatewayState, headers: &HeaderMap, everywhere: bool) -> Result<(), Response> {
    if let Some(token) = cookie(headers, refresh_cookie(state)) {
        if let Err(e) = state.upstreams.profile.logout(&token, everywhere).await {
            tracing::warn!(error = %e, "logout failed");
            return Err(unavailable());
        }
    }
    Ok(())
}

/// `POST /logout[?everywhere=true]` (JSON, with the CSRF header).
async fn logout(
    State(state): State<GatewayState>,
    method: Method,
    headers: HeaderMap,
    Query(query): Query<LogoutQuery>,
) -> Response {
    if !csrf_ok(&method, &headers) {
        return csrf_refused();
    }
    if let Err(response) = end_session(&state, &headers, query.everywhere.unwrap_or(false)).await {
        return response;
    }
    with_cookies(Json(json!({ "loggedOut": true })).into_response(), &cleared_cookies(&state))
}

/// Whether a `GET /logout` comes from this site's own page or the user's address bar: the
/// browser says so in `Sec-Fetch-Site`. Without the header (an old browser, an `<img>` on a
/// site the browser does not label) it is refused; `POST /logout` with the CSRF rule remains.
fn logout_link_allowed(headers: &HeaderMap) -> bool {
    let fetch_site = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok());
    matches!(fetch_site, Some("same-origin" | "none"))
}

/// `GET /logout`: a link in the page; refused unless the browser says it started here.
async fn logout_link(
    State(state): State<GatewayState>,
    headers: HeaderMap,
    Query(query): Query<LogoutQuery>,
) -> Response {
    if !logout_link_allowed(&headers) {
        return csrf_refused();
    }
    if let Err(response) = end_session(&state, &headers, query.everywhere.unwrap_or(false)).await {
        return response;
    }
    with_cookies(found("/"), &cleared_cookies(&state))
}

fn csrf_refused() -> Response {
    let body = json!({ "code": "CSRF", "message": "a state change needs a JSON body and the x-paysite-csrf header" });
    (StatusCode::FORBIDDEN, Json(body)).into_response()
}

/// `GET /`: a request carrying `al_token` signs in (autologin); any other is the home page.
async fn home(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let has_token = uri.query().is_some_and(|q| q.split('&').any(|p| p.starts_with("al_token=")));
    if has_token {
        return autologin(&state, &site, &uri).await;
    }
    crate::edge::page(State(state), Extension(site), None, method, uri, headers).await
}

/// `/?al_token=…` after a signup or an upgrade: redeems the single-use token, sets the session
/// cookies and goes home keeping the other query values (`notification`, `fatr`, …). A used or
/// expired token goes home without a session.
pub async fn autologin(state: &GatewayState, site: &Site, uri: &Uri) -> Response {
    let query = uri.query().unwrap_or_default();
    let mut token = None;
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        match pair.strip_prefix("al_token=") {
            Some(value) => token = Some(percent_decode(value)),
            None => kept.push(pair),
        }
    }
    let location = if kept.is_empty() { "/".to_owned() } else { format!("/?{}", kept.join("&")) };
    let Some(token) = token.filter(|t| !t.is_empty()) else { return found(&location) };
    match state.upstreams.profile.redeem_autologin(&token, &site.host).await {
        Ok(tokens) => with_cookies(found(&location), &session_cookies(state, &tokens)),
        Err(e) => {
            tracing::info!(error = %e, "autologin refused");
            found(&location)
        }
    }
}

fn percent_decode(text: &str) -> String {
    percent_encoding::percent_decode_str(&text.replace('+', " ")).decode_utf8_lossy().into_owned()
}

#[derive(Debug, Deserialize)]
struct CrossSiteQuery {
    deeplink: Option<String>,
}

/// `/xsite/{site}?deeplink=…`: a signed-in user goes to the same account on another brand.
async fn cross_site(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    Path(target): Path<String>,
    Query(query): Query<CrossSiteQuery>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let here = uri.path_and_query().map(|p| p.as_str().to_owned()).unwrap_or_else(|| "/".into());
    // A lapsed access token with a live refresh cookie is renewed here, as for a page.
    let PageSession { user, set_cookies } = page_user(&state, &site, &headers).await;
    let Some((_, token)) = user else {
        // Signed out: the route table's answer (product.md, "Route errors and the error screen"): the members login in the members area, not-found elsewhere.
        return crate::edge::page(State(state), Extension(site), None, axum::http::Method::GET, uri, headers).await;
    };
    let deeplink = Some(same_site_path(query.deeplink.as_deref()));
    let ctx = call_context(&site, &token, &headers);
    match state.upstreams.profile.cross_site(&ctx, &target.to_ascii_lowercase(), deeplink.as_deref()).await {
        Ok(redirect) if set_cookies.is_empty() => found(&redirect.location),
        Ok(redirect) => with_cookies(found(&redirect.location), &set_cookies),
        Err(UpstreamError::Refused { status: 401, .. }) => found(&login_url(&site.tenant, &here)),
        Err(UpstreamError::Refused { .. }) => {
            (StatusCode::NOT_FOUND, Json(json!({ "error": "unknown site" }))).into_response()
        }
        Err(e) => {
            tracing::warn!(error = %e, "cross-site switch failed");
            unavailable()
        }
    }
}

#[derive(Debug, Deserialize)]
struct ParentRedirectQuery {
    id_token: Option<String>,
    next: Option<String>,
}

/// `/parent-redirect?id_token=…&next=…`: an id token of a live session signs the user in here,
/// then the browser goes to `next` (a path on this host).
async fn parent_redirect(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    Query(query): Query<ParentRedirectQuery>,
) -> Response {
    let next = same_site_path(query.next.as_deref());
    let Some(id_token) = query.id_token.filter(|t| !t.is_empty()) else { return found(&next) };
    match state.upstreams.profile.parent_redirect(&id_token, &site.host).await {
        Ok(tokens) => with_cookies(found(&next), &session_cookies(&state, &tokens)),
        Err(e) => {
            tracing::info!(error = %e, "parent redirect refused");
            found(&next)
        }
    }
}

/// The members host's login pages, served by the profile service.
async fn members_oidc(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    request: Request,
) -> Response {
    // Only plain segments: the client's URL parser resolves `..` (also `%2e%2e`), which would
    // reach the profile service's internal API from the browser.
    if !site.is_members_area || !crate::proxy::plain_path(request.uri().path(), "/oidc/") {
        return (StatusCode::NOT_FOUND, Json(json!({ "error": "not found" }))).into_response();
    }
    let method = request.method().as_str().to_owned();
    let path_and_query = request.uri().path_and_query().map(|p| p.as_str().to_owned()).unwrap_or_default();
    let headers = request.headers().clone();
    let address = crate::rate_limits::request_address(&state, &request);
    if method == "POST" && request.uri().path() == "/oidc/login" {
        if let Some(Err(wait)) = address.as_deref().map(|a| state.rate_limits.login.check(a)) {
            metrics::counter!("paysite_rate_limited_total", "route" => "login").increment(1);
            tracing::warn!(address = address.as_deref().unwrap_or_default(), "sign-in rate limit");
            return runtime::throttle::too_many_requests_text(wait);
        }
    }
    let body: Bytes = match axum::body::to_bytes(request.into_body(), MAX_PROXIED_BODY).await {
        Ok(body) => body,
        Err(_) => return StatusCode::PAYLOAD_TOO_LARGE.into_response(),
    };
    let mut forwarded: Vec<(&str, String)> = vec![("x-paysite-tenant", site.tenant.tenant.clone())];
    for name in ["content-type", "accept"] {
        if let Some(value) = headers.get(name).and_then(|v| v.to_str().ok()) {
            forwarded.push((name, value.to_owned()));
        }
    }
    // Only the login form's CSRF cookie: the members host's other cookies are none of the
    // login pages' business.
    if let Some(cookie) = login_cookie(&headers) {
        forwarded.push(("cookie", cookie));
    }
    // The client address for the failed-login limit (the one reading of it: rate_limits).
    if let Some(address) = address {
        forwarded.push(("x-forwarded-for", address));
    }
    if state.secure_cookies {
        forwarded.push(("x-forwarded-proto", "https".to_owned()));
    }
    match state.upstreams.profile.proxy_oidc(&method, &path_and_query, &forwarded, body.to_vec()).await {
        Ok(answer) => {
            let status = StatusCode::from_u16(answer.status).unwrap_or(StatusCode::BAD_GATEWAY);
            let mut response = (status, answer.body).into_response();
            for (name, value) in answer.headers {
                let keep = matches!(
                    name.as_str(),
                    "content-type" | "location" | "set-cookie" | "cache-control" | "content-security-policy"
                );
                if let (true, Ok(name), Ok(value)) =
                    (keep, HeaderName::from_bytes(name.as_bytes()), HeaderValue::from_str(&value))
                {
                    if name == header::SET_COOKIE {
                        response.headers_mut().append(name, value);
                    } else {
                        response.headers_mut().insert(name, value);
                    }
                }
            }
            response
        }
        Err(e) => {
            tracing::warn!(error = %e, "login pages unavailable");
            unavailable()
        }
    }
}

/// The `Cookie` header the login pages get: their CSRF cookie alone, if the browser sent it.
fn login_cookie(headers: &HeaderMap) -> Option<String> {
    let name = profile_contract::api::CSRF_COOKIE;
    cookie(headers, name).map(|value| format!("{name}={value}"))
}

/// The user of a state-changing REST call: CSRF rule first, then the session.
async fn acting_user(
    state: &GatewayState,
    site: &Site,
    method: &Method,
    headers: &HeaderMap,
) -> Result<(Claims, String), Response> {
    if !csrf_ok(method, headers) {
        return Err(csrf_refused());
    }
    current_user(state, site, headers).await.ok_or_else(|| {
        (StatusCode::UNAUTHORIZED, Json(json!({ "code": "UNAUTHENTICATED", "message": "You need to log in" })))
            .into_response()
    })
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct EmailConsentBody {
    email_consent: bool,
    #[serde(default)]
    consent_html_snippet: Option<String>,
}

/// `POST /v2/user/email-consent` with `emailConsent` and `consentHtmlSnippet`.
async fn email_consent(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (_, token) = match acting_user(&state, &site, &method, &headers).await {
        Ok(user) => user,
        Err(response) => return response,
    };
    let Ok(body) = serde_json::from_slice::<EmailConsentBody>(&body) else {
        return (
            StatusCode::BAD_REQUEST,
            Json(json!({ "code": "BAD_REQUEST", "message": "emailConsent is required" })),
        )
            .into_response();
    };
    let request = EmailConsentRequest {
        email_consent: body.email_consent,
        site: Some(site.tenant.tenant.clone()),
        consent_html_snippet: body.consent_html_snippet,
    };
    match state.upstreams.profile.set_email_consent(&call_context(&site, &token, &headers), &request).await {
        Ok(profile) => Json(json!({ "hasEmailConsent": profile.has_email_consent })).into_response(),
        Err(e) => refusal(e, |code, message| json!({ "code": code, "message": message })),
    }
}

/// `POST /subscriptions/vip-user-credentials` with `newEmail` and `newPassword`; a refusal's
/// `message` is its code (EMAIL_ALREADY_EXISTS, INVALID_EMAIL, INVALID_PASSWORD, …).
async fn vip_user_credentials(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (_, token) = match acting_user(&state, &site, &method, &headers).await {
        Ok(user) => user,
        Err(response) => return response,
    };
    let Ok(request) = serde_json::from_slice::<VipCredentialsRequest>(&body) else {
        return (StatusCode::BAD_REQUEST, Json(json!({ "message": "INVALID_REQUEST" }))).into_response();
    };
    match state.upstreams.profile.convert_vip_user(&call_context(&site, &token, &headers), &request).await {
        Ok(_) => Json(json!({ "success": true })).into_response(),
        Err(e) => refusal(e, |code, _| json!({ "message": code })),
    }
}

fn refusal(e: UpstreamError, body: impl Fn(&str, &str) -> serde_json::Value) -> Response {
    match e {
        UpstreamError::Refused { status, code, message, .. } => {
            let status = StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST);
            (status, Json(body(&code, &message))).into_response()
        }
        other => {
            tracing::warn!(error = %other, "profile unavailable");
            (StatusCode::SERVICE_UNAVAILABLE, Json(body("SERVICE_UNAVAILABLE", "try again later"))).into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn a_state_change_needs_json_and_the_custom_header() {
        let ok = headers(&[("content-type", "application/json; charset=utf-8"), (CSRF_HEADER, "1")]);
        assert!(csrf_ok(&Method::POST, &ok));
        for bad in [
            headers(&[("content-type", "application/json")]),
            headers(&[(CSRF_HEADER, "1")]),
            headers(&[("content-type", "text/plain"), (CSRF_HEADER, "1")]),
            headers(&[("content-type", "application/x-www-form-urlencoded"), (CSRF_HEADER, "1")]),
            headers(&[("content-type", "multipart/form-data; boundary=x"), (CSRF_HEADER, "1")]),
            headers(&[("content-type", "application/json"), (CSRF_HEADER, "")]),
        ] {
            assert!(!csrf_ok(&Method::POST, &bad), "{bad:?}");
            assert!(!csrf_ok(&Method::DELETE, &bad), "{bad:?}");
        }
        assert!(csrf_ok(&Method::GET, &HeaderMap::new()));
    }

    #[test]
    fn the_login_pages_get_only_their_csrf_cookie() {
        let h = headers(&[("cookie", "paysite_at=tok; paysite_rt=rt"), ("cookie", "paysite_login_csrf=abc; x=1")]);
        assert_eq!(login_cookie(&h).as_deref(), Some("paysite_login_csrf=abc"));
        assert_eq!(login_cookie(&headers(&[("cookie", "paysite_rt=rt; other=2")])), None);
    }

    #[test]
    fn a_logout_link_needs_the_browser_to_say_it_started_here() {
        assert!(logout_link_allowed(&headers(&[("sec-fetch-site", "same-origin")])));
        assert!(logout_link_allowed(&headers(&[("sec-fetch-site", "none")])));
        for bad in ["cross-site", "same-site", ""] {
            assert!(!logout_link_allowed(&headers(&[("sec-fetch-site", bad)])), "{bad}");
        }
        assert!(!logout_link_allowed(&HeaderMap::new()), "no header: refused");
    }
}
