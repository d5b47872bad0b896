//! The subscription read of product.md, "Subscriptions and their states": derived types and flags from a user's subscriptions. Pure, so
//! every rule is a unit test; the same rules as the profile's view of the same events.
//!
//! - type: member, trial or porn-portal of the current subscription; `expired` when it is not
//!   active and not porn-portal; porn-portal (inactive) with no subscription at all.
//! - site type: multi-site (an active package), trial, single-site, expired, inactive.
//! - the current subscription: the active one covering the tenant, else any active one, else
//!   the most recently changed.
//! - siteAccessArray: brands of active member and trial subscriptions (porn-portal opens none);
//!   tenantsSubscriptionState: `full` or `none` per brand, plus `channels` (full for an active
//!   member who is not a tandem child).
//! - a tandem child reads its parent's subscriptions.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use profile_contract::badges::{months_between, seniority_months, Membership};
use uuid::Uuid;

pub use subscription_contract::api::{
    BillerView, FullRead, LightRead, SubscriptionEntry, SubscriptionInfo, SubscriptionStatus, TandemView,
    UpgradeOptions, XSiteInfo,
};

/// One row of `member_subscription`.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct SubscriptionRow {
    pub subscription_id: Uuid,
    pub user_id: Uuid,
    pub site: String,
    pub sites: Vec<String>,
    pub kind: String,
    pub is_free_limited_trial: bool,
    pub biller: String,
    pub active_since: DateTime<Utc>,
    pub join_date: DateTime<Utc>,
    pub active: bool,
    pub cancelled: bool,
    pub ended: Option<String>,
    pub ended_at: Option<DateTime<Utc>>,
    pub nats_code: Option<String>,
    pub updated_at: DateTime<Utc>,
}

/// The read of `user_id` (whose subscriptions, or its tandem parent's, are `subs`, most
/// recently changed first) on `tenant`.
pub fn read(
    user_id: Uuid,
    subs: &[SubscriptionRow],
    tandem_parent: Option<Uuid>,
    tenant: &str,
    now: DateTime<Utc>,
) -> FullRead {
    let is_tandem_child = tandem_parent.is_some();
    let mut access: Vec<String> =
        subs.iter().filter(|s| s.active && s.kind != "porn-portal").flat_map(|s| s.sites.iter().cloned()).collect();
    access.sort();
    access.dedup();
    let active: Vec<&SubscriptionRow> = subs.iter().filter(|s| s.active).collect();
    let current = active
        .iter()
        .copied()
        .find(|s| s.sites.iter().any(|x| x == tenant))
        .or_else(|| active.first().copied())
        .or_else(|| subs.first());
    let multisite = active.iter().find(|s| s.sites.len() > 1 && s.kind != "porn-portal");
    let is_active = current.is_some_and(|s| s.active);
    let kind = match current {
        None => "porn-portal".to_owned(),
        Some(s) if !s.active && s.kind != "porn-portal" => "expired".to_owned(),
        Some(s) => s.kind.clone(),
    };
    let memberships: Vec<Membership> = subs
        .iter()
        .filter(|s| s.kind != "porn-portal")
        .map(|s| Membership {
            active_since: s.active_since,
            ended_at: (!s.active).then_some(s.ended_at.unwrap_or(s.updated_at)),
        })
        .collect();
    let brands = tenants::global();
    let mut tenants: BTreeMap<String, String> = brands
        .keys()
        .map(|b| (b.to_owned(), if access.iter().any(|a| a == b) { "full" } else { "none" }.to_owned()))
        .collect();
    let channels = active.iter().any(|s| s.kind == "member") && !is_tandem_child;
    tenants.insert("channels".into(), if channels { "full" } else { "none" }.into());
    let site_type = match current {
        Some(s) if s.active && s.sites.len() > 1 && s.kind != "porn-portal" => "multi-site",
        Some(s) if s.active && s.kind == "trial" => "trial",
        Some(s) if s.active && s.kind == "member" => "single-site",
        _ if kind == "expired" => "expired",
        _ => "inactive",
    };
    let is_free_limited_trial = current.is_some_and(|s| s.is_free_limited_trial);
    let subscription = SubscriptionInfo {
        kind: kind.clone(),
        subscription_type: kind.clone(),
        biller: current.map(|s| s.biller.clone()),
        porn_portal: kind == "porn-portal",
        active: is_active,
        is_active,
        active_since: current.map(|s| s.active_since),
        join_date: subs.iter().map(|s| s.join_date).min(),
        seniority: seniority_months(&memberships, now),
        x_site_info: current.map(|s| XSiteInfo { site: s.site.clone() }),
        cancelled: current.is_some_and(|s| s.cancelled),
        is_free_limited_trial,
        upgrade_options: UpgradeOptions {
            is_upgradeable_to_vixen_plus_yearly: is_active
                && kind == "member"
                && !is_tandem_child
                && !access.iter().any(|a| brands.is_combined(a)),
        },
    };
    FullRead {
        light: LightRead {
            site_access_array: access,
            tenants_subscription_state: tenants,
            subscription,
            biller_name: current.map(|s| s.biller.clone()),
        },
        user_id,
        biller: current
            .map(|s| BillerView { name: s.biller.clone(), url: format!("/{}", s.biller.to_ascii_lowercase()) }),
        has_active_multisite_subscription: multisite.is_some(),
        multisite_type: multisite.map(|s| s.site.clone()),
        site_type: site_type.to_owned(),
        is_free_limited_trial: current.is_some_and(|s| s.active && s.is_free_limited_trial),
        tandem_subscription: TandemView {
            is_tandem_child_account: is_tandem_child,
            tandem_parent_user_id: tandem_parent,
        },
        subscriptions_status: subs
            .iter()
            .flat_map(|s| {
                s.sites.iter().map(move |site| SubscriptionStatus {
                    is_active: s.active,
                    is_tandem_child_account: is_tandem_child,
                    tenant: site.clone(),
                    kind: s.kind.clone(),
                })
            })
            .collect(),
        subscription_length_in_months: current.filter(|s| s.active).map_or(0, |s| months_between(s.active_since, now)),
        subscription_length_in_days: current
            .filter(|s| s.active)
            .map_or(0, |s| (now - s.active_since).num_days().max(0) as u32),
        subscriptions: subs
            .iter()
            .map(|s| SubscriptionEntry {
                subscription_id: s.subscription_id,
                site: s.site.clone(),
                sites: s.sites.clone(),
                kind: s.kind.clone(),
                biller: s.biller.clone(),
                active: s.active,
                cancelled: s.cancelled,
                ended: s.ended.clone(),
                active_since: s.active_since,
                ended_at: s.ended_at,
                is_free_limited_trial: s.is_free_limited_trial,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{Duration, TimeZone};

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 6, 1, 0, 0, 0).unwrap()
    }

    fn sub(site: &str, sites: &[&str], kind: &str, active: bool) -> SubscriptionRow {
        let since = now() - Duration::days(200);
        SubscriptionRow {
            subscription_id: Uuid::now_v7(),
            user_id: Uuid::nil(),
            site: site.into(),
            sites: sites.iter().map(|s| (*s).to_owned()).collect(),
            kind: kind.into(),
            is_free_limited_trial: false,
            biller: "EPOCH".into(),
            active_since: since,
            join_date: since,
            active,
            cancelled: false,
            ended: (!active).then(|| "expired".into()),
            ended_at: (!active).then(|| now() - Duration::days(30)),
            nats_code: None,
            updated_at: since,
        }
    }

    fn of(subs: &[SubscriptionRow]) -> FullRead {
        read(Uuid::nil(), subs, None, "vixen", now())
    }

    #[test]
    fn no_subscription_is_an_inactive_porn_portal_user() {
        let r = of(&[]);
        assert_eq!((r.light.subscription.kind.as_str(), r.light.subscription.is_active), ("porn-portal", false));
        assert_eq!(r.site_type, "inactive");
        assert!(r.light.site_access_array.is_empty());
        assert_eq!(r.light.tenants_subscription_state["vixen"], "none");
        assert_eq!(r.light.tenants_subscription_state.len(), 11);
    }

    #[test]
    fn an_active_single_site_member() {
        let r = of(&[sub("vixen", &["vixen"], "member", true)]);
        assert_eq!((r.light.subscription.kind.as_str(), r.site_type.as_str()), ("member", "single-site"));
        assert_eq!(r.light.site_access_array, ["vixen"]);
        assert_eq!(r.light.tenants_subscription_state["vixen"], "full");
        assert_eq!(r.light.tenants_subscription_state["channels"], "full");
        assert_eq!(r.light.subscription.seniority, Some(6));
        assert_eq!((r.subscription_length_in_months, r.subscription_length_in_days), (6, 200));
        assert!(r.light.subscription.upgrade_options.is_upgradeable_to_vixen_plus_yearly);
        assert_eq!(r.biller.unwrap().url, "/epoch");
    }

    #[test]
    fn an_inactive_membership_is_expired_but_an_inactive_portal_is_not() {
        let r = of(&[sub("vixen", &["vixen"], "member", false)]);
        assert_eq!((r.light.subscription.kind.as_str(), r.site_type.as_str()), ("expired", "expired"));
        assert_eq!(r.light.subscription.seniority, None);
        assert_eq!((r.subscription_length_in_months, r.subscription_length_in_days), (0, 0));
        let r = of(&[sub("vixen", &["vixen"], "porn-portal", false)]);
        assert_eq!((r.light.subscription.kind.as_str(), r.site_type.as_str()), ("porn-portal", "inactive"));
    }

    #[test]
    fn a_package_is_multi_site_and_opens_its_brands() {
        let r = of(&[sub("multisite2025", &["blacked", "tushy", "vixen"], "member", true)]);
        assert_eq!(r.site_type, "multi-site");
        assert!(r.has_active_multisite_subscription);
        assert_eq!(r.multisite_type.as_deref(), Some("multisite2025"));
        assert_eq!(r.light.tenants_subscription_state["tushy"], "full");
        assert_eq!(r.light.tenants_subscription_state["wifey"], "none");
    }

    #[test]
    fn a_trial_and_a_free_limited_trial() {
        let mut t = sub("vixen", &["vixen"], "trial", true);
        t.is_free_limited_trial = true;
        let r = of(&[t]);
        assert_eq!((r.light.subscription.kind.as_str(), r.site_type.as_str()), ("trial", "trial"));
        assert!(r.is_free_limited_trial && r.light.subscription.is_free_limited_trial);
        assert_eq!(r.light.tenants_subscription_state["channels"], "none");
        assert!(!r.light.subscription.upgrade_options.is_upgradeable_to_vixen_plus_yearly);
    }

    #[test]
    fn a_tandem_child_shares_access_but_not_channels() {
        let r =
            read(Uuid::nil(), &[sub("vixen", &["vixen"], "member", true)], Some(Uuid::from_u128(1)), "vixen", now());
        assert_eq!(r.light.tenants_subscription_state["vixen"], "full");
        assert_eq!(r.light.tenants_subscription_state["channels"], "none");
        assert!(r.tandem_subscription.is_tandem_child_account);
        assert!(r.subscriptions_status.iter().all(|s| s.is_tandem_child_account));
    }

    #[test]
    fn the_current_subscription_is_the_one_covering_the_tenant() {
        let other = sub("tushy", &["tushy"], "trial", true);
        let here = sub("vixen", &["vixen"], "member", true);
        let r = of(&[other, here]);
        assert_eq!(r.light.subscription.x_site_info.unwrap().site, "vixen");
        assert_eq!(r.light.subscription.kind, "member");
    }

    #[test]
    fn a_vixenplus_member_is_not_offered_the_vixenplus_upgrade() {
        let r = of(&[sub("multisiteVP", &["vixen", "vixenplus"], "member", true)]);
        assert!(!r.light.subscription.upgrade_options.is_upgradeable_to_vixen_plus_yearly);
    }
}
