//! The catalog: videos, performers, categories, channels, picture sets, search,
//! sister-brand lists, reels, showcases, angels, the curator wall and recommendation shelves
//! ([`content`]), and the community around them: comments, ratings, the expert review and
//! favourites ([`community`]), with each comment's author's badges and user type ([`authors`]).
//! [`rest`] is the catalog's part of the REST edge.
//!
//! Every resolver calls the catalog service with the caller's tenant (the host's brand) and,
//! when signed in, their access token; the catalog decides who may do what (moderators by the
//! token's groups) and its refusals keep their code and the spec's message. Pages resolve
//! their performers, channels and favourites through the request's loaders ([`loaders`]).

pub mod authors;
pub mod brand;
pub mod community;
pub mod content;
pub mod loaders;
pub mod rest;
pub mod types;

use async_graphql::{Context, MergedObject};
use catalog_contract::client::Paging;
use runtime::client::{CallContext, UpstreamError};

use super::{
    context::{request, RequestCtx},
    errors,
};

#[derive(MergedObject, Default)]
pub struct CatalogQuery(content::ContentQuery, community::CommunityQuery);

#[derive(MergedObject, Default)]
pub struct CatalogMutation(community::CommunityMutation);

/// The call as every client takes it: the host's brand, the user's token, the correlation id.
pub fn caller_of(request: &RequestCtx) -> CallContext {
    request.call()
}

pub fn caller(ctx: &Context<'_>) -> CallContext {
    caller_of(request(ctx))
}

/// The catalog's answer as a GraphQL error: its refusals keep their code and message (the
/// spec's 'You have already rated', 'Found banned word', ...), a malformed argument is
/// BAD_USER_INPUT, and an unreachable or failing catalog is masked.
pub fn refused(e: UpstreamError) -> async_graphql::Error {
    match e {
        UpstreamError::Refused { code, message, .. } if code == "INVALID_REQUEST" || code == "BAD_REQUEST" => {
            errors::bad_input(message)
        }
        other => errors::upstream(other),
    }
}

pub fn not_found() -> async_graphql::Error {
    errors::coded("NOT_FOUND", "Not found")
}

/// A `site` argument names the host's brand (in any case, as the browser sometimes sends it
/// upper-cased); content of another brand is read through its own host or `/sites/{brand}`.
pub fn check_site(ctx: &Context<'_>, site: Option<&str>) -> async_graphql::Result<()> {
    match site.filter(|s| !s.is_empty()) {
        Some(s) if !s.eq_ignore_ascii_case(request(ctx).tenant()) => {
            Err(errors::bad_input(format!("site {s:?} is not this host's brand")))
        }
        _ => Ok(()),
    }
}

/// A tenant-gated part (angels, showcases, reels, the wall, awards, channels) is not-found
/// where the tenant's feature is off.
pub fn gate(on: bool) -> async_graphql::Result<()> {
    if on {
        Ok(())
    } else {
        Err(not_found())
    }
}

pub fn paging(page: Option<i32>, size: Option<i32>) -> Paging {
    Paging { page: page.map(i64::from), size: size.map(i64::from) }
}

pub fn uuid(value: &async_graphql::ID, what: &str) -> async_graphql::Result<uuid::Uuid> {
    uuid::Uuid::parse_str(value).map_err(|_| errors::bad_input(format!("{} is not a {what} id", value.as_str())))
}
