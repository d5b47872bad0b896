//! The profile service's contract: what other crates may know of it. The wire types of its
//! internal API ([`api`]), its routes ([`routes`]: each path, method and who may call it,
//! declared once) and its typed client ([`client`]), and the account rules a caller
//! must apply the same way the service does: the validation rules ([`validation`]), the
//! password hashes a join hands over ([`passwords`]), the badges ([`badges`]) and the demo
//! users' identities ([`demo`]). No database, broker or service internals, so a change inside
//! the service stops at this boundary. The gateway and the other services depend on this
//! crate, never on `profile` itself.

pub mod api;
pub mod badges;
pub mod client;
pub mod demo;
pub mod passwords;
pub mod routes;
pub mod validation;
