//! The rule list: product.md, "Roles and abilities", its role table and every rule after it.
//!
//! [`abilities`] builds the list the browser receives as `user.abilities`; [`can`] answers a
//! question from the same list, so the server and the browser cannot disagree. The rules are
//! added in blocks: what everyone may do, then the block of the user's [`Role`], then the
//! overlays (groups, relationship, recommendation shelf), and last the inverted rules that take
//! something away (tandem child), because in CASL the later rule wins.

use crate::facts::{Role, Standing, UserFacts};
use crate::relationship::{may_edit_relationship, may_see_relationship_section, RelationshipFacts};
use crate::rules::{evaluate, Cond, ResourceFacts, Rule};
use tenants::Features;

/// Actions.
pub mod action {
    pub const SEE: &str = "see";
    pub const PLAY: &str = "play";
    /// Write comments on a video.
    pub const COMMENT_ON: &str = "comment";
    pub const DOWNLOAD: &str = "download";
    pub const UNLOCK: &str = "unlock";
    pub const ACCESS: &str = "access";
    pub const EDIT: &str = "edit";
    pub const ADD: &str = "add";
    pub const REPLY: &str = "reply";
    pub const LOAD_MORE: &str = "loadMore";
    pub const VOTE: &str = "vote";
    pub const SORT: &str = "sort";
    pub const SET_DRAFT: &str = "setDraft";
    pub const FOCUS: &str = "focus";
    pub const REMOVE: &str = "remove";
    pub const PIN: &str = "pin";
    pub const UNPIN: &str = "unpin";
}

/// Subjects.
pub mod subject {
    // Content, with conditions on ResourceFacts.
    pub const VIDEO: &str = "Video";
    pub const TRAILER: &str = "Trailer";
    pub const PICTURE_SET: &str = "PictureSet";
    pub const CHANNEL_VIDEO: &str = "ChannelVideo";
    pub const CHANNEL_PACK: &str = "ChannelPack";
    pub const CHANNEL: &str = "Channel";
    pub const COMMENT: &str = "Comment";
    // Sections, bars, lists.
    pub const CHANNELS: &str = "Channels";
    pub const INTERNAL_CHANNELS: &str = "InternalChannels";
    pub const CHANNEL_TRAILERS: &str = "ChannelTrailers";
    pub const INTERNAL_CHANNEL_TRAILERS: &str = "InternalChannelTrailers";
    pub const UPGRADE_BAR: &str = "UpgradeBar";
    pub const UPGRADE_OVERLAY: &str = "UpgradeOverlay";
    pub const PORN_PORTAL_BAR: &str = "PornPortalBar";
    pub const TRIAL_DEALS: &str = "TrialDeals";
    pub const EXPIRED_DEALS: &str = "ExpiredDeals";
    pub const SPECIAL_OFFERS: &str = "SpecialOffers";
    pub const FREE_LIMITED_TRIAL_VIDEOS: &str = "FreeLimitedTrialVideos";
    pub const LOCKED_VIDEO: &str = "LockedVideo";
    pub const LOCKED_CHANNEL: &str = "LockedChannel";
    pub const HIDE_MONTH_INTERSTITIAL_BUTTON: &str = "HideMonthInterstitialButton";
    pub const GEM_ANIMATION: &str = "GemAnimation";
    pub const RECOMMENDATION_SHELF: &str = "RecommendationShelf";
    pub const RELATIONSHIP_SECTION: &str = "RelationshipSection";
    // Modals.
    pub const PURCHASE_MEMBERSHIP_MODAL: &str = "PurchaseMembershipModal";
    pub const UNLOCK_CHANNEL_MODAL: &str = "UnlockChannelModal";
    pub const EXPERT_REVIEW_MODAL: &str = "ExpertReviewModal";
    pub const REACTIVATE_CANCELLED_REBILL_MODAL: &str = "ReactivateCancelledRebillModal";
}

use action::*;
use subject::*;

const GUEST_DENIED: &str = "Guests may not play denied videos";
const TANDEM_CHILD_NO_CHANNELS: &str = "Channels are hidden for tandem child accounts";

/// The user's abilities on the tenant whose features are given: the rule list for
/// `user.abilities`.
pub fn abilities(user: &UserFacts, features: &Features) -> Vec<Rule> {
    let st = Standing::of(user);
    let mut rules = Vec::new();
    everyone(&st, features, &mut rules);
    match st.role {
        Role::Anonymous => {}
        Role::FreeLimitedTrial => free_limited_trial(&st, &mut rules),
        Role::Trial => trial(&st, &mut rules),
        Role::ExpiredMember => expired_member(&st, &mut rules),
        Role::PornPortalGuest | Role::PornPortal => porn_portal(&st, &mut rules),
        Role::ActiveSubscriber => active_subscriber(&st, &mut rules),
    }
    overlays(&st, &mut rules);
    // "An upgrade overlay rule exists per tenant, except for admins and active members."
    if !features.upgrade_overlay || st.admin || st.role == Role::ActiveSubscriber {
        rules.retain(|r| r.subject != UPGRADE_OVERLAY);
    }
    if st.tandem_child {
        rules.push(Rule::cannot(SEE, CHANNELS, TANDEM_CHILD_NO_CHANNELS));
    }
    rules
}

/// Whether the user may `action` the `subject`; with `resource`, for that video, picture set,
/// trailer or pack, otherwise for the subject type (as CASL: any conditional grant counts).
pub fn can(
    user: &UserFacts,
    features: &Features,
    action: &str,
    subject: &str,
    resource: Option<&ResourceFacts>,
) -> bool {
    evaluate(&abilities(user, features), action, subject, resource)
}

/// A user's rule list, built once and asked many questions (e.g. a page of videos).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ability {
    rules: Vec<Rule>,
}

impl Ability {
    pub fn new(user: &UserFacts, features: &Features) -> Ability {
        Ability { rules: abilities(user, features) }
    }

    /// As [`can`], without rebuilding the rules.
    pub fn can(&self, action: &str, subject: &str, resource: Option<&ResourceFacts>) -> bool {
        evaluate(&self.rules, action, subject, resource)
    }

    /// The rules for `user.abilities`.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    pub fn into_rules(self) -> Vec<Rule> {
        self.rules
    }
}

/// Content of the access sites, outside any channel pack not yet unlocked.
fn in_access(st: &Standing) -> Vec<Cond> {
    let mut packs: Vec<Option<String>> = vec![None];
    packs.extend(st.unlocked_packs.iter().cloned().map(Some));
    vec![Cond::SiteIn(st.access_sites.clone()), Cond::ChannelPackIn(packs)]
}

fn unlocked(st: &Standing) -> Vec<Cond> {
    vec![Cond::IdIn(st.unlocked_videos.clone())]
}

/// A channel video in a pack not yet unlocked, not itself unlocked yet.
fn in_locked_pack(st: &Standing) -> Vec<Cond> {
    let mut packs: Vec<Option<String>> = vec![None];
    packs.extend(st.unlocked_packs.iter().cloned().map(Some));
    vec![Cond::ChannelPackNotIn(packs), Cond::IdNotIn(st.unlocked_videos.clone())]
}

fn everyone(st: &Standing, f: &Features, rules: &mut Vec<Rule>) {
    rules.push(Rule::can_if(PLAY, TRAILER, vec![Cond::NotDenied]));
    for a in [LOAD_MORE, SORT, FOCUS] {
        rules.push(Rule::can(a, COMMENT));
    }
    if st.signed_in {
        for a in [ADD, REPLY, VOTE, SET_DRAFT] {
            rules.push(Rule::can(a, COMMENT));
        }
    }
    if f.channels {
        rules.push(Rule::can(SEE, CHANNELS));
    }
    // The flag, or the preview role (product.md, "Roles and abilities").
    let shown = |flag: bool| flag || st.preview;
    if shown(f.internal_channels) {
        rules.push(Rule::can(SEE, INTERNAL_CHANNELS));
    }
    if shown(f.channel_trailers) {
        rules.push(Rule::can(SEE, CHANNEL_TRAILERS));
    }
    if shown(f.internal_channel_trailers) {
        rules.push(Rule::can(SEE, INTERNAL_CHANNEL_TRAILERS));
    }
    // The free limited trial sees the expert-review modal only while the trial is active.
    if shown(f.expert_review) && st.signed_in && (st.role != Role::FreeLimitedTrial || st.active) {
        rules.push(Rule::can(SEE, EXPERT_REVIEW_MODAL));
    }
}

fn prompts(rules: &mut Vec<Rule>, subjects: &[&'static str]) {
    for s in subjects {
        rules.push(Rule::can(SEE, s));
    }
}

fn free_limited_trial(st: &Standing, rules: &mut Vec<Rule>) {
    prompts(rules, &[PURCHASE_MEMBERSHIP_MODAL, UPGRADE_BAR, TRIAL_DEALS, FREE_LIMITED_TRIAL_VIDEOS, UPGRADE_OVERLAY]);
    if st.active {
        rules.push(Rule::can_if(SEE, PICTURE_SET, vec![Cond::FreeLimitedTrial]));
        // Free-limited-trial content is what the trial's three full videos
        // (product.md, "Unlocks") are taken from, with UnlockVideo: a flagged video of
        // the trial's site, not a third party's channel, not taken yet. Once taken it is an
        // unlock like any other, played and commented on while the trial runs. Playing every
        // flagged video outright would make the three a formality (docs/decisions/).
        rules.push(Rule::can_if(
            UNLOCK,
            VIDEO,
            vec![
                Cond::SiteIn(st.access_sites.clone()),
                Cond::IdNotIn(st.unlocked_videos.clone()),
                Cond::FreeLimitedTrial,
                Cond::NotThirdPartyChannel,
            ],
        ));
        rules.push(Rule::can_if(PLAY, VIDEO, unlocked(st)));
        rules.push(Rule::can_if(COMMENT_ON, VIDEO, unlocked(st)));
        prompts(rules, &[LOCKED_VIDEO, LOCKED_CHANNEL]);
    }
}

fn trial(st: &Standing, rules: &mut Vec<Rule>) {
    prompts(rules, &[PURCHASE_MEMBERSHIP_MODAL, UPGRADE_BAR, TRIAL_DEALS]);
    rules.push(Rule::can_if(SEE, UPGRADE_OVERLAY, vec![Cond::IdNotIn(st.unlocked_videos.clone())]));
    rules.push(Rule::can_if(UNLOCK, CHANNEL_VIDEO, in_locked_pack(st)));
    // The role only exists while the trial is active (an inactive one is expired).
    rules.push(Rule::can_if(PLAY, VIDEO, unlocked(st)));
    rules.push(Rule::can_if(COMMENT_ON, VIDEO, unlocked(st)));
    rules.push(Rule::can_if(SEE, PICTURE_SET, unlocked(st)));
}

fn expired_member(st: &Standing, rules: &mut Vec<Rule>) {
    prompts(rules, &[PORN_PORTAL_BAR, PURCHASE_MEMBERSHIP_MODAL, UPGRADE_BAR, UPGRADE_OVERLAY, EXPIRED_DEALS]);
    rules.push(Rule::can_if(UNLOCK, CHANNEL_VIDEO, in_locked_pack(st)));
    rules.push(Rule::can(SEE, LOCKED_CHANNEL));
    // The row lets an expired member unlock a channel video: what they unlocked (with credits,
    // for good) they play and comment on, as every other role that unlocks (docs/decisions/).
    rules.push(Rule::can_if(PLAY, VIDEO, unlocked(st)));
    rules.push(Rule::can_if(COMMENT_ON, VIDEO, unlocked(st)));
}

fn porn_portal(st: &Standing, rules: &mut Vec<Rule>) {
    prompts(rules, &[PURCHASE_MEMBERSHIP_MODAL, SPECIAL_OFFERS]);
    if st.role == Role::PornPortalGuest {
        rules.push(Rule::cannot_if(PLAY, VIDEO, vec![Cond::Denied], GUEST_DENIED));
    } else {
        prompts(rules, &[UPGRADE_BAR, UPGRADE_OVERLAY, LOCKED_CHANNEL]);
        rules.push(Rule::can_if(UNLOCK, CHANNEL_VIDEO, in_locked_pack(st)));
        // Pay-per-video users spend credits to unlock a video (product.md, "Unlocks",
        // product.md, "Unlocks"): what they paid for, they play and comment on, on every brand.
        rules.push(Rule::can_if(PLAY, VIDEO, unlocked(st)));
        rules.push(Rule::can_if(COMMENT_ON, VIDEO, unlocked(st)));
    }
    // "Porn-portal on the plus tenant without full access: similar rules, with unlocked
    // videos and picture sets."
    if st.plus_tenant && !st.tenant_access {
        if st.role == Role::PornPortalGuest {
            rules.push(Rule::can_if(PLAY, VIDEO, unlocked(st)));
            rules.push(Rule::can_if(COMMENT_ON, VIDEO, unlocked(st)));
        }
        rules.push(Rule::can_if(SEE, PICTURE_SET, unlocked(st)));
    }
    if st.role == Role::PornPortalGuest {
        // Keep the guest's denial last so it wins over any grant above.
        let i = rules.iter().position(|r| r.reason == Some(GUEST_DENIED)).expect("pushed above");
        let denial = rules.remove(i);
        rules.push(denial);
    }
}

fn active_subscriber(st: &Standing, rules: &mut Vec<Rule>) {
    rules.push(Rule::can_if(PLAY, VIDEO, in_access(st)));
    rules.push(Rule::can_if(PLAY, TRAILER, in_access(st)));
    rules.push(Rule::can_if(COMMENT_ON, VIDEO, in_access(st)));
    rules.push(Rule::can_if(SEE, PICTURE_SET, in_access(st)));
    rules.push(Rule::can_if(DOWNLOAD, VIDEO, in_access(st)));
    rules.push(Rule::can_if(PLAY, VIDEO, unlocked(st)));
    rules.push(Rule::can_if(COMMENT_ON, VIDEO, unlocked(st)));
    rules.push(Rule::can_if(UNLOCK, CHANNEL_VIDEO, in_locked_pack(st)));
    prompts(rules, &[FREE_LIMITED_TRIAL_VIDEOS]);
    if st.tenant_access {
        prompts(rules, &[HIDE_MONTH_INTERSTITIAL_BUTTON, UNLOCK_CHANNEL_MODAL, GEM_ANIMATION]);
        rules.push(Rule::can(UNLOCK, CHANNEL));
        let unlocked_packs = st.unlocked_packs.iter().cloned().map(Some).collect();
        rules.push(Rule::can_if(UNLOCK, CHANNEL_PACK, vec![Cond::ChannelPackNotIn(unlocked_packs)]));
        rules.push(Rule::can(ACCESS, CHANNEL));
    }
    if st.cancelled_native {
        prompts(rules, &[UPGRADE_BAR, REACTIVATE_CANCELLED_REBILL_MODAL]);
    }
}

fn overlays(st: &Standing, rules: &mut Vec<Rule>) {
    if st.moderator {
        for a in [REMOVE, PIN, UNPIN] {
            rules.push(Rule::can(a, COMMENT));
        }
    }
    let relationship = RelationshipFacts {
        is_admin: st.admin,
        has_active_wifey_subscription: st.wifey_active,
        is_tandem_child_account: st.tandem_child,
    };
    if may_see_relationship_section(relationship) {
        rules.push(Rule::can(SEE, RELATIONSHIP_SECTION));
    }
    if may_edit_relationship(relationship) {
        rules.push(Rule::can(EDIT, RELATIONSHIP_SECTION));
    }
    if sees_recommendation_shelf(st) {
        rules.push(Rule::can(SEE, RECOMMENDATION_SHELF));
    }
}

/// Admins, and users who are not trial or free limited trial; porn-portal users with plus
/// status and a trial subscription but no membership are excluded.
fn sees_recommendation_shelf(st: &Standing) -> bool {
    st.signed_in
        && (st.admin || !(matches!(st.role, Role::Trial | Role::FreeLimitedTrial) || st.plus_trial_without_membership))
}
