//! The subscription service's internal routes, each declared once: the service's router mounts
//! them, its gate reads [`ALL`] as the trust table, and [`crate::client`] calls them
//! (docs/decisions/code-structure/each-internal-route-declared-once-contract.md).
//!
//! Who may call each (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md): a
//! member's own subscription and purchases for that member's token; a user's read by id for
//! that user or a service; the join flow (a visitor has no token yet) for anyone the gateway
//! vouches for. Biller postbacks are no internal route: their signatures verify them.

use runtime::auth::{Access, Route};

/// The signed-in member's full read: that member's token.
pub const FULL_SUBSCRIPTION: Route = Route::get("/internal/subscription", Access::User);
/// The signed-in member's light read (getUserSubscription): that member's token.
pub const LIGHT_SUBSCRIPTION: Route = Route::get("/internal/subscription/light", Access::User);
/// Cancels the signed-in member's native rebill: that member's token.
pub const CANCEL_SUBSCRIPTION: Route = Route::post("/internal/subscription/cancel", Access::User);
/// The full read of `{user_id}`: that user's own token, or a service.
pub const USER_SUBSCRIPTION: Route = Route::get("/internal/users/{user_id}/subscription", Access::OwnUser("user_id"));
/// A brand's join options: anyone the gateway vouches for (a visitor has no token yet).
pub const JOIN_OPTIONS: Route = Route::get("/internal/join-options", Access::Any);
/// The multisite packages: anyone the gateway vouches for.
pub const MULTISITE_PACKAGES: Route = Route::get("/internal/multisite-packages", Access::Any);
/// The credit packs: anyone the gateway vouches for.
pub const CREDIT_PACKS: Route = Route::get("/internal/credit-packs", Access::Any);
/// The join form: anyone the gateway vouches for (a visitor has no token yet).
pub const JOIN: Route = Route::post("/internal/joins", Access::Any);
/// A signup of the join flow: anyone the gateway vouches for.
pub const SIGNUP: Route = Route::get("/internal/signups/{signup_id}", Access::Any);
/// `welcomeCheck`: anyone the gateway vouches for (the signed `hashedMemberId` proves the
/// member).
pub const WELCOME_CHECK: Route = Route::get("/internal/welcome-check", Access::Any);
/// `/_signup-extern/{biller}`: anyone the gateway vouches for (the signed `hashedMemberId`
/// proves the member).
pub const SIGNUP_EXTERN: Route = Route::get("/internal/signup-extern/{biller}", Access::Any);
/// Buys a multisite package: the signed-in member's token.
pub const BUY_MULTISITE: Route = Route::post("/internal/purchases/multisite", Access::User);
/// Buys a single site: the signed-in member's token.
pub const BUY_SINGLESITE: Route = Route::post("/internal/purchases/singlesite", Access::User);
/// The trial upgrade: anyone the gateway vouches for (the signed-in user, or from the welcome
/// page, before any session, the member the welcome data names).
pub const BUY_TRIAL_UPGRADE: Route = Route::post("/internal/purchases/trial-upgrade", Access::Any);
/// Buys credits: the signed-in member's token.
pub const BUY_CREDITS: Route = Route::post("/internal/purchases/credits", Access::User);
/// `getRetentionOffer`: the signed-in member's token.
pub const RETENTION_OFFER: Route = Route::get("/internal/retention-offer", Access::User);
/// Reactivates a cancelled rebill: the signed-in member's token.
pub const REACTIVATE_CANCELLED_REBILL: Route = Route::post("/internal/reactivate-cancelled-rebill", Access::User);
/// `creditCardUpdate`: the signed-in member's token.
pub const CREDIT_CARD_UPDATE: Route = Route::get("/internal/credit-card-update", Access::User);
/// `outgoingUpsellOneclick`: the signed-in member's token.
pub const OUTGOING_UPSELL_ONECLICK: Route = Route::post("/internal/outgoing-upsells/oneclick", Access::User);
/// `outgoingUpsellOneclickTracking(status)`: the signed-in member's token.
pub const OUTGOING_UPSELL_TRACKING: Route = Route::post("/internal/outgoing-upsells/tracking", Access::User);

/// The trust table: every internal route of the subscription service.
pub const ALL: &[Route] = &[
    FULL_SUBSCRIPTION,
    LIGHT_SUBSCRIPTION,
    CANCEL_SUBSCRIPTION,
    USER_SUBSCRIPTION,
    JOIN_OPTIONS,
    MULTISITE_PACKAGES,
    CREDIT_PACKS,
    JOIN,
    SIGNUP,
    WELCOME_CHECK,
    SIGNUP_EXTERN,
    BUY_MULTISITE,
    BUY_SINGLESITE,
    BUY_TRIAL_UPGRADE,
    BUY_CREDITS,
    RETENTION_OFFER,
    REACTIVATE_CANCELLED_REBILL,
    CREDIT_CARD_UPDATE,
    OUTGOING_UPSELL_ONECLICK,
    OUTGOING_UPSELL_TRACKING,
];
