//! The tenant of the host: its configuration for the browser.

use async_graphql::{Context, Object};

use super::context::request;

#[derive(Default)]
pub struct TenantQuery;

#[Object]
impl TenantQuery {
    /// The host's tenant configuration (brand, URLs, site ids, theme, features, list sizes,
    /// health-warning regions), as the page's bootstrap carries it.
    async fn tenant_config(&self, ctx: &Context<'_>) -> async_graphql::Json<tenants::Tenant> {
        async_graphql::Json(request(ctx).site.tenant.clone())
    }
}
