//! The browser-facing handlers: the site from the Host, the SPA's pages with their edge
//! answers (301, 404), and the tenant configuration.

use std::sync::Arc;

use axum::{
    extract::{Request, State},
    http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri},
    middleware::Next,
    response::{IntoResponse, Response},
    Extension, Json,
};

use crate::{
    hosts::{Site, BRAND_COOKIE, BRAND_PARAM, UNEXPECTED_HOST},
    routes::{self, Edge},
    spa::{Bootstrap, UserView},
    GatewayState,
};

/// Middleware: finds the site the Host names and hands it to the handlers; any other host is a 400.
pub async fn resolve_site(State(state): State<GatewayState>, mut request: Request, next: Next) -> Response {
    // HTTP/1.1 names the host in the Host header, HTTP/2 in the request's authority.
    let host = match request.headers().get(header::HOST) {
        Some(value) => value.to_str().ok(),
        None => request.uri().authority().map(|a| a.as_str()),
    };
    // A members host shared by every brand serves the brand the visitor came from: named by the
    // link (`?brand=`), then kept by a cookie for the rest of the visit (API calls included).
    let named = request.uri().query().and_then(|q| {
        form_urlencoded::parse(q.as_bytes()).find(|(k, _)| k == BRAND_PARAM).map(|(_, v)| v.into_owned())
    });
    let kept = crate::session::cookie(request.headers(), BRAND_COOKIE);
    let brand = named.clone().or(kept.clone());
    let Some(site) = host.and_then(|host| state.sites.resolve_for(host, brand.as_deref())) else {
        tracing::debug!(host = host.unwrap_or_default(), "unexpected host");
        return unexpected_host();
    };
    let keep = state.sites.is_shared_members_host(&site.host)
        && named.as_deref() == Some(site.tenant.tenant.as_str())
        && kept.as_deref() != named.as_deref();
    let brand_cookie = keep.then(|| brand_cookie(&site.tenant.tenant, state.secure_cookies));
    request.extensions_mut().insert(site);
    let mut response = next.run(request).await;
    if let Some(cookie) = brand_cookie {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// Keeps the brand a shared members host was told, for the visit (a session cookie).
fn brand_cookie(brand: &str, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!("{BRAND_COOKIE}={brand}; Path=/; HttpOnly; SameSite=Lax{secure}"))
        .expect("a brand key is a header-safe token")
}

fn unexpected_host() -> Response {
    (
        StatusCode::BAD_REQUEST,
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8")),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        UNEXPECTED_HOST,
    )
        .into_response()
}

/// Every path that is neither an asset nor an API: the route table decides.
pub async fn page(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    correlation: Option<Extension<runtime::http::CorrelationId>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
        return (StatusCode::NOT_FOUND, Json(serde_json::json!({ "error": "not found" }))).into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        return (StatusCode::METHOD_NOT_ALLOWED, [(header::ALLOW, HeaderValue::from_static("GET, HEAD"))])
            .into_response();
    }
    let session = crate::session::page_user(&state, &site, &headers).await;
    let viewer = session.user.clone().map(|(claims, token)| crate::graphql::context::Viewer { claims, token });
    let (user, visitor) = user_view(&state, &site, &headers, session.user).await;
    let renewed: Vec<HeaderValue> = session.set_cookies.iter().filter_map(|c| HeaderValue::from_str(c).ok()).collect();
    let (welcome, keep_welcome) = crate::welcome::for_page(path, uri.query(), &headers, state.secure_cookies);
    let visitor = routes::Visitor { welcome: welcome.clone(), ..visitor };
    let request = routes::Request {
        path,
        query: uri.query(),
        tenant: &site.tenant,
        is_members_area: site.is_members_area,
        visitor: &visitor,
        brands: state.sites().brands(),
    };
    let row = routes::page_row(path);
    let edge = routes::resolve_at(&request, &row);
    let lookup = match edge {
        Edge::Page => None,
        Edge::PageIfFound(lookup) => Some(lookup),
        Edge::NotFound => {
            let page =
                finish_page(&state, &site, &row, &uri, &headers, user, welcome, StatusCode::NOT_FOUND, None, None)
                    .await;
            return with_page_cookies(page, keep_welcome, renewed);
        }
        Edge::MovedPermanently(location) => {
            return with_set_cookies(redirect(StatusCode::MOVED_PERMANENTLY, &location, keep_welcome), renewed)
        }
        Edge::Found(location) => {
            return with_set_cookies(redirect(StatusCode::FOUND, &location, keep_welcome), renewed)
        }
    };
    // The slug lookup and the first screen's query go together: a page waits for the slower.
    let found = async {
        let Some(lookup) = lookup else { return (StatusCode::OK, None) };
        match state.slugs.find(&state.upstreams, &site.tenant.tenant, &lookup).await {
            Some(None) => (StatusCode::NOT_FOUND, None),
            Some(Some(facts)) => (StatusCode::OK, Some(facts)),
            None => (StatusCode::OK, None),
        }
    };
    let correlation = correlation.map(|Extension(runtime::http::CorrelationId(id))| id.to_string());
    let first_screen = first_screen(&state, &site, &row, &uri, &headers, &visitor, viewer, correlation);
    let ((status, facts), first_screen) = tokio::join!(found, first_screen);
    let first_screen = first_screen.filter(|_| status == StatusCode::OK);
    let page = finish_page(&state, &site, &row, &uri, &headers, user, welcome, status, facts, first_screen).await;
    with_page_cookies(page, keep_welcome, renewed)
}

/// The head additions of the page's first screen ([`crate::first_screen`]), or None: no plan
/// for the page, prefetching off, or no clean answer within the budget.
#[allow(clippy::too_many_arguments)]
async fn first_screen(
    state: &GatewayState,
    site: &Arc<Site>,
    row: &routes::PageRow,
    uri: &Uri,
    headers: &HeaderMap,
    visitor: &routes::Visitor,
    viewer: Option<crate::graphql::context::Viewer>,
    correlation: Option<String>,
) -> Option<String> {
    use crate::first_screen as first;
    if !state.first_screen.enabled || !first::has_plan(row) {
        return None;
    }
    let who = first::Viewer { is_authenticated: visitor.is_authenticated, rules: &visitor.rules };
    let screen = first::plan(row, uri.query(), &site.tenant, &who, first::SizeClass::of_request(headers))?;
    // One deadline for every answer: one that misses it is left out alone, and the page never waits past it.
    let deadline = tokio::time::Instant::now() + state.first_screen.budget;
    let ask = |plan: first::Plan| {
        let answer = crate::graphql::http::first_screen_answer(
            state,
            site.clone(),
            viewer.clone(),
            plan.operation,
            plan.variables.clone(),
            correlation.clone(),
        );
        async move {
            match tokio::time::timeout_at(deadline, answer).await {
                // Read once: the follow-ups and the page's head both take the parsed answer.
                Ok(answer) => serde_json::from_slice(&answer?).ok().map(|answer| (plan, answer)),
                Err(_) => {
                    tracing::debug!(operation = plan.operation, "first screen answer over its budget");
                    None
                }
            }
        }
    };
    // The screen's query and the shell's at once; what the screen's parts ask with its answer, once it is there.
    let chain = async {
        let Some((screen, answer)) = ask(screen).await else { return Vec::new() };
        let follow = futures::future::join_all(first::follow_ups(&screen, &answer, &who).into_iter().map(&ask)).await;
        std::iter::once((screen, answer)).chain(follow.into_iter().flatten()).collect::<Vec<_>>()
    };
    let shell = futures::future::join_all(first::shell_plans(&who).into_iter().map(&ask));
    let (mut answered, shell) = futures::future::join(chain, shell).await;
    if answered.is_empty() {
        return None;
    }
    // The screen's answer first, then the shell's, then the screen's parts'.
    let follow = answered.split_off(1);
    answered.extend(shell.into_iter().flatten().chain(follow));
    first::head_html(&answered)
}

/// The page with the cookies its load set: the welcome data kept, the session renewed.
fn with_page_cookies(mut response: Response, keep_welcome: Option<HeaderValue>, renewed: Vec<HeaderValue>) -> Response {
    if let Some(cookie) = keep_welcome {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    with_set_cookies(response, renewed)
}

/// The SPA's page: its head, the session it starts from and the first screen's data.
#[allow(clippy::too_many_arguments)]
async fn finish_page(
    state: &GatewayState,
    site: &Site,
    row: &routes::PageRow,
    uri: &Uri,
    headers: &HeaderMap,
    mut user: UserView,
    welcome: serde_json::Map<String, serde_json::Value>,
    status: StatusCode,
    facts: Option<Arc<crate::head::Facts>>,
    first_screen: Option<String>,
) -> Response {
    user.welcome = welcome;
    let bootstrap = Bootstrap {
        tenant: &site.tenant,
        user,
        is_members_area: site.is_members_area,
        region: crate::spa::region_of(headers),
        error_reporting: state.error_reporting,
    };
    let shown = crate::head::Page {
        tenant: &site.tenant,
        is_members_area: site.is_members_area,
        row,
        query: uri.query(),
        status,
        facts: facts.as_deref(),
    };
    let mut head = crate::head::html(&crate::head::head(&shown, uri.path()), &site.tenant, site.is_members_area);
    if let Some(first_screen) = &first_screen {
        head.push_str(first_screen);
    }
    let mut response = state.spa.page(&head, &bootstrap, status).await;
    if state.first_screen.enabled && crate::first_screen::has_plan(row) {
        // What the first screen was planned from: the browser's own cache must tell them apart.
        let h = response.headers_mut();
        h.insert(header::VARY, HeaderValue::from_static(crate::first_screen::VARY));
        h.insert("accept-ch", HeaderValue::from_static(crate::first_screen::ACCEPT_CH));
    }
    response
}

/// Appends the session cookies a page load renewed (or cleared); such an answer is never stored.
fn with_set_cookies(mut response: Response, cookies: Vec<HeaderValue>) -> Response {
    if cookies.is_empty() {
        return response;
    }
    for cookie in cookies {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The routing view the page carries for `signed_in` (the page's session, [`crate::session::page_user`]),
/// and the same user as the edge's route rules read them:
/// the visitor's abilities, or the signed-in user's from their profile. A profile that cannot be
/// read leaves the user signed in with a visitor's abilities and no profile; the page still
/// loads, and the API answers for itself.
async fn user_view(
    state: &GatewayState,
    site: &Site,
    headers: &HeaderMap,
    signed_in: Option<(runtime::auth::Claims, String)>,
) -> (UserView, routes::Visitor) {
    let Some((claims, token)) = signed_in else {
        let rules = crate::viewer::rules(site, None);
        return (
            UserView { abilities: rules_json(&rules), ..UserView::anonymous() },
            routes::Visitor { rules, ..Default::default() },
        );
    };
    let call = crate::session::call_context(site, &token, headers);
    let (rules, profile) = match crate::user_profile::load(&state.upstreams, &call, claims.sub).await {
        Ok(profile) => {
            (crate::viewer::rules(site, Some(&profile)), Some(crate::viewer::ProfileRoutingView::of(&profile)))
        }
        Err(error) => {
            tracing::warn!(%error, "profile unavailable for the page's session");
            (crate::viewer::rules(site, None), None)
        }
    };
    let visitor = routes::Visitor {
        is_authenticated: true,
        teaser_viewed: profile.as_ref().is_some_and(|p| p.teaser_viewed),
        rules: rules.clone(),
        welcome: Default::default(),
    };
    let user = UserView {
        is_authenticated: true,
        abilities: rules_json(&rules),
        profile: profile.map(|p| serde_json::to_value(p).expect("the routing view serializes")),
        welcome: Default::default(),
    };
    (user, visitor)
}

fn rules_json(rules: &[access::Rule]) -> Vec<serde_json::Value> {
    rules.iter().map(|rule| serde_json::to_value(rule).expect("a rule serializes")).collect()
}

/// A redirect the route table decided, keeping the welcome cookie a result page set.
fn redirect(status: StatusCode, location: &str, keep_welcome: Option<HeaderValue>) -> Response {
    let Ok(location) = HeaderValue::from_str(location) else {
        // Locations are built from checked slugs and percent-encoded values; this cannot happen.
        return StatusCode::NOT_FOUND.into_response();
    };
    let mut response = (status, [(header::LOCATION, location)]).into_response();
    if status == StatusCode::FOUND {
        // A guarding redirect depends on who asks: no cache may keep it.
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    if let Some(cookie) = keep_welcome {
        response.headers_mut().append(header::SET_COOKIE, cookie);
    }
    response
}

/// `GET /api/tenant-config`: the configuration the host's page carries, until the GraphQL
/// `tenantConfig` query takes over.
pub async fn tenant_config(Extension(site): Extension<Arc<Site>>) -> Response {
    ([(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"))], Json(&site.tenant)).into_response()
}

/// `GET /media/deals/...`: the deals service's generated logos and thumbnails.
pub async fn deals_media(State(state): State<GatewayState>, method: Method, uri: Uri, headers: HeaderMap) -> Response {
    if !crate::proxy::plain_path(uri.path(), "/media/deals/") {
        return StatusCode::NOT_FOUND.into_response();
    }
    let url = format!("{}{}", state.upstreams.deals.base(), uri.path());
    crate::proxy::pass_through(&state.media_http, &method, &url, &headers, None).await
}

/// `GET /media/videos/...?token=`: the unlocks service's media (the token is checked there;
/// Range requests and their 206 pass through).
pub async fn unlocks_media(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if !crate::proxy::plain_path(uri.path(), "/media/videos/") {
        return StatusCode::NOT_FOUND.into_response();
    }
    // A media token plays only for the user it was issued to: the request's session must be
    // that user's. A URL copied into another browser, signed out or signed in as somebody
    // else, is refused here; the unlocks service checks the forwarded token again, with the
    // token's signature and what opened the video.
    let holder = media_token(&uri).and_then(|t| ::unlocks_contract::api::token_holder(&t));
    let Some((claims, access_token)) = crate::session::media_user(&state, &site, &headers).await else {
        return media_refused("sign in to play this video");
    };
    if holder != Some(claims.sub) {
        return media_refused("the media token belongs to another user");
    }
    let path = uri.path_and_query().map(|p| p.as_str()).unwrap_or_else(|| uri.path());
    let url = format!("{}{path}", state.upstreams.unlocks_base);
    crate::proxy::pass_through(&state.media_http, &method, &url, &headers, Some(&access_token)).await
}

/// The `token` of a media URL's query.
fn media_token(uri: &Uri) -> Option<String> {
    let axum::extract::Query(mut query) =
        axum::extract::Query::<std::collections::HashMap<String, String>>::try_from_uri(uri).ok()?;
    query.remove("token")
}

fn media_refused(message: &str) -> Response {
    (StatusCode::FORBIDDEN, Json(serde_json::json!({ "code": "FORBIDDEN", "message": message }))).into_response()
}

/// `GET /media/...` (what no other service claims): the catalog's placeholder images and
/// trailers, under the tenant's `assetsUrlV2`.
pub async fn catalog_media(
    State(state): State<GatewayState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if !crate::proxy::plain_path(uri.path(), "/media/") {
        return StatusCode::NOT_FOUND.into_response();
    }
    let url = format!("{}{}", state.upstreams.catalog_base, uri.path());
    crate::proxy::pass_through(&state.media_http, &method, &url, &headers, None).await
}
