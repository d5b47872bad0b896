//! `/graphql`: queries by GET (a persisted document's hash, so a shared cache can key on the
//! URL), anything by POST; the CSRF check, body and batch limits, the document
//! ([`super::persisted`]), the signed-in user, execution, codes.

use std::sync::Arc;

use async_graphql::{parser::types::OperationType, BatchRequest, BatchResponse};
use axum::{
    body::Bytes,
    extract::rejection::{BytesRejection, FailedToBufferBody},
    extract::{RawQuery, State},
    http::{header, HeaderMap, HeaderValue, Method, StatusCode},
    response::{IntoResponse, Response},
    Extension, Json,
};
use runtime::http::CorrelationId;
use serde_json::json;
use tracing::Instrument;

use super::{context::RequestCtx, context::Viewer, errors, MAX_BATCH, MAX_BODY_BYTES};

/// The longest query string a GET may have: a hash, an operation name and its variables.
pub const MAX_GET_QUERY_BYTES: usize = 8 * 1024;
use super::persisted;
use crate::{answers, conditional, hosts::Site, session, GatewayState};

/// An answer that never reached execution: `{errors: [{message, extensions: {code}}]}`.
fn refused(status: StatusCode, code: &str, message: &str) -> Response {
    let body = json!({ "errors": [{ "message": message, "extensions": { "code": code } }] });
    (status, [(header::CACHE_CONTROL, HeaderValue::from_static(PRIVATE))], Json(body)).into_response()
}

pub async fn graphql(
    State(state): State<GatewayState>,
    Extension(site): Extension<Arc<Site>>,
    correlation: Option<Extension<CorrelationId>>,
    method: Method,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let batch = match method {
        Method::GET => {
            let correlation = correlation.map(|Extension(CorrelationId(id))| id.to_string());
            return get(&state, site, correlation, &headers, query.as_deref().unwrap_or("")).await;
        }
        Method::POST => match post_request(&method, &headers, body) {
            Ok(batch) => batch,
            Err(refusal) => return refusal,
        },
        _ => {
            let mut answer =
                refused(StatusCode::METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED", "GraphQL requests are GET or POST");
            answer.headers_mut().insert(header::ALLOW, HeaderValue::from_static("GET, POST"));
            return answer;
        }
    };
    let viewer = session::current_user(&state, &site, &headers).await.map(|(claims, token)| Viewer { claims, token });
    let request_ctx = RequestCtx::new(site, viewer, correlation.map(|Extension(CorrelationId(id))| id.to_string()));
    let response = match batch {
        BatchRequest::Single(request) => BatchResponse::Single(execute(&state, request, request_ctx, false).await),
        BatchRequest::Batch(requests) => {
            let mut responses = Vec::with_capacity(requests.len());
            for request in requests {
                responses.push(execute(&state, request, request_ctx.for_next_operation(), false).await);
            }
            BatchResponse::Batch(responses)
        }
    };
    // Cookies a resolver set (outgoingUpsellOneclickTracking's); no other header.
    let cookies: Vec<HeaderValue> =
        response.http_headers_iter().filter(|(name, _)| name == header::SET_COOKIE).map(|(_, v)| v).collect();
    let mut answer = ([(header::CACHE_CONTROL, HeaderValue::from_static(PRIVATE))], Json(response)).into_response();
    for cookie in cookies {
        answer.headers_mut().append(header::SET_COOKIE, cookie);
    }
    answer
}

/// A POSTed body: one operation or a batch, checked for CSRF, size and batch length.
// The error is the answer itself, made once per refused request: boxing it buys nothing.
#[allow(clippy::result_large_err)]
fn post_request(
    method: &Method,
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<BatchRequest, Response> {
    if !session::csrf_ok(method, headers) {
        return Err(refused(
            StatusCode::FORBIDDEN,
            "CSRF_CHECK_FAILED",
            &format!("A GraphQL request needs content-type application/json and the {} header", session::CSRF_HEADER),
        ));
    }
    // A body past the router's limit is not even read (axum's rejection, answered here with
    // the same code as one past this endpoint's own).
    let body = match body {
        Ok(body) if body.len() <= MAX_BODY_BYTES => body,
        Ok(_) | Err(BytesRejection::FailedToBufferBody(FailedToBufferBody::LengthLimitError(_))) => {
            return Err(refused(StatusCode::PAYLOAD_TOO_LARGE, "REQUEST_TOO_LARGE", "The request is too large"))
        }
        Err(e) => {
            return Err(refused(e.status(), "BAD_REQUEST", &format!("The request is not valid: {}", e.body_text())))
        }
    };
    let batch: BatchRequest = serde_json::from_slice(&body)
        .map_err(|e| refused(StatusCode::BAD_REQUEST, "BAD_REQUEST", &format!("The request is not valid: {e}")))?;
    if let BatchRequest::Batch(requests) = &batch {
        if requests.len() > MAX_BATCH {
            return Err(refused(
                StatusCode::BAD_REQUEST,
                "BATCH_TOO_LARGE",
                &format!("A batch may hold at most {MAX_BATCH} operations"),
            ));
        }
        if requests.is_empty() {
            return Err(refused(StatusCode::BAD_REQUEST, "BAD_REQUEST", "The batch is empty"));
        }
    }
    Ok(batch)
}

/// A GET: a query named by its persisted document's hash alone, with the CSRF header (a
/// page of another site cannot send it), `operationName`, `variables` and `extensions` in the
/// query string. A text, or a mutation, is refused: those are POSTed.
#[allow(clippy::result_large_err)]
fn get_request(
    state: &GatewayState,
    headers: &HeaderMap,
    query: &str,
) -> Result<(async_graphql::Request, persisted::Resolved, String), Response> {
    let marked = headers.get(session::CSRF_HEADER).is_some_and(|v| !v.as_bytes().is_empty());
    if !marked {
        return Err(refused(
            StatusCode::FORBIDDEN,
            "CSRF_CHECK_FAILED",
            &format!("A GraphQL request needs the {} header", session::CSRF_HEADER),
        ));
    }
    if query.len() > MAX_GET_QUERY_BYTES {
        return Err(refused(StatusCode::URI_TOO_LONG, "REQUEST_TOO_LARGE", "The request is too large"));
    }
    let bad =
        |what: &str| refused(StatusCode::BAD_REQUEST, "BAD_REQUEST", &format!("The request is not valid: {what}"));
    let mut request = async_graphql::Request::new("");
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        match &*key {
            "query" if !value.is_empty() => {
                return Err(bad("a GET names a persisted document by its hash; a document's text is POSTed"))
            }
            "query" => {}
            "operationName" if !value.is_empty() => request.operation_name = Some(value.into_owned()),
            "operationName" => {}
            "variables" => {
                let json: serde_json::Value =
                    serde_json::from_str(&value).map_err(|e| bad(&format!("variables: {e}")))?;
                request.variables = async_graphql::Variables::from_json(json);
            }
            "extensions" => {
                request.extensions = serde_json::from_str(&value).map_err(|e| bad(&format!("extensions: {e}")))?;
            }
            _ => {}
        }
    }
    let resolved = match state.documents.resolve(&mut request) {
        Ok(resolved) => resolved,
        // The lookup's refusals are GraphQL answers (an Apollo client reads them to send the
        // text by POST, or to reload a page built with other documents).
        Err(e) => return Err(private(async_graphql::Response::from_errors(vec![e]))),
    };
    let Some(named_hash) = resolved.by_hash_only.clone() else {
        return Err(bad("a GET names a persisted document by its hash; a document's text is POSTed"));
    };
    if resolved.document.operation_type(request.operation_name.as_deref()) == Some(OperationType::Mutation) {
        let mut answer = refused(StatusCode::METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED", "A mutation is POSTed");
        answer.headers_mut().insert(header::ALLOW, HeaderValue::from_static("POST"));
        return Err(answer);
    }
    Ok((request, resolved, named_hash))
}

/// A GET's answer. A visitor's (no session cookie, a brand host, only [`answers::SHARED_FIELDS`])
/// comes from this replica's kept answers when it has it, else from the engine, and is kept
/// when the engine answered it cleanly; it is `public`, with a validator, `Vary: Cookie` and
/// the surrogate keys a CDN purges by. Any other answer is `private, no-store`.
async fn get(
    state: &GatewayState,
    site: Arc<Site>,
    correlation: Option<String>,
    headers: &HeaderMap,
    query: &str,
) -> Response {
    let (request, resolved, hash) = match get_request(state, headers, query) {
        Ok(named) => named,
        Err(refusal) => return refusal,
    };
    let visitor = !session::has_session_cookie(headers) && !site.is_members_area;
    if !(visitor && answers::shared(resolved.document.root_fields(request.operation_name.as_deref()))) {
        let viewer = session::current_user(state, &site, headers).await.map(|(claims, token)| Viewer { claims, token });
        let ctx = RequestCtx::new(site, viewer, correlation);
        return private(execute(state, request, ctx, true).await);
    }
    match kept_answer(state, &site, request, hash, correlation).await {
        Ok(answer) => public(state, &site, &answer, headers),
        Err(response) => private(response),
    }
}

/// A visitor's answer to a shared query: this replica's kept one, else the engine's, kept when
/// it answered cleanly (no error, no cookie, nothing a field marks private). An answer that
/// cannot be kept is handed back as the engine gave it.
async fn kept_answer(
    state: &GatewayState,
    site: &Arc<Site>,
    request: async_graphql::Request,
    hash: String,
    correlation: Option<String>,
) -> Result<Arc<answers::Answer>, async_graphql::Response> {
    let key = answers::Key {
        hash,
        operation: request.operation_name.clone(),
        // serde_json's maps are ordered by key: one text per set of variables.
        variables: serde_json::to_value(&request.variables).map(|v| v.to_string()).unwrap_or_default(),
        host: site.host.clone(),
    };
    if let Some(answer) = state.answers.get(&key) {
        return Ok(answer);
    }
    let generation = state.answers.generation();
    let response = execute(state, request, RequestCtx::new(site.clone(), None, correlation), true).await;
    let keepable = response.errors.is_empty()
        && response.http_headers.get(header::SET_COOKIE).is_none()
        && response.cache_control.public
        && response.cache_control.max_age != -1;
    if !keepable {
        return Err(response);
    }
    let answer = Arc::new(answers::Answer::new(Bytes::from(serde_json::to_vec(&response).unwrap_or_default())));
    if let Some(generation) = generation {
        state.answers.put(key, answer.clone(), generation);
    }
    Ok(answer)
}

/// The engine's answer to the front end's query `operation` for a page's first screen
/// (crate::first_screen), asked the way the page's own GET would ask it: by the document's
/// hash, for the page's session (`viewer`) or a visitor, a visitor's from the kept answers.
/// None when the front end has no such query or the answer has an error or sets a cookie:
/// the page then asks for itself.
pub async fn first_screen_answer(
    state: &GatewayState,
    site: Arc<Site>,
    viewer: Option<Viewer>,
    operation: &str,
    variables: serde_json::Value,
    correlation: Option<String>,
) -> Option<Bytes> {
    let hash = state.documents.hash_of_operation(operation)?;
    let mut request = async_graphql::Request::new("").operation_name(operation);
    request.variables = async_graphql::Variables::from_json(variables);
    request.extensions.insert(
        "persistedQuery".to_owned(),
        async_graphql::Value::from_json(json!({ "version": 1, "sha256Hash": hash })).ok()?,
    );
    let resolved = state.documents.resolve(&mut request).ok()?;
    if viewer.is_none()
        && !site.is_members_area
        && answers::shared(resolved.document.root_fields(request.operation_name.as_deref()))
    {
        return kept_answer(state, &site, request, hash, correlation).await.ok().map(|answer| answer.body.clone());
    }
    let response = execute(state, request, RequestCtx::new(site, viewer, correlation), true).await;
    let clean = response.errors.is_empty() && response.http_headers.get(header::SET_COOKIE).is_none();
    clean.then(|| serde_json::to_vec(&response).ok().map(Bytes::from)).flatten()
}

/// An answer of the engine for one caller: `private, no-store`, with the cookies a resolver set.
fn private(response: async_graphql::Response) -> Response {
    let cookies: Vec<HeaderValue> = response.http_headers.get_all(header::SET_COOKIE).iter().cloned().collect();
    let mut answer = Json(response).into_response();
    answer.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(PRIVATE));
    for cookie in cookies {
        answer.headers_mut().append(header::SET_COOKIE, cookie);
    }
    answer
}

/// A visitor's answer, or `304 Not Modified` when the caller holds it already.
fn public(state: &GatewayState, site: &Site, answer: &answers::Answer, headers: &HeaderMap) -> Response {
    let mut response = if conditional::none_match(headers, answer.etag.to_str().unwrap_or_default()) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut ok = (StatusCode::OK, answer.body.clone()).into_response();
        ok.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        ok
    };
    let h = response.headers_mut();
    h.insert(header::CACHE_CONTROL, state.answers.freshness.header());
    h.insert("cdn-cache-control", state.answers.freshness.cdn_header());
    h.insert(header::ETAG, answer.etag.clone());
    h.append(header::VARY, HeaderValue::from_static("cookie"));
    if let Ok(keys) = HeaderValue::from_str(&format!(
        "{key} {key}-{tenant}",
        key = answers::SURROGATE_KEY,
        tenant = site.tenant.tenant
    )) {
        h.insert("surrogate-key", keys);
    }
    response
}

/// What every answer for one caller says to caches.
pub const PRIVATE: &str = "private, no-store";

/// One operation, in one span (not one per resolved field: a page resolves hundreds), named
/// by the operation and marked when it answers with errors.
async fn execute(
    state: &GatewayState,
    request: async_graphql::Request,
    ctx: RequestCtx,
    named: bool,
) -> async_graphql::Response {
    let span = tracing::info_span!(
        "graphql.operation",
        operation = request.operation_name.as_deref().unwrap_or(""),
        tenant = ctx.tenant(),
        errors = tracing::field::Empty,
    );
    let mut request = request;
    // A GET's document was named before (its method depends on it); a POST's is named here.
    if !named {
        if let Err(e) = state.documents.resolve(&mut request) {
            return async_graphql::Response::from_errors(vec![e]);
        }
    }
    let loaders = super::catalog::loaders::CatalogLoaders::new(state.upstreams.clone(), &ctx);
    let request = request.data(ctx).data(loaders);
    let response = errors::finish(state.schema.execute(request).instrument(span.clone()).await);
    if !response.errors.is_empty() {
        span.record("errors", response.errors.len());
    }
    response
}
