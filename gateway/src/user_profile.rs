//! findOneUserProfile (product.md, "Account and profile"), put together from the owners of its
//! facts. No fact is computed here: each field is the owner's answer, under the spec's name.
//!
//! | fields | owner | asked with |
//! |---|---|---|
//! | identity, groups, badges, consent, modals, relationship, tandem link, special attributes | profile | `GET /internal/profile` |
//! | subscription state: `subscription` (but credits and unlocked videos), `siteAccessArray`, `tenantsSubscriptionState`, multisite, biller, `isFreeLimitedTrial`, `subscriptionsStatus`, site type and lengths | subscription | `GET /internal/subscription` (a tandem child reads its parent's) |
//! | `daysUntilRefreshGems`, `state.gems`, `payPerVideoCredits` | wallet | `GET /internal/wallets/{user}/gems-balance` |
//! | unlocked packs and videos, `percentageOfUnlockedChannelPacks`, the last and recent pack unlock, `downloadQuotas` | unlocks | `GET /internal/unlocks/state` |
//!
//! The four calls go out at once, one per owner, and a request makes them once: the profile
//! is kept in the request's context ([`super::graphql::context::RequestCtx::profile`]) for the
//! abilities and every field that reads it.

use std::collections::BTreeMap;

use async_graphql::SimpleObject;
use chrono::{DateTime, Utc};
use profile_contract::api::OwnProfile;
use runtime::client::{CallContext, UpstreamError};
use serde::{Deserialize, Serialize};
use subscription_contract::api::FullRead;
use unlocks_contract::api::{self as unlocks_wire, UnlockStateResponse};
use uuid::Uuid;
use wallet_contract::api::GemsBalanceResponse;

use crate::graphql::profile_types::{Consent, RelationshipInfo, SpecialAttributesView, TandemSubscription};
use crate::graphql::Upstreams;

pub use crate::graphql::profile_types::ModalFlags;

/// findOneUserProfile: every field of product.md, "Account and profile".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct UserProfile {
    pub user_id: Uuid,
    pub id: Uuid,
    pub uuid: Uuid,
    pub email: String,
    pub username: Option<String>,
    pub display_name: Option<String>,
    pub active_since: Option<DateTime<Utc>>,
    pub badges: Vec<String>,
    pub groups: Vec<String>,
    pub scopes: Vec<String>,
    pub ab_test_variant: String,
    pub is_telemetry_enabled: bool,
    pub autoplay_enabled: bool,
    pub biller_name: Option<String>,
    pub biller: Option<Biller>,
    pub days_until_refresh_gems: u32,
    pub unlocked_channel_pack_ids: Vec<Uuid>,
    pub percentage_of_unlocked_channel_packs: u32,
    pub has_active_multisite_subscription: bool,
    pub multisite_type: Option<String>,
    pub site_access_array: Vec<String>,
    pub relationship_status: Option<String>,
    pub relationship_role: Option<String>,
    pub relationship_info: RelationshipInfo,
    pub is_free_limited_trial: bool,
    pub has_email_consent: bool,
    pub tandem_subscription: TandemSubscription,
    pub special_attributes: SpecialAttributesView,
    pub gdpr: Consent,
    pub subscription: SubscriptionView,
    pub user_subscriptions_state: UserSubscriptionsState,
    /// One value per brand key plus `channels`; `full` means full access, `none` none.
    pub tenants_subscription_state: BTreeMap<String, String>,
    pub download_quotas: DownloadQuotas,
    pub state: ProfileState,
    pub iterate: IterateProfile,
    pub customer_survey: CustomerSurvey,
    /// The free limited trial's full videos not yet taken, as the unlocks service counts them
    /// (the "free for your trial" mark reads it; unlockState answers it to the browser).
    #[graphql(skip)]
    #[serde(skip)]
    pub free_limited_trial_videos_left: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct Biller {
    pub name: String,
    pub url: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "UserSubscription")]
pub struct SubscriptionView {
    /// member, trial, porn-portal or expired.
    #[serde(rename = "type")]
    #[graphql(name = "type")]
    pub kind: String,
    pub subscription_type: String,
    pub biller: Option<String>,
    pub porn_portal: bool,
    pub pay_per_video_credits: u64,
    pub unlocked_video_ids: Vec<Uuid>,
    pub unlocked_videos: Vec<UnlockedVideo>,
    pub active: bool,
    pub is_active: bool,
    pub active_since: Option<DateTime<Utc>>,
    /// When the first subscription began; none without any.
    pub join_date: Option<DateTime<Utc>>,
    /// Whole months of membership (with the 7-day grace), if any.
    pub seniority: Option<u32>,
    pub x_site_info: Option<XSiteInfo>,
    pub cancelled: bool,
    pub is_free_limited_trial: bool,
    pub is_guest_user: bool,
    pub upgrade_options: UpgradeOptions,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "ProfileUnlockedVideo")]
pub struct UnlockedVideo {
    pub video_id: Uuid,
    pub new_id: String,
    pub unlocked_at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct XSiteInfo {
    pub site: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct UpgradeOptions {
    pub is_upgradeable_to_vixen_plus_yearly: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct UserSubscriptionsState {
    pub subscriptions_status: Vec<SubscriptionStatus>,
    pub unlocked_videos: Vec<UnlockedVideo>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionStatus {
    pub is_active: bool,
    pub is_tandem_child_account: bool,
    pub tenant: String,
    #[serde(rename = "type")]
    #[graphql(name = "type")]
    pub kind: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "ProfileDownloadQuotas")]
pub struct DownloadQuotas {
    pub threshold_reached: bool,
    pub downloads_number: u32,
    pub download_quota_max: u32,
    pub download_days_period: u32,
    pub quota_left: u32,
    pub remaining_days: u32,
    pub zero_quota: bool,
    pub site: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct ProfileState {
    pub user_id: Uuid,
    pub modals: ModalFlags,
    pub gems: GemsState,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
#[graphql(name = "ProfileGemsState")]
pub struct GemsState {
    pub last_acknowledgement_date: Option<DateTime<Utc>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct IterateProfile {
    pub user_id: Uuid,
    pub email: String,
    pub last_channel_pack_unlock_date: Option<DateTime<Utc>>,
    pub active_since: Option<DateTime<Utc>>,
    pub has_active_multisite_subscription: bool,
    pub tenants_subscription_state: BTreeMap<String, String>,
    pub subscription_type: String,
    pub subscription_active: bool,
    pub subscription_length_in_months: u32,
    pub subscription_length_in_days: u32,
    /// multi-site, trial, single-site, inactive or expired.
    pub site_type: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, SimpleObject)]
#[serde(rename_all = "camelCase")]
pub struct CustomerSurvey {
    pub user_id: Uuid,
    pub has_unlocked_channel_pack_in_last_two_weeks: bool,
    pub subscription_length_in_months: u32,
    pub subscription_length_in_days: u32,
}

/// The owners' answers a profile is made of.
#[derive(Debug)]
pub struct Owners {
    pub profile: OwnProfile,
    pub subscription: FullRead,
    pub wallet: GemsBalanceResponse,
    pub unlocks: UnlockStateResponse,
    /// The request brand's site bucket, as the unlocks service counts it.
    pub download_quotas: unlocks_wire::DownloadQuotas,
}

impl From<unlocks_wire::DownloadQuotas> for DownloadQuotas {
    fn from(q: unlocks_wire::DownloadQuotas) -> Self {
        DownloadQuotas {
            threshold_reached: q.threshold_reached,
            downloads_number: q.downloads_number,
            download_quota_max: q.download_quota_max,
            download_days_period: q.download_days_period,
            quota_left: q.quota_left,
            remaining_days: q.remaining_days,
            zero_quota: q.zero_quota,
            site: q.site,
        }
    }
}

/// The profile from its owners' answers: each field copied from the one that owns it.
pub fn assemble(o: Owners) -> UserProfile {
    let Owners { profile: own, subscription: sub, wallet, unlocks, download_quotas } = o;
    let user_id = own.user_id;
    let current = sub.light.subscription;
    let unlocked_videos: Vec<UnlockedVideo> = unlocks
        .unlocked_videos
        .into_iter()
        .map(|v| UnlockedVideo { video_id: v.video_id, new_id: v.new_id, unlocked_at: v.unlocked_at })
        .collect();
    let tenants = sub.light.tenants_subscription_state;
    UserProfile {
        user_id,
        id: user_id,
        uuid: user_id,
        email: own.email.clone(),
        username: own.username,
        display_name: own.display_name,
        active_since: current.active_since,
        badges: own.badges,
        groups: own.groups,
        scopes: own.scopes,
        ab_test_variant: own.ab_test_variant,
        is_telemetry_enabled: own.is_telemetry_enabled,
        autoplay_enabled: own.autoplay_enabled,
        biller_name: sub.light.biller_name,
        biller: sub.biller.map(|b| Biller { name: b.name, url: b.url }),
        days_until_refresh_gems: wallet.days_until_refresh_gems,
        unlocked_channel_pack_ids: unlocks.unlocked_channel_pack_ids,
        percentage_of_unlocked_channel_packs: unlocks.percentage_of_unlocked_channel_packs,
        has_active_multisite_subscription: sub.has_active_multisite_subscription,
        multisite_type: sub.multisite_type,
        site_access_array: sub.light.site_access_array,
        relationship_status: own.relationship_status,
        relationship_role: own.relationship_role,
        relationship_info: own.relationship_info.into(),
        is_free_limited_trial: sub.is_free_limited_trial,
        has_email_consent: own.has_email_consent,
        tandem_subscription: own.tandem_subscription.into(),
        special_attributes: own.special_attributes.into(),
        gdpr: own.gdpr.into(),
        subscription: SubscriptionView {
            kind: current.kind.clone(),
            subscription_type: current.subscription_type.clone(),
            biller: current.biller,
            porn_portal: current.porn_portal,
            pay_per_video_credits: wallet.pay_per_video_credits,
            unlocked_video_ids: unlocks.unlocked_video_ids,
            unlocked_videos: unlocked_videos.clone(),
            active: current.active,
            is_active: current.is_active,
            active_since: current.active_since,
            join_date: current.join_date,
            seniority: current.seniority,
            x_site_info: current.x_site_info.map(|x| XSiteInfo { site: x.site }),
            cancelled: current.cancelled,
            is_free_limited_trial: current.is_free_limited_trial,
            is_guest_user: own.is_guest_user,
            upgrade_options: UpgradeOptions {
                is_upgradeable_to_vixen_plus_yearly: current.upgrade_options.is_upgradeable_to_vixen_plus_yearly,
            },
        },
        user_subscriptions_state: UserSubscriptionsState {
            subscriptions_status: sub
                .subscriptions_status
                .into_iter()
                .map(|s| SubscriptionStatus {
                    is_active: s.is_active,
                    is_tandem_child_account: s.is_tandem_child_account,
                    tenant: s.tenant,
                    kind: s.kind,
                })
                .collect(),
            unlocked_videos,
        },
        tenants_subscription_state: tenants.clone(),
        download_quotas: download_quotas.into(),
        state: ProfileState {
            user_id,
            modals: own.modals.into(),
            gems: GemsState { last_acknowledgement_date: wallet.gems.last_acknowledgement_date },
        },
        iterate: IterateProfile {
            user_id,
            email: own.email,
            last_channel_pack_unlock_date: unlocks.last_channel_pack_unlock_date,
            active_since: current.active_since,
            has_active_multisite_subscription: sub.has_active_multisite_subscription,
            tenants_subscription_state: tenants,
            subscription_type: current.subscription_type,
            subscription_active: current.is_active,
            subscription_length_in_months: sub.subscription_length_in_months,
            subscription_length_in_days: sub.subscription_length_in_days,
            site_type: sub.site_type,
        },
        customer_survey: CustomerSurvey {
            user_id,
            has_unlocked_channel_pack_in_last_two_weeks: unlocks.has_unlocked_channel_pack_in_last_two_weeks,
            subscription_length_in_months: sub.subscription_length_in_months,
            subscription_length_in_days: sub.subscription_length_in_days,
        },
        free_limited_trial_videos_left: unlocks.free_limited_trial_videos_left,
    }
}

/// Asks the four owners at once, for the user of `call`'s token (`user_id`), on its brand.
pub async fn load(upstreams: &Upstreams, call: &CallContext, user_id: Uuid) -> Result<UserProfile, UpstreamError> {
    let (own, subscription, wallet, unlocks) = futures::join!(
        upstreams.profile.own_profile(call),
        upstreams.subscription.full(call),
        upstreams.wallet.gems_balance(user_id, call),
        unlocks_state(upstreams, call),
    );
    with_own(own?, subscription?, wallet?, unlocks?)
}

/// The profile after a change the profile service answered with its part: the other owners
/// are asked at once.
pub async fn after_change(
    upstreams: &Upstreams,
    call: &CallContext,
    own: OwnProfile,
) -> Result<UserProfile, UpstreamError> {
    let (subscription, wallet, unlocks) = futures::join!(
        upstreams.subscription.full(call),
        upstreams.wallet.gems_balance(own.user_id, call),
        unlocks_state(upstreams, call),
    );
    with_own(own, subscription?, wallet?, unlocks?)
}

async fn unlocks_state(upstreams: &Upstreams, call: &CallContext) -> Result<UnlockStateResponse, UpstreamError> {
    upstreams.unlocks.unlock_state(call).await
}

fn with_own(
    profile: OwnProfile,
    subscription: FullRead,
    wallet: GemsBalanceResponse,
    mut unlocks: UnlockStateResponse,
) -> Result<UserProfile, UpstreamError> {
    let Some(quotas) = unlocks.download_quotas.take() else {
        return Err(UpstreamError::unavailable("unlocks", "the unlock state came without the download quotas"));
    };
    Ok(assemble(Owners { profile, subscription, wallet, unlocks, download_quotas: quotas.site }))
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use subscription::view::{self, SubscriptionRow};

    use super::*;
    use profile_contract::api as wire;

    fn at(days: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, 6, 12, 0, 0).unwrap() + chrono::Duration::days(days)
    }

    fn own(user_id: Uuid) -> OwnProfile {
        OwnProfile {
            user_id,
            email: "jane@example.com".into(),
            username: Some("jane".into()),
            display_name: None,
            registered_at: at(-400),
            badges: vec!["silver".into()],
            groups: vec![],
            scopes: vec!["member".into()],
            ab_test_variant: "a".into(),
            is_telemetry_enabled: true,
            autoplay_enabled: true,
            relationship_status: None,
            relationship_role: None,
            relationship_info: wire::RelationshipInfo {
                relationship_status: None,
                relationship_role: None,
                is_visible: false,
                is_editable: false,
            },
            has_email_consent: false,
            tandem_subscription: wire::TandemSubscription {
                has_tandem_child_account: false,
                is_tandem_child_account: false,
                tandem_parent_display_name: None,
            },
            special_attributes: wire::SpecialAttributesView::default(),
            gdpr: wire::Consent {
                should_request_terms_consent: false,
                should_request_email_consent: true,
                should_request_cams_consent: true,
                request_terms_consent: false,
                request_email_consent: true,
                request_cams_consent: true,
                has_email_consent: false,
            },
            is_guest_user: false,
            modals: wire::ModalFlags {
                gems_intro: true,
                teaser_viewed: false,
                texas_health_warning_acknowledged: false,
                alabama_health_warning_acknowledged: true,
            },
        }
    }

    fn member(user_id: Uuid, cancelled: bool) -> SubscriptionRow {
        SubscriptionRow {
            subscription_id: Uuid::now_v7(),
            user_id,
            site: "vixen".into(),
            sites: vec!["vixen".into()],
            kind: "member".into(),
            is_free_limited_trial: false,
            biller: "RGNATIVE".into(),
            active_since: at(-45),
            join_date: at(-45),
            active: true,
            cancelled,
            ended: None,
            ended_at: None,
            nats_code: None,
            updated_at: at(-2),
        }
    }

    fn owners(user_id: Uuid) -> Owners {
        let pack = Uuid::from_u128(user_id.as_u128() ^ 1);
        let video = Uuid::from_u128(user_id.as_u128() ^ 2);
        let unlocks: UnlockStateResponse = serde_json::from_value(serde_json::json!({
            "unlockedChannelPackIds": [pack],
            "percentageOfUnlockedChannelPacks": 25,
            "lastChannelPackUnlockDate": at(-14),
            "hasUnlockedChannelPackInLastTwoWeeks": true,
            "unlockedVideoIds": [video],
            "unlockedVideos": [{ "videoId": video, "newId": "abc", "paidWith": "credits", "unlockedAt": at(-3) }],
            "freeLimitedTrialVideosLeft": 0,
            "channelPackCostGems": 10,
            "videoUnlockCostCredits": 1,
            "freeLimitedTrialVideos": 3,
        }))
        .unwrap();
        let wallet: GemsBalanceResponse = serde_json::from_value(serde_json::json!({
            "daysUntilRefreshGems": 5,
            "gems": { "lastAcknowledgementDate": at(-1), "hasNewGems": false, "mayShowGemsModal": false },
            "wallet": { "balance": { "amount": 30 } },
            "payPerVideoCredits": 4,
            "weeklyGems": 10,
        }))
        .unwrap();
        let download_quotas: unlocks_wire::DownloadQuotas = serde_json::from_value(serde_json::json!({
            "thresholdReached": false, "downloadsNumber": 3, "downloadQuotaMax": 20, "downloadDaysPeriod": 7,
            "quotaLeft": 17, "remainingDays": 6, "zeroQuota": false, "site": "vixen",
        }))
        .unwrap();
        Owners {
            profile: own(user_id),
            subscription: view::read(user_id, &[member(user_id, true)], None, "vixen", at(0)),
            wallet,
            unlocks,
            download_quotas,
        }
    }

    #[test]
    fn every_derived_field_is_its_owners_answer() {
        let user_id = Uuid::now_v7();
        let (o, p) = (owners(user_id), assemble(owners(user_id)));
        // The wallet's.
        assert_eq!(p.days_until_refresh_gems, o.wallet.days_until_refresh_gems);
        assert_eq!(p.state.gems.last_acknowledgement_date, o.wallet.gems.last_acknowledgement_date);
        assert_eq!(p.subscription.pay_per_video_credits, o.wallet.pay_per_video_credits);
        // The unlocks service's.
        assert_eq!(p.unlocked_channel_pack_ids, o.unlocks.unlocked_channel_pack_ids);
        assert_eq!(p.subscription.unlocked_video_ids, o.unlocks.unlocked_video_ids);
        assert_eq!(p.percentage_of_unlocked_channel_packs, 25);
        assert_eq!(p.iterate.last_channel_pack_unlock_date, o.unlocks.last_channel_pack_unlock_date);
        assert!(
            p.customer_survey.has_unlocked_channel_pack_in_last_two_weeks,
            "the unlocks service's rule: <= 14 days"
        );
        assert_eq!(p.download_quotas, DownloadQuotas::from(o.download_quotas.clone()));
        // The subscription service's: a cancelled member inside the period is active.
        assert!(p.subscription.active && p.subscription.cancelled);
        assert_eq!(p.site_access_array, o.subscription.light.site_access_array);
        assert_eq!(p.tenants_subscription_state, o.subscription.light.tenants_subscription_state);
        assert_eq!(p.iterate.site_type, o.subscription.site_type);
        assert_eq!(p.customer_survey.subscription_length_in_days, 45);
        assert_eq!(p.biller_name.as_deref(), Some("RGNATIVE"));
        // The profile's.
        assert_eq!(p.badges, o.profile.badges);
        assert_eq!(p.state.modals, ModalFlags::from(o.profile.modals.clone()));
    }

    #[test]
    fn the_access_rules_read_the_assembled_profile() {
        let p = assemble(owners(Uuid::now_v7()));
        let facts: access::ProfileFacts = serde_json::from_value(serde_json::to_value(&p).unwrap()).unwrap();
        assert_eq!(facts.site_access_array, ["vixen"]);
        assert_eq!(facts.tenants_subscription_state["vixen"], "full");
        assert!(facts.subscription.active && facts.subscription.cancelled);
        assert_eq!(facts.subscription.biller.as_deref(), Some("RGNATIVE"));
        assert_eq!(facts.subscription.pay_per_video_credits, 4);
        assert_eq!(
            facts.unlocked_channel_pack_ids,
            p.unlocked_channel_pack_ids.iter().map(Uuid::to_string).collect::<Vec<_>>()
        );
        assert_eq!(facts.subscription.unlocked_video_ids.len(), 1);
        assert!(facts.state.modals.gems_intro);
    }
}
