//! Modal auto-opening on page load (screens-routes-access.md §4).

use serde::{Deserialize, Serialize};

use crate::facts::{Group, Role, Standing, TenantFeatures, UserFacts};

/// One day, in milliseconds: the gems modal is not shown again within it.
pub const GEMS_MODAL_QUIET_MS: i64 = 24 * 60 * 60 * 1000;

/// Page ids on which the gems intro never opens: offers, joinnow, signup and the one-click
/// result pages.
pub const GEMS_INTRO_EXCLUDED_PAGES: [&str; 7] = [
    "offers",
    "joinNow",
    "signupSuccess",
    "signupExternal",
    "signupDenied",
    "upsellSignupSuccess",
    "upsellSignupDenial",
];

/// What the page knows beyond the user's facts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PageContext {
    /// The page identifier (screens-routes-access.md §2.2), e.g. `home`, `offers`.
    pub page: String,
    /// A signup notification is present (e.g. `notification=upgradesuccess`, `fatr`).
    pub signup_notification: bool,
    /// When the gems modal was last shown, epoch milliseconds.
    pub gems_modal_last_shown_ms: Option<i64>,
    pub now_ms: i64,
    /// A health warning applies to the visitor's region and is not acknowledged yet.
    pub health_warning_unacknowledged: bool,
}

/// Promotional teaser modal: opens when enabled, not yet viewed and the user is not a guest.
pub fn opens_promotional_teaser(user: &UserFacts, features: &TenantFeatures) -> bool {
    let Some(p) = &user.profile else { return false };
    let guest = p.groups.contains(&Group::GuestUser) || p.subscription.is_guest_user;
    features.promotional_video_teaser_modal.enabled && !p.state.modals.teaser_viewed && !guest
}

/// Expired users trigger the upgrade modal on load.
pub fn opens_upgrade_modal(user: &UserFacts) -> bool {
    Standing::of(user).role == Role::ExpiredMember
}

/// Gems intro: opens only if none of the spec's exclusions hold.
pub fn opens_gems_intro(user: &UserFacts, features: &TenantFeatures, page: &PageContext) -> bool {
    let Some(p) = &user.profile else { return false };
    let st = Standing::of(user);
    let inactive_or_trial = !st.active || matches!(st.role, Role::Trial | Role::FreeLimitedTrial);
    let shown_lately = page.gems_modal_last_shown_ms.is_some_and(|at| page.now_ms - at < GEMS_MODAL_QUIET_MS);
    let excluded = GEMS_INTRO_EXCLUDED_PAGES.contains(&page.page.as_str())
        || inactive_or_trial
        || page.signup_notification
        || !p.unlocked_channel_pack_ids.is_empty()
        || p.state.modals.gems_intro
        || shown_lately
        || opens_promotional_teaser(user, features)
        || page.health_warning_unacknowledged
        || st.tandem_child;
    !excluded
}
