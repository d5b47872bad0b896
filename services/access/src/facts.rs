//! The inputs: what the gateway knows about a user and a tenant when it asks a question.
//!
//! [`ProfileFacts`] deserialises from the JSON of findOneUserProfile (product.md, "Account and profile"
//! product.md, "Account and profile"): it names a subset of its fields with the spec's spelling, every field
//! has a default and unknown fields are ignored, so the gateway can pass the profile through.
//! The tenant's features are `tenants::Features`, as `config/tenants/*.json` gives them.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

pub use proto_events::profile::Group;

/// The native biller: a cancelled subscription billed by it is offered reactivation.
pub const NATIVE_BILLER: &str = "RGNATIVE";
/// tenantsSubscriptionState's value for full access.
pub const FULL_ACCESS: &str = "full";

/// A user as the rules see them, on the tenant (brand key) serving the request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserFacts {
    /// Brand key of the request (`x-paysite-tenant`), e.g. `tushy`.
    pub tenant: String,
    /// The signed-in user's profile; `None` for an anonymous visitor.
    #[serde(default)]
    pub profile: Option<ProfileFacts>,
}

impl UserFacts {
    pub fn anonymous(tenant: impl Into<String>) -> Self {
        UserFacts { tenant: tenant.into(), profile: None }
    }

    pub fn signed_in(tenant: impl Into<String>, profile: ProfileFacts) -> Self {
        UserFacts { tenant: tenant.into(), profile: Some(profile) }
    }
}

/// The fields of findOneUserProfile the rules read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProfileFacts {
    /// Unknown group names are dropped: an unknown group carries no rights.
    #[serde(deserialize_with = "known_groups")]
    pub groups: Vec<Group>,
    /// Site keys the user has full access to.
    pub site_access_array: Vec<String>,
    /// One value per brand key plus `channels`; `full` means full access.
    pub tenants_subscription_state: BTreeMap<String, String>,
    pub has_active_multisite_subscription: bool,
    pub is_free_limited_trial: bool,
    pub unlocked_channel_pack_ids: Vec<String>,
    pub tandem_subscription: TandemFacts,
    pub subscription: SubscriptionFacts,
    pub user_subscriptions_state: UserSubscriptionsState,
    pub state: ProfileState,
}

/// The facts the rules read, as their owners answer them (docs/architecture.md, "One owner
/// per fact"): the subscription service's read of the user, the unlocks
/// service's holdings, the wallet's credits and the groups the access token carries.
///
/// Every process that decides access (the gateway for the browser's rule list, the unlocks
/// service for tokens, downloads and unlocks) builds its [`ProfileFacts`] with
/// [`ProfileFacts::from_owners`], so the same owners' answers give the same abilities
/// everywhere.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OwnerFacts {
    pub subscription: SubscriptionRead,
    pub unlocked_channel_pack_ids: Vec<String>,
    pub unlocked_video_ids: Vec<String>,
    pub pay_per_video_credits: u64,
    pub groups: Vec<Group>,
}

/// The part of the subscription service's read of a user (`/internal/subscription`,
/// `/internal/users/{id}/subscription`) the rules read, with its wire names. A tandem child's
/// read is its parent's subscriptions, marked as the child's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SubscriptionRead {
    pub site_access_array: Vec<String>,
    pub tenants_subscription_state: BTreeMap<String, String>,
    pub subscription: SubscriptionReadCurrent,
    pub has_active_multisite_subscription: bool,
    pub is_free_limited_trial: bool,
    pub tandem_subscription: TandemFacts,
    pub subscriptions_status: Vec<SubscriptionStatus>,
}

/// The read's `subscription`: the one that counts on the request's tenant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SubscriptionReadCurrent {
    #[serde(rename = "type")]
    pub kind: SubscriptionKind,
    pub active: bool,
    pub cancelled: bool,
    pub biller: Option<String>,
    pub is_free_limited_trial: bool,
}

impl Default for SubscriptionReadCurrent {
    fn default() -> Self {
        let d = SubscriptionFacts::default();
        SubscriptionReadCurrent {
            kind: d.kind,
            active: d.active,
            cancelled: d.cancelled,
            biller: d.biller,
            is_free_limited_trial: d.is_free_limited_trial,
        }
    }
}

impl ProfileFacts {
    /// The facts from their owners' answers (see [`OwnerFacts`]). The modal flags are the
    /// profile's own and do not bear on content; they stay at their defaults here.
    pub fn from_owners(owners: OwnerFacts) -> ProfileFacts {
        let OwnerFacts {
            subscription: read,
            unlocked_channel_pack_ids,
            unlocked_video_ids,
            pay_per_video_credits,
            groups,
        } = owners;
        let is_guest_user = groups.contains(&Group::GuestUser);
        ProfileFacts {
            groups,
            site_access_array: read.site_access_array,
            tenants_subscription_state: read.tenants_subscription_state,
            has_active_multisite_subscription: read.has_active_multisite_subscription,
            is_free_limited_trial: read.is_free_limited_trial,
            unlocked_channel_pack_ids,
            tandem_subscription: read.tandem_subscription,
            subscription: SubscriptionFacts {
                kind: read.subscription.kind,
                active: read.subscription.active,
                cancelled: read.subscription.cancelled,
                biller: read.subscription.biller,
                pay_per_video_credits,
                unlocked_video_ids,
                is_free_limited_trial: read.subscription.is_free_limited_trial,
                is_guest_user,
            },
            user_subscriptions_state: UserSubscriptionsState { subscriptions_status: read.subscriptions_status },
            state: ProfileState::default(),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TandemFacts {
    pub has_tandem_child_account: bool,
    pub is_tandem_child_account: bool,
}

/// The profile's `subscription`: the one that counts on the request's tenant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SubscriptionFacts {
    /// member, trial, porn-portal or expired (the spec's default: porn-portal, inactive).
    #[serde(rename = "type")]
    pub kind: SubscriptionKind,
    pub active: bool,
    pub cancelled: bool,
    /// Biller name, e.g. `RGNATIVE`.
    pub biller: Option<String>,
    pub pay_per_video_credits: u64,
    pub unlocked_video_ids: Vec<String>,
    pub is_free_limited_trial: bool,
    pub is_guest_user: bool,
}

impl Default for SubscriptionFacts {
    fn default() -> Self {
        SubscriptionFacts {
            kind: SubscriptionKind::PornPortal,
            active: false,
            cancelled: false,
            biller: None,
            pay_per_video_credits: 0,
            unlocked_video_ids: Vec::new(),
            is_free_limited_trial: false,
            is_guest_user: false,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UserSubscriptionsState {
    pub subscriptions_status: Vec<SubscriptionStatus>,
}

/// One of the user's subscriptions, per brand it opens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionStatus {
    #[serde(default)]
    pub is_active: bool,
    #[serde(default)]
    pub is_tandem_child_account: bool,
    pub tenant: String,
    #[serde(rename = "type")]
    pub kind: StoredKind,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProfileState {
    pub modals: ModalFlags,
}

/// `state.modals`: what the user has already seen or acknowledged.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ModalFlags {
    pub gems_intro: bool,
    pub teaser_viewed: bool,
    pub texas_health_warning_acknowledged: bool,
    pub alabama_health_warning_acknowledged: bool,
}

fn known_groups<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Group>, D::Error> {
    let names = Vec::<String>::deserialize(d)?;
    Ok(names.iter().filter_map(|n| Group::from_name(n)).collect())
}

/// A subscription's kind as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StoredKind {
    Member,
    Trial,
    PornPortal,
}

/// The kind the rules see: "expired" when the subscription is not active and not porn-portal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SubscriptionKind {
    Member,
    Trial,
    PornPortal,
    Expired,
}

pub fn subscription_kind(stored: StoredKind, active: bool) -> SubscriptionKind {
    match (stored, active) {
        (StoredKind::PornPortal, _) => SubscriptionKind::PornPortal,
        (_, false) => SubscriptionKind::Expired,
        (StoredKind::Member, true) => SubscriptionKind::Member,
        (StoredKind::Trial, true) => SubscriptionKind::Trial,
    }
}

/// Moderators (admin, commenteditor) may remove comments and pin or unpin them.
pub fn is_moderator(groups: &[Group]) -> bool {
    groups.iter().any(|g| matches!(g, Group::Admin | Group::CommentEditor))
}

/// Channel trailers, internal channels, internal channel trailers and the expert-review
/// modal show when their feature flag is on or the user has the preview role.
pub fn shows_flag_or_preview(feature_enabled: bool, groups: &[Group]) -> bool {
    feature_enabled || groups.contains(&Group::VideoPreview)
}

/// The base role of a user on a tenant, the rows of product.md, "Roles and abilities" that are
/// mutually exclusive. Groups (moderator, preview), the tandem-child flag and admin are
/// overlays on top of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    Anonymous,
    /// An active member subscription (single-site or multisite).
    ActiveSubscriber,
    /// The free limited trial (3 full videos), active or not.
    FreeLimitedTrial,
    /// An active trial that is not the free limited trial.
    Trial,
    /// A member or trial subscription that is no longer active.
    ExpiredMember,
    /// Pay-per-video, signed in as a guest (@paysites/guest-user, scope guest).
    PornPortalGuest,
    /// Pay-per-video, not a guest.
    PornPortal,
}

/// Everything the rules derive from [`UserFacts`], computed once.
#[derive(Clone, Debug)]
pub(crate) struct Standing {
    pub role: Role,
    pub signed_in: bool,
    pub admin: bool,
    pub moderator: bool,
    pub preview: bool,
    pub active: bool,
    pub tandem_child: bool,
    pub cancelled_native: bool,
    pub multisite: bool,
    pub credits: u64,
    /// On the plus tenant.
    pub plus_tenant: bool,
    /// The request's tenant is in the access sites.
    pub tenant_access: bool,
    /// siteAccessArray plus every key tenantsSubscriptionState marks `full` (e.g. `channels`).
    pub access_sites: Vec<String>,
    pub unlocked_videos: Vec<String>,
    pub unlocked_packs: Vec<String>,
    pub wifey_active: bool,
    /// A porn-portal user with plus status and a trial subscription but no membership.
    pub plus_trial_without_membership: bool,
}

impl Standing {
    pub fn of(user: &UserFacts) -> Standing {
        let Some(p) = &user.profile else {
            return Standing {
                role: Role::Anonymous,
                signed_in: false,
                admin: false,
                moderator: false,
                preview: false,
                active: false,
                tandem_child: false,
                cancelled_native: false,
                multisite: false,
                credits: 0,
                plus_tenant: tenants::global().is_combined(&user.tenant),
                tenant_access: false,
                access_sites: Vec::new(),
                unlocked_videos: Vec::new(),
                unlocked_packs: Vec::new(),
                wifey_active: false,
                plus_trial_without_membership: false,
            };
        };
        let s = &p.subscription;
        let kind = match s.kind {
            SubscriptionKind::Member if !s.active => SubscriptionKind::Expired,
            SubscriptionKind::Trial if !s.active => SubscriptionKind::Expired,
            k => k,
        };
        let active = s.active && kind != SubscriptionKind::Expired;
        let guest = p.groups.contains(&Group::GuestUser) || s.is_guest_user;
        let flt = (s.is_free_limited_trial || p.is_free_limited_trial)
            && matches!(kind, SubscriptionKind::Trial | SubscriptionKind::Expired);
        let role = match kind {
            SubscriptionKind::Member => Role::ActiveSubscriber,
            _ if flt => Role::FreeLimitedTrial,
            SubscriptionKind::Trial => Role::Trial,
            SubscriptionKind::Expired => Role::ExpiredMember,
            SubscriptionKind::PornPortal if guest => Role::PornPortalGuest,
            SubscriptionKind::PornPortal => Role::PornPortal,
        };
        let mut access_sites: Vec<String> = p.site_access_array.clone();
        access_sites
            .extend(p.tenants_subscription_state.iter().filter(|(_, v)| *v == FULL_ACCESS).map(|(k, _)| k.clone()));
        access_sites.sort();
        access_sites.dedup();
        let statuses = &p.user_subscriptions_state.subscriptions_status;
        let tenants = tenants::global();
        let plus_status = statuses.iter().any(|st| tenants.is_combined(&st.tenant));
        let any_trial = statuses.iter().any(|st| st.is_active && st.kind == StoredKind::Trial);
        let any_membership = statuses.iter().any(|st| st.is_active && st.kind == StoredKind::Member);
        Standing {
            role,
            signed_in: true,
            admin: p.groups.contains(&Group::Admin),
            moderator: is_moderator(&p.groups),
            preview: p.groups.contains(&Group::VideoPreview),
            active,
            tandem_child: p.tandem_subscription.is_tandem_child_account,
            cancelled_native: s.cancelled && s.biller.as_deref() == Some(NATIVE_BILLER),
            multisite: p.has_active_multisite_subscription,
            credits: s.pay_per_video_credits,
            plus_tenant: tenants.is_combined(&user.tenant),
            tenant_access: access_sites.contains(&user.tenant),
            // hasActiveWifeySubscription: full access to a brand whose configuration shows the
            // relationship section (wifey).
            wifey_active: access_sites.iter().any(|a| tenants.get(a).is_some_and(|t| t.features.relationship_section)),
            access_sites,
            unlocked_videos: s.unlocked_video_ids.clone(),
            unlocked_packs: p.unlocked_channel_pack_ids.clone(),
            plus_trial_without_membership: kind == SubscriptionKind::PornPortal
                && plus_status
                && any_trial
                && !any_membership,
        }
    }
}

/// The role a user plays on the request's tenant.
pub fn role(user: &UserFacts) -> Role {
    Standing::of(user).role
}
