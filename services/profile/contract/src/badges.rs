//! Badges (product.md, "Account and profile"): by membership length, by role, and the founder badge.

use chrono::{DateTime, Duration, Months, Utc};
use serde::{Deserialize, Serialize};

/// A badge, by the spec's names (`gold`, `silver`, …), in the order a user's badges are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Badge {
    Gold,
    Silver,
    Bronze,
    Boss,
    Moderator,
    King,
    Director,
    Model,
    Founder,
}

impl Badge {
    /// The spec's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Badge::Gold => "gold",
            Badge::Silver => "silver",
            Badge::Bronze => "bronze",
            Badge::Boss => "boss",
            Badge::Moderator => "moderator",
            Badge::King => "king",
            Badge::Director => "director",
            Badge::Model => "model",
            Badge::Founder => "founder",
        }
    }
}

/// A membership that ended keeps its length badge this long (product.md, "Account and profile").
pub const GRACE: Duration = Duration::days(7);
/// The founder badge: accounts made in the first six months from the launch date on.
pub const FOUNDER_MONTHS: u32 = 6;

/// One stretch of membership: since when, and when it ended (None: still active).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Membership {
    pub active_since: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
}

/// What badges are computed from.
#[derive(Clone, Debug, Default)]
pub struct BadgeFacts {
    pub memberships: Vec<Membership>,
    pub moderator: bool,
    pub king: bool,
    pub director: bool,
    pub model: bool,
    pub registered_at: Option<DateTime<Utc>>,
}

/// Whole months from `from` to `to`.
pub fn months_between(from: DateTime<Utc>, to: DateTime<Utc>) -> u32 {
    if to <= from {
        return 0;
    }
    let mut months = 0u32;
    while from.checked_add_months(Months::new(months + 1)).is_some_and(|d| d <= to) {
        months += 1;
    }
    months
}

/// The membership length that counts now: the longest membership still active, or ended less
/// than [`GRACE`] ago (its length taken at its end).
pub fn seniority_months(memberships: &[Membership], now: DateTime<Utc>) -> Option<u32> {
    memberships
        .iter()
        .filter_map(|m| match m.ended_at {
            None => Some(months_between(m.active_since, now)),
            Some(end) if now - end < GRACE => Some(months_between(m.active_since, end)),
            Some(_) => None,
        })
        .max()
}

/// The length badge of a number of months: bronze 3–6, silver 6–12, gold 12–24, boss 24+.
pub fn length_badge(months: u32) -> Option<Badge> {
    match months {
        0..=2 => None,
        3..=5 => Some(Badge::Bronze),
        6..=11 => Some(Badge::Silver),
        12..=23 => Some(Badge::Gold),
        _ => Some(Badge::Boss),
    }
}

pub fn badges(facts: &BadgeFacts, launch: DateTime<Utc>, now: DateTime<Utc>) -> Vec<Badge> {
    let mut out = Vec::new();
    if let Some(badge) = seniority_months(&facts.memberships, now).and_then(length_badge) {
        out.push(badge);
    }
    if facts.moderator {
        out.push(Badge::Moderator);
    }
    if facts.king {
        out.push(Badge::King);
    }
    if facts.director {
        out.push(Badge::Director);
    }
    if facts.model {
        out.push(Badge::Model);
    }
    let founders_until = launch.checked_add_months(Months::new(FOUNDER_MONTHS)).unwrap_or(launch);
    if facts.registered_at.is_some_and(|r| r >= launch && r < founders_until) {
        out.push(Badge::Founder);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn day(y: i32, m: u32, d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, 12, 0, 0).unwrap()
    }

    fn active(since: DateTime<Utc>) -> Membership {
        Membership { active_since: since, ended_at: None }
    }

    #[test]
    fn the_length_badges_start_at_their_month() {
        let now = day(2026, 7, 1);
        let badge = |since| {
            badges(&BadgeFacts { memberships: vec![active(since)], ..Default::default() }, day(2000, 1, 1), now)
        };
        assert!(badge(day(2026, 4, 2)).is_empty());
        assert_eq!(badge(day(2026, 4, 1)), [Badge::Bronze]);
        assert_eq!(badge(day(2026, 1, 1)), [Badge::Silver]);
        assert_eq!(badge(day(2025, 7, 1)), [Badge::Gold]);
        assert_eq!(badge(day(2024, 7, 1)), [Badge::Boss]);
    }

    #[test]
    fn an_ended_membership_keeps_its_badge_for_seven_days() {
        let ended = Membership { active_since: day(2025, 1, 1), ended_at: Some(day(2026, 2, 1)) };
        assert_eq!(seniority_months(&[ended], day(2026, 2, 7)), Some(13));
        assert_eq!(seniority_months(&[ended], day(2026, 2, 8) + Duration::hours(1)), None);
    }

    #[test]
    fn founders_joined_in_the_first_six_months() {
        let launch = day(2026, 1, 1);
        let founder = |registered| {
            badges(&BadgeFacts { registered_at: Some(registered), ..Default::default() }, launch, day(2027, 1, 1))
        };
        assert_eq!(founder(day(2026, 1, 1)), [Badge::Founder]);
        assert_eq!(founder(day(2026, 6, 30)), [Badge::Founder]);
        assert!(founder(day(2026, 7, 1)).is_empty());
        assert!(founder(day(2025, 12, 31)).is_empty());
    }

    #[test]
    fn role_badges_come_from_groups_and_attributes() {
        let facts = BadgeFacts { moderator: true, king: true, director: true, model: true, ..Default::default() };
        assert_eq!(
            badges(&facts, day(2000, 1, 1), day(2026, 1, 1)),
            [Badge::Moderator, Badge::King, Badge::Director, Badge::Model]
        );
    }

    proptest! {
        #[test]
        fn the_length_badge_never_shrinks_as_months_pass(a in 0u32..60, b in 0u32..60) {
            let rank = |m| [None, Some(Badge::Bronze), Some(Badge::Silver), Some(Badge::Gold), Some(Badge::Boss)]
                .iter()
                .position(|x| *x == length_badge(m));
            let (lo, hi) = (a.min(b), a.max(b));
            prop_assert!(rank(lo) <= rank(hi));
        }

        #[test]
        fn months_between_counts_whole_months(days in 0i64..2000) {
            let from = day(2024, 1, 31);
            let to = from + Duration::days(days);
            let m = months_between(from, to);
            prop_assert!(from.checked_add_months(Months::new(m)).unwrap() <= to);
            prop_assert!(from.checked_add_months(Months::new(m + 1)).unwrap() > to);
        }
    }
}
