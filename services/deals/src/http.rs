//! The internal API: findDeals and the offers page for the gateway, the users' interstitial
//! answers and carousel tracking, the /deals confirmation check, the operators' admin-only
//! deal management, and the generated deal images.
//!
//! Requests and answers are JSON with the spec's names (camelCase). Every refusal is
//! `{code, message}` with a SCREAMING_SNAKE code (an invalid deal also names its `field`).

use axum::{
    extract::{rejection::JsonRejection, rejection::PathRejection, rejection::QueryRejection, Path, Query, State},
    http::{header, StatusCode},
    response::{IntoResponse, Response},
    routing::get,
    Extension, Json, Router,
};
use chrono::{DateTime, Utc};
use proto_events::deals::{DealCarouselStep, DealEvent, DealType};
use proto_events::{Actor, EventMeta};
use runtime::auth::{Admin, Authenticated, Claims, Gate, MaybeAuthenticated, Route, ServeRoute};
use runtime::http::CorrelationId;
use uuid::Uuid;

use crate::api::*;
use crate::commands::{run_deal, run_interstitial, track_carousel, DealOutcome};
use crate::confirmation::parse_confirmation;
use crate::domain::{is_snoozed, max_limit, DealCommand, InterstitialCommand, CAROUSEL_LIMIT, GRID_LIMIT};
use crate::input::{self, validate, InvalidDeal};
use crate::media::{parse_file, placeholder_svg};
use crate::{queries, routes, State as DealsState};

/// Longest failure reason a carousel event may carry.
pub const MAX_REASON: usize = 500;

pub fn router(state: DealsState) -> Router {
    let router = Router::new()
        .serve(&routes::FIND_DEALS, find_deals)
        .serve(&routes::CHECK_CONFIRMATION, check_confirmation)
        .serve(&routes::TRACK_CAROUSEL_EVENT, track_carousel_event)
        .serve(&routes::OFFERS, offers)
        .serve(&routes::INTERSTITIAL, interstitial)
        .serve(&routes::SNOOZE_INTERSTITIAL, snooze_interstitial)
        .serve(&routes::CONTINUE_INTERSTITIAL, continue_interstitial)
        .serve(&routes::ADMIN_LIST_DEALS, admin_list)
        .serve(&routes::ADMIN_CREATE_DEAL, admin_create)
        .serve(&routes::ADMIN_GET_DEAL, admin_get)
        .serve(&routes::ADMIN_EDIT_DEAL, admin_edit)
        .serve(&routes::ADMIN_ENABLE_DEAL, admin_enable)
        .serve(&routes::ADMIN_DISABLE_DEAL, admin_disable)
        .serve(&routes::ADMIN_RANK_DEAL, admin_rank)
        .route("/media/deals/{deal_id}/{file}", get(media));
    let gate = Gate::new(crate::SERVICE.name, state.verifier.clone(), INTERNAL_ROUTES);
    gate.guard(router.with_state(state))
}

/// Who may call each internal route (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md):
/// the trust table, declared with the routes in the contract ([`routes::ALL`]).
pub const INTERNAL_ROUTES: &[Route] = routes::ALL;

pub use crate::error::ApiError;

fn meta(actor: Actor, site: &str, correlation: Option<Extension<CorrelationId>>) -> EventMeta {
    let mut meta = EventMeta::new(actor).with_tenant(site);
    if let Some(Extension(CorrelationId(id))) = correlation {
        meta = meta.with_correlation(id);
    }
    meta
}

/// The brand key of `site` (case-insensitive), or UNKNOWN_SITE.
fn site_key(state: &DealsState, site: &str) -> Result<String, ApiError> {
    state.sites.get(site).map(|s| s.key.clone()).ok_or_else(|| ApiError::UnknownSite(site.to_owned()))
}

/// Admin rights are per brand: an operator manages the deals of the brand whose host they
/// are signed in on (the token's tenant), and of no other.
fn own_brand(claims: &Claims, site: &str) -> Result<(), ApiError> {
    if claims.tenant.eq_ignore_ascii_case(site) {
        Ok(())
    } else {
        Err(ApiError::AnotherBrand { admin_of: claims.tenant.clone(), site: site.to_owned() })
    }
}

fn views(deals: &[proto_events::deals::Deal]) -> Vec<DealView> {
    deals.iter().map(DealView::from).collect()
}

// --- reads for the gateway ------------------------------------------------------------

/// findDeals(input: {limit, type, site}).
#[tracing::instrument(name = "find_deals", skip_all)]
async fn find_deals(
    State(state): State<DealsState>,
    MaybeAuthenticated(claims): MaybeAuthenticated,
    query: Result<Query<FindDealsQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let site = site_key(&state, &query.site)?;
    let max = max_limit(query.deal_type);
    let limit = match query.limit {
        None => max,
        Some(n) if (1..=i64::from(max)).contains(&n) => n as u32,
        Some(_) => {
            return Err(ApiError::Invalid(format!(
                "limit must be between 1 and {max} for {} deals",
                deal_type_name(query.deal_type)
            )))
        }
    };
    let viewer = queries::viewer(&state.pool, claims.map(|c| c.sub)).await?;
    // A DealsResponse, written around the database's array of stored answers.
    let deals = queries::find_deals_json(&state.pool, &site, query.deal_type, viewer, limit).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], format!("{{\"deals\":{deals}}}")).into_response())
}

async fn interstitial_view(state: &DealsState, user_id: Uuid, site: &str) -> Result<InterstitialView, ApiError> {
    let until = queries::snoozed_until(&state.pool, user_id, site).await?;
    Ok(view_at(site, until, state.clock.now()))
}

fn view_at(site: &str, until: Option<DateTime<Utc>>, now: DateTime<Utc>) -> InterstitialView {
    let snoozed = is_snoozed(until, now);
    InterstitialView { site: site.to_owned(), snoozed, snoozed_until: until.filter(|_| snoozed) }
}

/// The offers page: the brand's offer page id, the offers grid (interstitial deals, 15) and
/// the signed-in user's interstitial.
#[tracing::instrument(name = "offers", skip_all)]
async fn offers(
    State(state): State<DealsState>,
    MaybeAuthenticated(claims): MaybeAuthenticated,
    query: Result<Query<SiteQuery>, QueryRejection>,
) -> Result<Json<OffersResponse>, ApiError> {
    let Query(query) = query?;
    let site = state.sites.get(&query.site).cloned().ok_or_else(|| ApiError::UnknownSite(query.site.clone()))?;
    let user = claims.map(|c| c.sub);
    let viewer = queries::viewer(&state.pool, user).await?;
    let deals = queries::find_deals(&state.pool, &site.key, DealType::Interstitial, viewer, GRID_LIMIT).await?;
    let interstitial = match user {
        Some(user_id) => Some(interstitial_view(&state, user_id, &site.key).await?),
        None => None,
    };
    Ok(Json(OffersResponse { site: site.key, offer_page_id: site.offer_page_id, deals: views(&deals), interstitial }))
}

/// The /deals confirmation payload as the ConfirmOutgoingUpsell modal's props.
#[tracing::instrument(name = "check_confirmation", skip_all)]
async fn check_confirmation(
    query: Result<Query<ConfirmationQuery>, QueryRejection>,
) -> Result<Json<ConfirmOutgoingUpsellProps>, ApiError> {
    let Query(query) = query?;
    parse_confirmation(&query.confirmation).map(Json).map_err(ApiError::Confirmation)
}

// --- the users' answers -------------------------------------------------------------------

#[tracing::instrument(name = "interstitial", skip_all)]
async fn interstitial(
    State(state): State<DealsState>,
    Authenticated(claims): Authenticated,
    query: Result<Query<SiteQuery>, QueryRejection>,
) -> Result<Json<InterstitialView>, ApiError> {
    let Query(query) = query?;
    let site = site_key(&state, &query.site)?;
    Ok(Json(interstitial_view(&state, claims.sub, &site).await?))
}

/// Hide the interstitial for one month (interstitial_snooze).
#[tracing::instrument(name = "snooze_interstitial", skip_all)]
async fn snooze_interstitial(
    State(state): State<DealsState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<InterstitialAnswer>, JsonRejection>,
) -> Result<Json<InterstitialView>, ApiError> {
    answer(state, claims.sub, correlation, body, true).await
}

/// Go on past the interstitial (interstitial_continue).
#[tracing::instrument(name = "continue_interstitial", skip_all)]
async fn continue_interstitial(
    State(state): State<DealsState>,
    Authenticated(claims): Authenticated,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<InterstitialAnswer>, JsonRejection>,
) -> Result<Json<InterstitialView>, ApiError> {
    answer(state, claims.sub, correlation, body, false).await
}

async fn answer(
    state: DealsState,
    user_id: Uuid,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<InterstitialAnswer>, JsonRejection>,
    snooze: bool,
) -> Result<Json<InterstitialView>, ApiError> {
    let Json(request) = body?;
    let site = site_key(&state, &request.site)?;
    let now = state.clock.now();
    let command = if snooze {
        InterstitialCommand::Snooze { user_id, site: site.clone(), deal_id: request.deal_id, now }
    } else {
        InterstitialCommand::Continue { user_id, site: site.clone(), deal_id: request.deal_id, now }
    };
    let after = run_interstitial(&state, user_id, command, &meta(Actor::User(user_id), &site, correlation)).await?;
    Ok(Json(view_at(&site, after.snoozed_until(&site), now)))
}

/// A step of loading the deal carousel (requested, success, failed).
#[tracing::instrument(name = "track_carousel_event", skip_all)]
async fn track_carousel_event(
    State(state): State<DealsState>,
    MaybeAuthenticated(claims): MaybeAuthenticated,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<CarouselEventRequest>, JsonRejection>,
) -> Result<(StatusCode, Json<CarouselEventResponse>), ApiError> {
    let Json(request) = body?;
    let site = site_key(&state, &request.site)?;
    if !request.deal_ids.is_empty() && request.step != DealCarouselStep::Success {
        return Err(ApiError::Invalid("dealIds are told only with step success".into()));
    }
    if request.deal_ids.len() > CAROUSEL_LIMIT as usize {
        return Err(ApiError::Invalid(format!("a carousel stores at most {CAROUSEL_LIMIT} deals")));
    }
    let reason = request.reason.map(|r| r.trim().to_owned()).filter(|r| !r.is_empty());
    if reason.is_some() && request.step != DealCarouselStep::Failed {
        return Err(ApiError::Invalid("a reason is told only with step failed".into()));
    }
    if reason.as_ref().is_some_and(|r| r.chars().count() > MAX_REASON) {
        return Err(ApiError::Invalid(format!("reason must be at most {MAX_REASON} characters")));
    }
    let user_id = claims.map(|c| c.sub);
    let actor = match user_id {
        Some(id) => Actor::User(id),
        None => Actor::System("deals.visitor".into()),
    };
    let event = DealEvent::DealCarouselTracked {
        site: site.clone(),
        user_id,
        step: request.step,
        deal_ids: request.deal_ids,
        reason,
        tracked_at: state.clock.now(),
    };
    let (tracking_id, _) = track_carousel(&state, event, &meta(actor, &site, correlation)).await?;
    Ok((StatusCode::ACCEPTED, Json(CarouselEventResponse { tracking_id })))
}

// --- operators ---------------------------------------------------------------------------

#[tracing::instrument(name = "admin_list", skip_all)]
async fn admin_list(
    State(state): State<DealsState>,
    Admin(claims): Admin,
    query: Result<Query<SiteQuery>, QueryRejection>,
) -> Result<Json<DealsResponse>, ApiError> {
    let Query(query) = query?;
    let site = site_key(&state, &query.site)?;
    own_brand(&claims, &site)?;
    let deals = queries::site_deals(&state.pool, &site).await?;
    Ok(Json(DealsResponse { deals: views(&deals) }))
}

#[tracing::instrument(name = "admin_get", skip_all)]
async fn admin_get(
    State(state): State<DealsState>,
    Admin(claims): Admin,
    deal_id: Result<Path<Uuid>, PathRejection>,
) -> Result<Json<DealView>, ApiError> {
    let Path(deal_id) = deal_id?;
    let deal = queries::deal(&state.pool, deal_id).await?.ok_or(ApiError::DealNotFound(deal_id))?;
    own_brand(&claims, &deal.site)?;
    Ok(Json(DealView::from(&deal)))
}

/// Creates a deal: 201 with the deal; the same deal again answers 200 and records nothing.
#[tracing::instrument(name = "admin_create", skip_all)]
async fn admin_create(
    State(state): State<DealsState>,
    Admin(claims): Admin,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<DealInput>, JsonRejection>,
) -> Result<(StatusCode, Json<DealView>), ApiError> {
    let Json(request) = body?;
    let deal_id = request.id.unwrap_or_else(Uuid::now_v7);
    let deal = validate(request, deal_id, |s| state.sites.contains(s))?;
    own_brand(&claims, &deal.site)?;
    let meta = meta(Actor::Admin(claims.sub), &deal.site, correlation);
    let outcome = run_deal(&state, deal_id, DealCommand::Create { deal, at: state.clock.now() }, &meta).await??;
    let status = if outcome.changed { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(DealView::from(&outcome.deal))))
}

/// Replaces a deal with the one sent (every field, ranks and flags included).
#[tracing::instrument(name = "admin_edit", skip_all)]
async fn admin_edit(
    State(state): State<DealsState>,
    Admin(claims): Admin,
    deal_id: Result<Path<Uuid>, PathRejection>,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<DealInput>, JsonRejection>,
) -> Result<Json<DealView>, ApiError> {
    let Path(deal_id) = deal_id?;
    let Json(request) = body?;
    if request.id.is_some_and(|id| id != deal_id) {
        return Err(InvalidDeal { field: "id", message: "must be the id in the path, or absent".into() }.into());
    }
    let deal = validate(request, deal_id, |s| state.sites.contains(s))?;
    // Neither another brand's deal, nor a deal moved to another brand.
    if let Some(existing) = queries::deal(&state.pool, deal_id).await? {
        own_brand(&claims, &existing.site)?;
    }
    own_brand(&claims, &deal.site)?;
    let meta = meta(Actor::Admin(claims.sub), &deal.site, correlation);
    let outcome = run_deal(&state, deal_id, DealCommand::Edit { deal, at: state.clock.now() }, &meta).await??;
    Ok(Json(DealView::from(&outcome.deal)))
}

async fn placement(
    state: &DealsState,
    admin: &Claims,
    deal_id: Uuid,
    correlation: Option<Extension<CorrelationId>>,
    command: DealCommand,
) -> Result<DealOutcome, ApiError> {
    // The tenant of the events is the deal's site.
    let site = queries::deal(&state.pool, deal_id).await?.map(|d| d.site).ok_or(ApiError::DealNotFound(deal_id))?;
    own_brand(admin, &site)?;
    Ok(run_deal(state, deal_id, command, &meta(Actor::Admin(admin.sub), &site, correlation)).await??)
}

#[tracing::instrument(name = "admin_enable", skip_all)]
async fn admin_enable(
    State(state): State<DealsState>,
    Admin(claims): Admin,
    deal_id: Result<Path<Uuid>, PathRejection>,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<PlacementRequest>, JsonRejection>,
) -> Result<Json<DealView>, ApiError> {
    let (Path(deal_id), Json(request)) = (deal_id?, body?);
    let command = DealCommand::Enable { deal_type: request.deal_type, at: state.clock.now() };
    let outcome = placement(&state, &claims, deal_id, correlation, command).await?;
    Ok(Json(DealView::from(&outcome.deal)))
}

#[tracing::instrument(name = "admin_disable", skip_all)]
async fn admin_disable(
    State(state): State<DealsState>,
    Admin(claims): Admin,
    deal_id: Result<Path<Uuid>, PathRejection>,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<PlacementRequest>, JsonRejection>,
) -> Result<Json<DealView>, ApiError> {
    let (Path(deal_id), Json(request)) = (deal_id?, body?);
    let command = DealCommand::Disable { deal_type: request.deal_type, at: state.clock.now() };
    let outcome = placement(&state, &claims, deal_id, correlation, command).await?;
    Ok(Json(DealView::from(&outcome.deal)))
}

#[tracing::instrument(name = "admin_rank", skip_all)]
async fn admin_rank(
    State(state): State<DealsState>,
    Admin(claims): Admin,
    deal_id: Result<Path<Uuid>, PathRejection>,
    correlation: Option<Extension<CorrelationId>>,
    body: Result<Json<RankRequest>, JsonRejection>,
) -> Result<Json<DealView>, ApiError> {
    let (Path(deal_id), Json(request)) = (deal_id?, body?);
    let rank = input::rank("rank", Some(request.rank))?;
    let command = DealCommand::Rerank { deal_type: request.deal_type, rank, at: state.clock.now() };
    let outcome = placement(&state, &claims, deal_id, correlation, command).await?;
    Ok(Json(DealView::from(&outcome.deal)))
}

// --- images ------------------------------------------------------------------------------

/// A generated logo or thumbnail of a deal (`/media/deals/{id}/{logo|thumb}-{w}x{h}.svg`).
#[tracing::instrument(name = "deal_image", skip_all)]
async fn media(
    State(state): State<DealsState>,
    path: Result<Path<(Uuid, String)>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path((deal_id, file)) = path.map_err(|_| ApiError::ImageNotFound)?;
    let (kind, width, height) = parse_file(&file).ok_or(ApiError::ImageNotFound)?;
    let deal = queries::deal(&state.pool, deal_id).await?.ok_or(ApiError::ImageNotFound)?;
    let svg = placeholder_svg(&deal.partner_name, kind, width, height, deal_id);
    Ok(([(header::CONTENT_TYPE, "image/svg+xml"), (header::CACHE_CONTROL, "public, max-age=86400")], svg)
        .into_response())
}
