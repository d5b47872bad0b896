//! Who may watch or download a video, and who may unlock what: pure rules over facts the
//! caller looked up (subscriptions from subscription events, the video from catalog events,
//! the user's unlocks). Checked when a token is issued, so after a cancel, a chargeback or an
//! expiry no new token is given.

use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// A subscription's kind (spec: member, trial, porn-portal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Member,
    Trial,
    PornPortal,
}

/// Where a subscription stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    Active,
    /// Cancelled: no new token, even while the paid period runs.
    Cancelled,
    /// Expired, charged back or refunded.
    Ended,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubscriptionFacts {
    pub kind: Kind,
    /// Brand keys it opens (a multisite package: several).
    pub sites: Vec<String>,
    pub is_free_limited_trial: bool,
    pub standing: Standing,
}

impl SubscriptionFacts {
    fn is_active(&self) -> bool {
        self.standing == Standing::Active
    }

    /// Opens every video of its sites in full: an active member or (not free-limited) trial.
    fn opens_site(&self, site: &str) -> bool {
        self.is_active()
            && matches!(self.kind, Kind::Member | Kind::Trial)
            && !self.is_free_limited_trial
            && self.sites.iter().any(|s| s == site)
    }
}

/// A video as the rules see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VideoFacts {
    pub site: String,
    /// The pack that must be unlocked to watch it, when it is in one.
    pub channel_pack_id: Option<Uuid>,
    pub is_third_party_channel: bool,
}

/// How the user holds a video they unlocked on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VideoUnlockKind {
    Credits,
    FreeLimitedTrial,
}

/// What a user holds that bears on one video.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holdings {
    pub subscriptions: Vec<SubscriptionFacts>,
    /// The video's pack is unlocked.
    pub pack_unlocked: bool,
    pub video_unlock: Option<VideoUnlockKind>,
}

/// Why the user may watch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Access {
    /// An active subscription covering the video's site.
    Subscription,
    /// The video's channel pack is unlocked.
    ChannelPack,
    /// Bought with pay-per-video credits: for good.
    Credits,
    /// One of the free limited trial's full videos, while the trial runs.
    FreeLimitedTrial,
}

/// Why the user may not, and where the front end sends them (spec §4, access-denied routing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Denied {
    /// A channel video whose pack is not unlocked: the unlock-channel modal.
    ChannelPackLocked,
    /// Nothing opens it: the purchase (or unlock-or-upgrade) modal.
    NoAccess,
}

/// May the user watch (or download) the video now?
pub fn access(video: &VideoFacts, holdings: &Holdings) -> Result<Access, Denied> {
    match holdings.video_unlock {
        Some(VideoUnlockKind::Credits) => return Ok(Access::Credits),
        Some(VideoUnlockKind::FreeLimitedTrial) if has_running_free_trial(&holdings.subscriptions) => {
            return Ok(Access::FreeLimitedTrial)
        }
        _ => {}
    }
    if video.channel_pack_id.is_some() {
        // A pack's videos open with the pack, whatever the membership (spec §4).
        return if holdings.pack_unlocked { Ok(Access::ChannelPack) } else { Err(Denied::ChannelPackLocked) };
    }
    if holdings.subscriptions.iter().any(|s| s.opens_site(&video.site)) {
        return Ok(Access::Subscription);
    }
    Err(Denied::NoAccess)
}

/// Channel packs are unlocked with gems by users with tenant access: an active membership
/// or trial (not porn-portal, which pays per video).
pub fn may_unlock_channel_pack(subscriptions: &[SubscriptionFacts]) -> bool {
    subscriptions.iter().any(|s| s.is_active() && matches!(s.kind, Kind::Member | Kind::Trial))
}

/// A free limited trial that still runs: its full videos play.
pub fn has_running_free_trial(subscriptions: &[SubscriptionFacts]) -> bool {
    subscriptions.iter().any(|s| s.is_active() && s.is_free_limited_trial)
}

/// May the user take one of the free limited trial's full videos for this one: a running
/// free trial covering the video's site, and not a third-party channel's video.
pub fn may_take_free_trial_video(video: &VideoFacts, subscriptions: &[SubscriptionFacts]) -> bool {
    !video.is_third_party_channel
        && subscriptions.iter().any(|s| s.is_active() && s.is_free_limited_trial && s.sites.contains(&video.site))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sub(kind: Kind, sites: &[&str], standing: Standing) -> SubscriptionFacts {
        SubscriptionFacts {
            kind,
            sites: sites.iter().map(|s| s.to_string()).collect(),
            is_free_limited_trial: false,
            standing,
        }
    }

    fn video(site: &str) -> VideoFacts {
        VideoFacts { site: site.into(), channel_pack_id: None, is_third_party_channel: false }
    }

    fn holding(subscriptions: Vec<SubscriptionFacts>) -> Holdings {
        Holdings { subscriptions, ..Default::default() }
    }

    #[test]
    fn an_active_subscription_opens_its_sites_and_a_multisite_one_opens_each() {
        let single = holding(vec![sub(Kind::Member, &["vixen"], Standing::Active)]);
        assert_eq!(access(&video("vixen"), &single), Ok(Access::Subscription));
        assert_eq!(access(&video("tushy"), &single), Err(Denied::NoAccess));
        let multi = holding(vec![sub(Kind::Member, &["vixen", "tushy", "blacked"], Standing::Active)]);
        assert_eq!(access(&video("tushy"), &multi), Ok(Access::Subscription));
    }

    #[test]
    fn a_cancelled_or_ended_subscription_opens_nothing() {
        for standing in [Standing::Cancelled, Standing::Ended] {
            let h = holding(vec![sub(Kind::Member, &["vixen"], standing)]);
            assert_eq!(access(&video("vixen"), &h), Err(Denied::NoAccess), "{standing:?}");
            assert!(!may_unlock_channel_pack(&h.subscriptions));
        }
    }

    #[test]
    fn a_porn_portal_subscription_opens_only_what_credits_bought() {
        let mut h = holding(vec![sub(Kind::PornPortal, &["vixen"], Standing::Active)]);
        assert_eq!(access(&video("vixen"), &h), Err(Denied::NoAccess));
        assert!(!may_unlock_channel_pack(&h.subscriptions));
        h.video_unlock = Some(VideoUnlockKind::Credits);
        assert_eq!(access(&video("vixen"), &h), Ok(Access::Credits));
        // Bought for good: still after the portal subscription ended.
        h.subscriptions[0].standing = Standing::Ended;
        assert_eq!(access(&video("vixen"), &h), Ok(Access::Credits));
    }

    #[test]
    fn a_pack_video_needs_its_pack_even_for_a_member() {
        let pack_video = VideoFacts { channel_pack_id: Some(Uuid::from_u128(9)), ..video("vixen") };
        let mut h = holding(vec![sub(Kind::Member, &["vixen"], Standing::Active)]);
        assert_eq!(access(&pack_video, &h), Err(Denied::ChannelPackLocked));
        h.pack_unlocked = true;
        assert_eq!(access(&pack_video, &h), Ok(Access::ChannelPack));
    }

    #[test]
    fn the_free_trial_opens_its_own_videos_while_it_runs_and_nothing_else() {
        let mut trial = sub(Kind::Trial, &["vixen"], Standing::Active);
        trial.is_free_limited_trial = true;
        let mut h = holding(vec![trial]);
        assert_eq!(access(&video("vixen"), &h), Err(Denied::NoAccess), "a free trial is not a full membership");
        assert!(may_take_free_trial_video(&video("vixen"), &h.subscriptions));
        assert!(!may_take_free_trial_video(&video("tushy"), &h.subscriptions));
        let third_party = VideoFacts { is_third_party_channel: true, ..video("vixen") };
        assert!(!may_take_free_trial_video(&third_party, &h.subscriptions));
        h.video_unlock = Some(VideoUnlockKind::FreeLimitedTrial);
        assert_eq!(access(&video("vixen"), &h), Ok(Access::FreeLimitedTrial));
        h.subscriptions[0].standing = Standing::Cancelled;
        assert_eq!(access(&video("vixen"), &h), Err(Denied::NoAccess));
    }

    fn any_sub() -> impl Strategy<Value = SubscriptionFacts> {
        (
            prop_oneof![Just(Kind::Member), Just(Kind::Trial), Just(Kind::PornPortal)],
            proptest::sample::subsequence(vec!["vixen", "tushy", "blacked"], 0..3),
            any::<bool>(),
            prop_oneof![Just(Standing::Active), Just(Standing::Cancelled), Just(Standing::Ended)],
        )
            .prop_map(|(kind, sites, free, standing)| SubscriptionFacts {
                kind,
                sites: sites.into_iter().map(String::from).collect(),
                is_free_limited_trial: free,
                standing,
            })
    }

    proptest! {
        #[test]
        fn without_an_active_subscription_only_credits_and_packs_open_a_video(
            subs in proptest::collection::vec(any_sub(), 0..4),
            pack in any::<bool>(),
            pack_unlocked in any::<bool>(),
            unlock in prop_oneof![Just(None), Just(Some(VideoUnlockKind::Credits)), Just(Some(VideoUnlockKind::FreeLimitedTrial))],
        ) {
            let v = VideoFacts { channel_pack_id: pack.then(|| Uuid::from_u128(1)), ..video("vixen") };
            let h = Holdings { subscriptions: subs.clone(), pack_unlocked, video_unlock: unlock };
            let got = access(&v, &h);
            let any_active = subs.iter().any(|s| s.standing == Standing::Active);
            if !any_active {
                prop_assert!(matches!(got, Ok(Access::Credits) | Ok(Access::ChannelPack) | Err(_)));
            }
            if got == Ok(Access::Subscription) {
                prop_assert!(!pack && subs.iter().any(|s| s.standing == Standing::Active && s.sites.iter().any(|x| x == "vixen")));
            }
            if pack && !pack_unlocked && unlock.is_none() {
                prop_assert_eq!(got, Err(Denied::ChannelPackLocked));
            }
        }
    }
}
