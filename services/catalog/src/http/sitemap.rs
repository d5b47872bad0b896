//! What the gateway builds a brand's sitemaps from: how many of each kind the brand has, and
//! their entries a page at a time, each read with the generation it holds for (one snapshot:
//! a repeatable-read transaction), so the gateway can keep what it built until it moves.

use super::*;
use crate::api::{SitemapKind, SITEMAP_PAGE_ENTRIES};

pub(super) fn router() -> Router<AppState> {
    Router::new().serve(&routes::SITEMAP, manifest).serve(&routes::SITEMAP_ENTRIES, entries)
}

/// A read-only snapshot: the generation and the rows it read agree.
async fn snapshot(state: &AppState) -> Result<sqlx::Transaction<'static, sqlx::Postgres>, ApiError> {
    let mut tx = state.pool.begin().await?;
    sqlx::query("set transaction isolation level repeatable read, read only").execute(&mut *tx).await?;
    Ok(tx)
}

async fn manifest(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<SiteQuery>, QueryRejection>,
) -> ApiResult<api::SitemapManifest> {
    let Query(q) = query?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let mut tx = snapshot(&state).await?;
    let generation = queries::sitemap_generation(&mut tx).await?;
    let sections = queries::sitemap_sections(&mut tx, &site).await?;
    tx.commit().await?;
    Ok(Json(api::SitemapManifest { generation, sections }))
}

#[derive(Debug, Deserialize)]
pub struct EntriesQuery {
    pub site: Option<String>,
    pub offset: Option<i64>,
    pub limit: Option<i64>,
}

async fn entries(
    State(state): State<AppState>,
    Path(kind): Path<String>,
    headers: HeaderMap,
    query: Result<Query<EntriesQuery>, QueryRejection>,
) -> ApiResult<api::SitemapPage> {
    let Query(q) = query?;
    let kind = SitemapKind::parse(&kind).ok_or_else(|| ApiError::NotFound(format!("no sitemap of {kind:?}")))?;
    let site = site_of(q.site.as_deref(), &headers)?;
    let offset = q.offset.unwrap_or(0);
    let limit = q.limit.unwrap_or(SITEMAP_PAGE_ENTRIES as i64);
    if !(0..=MAX_SKIP).contains(&offset) {
        return Err(ApiError::Invalid(format!("offset must be between 0 and {MAX_SKIP}")));
    }
    if !(1..=SITEMAP_PAGE_ENTRIES as i64).contains(&limit) {
        return Err(ApiError::Invalid(format!("limit must be between 1 and {SITEMAP_PAGE_ENTRIES}")));
    }
    let mut tx = snapshot(&state).await?;
    let generation = queries::sitemap_generation(&mut tx).await?;
    let entries = queries::sitemap_entries(&mut tx, &site, kind, offset, limit).await?;
    tx.commit().await?;
    Ok(Json(api::SitemapPage { generation, entries }))
}
