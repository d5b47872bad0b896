//! `POST /graphql`: CSRF check, body and batch limits, the signed-in user, execution, codes.

use std::sync::Arc;

use async_graphql::{BatchRequest, BatchResponse};
use axum::{
    body::Bytes,
    extract::rejection::{BytesRejection, FailedToBufferBody},
    extract::State,
    http::{header, HeaderMap, HeaderValue, Method, StatusCode},
    response::{IntoResponse, Response},
    Extension, Json,
};
use runtime::http::CorrelationId;
use serde_json::json;
use tracing::Instrument;

use super::{context::RequestCtx, context::Viewer, errors, MAX_BATCH, MAX_BODY_BYTES};
use crate::{hosts::Site, session, GatewayState};

/// An answer that never reached execution: `{errors: [{message, extensions: {code}}]}`.
fn refused(status: StatusCode, code: &str, message: &str) -> Response {
    let body = json!({ "errors": [{ "message": message, "extensions": { "code": code } }] });
    (status, [(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))], Json(body)).into_response()
}

pub async fn graphql(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    correlation: Option<Extension<CorrelationId>>,
    method: Method,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    if method != Method::POST {
        return refused(StatusCode::METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED", "GraphQL requests are POSTed");
    }
    if !session::csrf_ok(&method, &headers) {
        return refused(
            StatusCode::FORBIDDEN,
            "CSRF_CHECK_FAILED",
            &format!("A GraphQL request needs content-type application/json and the {} header", session::CSRF_HEADER),
        );
    }
    // A body past the router's limit is not even read (axum's rejection, answered here with
    // the same code as one past this endpoint's own).
    let body = match body {
        Ok(body) if body.len() <= MAX_BODY_BYTES => body,
        Ok(_) | Err(BytesRejection::FailedToBufferBody(FailedToBufferBody::LengthLimitError(_))) => {
            return refused(StatusCode::PAYLOAD_TOO_LARGE, "REQUEST_TOO_LARGE", "The request is too large")
        }
        Err(e) => return refused(e.status(), "BAD_REQUEST", &format!("The request is not valid: {}", e.body_text())),
    };
    let batch: BatchRequest = match serde_json::from_slice(&body) {
        Ok(batch) => batch,
        Err(e) => return refused(StatusCode::BAD_REQUEST, "BAD_REQUEST", &format!("The request is not valid: {e}")),
    };
    if let BatchRequest::Batch(requests) = &batch {
        if requests.len() > MAX_BATCH {
            return refused(
                StatusCode::BAD_REQUEST,
                "BATCH_TOO_LARGE",
                &format!("A batch may hold at most {MAX_BATCH} operations"),
            );
        }
        if requests.is_empty() {
            return refused(StatusCode::BAD_REQUEST, "BAD_REQUEST", "The batch is empty");
        }
    }
    let viewer = session::current_user(&state, &site, &headers).await.map(|(claims, token)| Viewer { claims, token });
    let request_ctx = RequestCtx::new(site, viewer, correlation.map(|Extension(CorrelationId(id))| id.to_string()));
    let response = match batch {
        BatchRequest::Single(request) => BatchResponse::Single(execute(&state, request, request_ctx).await),
        BatchRequest::Batch(requests) => {
            let mut responses = Vec::with_capacity(requests.len());
            for request in requests {
                responses.push(execute(&state, request, request_ctx.for_next_operation()).await);
            }
            BatchResponse::Batch(responses)
        }
    };
    // Cookies a resolver set (outgoingUpsellOneclickTracking's); no other header.
    let cookies: Vec<HeaderValue> =
        response.http_headers_iter().filter(|(name, _)| name == header::SET_COOKIE).map(|(_, v)| v).collect();
    let mut answer = ([(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))], Json(response)).into_response();
    for cookie in cookies {
        answer.headers_mut().append(header::SET_COOKIE, cookie);
    }
    answer
}

/// One operation, in one span (not one per resolved field: a page resolves hundreds), named
/// by the operation and marked when it answers with errors.
async fn execute(state: &GatewayState, request: async_graphql::Request, ctx: RequestCtx) -> async_graphql::Response {
    let span = tracing::info_span!(
        "graphql.operation",
        operation = request.operation_name.as_deref().unwrap_or(""),
        tenant = ctx.tenant(),
        errors = tracing::field::Empty,
    );
    let loaders = super::catalog::loaders::CatalogLoaders::new(state.upstreams.clone(), &ctx);
    let request = request.data(ctx).data(loaders);
    let response = errors::finish(state.schema.execute(request).instrument(span.clone()).await);
    if !response.errors.is_empty() {
        span.record("errors", response.errors.len());
    }
    response
}
