//! The free limited trial's videos (product.md, "Unlocks": 3 full
//! videos): which videos a user's trial may take, and why it may not take one.
//!
//! A video is one of the trial's free videos for this user when the "unlock Video" rule of
//! the free limited trial holds for it (a flagged video of the trial's own sites, not a third
//! party's channel, not taken yet) and the trial still has full videos left. Being flagged
//! (`isFreeLimitedTrial`) is not enough: the combined brand's lists carry every brand's
//! flagged videos, and a vixenplus trial's sites are vixenplus's alone (docs/decisions/access/free-trial-videos-user-video-together.md).

use serde::{Deserialize, Serialize};

use crate::abilities::{action, subject, Ability};
use crate::facts::{Role, Standing, UserFacts};
use crate::rules::ResourceFacts;

/// Why the free limited trial may not take a video (UnlockVideo's refusal to a free limited
/// trial user: never a shortage of credits, which the trial does not spend).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrialRefusal {
    /// The trial is over: 'limited trial expired'.
    Expired,
    /// The trial's full videos are all taken.
    NoneLeft,
    /// The user holds the video already (taken, or unlocked otherwise).
    AlreadyTaken,
    /// Not one of the free limited trial's videos (not flagged, or a third party's channel).
    NotATrialVideo,
    /// A free limited trial video of a site the trial does not cover.
    OtherSite,
}

/// Whether `user`'s free limited trial (whose rules are `ability`, with `left` full videos
/// not yet taken) may take `video`: `None` when the user is not on the free limited trial
/// (the question is not the trial's), otherwise the trial's answer.
pub fn free_trial_take(
    user: &UserFacts,
    ability: &Ability,
    video: &ResourceFacts,
    left: u32,
) -> Option<Result<(), TrialRefusal>> {
    let st = Standing::of(user);
    if st.role != Role::FreeLimitedTrial {
        return None;
    }
    let held = video.id.as_ref().is_some_and(|id| st.unlocked_videos.contains(id));
    Some(if !st.active {
        Err(TrialRefusal::Expired)
    } else if ability.can(action::UNLOCK, subject::VIDEO, Some(video)) {
        if left == 0 {
            Err(TrialRefusal::NoneLeft)
        } else {
            Ok(())
        }
    } else if held {
        Err(TrialRefusal::AlreadyTaken)
    } else if !video.is_free_limited_trial || video.is_third_party_channel {
        Err(TrialRefusal::NotATrialVideo)
    } else {
        Err(TrialRefusal::OtherSite)
    })
}

/// The mark "free for your trial": `video` is one the user's trial may take now.
pub fn is_free_trial_video_for(user: &UserFacts, ability: &Ability, video: &ResourceFacts, left: u32) -> bool {
    matches!(free_trial_take(user, ability, video, left), Some(Ok(())))
}

/// The sites whose flagged videos are the user's trial's ("free for your trial" lists them):
/// an active free limited trial's access sites; nothing for anyone else.
pub fn free_trial_sites(user: &UserFacts) -> Vec<String> {
    let st = Standing::of(user);
    if st.role == Role::FreeLimitedTrial && st.active {
        st.access_sites
    } else {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{ProfileFacts, SubscriptionFacts, SubscriptionKind};
    use tenants::Features;

    fn user(kind: SubscriptionKind, active: bool, free_trial: bool, sites: &[&str], unlocked: &[&str]) -> UserFacts {
        UserFacts::signed_in(
            "vixenplus",
            ProfileFacts {
                site_access_array: if active { sites.iter().map(|s| s.to_string()).collect() } else { vec![] },
                subscription: SubscriptionFacts {
                    kind,
                    active,
                    is_free_limited_trial: free_trial,
                    unlocked_video_ids: unlocked.iter().map(|s| s.to_string()).collect(),
                    ..Default::default()
                },
                ..Default::default()
            },
        )
    }

    fn video(id: &str, site: &str, flagged: bool) -> ResourceFacts {
        ResourceFacts {
            id: Some(id.into()),
            site: Some(site.into()),
            is_free_limited_trial: flagged,
            ..Default::default()
        }
    }

    fn take(u: &UserFacts, v: &ResourceFacts, left: u32) -> Option<Result<(), TrialRefusal>> {
        free_trial_take(u, &Ability::new(u, &Features::default()), v, left)
    }

    #[test]
    fn a_vixenplus_trial_takes_vixenplus_flagged_videos_and_says_why_not_the_others() {
        let trial = user(SubscriptionKind::Trial, true, true, &["vixenplus"], &["taken"]);
        assert_eq!(take(&trial, &video("a", "vixenplus", true), 3), Some(Ok(())));
        assert_eq!(take(&trial, &video("b", "vixen", true), 3), Some(Err(TrialRefusal::OtherSite)));
        assert_eq!(take(&trial, &video("c", "vixenplus", false), 3), Some(Err(TrialRefusal::NotATrialVideo)));
        assert_eq!(take(&trial, &video("taken", "vixenplus", true), 2), Some(Err(TrialRefusal::AlreadyTaken)));
        assert_eq!(take(&trial, &video("a", "vixenplus", true), 0), Some(Err(TrialRefusal::NoneLeft)));
        assert_eq!(take(&trial, &video("c", "vixenplus", false), 0), Some(Err(TrialRefusal::NotATrialVideo)));
        let mut third_party = video("d", "vixenplus", true);
        third_party.is_third_party_channel = true;
        assert_eq!(take(&trial, &third_party, 3), Some(Err(TrialRefusal::NotATrialVideo)));
        assert_eq!(free_trial_sites(&trial), ["vixenplus"]);
    }

    #[test]
    fn an_ended_trial_is_expired_and_other_users_are_not_the_trials_question() {
        let over = user(SubscriptionKind::Trial, false, true, &["vixen"], &[]);
        assert_eq!(take(&over, &video("a", "vixen", true), 3), Some(Err(TrialRefusal::Expired)));
        assert!(free_trial_sites(&over).is_empty());
        for other in [
            user(SubscriptionKind::Member, true, false, &["vixen"], &[]),
            user(SubscriptionKind::Trial, true, false, &["vixen"], &[]),
            user(SubscriptionKind::PornPortal, true, false, &[], &[]),
        ] {
            assert_eq!(take(&other, &video("a", "vixen", true), 3), None);
            assert!(!is_free_trial_video_for(
                &other,
                &Ability::new(&other, &Features::default()),
                &video("a", "vixen", true),
                3
            ));
            assert!(free_trial_sites(&other).is_empty());
        }
    }
}
