//! The user's routing view (product.md, "Screens and routes"): who is asking, their abilities as a
//! CASL rule list computed by `services/access`, and the few profile facts the browser's route
//! rules and automatic modals read. The page's inline session and the `user` query both come
//! from here, so the browser and the API see the same rules.

use std::collections::BTreeMap;

use access::{abilities, ProfileFacts, Rule, UserFacts};
use serde::Serialize;

use crate::{hosts::Site, user_profile::UserProfile};

/// The profile facts the access rules read, from findOneUserProfile.
pub fn profile_facts(profile: &UserProfile) -> ProfileFacts {
    // Both sides use the spec's camelCase names; a field the rules know and the profile lacks
    // takes the rules' default.
    serde_json::to_value(profile).and_then(serde_json::from_value).expect("a profile reads as access facts")
}

/// The rules for a visitor (no profile) or a signed-in user on `site`.
pub fn rules(site: &Site, profile: Option<&UserProfile>) -> Vec<Rule> {
    let tenant = &site.tenant.tenant;
    let user = match profile {
        Some(p) => UserFacts::signed_in(tenant, profile_facts(p)),
        None => UserFacts::anonymous(tenant),
    };
    abilities(&user, &site.tenant.features)
}

/// What the routing rules read of the profile (frontend `ProfileRoutingView`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileRoutingView {
    /// Who the tracking calls speak for (userId beside the e-mail, product.md, "Recommendations").
    pub user_id: uuid::Uuid,
    pub email: String,
    pub teaser_viewed: bool,
    /// The user has a subscription of any kind on some brand.
    pub is_subscribed: bool,
    pub is_active: bool,
    /// member, trial, porn-portal or expired.
    pub subscription_kind: String,
    pub is_guest: bool,
    pub is_tandem_child: bool,
    pub unlocked_channel_pack_count: usize,
    pub gems_intro_seen: bool,
    pub health_warning_acknowledged: BTreeMap<&'static str, bool>,
    /// The profile service's rule (guests and tandem users, no internal test domain, until
    /// answered): the EmailConsent prompt opens on it.
    pub should_request_email_consent: bool,
    /// /cams asks for CamsConsent before anything goes to the partner.
    pub should_request_cams_consent: bool,
    /// The subscription service's rule: the UpgradeToYearlyMembership offer is shown on it.
    pub is_upgradeable_to_vixen_plus_yearly: bool,
    /// No permanent username yet: the username selection screen is offered.
    pub needs_username: bool,
}

impl ProfileRoutingView {
    pub fn of(profile: &UserProfile) -> Self {
        let modals = &profile.state.modals;
        ProfileRoutingView {
            user_id: profile.user_id,
            email: profile.email.clone(),
            teaser_viewed: modals.teaser_viewed,
            is_subscribed: !profile.user_subscriptions_state.subscriptions_status.is_empty(),
            is_active: profile.subscription.active,
            subscription_kind: profile.subscription.kind.clone(),
            is_guest: profile.subscription.is_guest_user,
            is_tandem_child: profile.tandem_subscription.is_tandem_child_account,
            unlocked_channel_pack_count: profile.unlocked_channel_pack_ids.len(),
            gems_intro_seen: modals.gems_intro,
            health_warning_acknowledged: BTreeMap::from([
                ("US-TX", modals.texas_health_warning_acknowledged),
                ("US-AL", modals.alabama_health_warning_acknowledged),
            ]),
            should_request_email_consent: profile.gdpr.should_request_email_consent,
            should_request_cams_consent: profile.gdpr.should_request_cams_consent,
            is_upgradeable_to_vixen_plus_yearly: profile
                .subscription
                .upgrade_options
                .is_upgradeable_to_vixen_plus_yearly,
            needs_username: profile.username.is_none(),
        }
    }
}
