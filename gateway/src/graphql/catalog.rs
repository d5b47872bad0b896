//! The catalog domain's queries and mutations (issue 7).
//!
//! Shape (see wallet.rs for a complete example):
//! - `#[derive(Default)] pub struct CatalogQuery;` and `#[derive(Default)] pub struct CatalogMutation;`
//!   with `#[Object] impl` blocks; field names are the spec's (async-graphql camelCases Rust names).
//! - Read the request with `super::context::request(ctx)` (site, tenant, `viewer()?` for the
//!   signed-in user, `call()` for the CallContext to forward), reach the service through
//!   `super::context::upstreams(ctx).catalog` (add the client to `Upstreams` in mod.rs), map its
//!   refusals with `super::errors::upstream`, and count spends/upsells/writes with
//!   `super::context::limit(ctx, Bucket::…)`.
//! - When the objects have fields, add them to `QueryRoot`/`MutationRoot` in mod.rs (the
//!   lines marked `// domains:`), then `UPDATE_SCHEMA=1 cargo nextest run -p gateway schema`
//!   rewrites gateway/schema.graphql.
