//! Who may watch, download or unlock what. The rules are `services/access`'s, the one owner
//! of every ability (product.md, "Roles and abilities"); this module only gathers the facts their
//! owners give and asks those rules:
//!
//! - the subscription read of the user (the subscription service, asked now: a cancelled
//!   subscription stays active until its period ends, a tandem child reads its parent's),
//! - the packs and videos the user unlocked (this service's own read model),
//! - the groups the user's access token carries.
//!
//! The gateway builds the browser's rule list from the same owners with the same
//! [`access::ProfileFacts::from_owners`], so the page and the token cannot disagree.
//!
//! Content questions (play, download, unlock of videos, channel videos and packs) do not read
//! the tenant's features (a property test in services/access holds that), so the rules are
//! asked with the default features here.

use access::abilities::{action, subject};
use access::{Ability, Group, OwnerFacts, ProfileFacts, ResourceFacts, SubscriptionRead, UserFacts};
use runtime::client::CallContext;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

pub use access::{Denied, TrialRefusal};

use crate::error::ApiError;
use crate::queries::{self, CatalogVideo};
use crate::State;

pub use unlocks_contract::api::Access;

/// How the user holds a video they unlocked on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VideoUnlockKind {
    Credits,
    FreeLimitedTrial,
}

/// Who asks: the user, on which brand, with the groups their token carries, and how to call
/// the owners on their behalf.
#[derive(Clone, Debug)]
pub struct Asker {
    pub user_id: Uuid,
    pub tenant: String,
    pub groups: Vec<Group>,
    pub call: CallContext,
}

impl Asker {
    /// From a verified access token (its raw form is forwarded to the owners).
    pub fn of(claims: &runtime::auth::Claims, tenant: &str, bearer: Option<&str>) -> Asker {
        Asker {
            user_id: claims.sub,
            tenant: tenant.to_owned(),
            groups: claims.groups.iter().filter_map(|g| Group::from_name(g)).collect(),
            call: CallContext {
                bearer: bearer.map(str::to_owned),
                tenant: Some(tenant.to_owned()),
                correlation_id: None,
            },
        }
    }
}

impl Asker {
    /// The system acting for `user_id` on `tenant` (the reconciler): no groups, and the
    /// owners are asked with the service's own identity.
    pub fn system(user_id: Uuid, tenant: &str) -> Asker {
        Asker {
            user_id,
            tenant: tenant.to_owned(),
            groups: Vec::new(),
            call: CallContext { bearer: None, tenant: Some(tenant.to_owned()), correlation_id: None },
        }
    }
}

/// One subscription as the subscription read lists it (the grounds a token is bound to).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SubscriptionEntry {
    pub subscription_id: Uuid,
    pub sites: Vec<String>,
    #[serde(rename = "type")]
    pub kind: String,
    pub active: bool,
    pub is_free_limited_trial: bool,
}

/// The subscription service's read of a user, as this service reads it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct OwnersRead {
    #[serde(flatten)]
    pub read: SubscriptionRead,
    pub subscriptions: Vec<SubscriptionEntry>,
}

/// The subscription service's answer, as the access rules and media grounds read it (the
/// fields by their wire names, as the gateway reads the same answer).
fn owners_read(read: &subscription_contract::api::FullRead) -> OwnersRead {
    serde_json::to_value(read).and_then(serde_json::from_value).expect("a subscription read reads as access facts")
}

/// The user's own unlocks, as this service records them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holdings {
    pub packs: Vec<Uuid>,
    pub videos: Vec<(Uuid, VideoUnlockKind)>,
    /// The free limited trial's full videos taken (the count unlockState answers from).
    pub free_trial_videos_used: u32,
}

impl Holdings {
    pub fn video(&self, video_id: Uuid) -> Option<VideoUnlockKind> {
        self.videos.iter().find(|(v, _)| *v == video_id).map(|(_, k)| *k)
    }
}

/// A user's standing: their abilities, and the facts behind them that a token is bound to.
#[derive(Clone, Debug)]
pub struct Standing {
    pub ability: Ability,
    pub holdings: Holdings,
    pub subscriptions: Vec<SubscriptionEntry>,
    pub read: OwnersRead,
    /// The facts the abilities were built from (a refusal's reason reads them too).
    pub user: UserFacts,
    /// The free limited trial's full videos not yet taken.
    pub free_trial_videos_left: u32,
}

/// The facts of `holdings`, `read` and `groups` as the access rules read them.
pub fn user_facts(tenant: &str, read: &OwnersRead, holdings: &Holdings, groups: &[Group]) -> UserFacts {
    let facts = ProfileFacts::from_owners(OwnerFacts {
        subscription: read.read.clone(),
        unlocked_channel_pack_ids: holdings.packs.iter().map(Uuid::to_string).collect(),
        unlocked_video_ids: holdings.videos.iter().map(|(v, _)| v.to_string()).collect(),
        // Credits bear on no ability (the wallet's debit decides a credits unlock).
        pay_per_video_credits: 0,
        groups: groups.to_vec(),
    });
    UserFacts::signed_in(tenant, facts)
}

/// Asks the owners for the user's facts and builds their abilities.
pub async fn standing(state: &State, asker: &Asker) -> Result<Standing, ApiError> {
    read_standing(state, asker, None).await
}

/// The user's standing with `channel_pack_id` counted as not held: the standing an unlock of
/// that pack is decided on (asking it again after the unlock's own record finds the same).
pub async fn standing_for_pack(state: &State, asker: &Asker, channel_pack_id: Uuid) -> Result<Standing, ApiError> {
    read_standing(state, asker, Some(channel_pack_id)).await
}

/// One read of the subscription service and of the user's unlocks; the facts built once.
async fn read_standing(state: &State, asker: &Asker, not_held: Option<Uuid>) -> Result<Standing, ApiError> {
    let (read, holdings) = futures::join!(
        state.subscriptions.read_of(asker.user_id, &asker.tenant, &asker.call),
        queries::held(&state.pool, asker.user_id)
    );
    let read = owners_read(&read.map_err(ApiError::SubscriptionUnavailable)?);
    let mut holdings = holdings?;
    if let Some(pack) = not_held {
        holdings.packs.retain(|p| *p != pack);
    }
    let user = user_facts(&asker.tenant, &read, &holdings, &asker.groups);
    Ok(Standing {
        ability: Ability::new(&user, features(&asker.tenant)?),
        free_trial_videos_left: state.config.free_trial_videos.saturating_sub(holdings.free_trial_videos_used),
        holdings,
        subscriptions: read.subscriptions.clone(),
        read,
        user,
    })
}

/// The brand's features, as the gateway's abilities read them (`tenants`), so that what the
/// browser is told it may do and what unlocks lets it do are one answer. A brand this process
/// does not know gets nothing.
fn features(tenant: &str) -> Result<&'static tenants::Features, ApiError> {
    tenants::global().get(tenant).map(|t| &t.features).ok_or(ApiError::NoTenantAccess)
}

/// A video as the rules' conditions read it (the browser's `subject('Video', video)`).
pub fn resource(video: &CatalogVideo) -> ResourceFacts {
    ResourceFacts {
        id: Some(video.video_id.to_string()),
        site: Some(video.site.clone()),
        channel_pack_id: video.channel_pack_id.map(|p| p.to_string()),
        is_third_party_channel: video.is_third_party_channel,
        is_free_limited_trial: video.is_free_limited_trial,
        denied: false,
    }
}

/// May the user `act` (play or download) on `video`, and on what ground.
pub fn verdict(standing: &Standing, video: &CatalogVideo, act: &str) -> Result<Access, Denied> {
    let facts = resource(video);
    if !standing.ability.can(act, subject::VIDEO, Some(&facts)) {
        return Err(access::denied_reason(&standing.user, &standing.ability, &facts, standing.free_trial_videos_left));
    }
    Ok(match standing.holdings.video(video.video_id) {
        Some(VideoUnlockKind::Credits) => Access::Credits,
        Some(VideoUnlockKind::FreeLimitedTrial) => Access::FreeLimitedTrial,
        None if video.channel_pack_id.is_some_and(|p| standing.holdings.packs.contains(&p)) => Access::ChannelPack,
        None => Access::Subscription,
    })
}

/// The subscriptions whose end takes away a video opened on `ground`: those covering its
/// site (or, for the free limited trial's videos, the running trial).
pub fn grounds(standing: &Standing, video: &CatalogVideo, ground: Access) -> Vec<Uuid> {
    let covers = |s: &&SubscriptionEntry| s.active && s.kind != "porn-portal" && s.sites.contains(&video.site);
    match ground {
        Access::Subscription => standing.subscriptions.iter().filter(covers).map(|s| s.subscription_id).collect(),
        Access::FreeLimitedTrial => standing
            .subscriptions
            .iter()
            .filter(|s| s.active && s.is_free_limited_trial)
            .map(|s| s.subscription_id)
            .collect(),
        Access::ChannelPack | Access::Credits => Vec::new(),
    }
}

/// May the user unlock this pack with gems (an active subscriber with access to the brand).
pub fn may_unlock_channel_pack(standing: &Standing, channel_pack_id: Uuid) -> bool {
    let pack = ResourceFacts { channel_pack_id: Some(channel_pack_id.to_string()), ..Default::default() };
    standing.ability.can(action::UNLOCK, subject::CHANNEL_PACK, Some(&pack))
}

/// Whether the user's free limited trial may take this video as one of its full videos:
/// `None` when the user is not on the free limited trial (the video is theirs to buy with
/// credits, if anything), otherwise the trial's answer and, refused, why (the access rules'
/// `free_trial_take`, with the full videos this service counts as left).
pub fn may_take_free_trial_video(standing: &Standing, video: &CatalogVideo) -> Option<Result<(), TrialRefusal>> {
    access::free_trial_take(&standing.user, &standing.ability, &resource(video), standing.free_trial_videos_left)
}

/// The mark "free for your trial": one the user's trial may take now.
pub fn is_free_trial_video_for(standing: &Standing, video: &CatalogVideo) -> bool {
    matches!(may_take_free_trial_video(standing, video), Some(Ok(())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use access::{StoredKind, SubscriptionKind, SubscriptionStatus};

    fn read(kind: SubscriptionKind, active: bool, cancelled: bool, sites: &[&str], child: bool) -> OwnersRead {
        let sites: Vec<String> = sites.iter().map(|s| s.to_string()).collect();
        let mut r = OwnersRead::default();
        r.read.site_access_array = if active && kind != SubscriptionKind::PornPortal { sites.clone() } else { vec![] };
        r.read.subscription.kind = kind;
        r.read.subscription.active = active;
        r.read.subscription.cancelled = cancelled;
        r.read.subscription.biller = Some("RGNATIVE".into());
        r.read.tandem_subscription.is_tandem_child_account = child;
        r.read.subscriptions_status = sites
            .iter()
            .map(|t| SubscriptionStatus {
                is_active: active,
                is_tandem_child_account: child,
                tenant: t.clone(),
                kind: StoredKind::Member,
            })
            .collect();
        r.subscriptions = vec![SubscriptionEntry {
            subscription_id: Uuid::from_u128(7),
            sites,
            kind: "member".into(),
            active,
            is_free_limited_trial: false,
        }];
        r
    }

    fn standing_of(read: &OwnersRead, holdings: Holdings) -> Standing {
        let user = user_facts("vixen", read, &holdings, &[]);
        Standing {
            ability: Ability::new(&user, &tenants::global().get("vixen").unwrap().features),
            holdings,
            subscriptions: read.subscriptions.clone(),
            read: read.clone(),
            user,
            free_trial_videos_left: 3,
        }
    }

    fn video(site: &str, pack: Option<Uuid>) -> CatalogVideo {
        CatalogVideo {
            video_id: Uuid::from_u128(99),
            new_id: "n".into(),
            site: site.into(),
            channel_pack_id: pack,
            channel_category: None,
            is_third_party_channel: false,
            is_free_limited_trial: false,
            qualities: vec![],
        }
    }

    #[test]
    fn a_cancelled_member_inside_the_paid_period_plays_and_downloads() {
        let s = standing_of(&read(SubscriptionKind::Member, true, true, &["vixen"], false), Holdings::default());
        assert_eq!(verdict(&s, &video("vixen", None), action::PLAY), Ok(Access::Subscription));
        assert_eq!(verdict(&s, &video("vixen", None), action::DOWNLOAD), Ok(Access::Subscription));
        assert_eq!(grounds(&s, &video("vixen", None), Access::Subscription), vec![Uuid::from_u128(7)]);
    }

    #[test]
    fn a_tandem_child_plays_on_the_parents_membership() {
        let s = standing_of(&read(SubscriptionKind::Member, true, false, &["vixen"], true), Holdings::default());
        assert_eq!(verdict(&s, &video("vixen", None), action::PLAY), Ok(Access::Subscription));
        assert_eq!(verdict(&s, &video("tushy", None), action::PLAY), Err(Denied::NoAccess));
    }

    #[test]
    fn an_expired_member_plays_only_what_they_hold() {
        let mut holdings = Holdings::default();
        holdings.videos.push((Uuid::from_u128(99), VideoUnlockKind::Credits));
        let expired = read(SubscriptionKind::Member, false, false, &["vixen"], false);
        assert_eq!(
            verdict(&standing_of(&expired, Holdings::default()), &video("vixen", None), action::PLAY),
            Err(Denied::Reactivate)
        );
        assert_eq!(verdict(&standing_of(&expired, holdings), &video("vixen", None), action::PLAY), Ok(Access::Credits));
    }

    #[test]
    fn a_pack_video_opens_with_its_pack_and_is_bound_to_no_subscription() {
        let pack = Uuid::from_u128(5);
        let member = read(SubscriptionKind::Member, true, false, &["vixen", "channels"], false);
        let locked = standing_of(&member, Holdings::default());
        assert_eq!(verdict(&locked, &video("channels", Some(pack)), action::PLAY), Err(Denied::ChannelPackLocked));
        assert!(may_unlock_channel_pack(&locked, pack));
        let open = standing_of(&member, Holdings { packs: vec![pack], ..Default::default() });
        assert_eq!(verdict(&open, &video("channels", Some(pack)), action::PLAY), Ok(Access::ChannelPack));
        assert!(!may_unlock_channel_pack(&open, pack), "already unlocked");
    }
}
