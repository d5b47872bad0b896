//! CASL-compatible raw rules, and how a rule list answers a question.
//!
//! A [`Rule`] serialises exactly as @casl/ability's raw rule:
//! `{"action", "subject", "conditions"?, "inverted"?, "reason"?}`; conditions are the
//! MongoDB-style subset [`Cond`] lists. [`evaluate`] answers as CASL does: the last
//! rule for the action and subject that is relevant decides; without a resource (a
//! subject-type check) a conditional rule counts as a grant and a conditional inverted rule
//! does not count.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// What a video, picture set, trailer or channel pack is, as far as conditions go. The
/// browser builds the same object (`subject('Video', {...})`) from the video's fields:
/// `channelPackId` is `null` when the video is in no pack.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ResourceFacts {
    /// The video's id (uuid); for a picture set, its video's id.
    pub id: Option<String>,
    /// The site (brand key, or `channels`) the content is released on.
    pub site: Option<String>,
    /// The channel pack the video belongs to, or the pack itself for subject `ChannelPack`.
    pub channel_pack_id: Option<String>,
    pub is_third_party_channel: bool,
    pub is_free_limited_trial: bool,
    /// The video's trailer is denied (e.g. in the visitor's region).
    pub denied: bool,
}

/// One condition on one field of the resource; a rule's conditions all hold (AND).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cond {
    /// `{"site": {"$in": [...]}}`
    SiteIn(Vec<String>),
    /// `{"channelPackId": {"$in": [null, ...]}}`: `None` stands for "in no pack".
    ChannelPackIn(Vec<Option<String>>),
    /// `{"channelPackId": {"$nin": [null, ...]}}`
    ChannelPackNotIn(Vec<Option<String>>),
    /// `{"id": {"$in": [...]}}`
    IdIn(Vec<String>),
    /// `{"id": {"$nin": [...]}}`
    IdNotIn(Vec<String>),
    /// `{"isFreeLimitedTrial": true}`
    FreeLimitedTrial,
    /// `{"isThirdPartyChannel": {"$ne": true}}`
    NotThirdPartyChannel,
    /// `{"denied": true}`
    Denied,
    /// `{"denied": {"$ne": true}}`
    NotDenied,
}

impl Cond {
    /// The field the condition reads (each field appears once per rule).
    pub fn field(&self) -> &'static str {
        match self {
            Cond::SiteIn(_) => "site",
            Cond::ChannelPackIn(_) | Cond::ChannelPackNotIn(_) => "channelPackId",
            Cond::IdIn(_) | Cond::IdNotIn(_) => "id",
            Cond::FreeLimitedTrial => "isFreeLimitedTrial",
            Cond::NotThirdPartyChannel => "isThirdPartyChannel",
            Cond::Denied | Cond::NotDenied => "denied",
        }
    }

    pub fn holds(&self, r: &ResourceFacts) -> bool {
        let id_in = |ids: &[String]| r.id.as_ref().is_some_and(|id| ids.contains(id));
        match self {
            Cond::SiteIn(sites) => r.site.as_ref().is_some_and(|s| sites.contains(s)),
            Cond::ChannelPackIn(packs) => packs.contains(&r.channel_pack_id),
            Cond::ChannelPackNotIn(packs) => !packs.contains(&r.channel_pack_id),
            Cond::IdIn(ids) => id_in(ids),
            Cond::IdNotIn(ids) => !id_in(ids),
            Cond::FreeLimitedTrial => r.is_free_limited_trial,
            Cond::NotThirdPartyChannel => !r.is_third_party_channel,
            Cond::Denied => r.denied,
            Cond::NotDenied => !r.denied,
        }
    }
}

/// A rule's conditions, serialised as one MongoDB-style query object.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conditions(pub Vec<Cond>);

impl Conditions {
    pub fn hold(&self, r: &ResourceFacts) -> bool {
        self.0.iter().all(|c| c.holds(r))
    }
}

struct Op<'a, T: Serialize>(&'static str, &'a T);

impl<T: Serialize> Serialize for Op<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(self.0, self.1)?;
        m.end()
    }
}

impl Serialize for Conditions {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for c in &self.0 {
            let f = c.field();
            match c {
                Cond::SiteIn(v) | Cond::IdIn(v) => m.serialize_entry(f, &Op("$in", v))?,
                Cond::IdNotIn(v) => m.serialize_entry(f, &Op("$nin", v))?,
                Cond::ChannelPackIn(v) => m.serialize_entry(f, &Op("$in", v))?,
                Cond::ChannelPackNotIn(v) => m.serialize_entry(f, &Op("$nin", v))?,
                Cond::FreeLimitedTrial | Cond::Denied => m.serialize_entry(f, &true)?,
                Cond::NotDenied | Cond::NotThirdPartyChannel => m.serialize_entry(f, &Op("$ne", &true))?,
            }
        }
        m.end()
    }
}

/// One raw CASL rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    pub action: &'static str,
    pub subject: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Conditions>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inverted: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
}

impl Rule {
    pub fn can(action: &'static str, subject: &'static str) -> Rule {
        Rule { action, subject, conditions: None, inverted: false, reason: None }
    }

    pub fn can_if(action: &'static str, subject: &'static str, conditions: Vec<Cond>) -> Rule {
        Rule { conditions: Some(Conditions(conditions)), ..Rule::can(action, subject) }
    }

    pub fn cannot(action: &'static str, subject: &'static str, reason: &'static str) -> Rule {
        Rule { inverted: true, reason: Some(reason), ..Rule::can(action, subject) }
    }

    pub fn cannot_if(action: &'static str, subject: &'static str, conditions: Vec<Cond>, reason: &'static str) -> Rule {
        Rule { conditions: Some(Conditions(conditions)), ..Rule::cannot(action, subject, reason) }
    }

    /// Whether this rule speaks to the question (CASL's "relevant rule").
    fn relevant(&self, action: &str, subject: &str, resource: Option<&ResourceFacts>) -> bool {
        if self.action != action || self.subject != subject {
            return false;
        }
        match (&self.conditions, resource) {
            (None, _) => true,
            (Some(_), None) => !self.inverted,
            (Some(c), Some(r)) => c.hold(r),
        }
    }
}

/// Answers a question from a rule list as @casl/ability does.
pub fn evaluate(rules: &[Rule], action: &str, subject: &str, resource: Option<&ResourceFacts>) -> bool {
    rules.iter().rev().find(|r| r.relevant(action, subject, resource)).is_some_and(|r| !r.inverted)
}
