//! The wallet's internal routes, each declared once: the service's router mounts them, its
//! gate reads [`ALL`] as the trust table, and [`crate::client`] calls them
//! (docs/decisions/code-structure/each-internal-route-declared-once-contract.md).
//!
//! Who may call each (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md): a
//! wallet for its own user's token (the gateway), or a service's token (the unlocks service
//! debits, naming the user); another user's token is refused (403).

use runtime::auth::{Access, Route};

/// Debits gems or credits from the wallet of `{user_id}`: the unlocks service (its service
/// token names the user), or that user's own token.
pub const DEBIT: Route = Route::post("/internal/wallets/{user_id}/debits", Access::OwnUser("user_id"));
/// The gems balance of `{user_id}`: that user's own token (the gateway), or a service.
pub const GEMS_BALANCE: Route = Route::get("/internal/wallets/{user_id}/gems-balance", Access::OwnUser("user_id"));
/// The transactions of `{user_id}`: that user's own token (the gateway), or a service.
pub const TRANSACTIONS: Route = Route::get("/internal/wallets/{user_id}/transactions", Access::OwnUser("user_id"));
/// Acknowledges the new gems balance of `{user_id}`: that user's own token (the gateway), or a
/// service.
pub const ACKNOWLEDGE_NEW_GEMS_BALANCE: Route =
    Route::post("/internal/wallets/{user_id}/acknowledge-new-gems-balance", Access::OwnUser("user_id"));

/// The trust table: every internal route of the wallet.
pub const ALL: &[Route] = &[DEBIT, GEMS_BALANCE, TRANSACTIONS, ACKNOWLEDGE_NEW_GEMS_BALANCE];
