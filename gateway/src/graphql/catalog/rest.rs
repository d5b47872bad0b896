//! The catalog's part of the REST edge (product.md, "Calls and sessions"), under the generic
//! client's semantics: JSON in and out, and any status outside 200-299 answered with
//! `{errors: [{title, details}]}` (title the SCREAMING_SNAKE code, details the message).
//!
//! - `GET /api/toprated?page&size`: `{data: {videos, totalCount, page, size}}` (the route
//!   reads `data.data.videos`).
//! - `POST /recommendations-tracking` {email, userId, elementClicked, recommId}.
//! - `POST /rest/reel/{view|rating|add-bookmark|delete-bookmark|delete-rating|purchase}` {email, userId,
//!   timestamp, itemId, recommId, rating}. These are the recommender's signals; a reel's
//!   purchase is tracked here, the video itself is bought with `UnlockVideo`.
//!
//! The two POSTs act for the signed-in user (session cookie) and pass the CSRF rule of every
//! state-changing request; each is also answered under `/api` (the generic client's base).

use std::sync::Arc;

use axum::{
    body::Bytes,
    extract::{Path, Query, State},
    http::{header, HeaderMap, HeaderValue, Method, StatusCode},
    response::{IntoResponse, Response},
    routing::{get, post},
    Extension, Json, Router,
};
use catalog_contract::{
    api::{RecommendationTrackingRequest, ReelTrackingRequest},
    client::Paging,
};
use runtime::client::{CallContext, UpstreamError};
use serde::Deserialize;
use serde_json::json;

use crate::{hosts::Site, session, GatewayState};

pub fn router() -> Router<GatewayState> {
    Router::new()
        .route("/api/toprated", get(top_rated))
        .route("/recommendations-tracking", post(recommendations_tracking))
        .route("/api/recommendations-tracking", post(recommendations_tracking))
        .route("/rest/reel/{action}", post(reel_tracking))
        .route("/api/rest/reel/{action}", post(reel_tracking))
}

/// A generic-client error answer: `{errors: [{title, details}]}` with its status.
pub struct Failure {
    status: StatusCode,
    title: String,
    details: String,
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let body = json!({ "errors": [{ "title": self.title, "details": self.details }] });
        (self.status, [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))], Json(body)).into_response()
    }
}

pub fn failure(status: StatusCode, title: &str, details: &str) -> Failure {
    Failure { status, title: title.to_owned(), details: details.to_owned() }
}

fn refused(e: UpstreamError) -> Failure {
    match e {
        UpstreamError::Refused { status, code, message, .. } if (400..500).contains(&status) => {
            let code = if code == "INVALID_REQUEST" { "BAD_REQUEST".to_owned() } else { code };
            failure(StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST), &code, &message)
        }
        other => {
            tracing::warn!(error = %other, "catalog call failed");
            failure(StatusCode::SERVICE_UNAVAILABLE, "SERVICE_UNAVAILABLE", "Please try again later")
        }
    }
}

#[derive(Deserialize)]
pub struct TopRatedQuery {
    page: Option<String>,
    size: Option<String>,
}

fn number(value: Option<&str>, name: &str) -> Result<Option<i64>, Failure> {
    match value.filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) => v
            .parse::<i64>()
            .map(Some)
            .map_err(|_| failure(StatusCode::BAD_REQUEST, "BAD_REQUEST", &format!("{name} must be a number"))),
    }
}

/// `GET /api/toprated`: the brand's top-rated videos, a page at a time.
async fn top_rated(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    query: Result<Query<TopRatedQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Ok(Query(q)) = query else {
        return failure(StatusCode::BAD_REQUEST, "BAD_REQUEST", "The query is not valid").into_response();
    };
    let paging = match (number(q.page.as_deref(), "page"), number(q.size.as_deref(), "size")) {
        (Ok(page), Ok(size)) => Paging { page, size },
        (Err(r), _) | (_, Err(r)) => return r.into_response(),
    };
    match state.upstreams.catalog.top_rated(&CallContext::anonymous(&site.tenant.tenant), &paging).await {
        Ok(page) => (
            [(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"))],
            Json(json!({ "data": {
                "videos": page.videos, "totalCount": page.total_count, "page": page.page, "size": page.size,
            }})),
        )
            .into_response(),
        // A page or size out of bounds is a bad request (400), as a malformed one is.
        Err(e) => {
            let mut failure = refused(e);
            if failure.status == StatusCode::UNPROCESSABLE_ENTITY {
                failure.status = StatusCode::BAD_REQUEST;
            }
            failure.into_response()
        }
    }
}

/// The signed-in user of a state-changing call, as the catalog takes it.
async fn acting(
    state: &GatewayState,
    site: &Site,
    method: &Method,
    headers: &HeaderMap,
) -> Result<CallContext, Failure> {
    if !session::csrf_ok(method, headers) {
        return Err(failure(
            StatusCode::FORBIDDEN,
            "CSRF_CHECK_FAILED",
            &format!("The request needs content-type application/json and the {} header", session::CSRF_HEADER),
        ));
    }
    match session::current_user(state, site, headers).await {
        Some((_, token)) => Ok(session::call_context(site, &token, headers)),
        None => Err(failure(StatusCode::UNAUTHORIZED, "UNAUTHENTICATED", "You need to log in")),
    }
}

fn parse<T: serde::de::DeserializeOwned>(body: &Bytes) -> Result<T, Failure> {
    serde_json::from_slice(body)
        .map_err(|e| failure(StatusCode::BAD_REQUEST, "BAD_REQUEST", &format!("The body is not valid: {e}")))
}

/// `POST /recommendations-tracking`: which element of a shelf (its recommId) was clicked.
async fn recommendations_tracking(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let caller = match acting(&state, &site, &method, &headers).await {
        Ok(caller) => caller,
        Err(failure) => return failure.into_response(),
    };
    let request: RecommendationTrackingRequest = match parse(&body) {
        Ok(request) => request,
        Err(failure) => return failure.into_response(),
    };
    match state.upstreams.catalog.track_recommendation(&caller, &request).await {
        Ok(tracked) => Json(tracked).into_response(),
        Err(e) => refused(e).into_response(),
    }
}

/// `POST /rest/reel/{action}`: a reel viewed, rated (1 to 10), bookmarked, unbookmarked or
/// purchased.
async fn reel_tracking(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    Path(action): Path<String>,
    method: Method,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    // The catalog owns the list of actions (catalog::api::reel_action).
    if catalog_contract::api::reel_action(&action).is_none() {
        return failure(StatusCode::NOT_FOUND, "NOT_FOUND", &format!("No reel action {action:?}")).into_response();
    }
    if !site.tenant.features.reels {
        return failure(StatusCode::NOT_FOUND, "NOT_FOUND", "Not found").into_response();
    }
    let caller = match acting(&state, &site, &method, &headers).await {
        Ok(caller) => caller,
        Err(failure) => return failure.into_response(),
    };
    let request: ReelTrackingRequest = match parse(&body) {
        Ok(request) => request,
        Err(failure) => return failure.into_response(),
    };
    match state.upstreams.catalog.track_reel(&caller, &action, &request).await {
        Ok(tracked) => Json(tracked).into_response(),
        Err(e) => refused(e).into_response(),
    }
}
