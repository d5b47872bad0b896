//! The catalog's contract: what other crates may know of it. The wire types of its internal
//! API ([`api`]), its routes ([`routes`]: each path, method and who may call it, declared
//! once) and its typed client ([`client`]), with no database, broker or service internals,
//! so a change inside the service stops at this boundary. The gateway depends on this crate,
//! never on `catalog` itself.

pub mod api;
pub mod client;
pub mod routes;
pub mod slug;

pub use slug::is_valid_slug;
