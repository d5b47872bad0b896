//! The deals service's internal routes, each declared once: the service's router mounts them,
//! its gate reads [`ALL`] as the trust table, and [`crate::client`] calls them
//! (docs/decisions/code-structure/each-internal-route-declared-once-contract.md).
//!
//! Who may call each (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md): the
//! deals a page shows for anyone the gateway vouches for; a user's interstitial for that user's
//! token; the operators' routes for an admin's token.

use runtime::auth::{Access, Route};

/// findDeals: anyone the gateway vouches for (a user, or its service token for a visitor).
pub const FIND_DEALS: Route = Route::get("/internal/deals", Access::Any);
/// Checks a /deals `confirmation` value: anyone the gateway vouches for.
pub const CHECK_CONFIRMATION: Route = Route::get("/internal/deals/confirmation", Access::Any);
/// A step of loading the deal carousel: anyone the gateway vouches for.
pub const TRACK_CAROUSEL_EVENT: Route = Route::post("/internal/deals/carousel-events", Access::Any);
/// The offers page: anyone the gateway vouches for.
pub const OFFERS: Route = Route::get("/internal/offers", Access::Any);
/// The signed-in user's interstitial: that user's token.
pub const INTERSTITIAL: Route = Route::get("/internal/interstitial", Access::User);
/// Hides the interstitial for a month: that user's token.
pub const SNOOZE_INTERSTITIAL: Route = Route::post("/internal/interstitial/snooze", Access::User);
/// Goes on past the interstitial: that user's token.
pub const CONTINUE_INTERSTITIAL: Route = Route::post("/internal/interstitial/continue", Access::User);
/// The operators' list of a brand's deals: an admin's token (the handler checks the group).
pub const ADMIN_LIST_DEALS: Route = Route::get("/internal/admin/deals", Access::User);
/// Creates a deal: an admin's token (the handler checks the group).
pub const ADMIN_CREATE_DEAL: Route = Route::post("/internal/admin/deals", Access::User);
/// One deal as the operators see it: an admin's token (the handler checks the group).
pub const ADMIN_GET_DEAL: Route = Route::get("/internal/admin/deals/{deal_id}", Access::User);
/// Replaces a deal: an admin's token (the handler checks the group).
pub const ADMIN_EDIT_DEAL: Route = Route::put("/internal/admin/deals/{deal_id}", Access::User);
/// Enables a deal in a placement: an admin's token (the handler checks the group).
pub const ADMIN_ENABLE_DEAL: Route = Route::post("/internal/admin/deals/{deal_id}/enable", Access::User);
/// Disables a deal in a placement: an admin's token (the handler checks the group).
pub const ADMIN_DISABLE_DEAL: Route = Route::post("/internal/admin/deals/{deal_id}/disable", Access::User);
/// Ranks a deal in a placement: an admin's token (the handler checks the group).
pub const ADMIN_RANK_DEAL: Route = Route::post("/internal/admin/deals/{deal_id}/rank", Access::User);

/// The trust table: every internal route of the deals service.
pub const ALL: &[Route] = &[
    FIND_DEALS,
    CHECK_CONFIRMATION,
    TRACK_CAROUSEL_EVENT,
    OFFERS,
    INTERSTITIAL,
    SNOOZE_INTERSTITIAL,
    CONTINUE_INTERSTITIAL,
    ADMIN_LIST_DEALS,
    ADMIN_CREATE_DEAL,
    ADMIN_GET_DEAL,
    ADMIN_EDIT_DEAL,
    ADMIN_ENABLE_DEAL,
    ADMIN_DISABLE_DEAL,
    ADMIN_RANK_DEAL,
];
