//! The deals service's contract: what other crates may know of it. The wire types of its
//! internal API ([`api`]), its routes ([`routes`]: each path, method and who may call it,
//! declared once) and its typed client ([`client`]), with no database, broker or
//! service internals, so a change inside the service stops at this boundary. The gateway
//! depends on this crate, never on `deals` itself.

pub mod api;
pub mod client;
pub mod routes;
