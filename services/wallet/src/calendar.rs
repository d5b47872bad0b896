//! When Friday gems arrive: the gems week of an instant, and the days until the next grant.
//!
//! A gems week starts at local midnight of the grant weekday (Friday unless configured) and
//! lasts seven days. Its key is the ISO week of that grant day: every ISO week holds exactly
//! one day of each weekday, so consecutive gems weeks always have consecutive, distinct keys,
//! including around the new year and ISO week 53.
//!
//! The time zone is a fixed offset from UTC in minutes (UTC by default). A zone with daylight
//! saving time would shift the grant by an hour twice a year; that needs a zone database and
//! is not done here.

use std::fmt;

use chrono::{DateTime, Datelike, Duration, FixedOffset, NaiveDate, TimeZone, Utc, Weekday};

const DAY: Duration = Duration::days(1);
const WEEK: Duration = Duration::days(7);

/// The configured grant schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemsCalendar {
    grant_weekday: Weekday,
    offset: FixedOffset,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a UTC offset of {0} minutes is not between -24 and +24 hours")]
pub struct OffsetOutOfRange(pub i32);

impl Default for GemsCalendar {
    /// Fridays at midnight UTC.
    fn default() -> Self {
        GemsCalendar { grant_weekday: Weekday::Fri, offset: FixedOffset::east_opt(0).expect("UTC is an offset") }
    }
}

/// One grant period of the calendar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemsWeek {
    pub key: WeekKey,
    /// The grant instant: local midnight of the grant weekday.
    pub starts_at: DateTime<Utc>,
}

/// ISO year and week of a gems week's grant day, written `2026-W53`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WeekKey {
    pub iso_year: i32,
    pub iso_week: u32,
}

impl fmt::Display for WeekKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-W{:02}", self.iso_year, self.iso_week)
    }
}

impl GemsCalendar {
    /// Grants on `grant_weekday` at local midnight, local time being UTC + `utc_offset_minutes`.
    pub fn new(grant_weekday: Weekday, utc_offset_minutes: i32) -> Result<Self, OffsetOutOfRange> {
        let offset = utc_offset_minutes
            .checked_mul(60)
            .and_then(FixedOffset::east_opt)
            .ok_or(OffsetOutOfRange(utc_offset_minutes))?;
        Ok(GemsCalendar { grant_weekday, offset })
    }

    pub fn grant_weekday(&self) -> Weekday {
        self.grant_weekday
    }

    pub fn utc_offset_minutes(&self) -> i32 {
        self.offset.local_minus_utc() / 60
    }

    /// The gems week `at` falls in: the one whose grant instant is the latest at or before `at`.
    pub fn week_of(&self, at: DateTime<Utc>) -> GemsWeek {
        let local_day = at.with_timezone(&self.offset).date_naive();
        let days_since_grant =
            (local_day.weekday().num_days_from_monday() + 7 - self.grant_weekday.num_days_from_monday()) % 7;
        let grant_day = local_day - Duration::days(days_since_grant.into());
        self.week_starting_on(grant_day)
    }

    /// The next grant instant strictly after `now`.
    pub fn next_grant_at(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        self.week_of(now).starts_at + WEEK
    }

    /// Whole days until the next grant, rounded up: always 1 to 7.
    ///
    /// From the grant instant on, a Friday says 7 (this week's gems are due now, the next
    /// in seven days); the last second before the grant, Thursday 23:59:59, says 1.
    pub fn days_until_refresh_gems(&self, now: DateTime<Utc>) -> u32 {
        let left = self.next_grant_at(now) - now;
        let whole_days = left.num_days();
        let rounded_up = if left > DAY * whole_days as i32 { whole_days + 1 } else { whole_days };
        u32::try_from(rounded_up).expect("the next grant is at most seven days away")
    }

    fn week_starting_on(&self, grant_day: NaiveDate) -> GemsWeek {
        let iso = grant_day.iso_week();
        let local_midnight = grant_day.and_hms_opt(0, 0, 0).expect("midnight exists");
        let starts_at = self
            .offset
            .from_local_datetime(&local_midnight)
            .single()
            .expect("a fixed offset maps every local time once")
            .with_timezone(&Utc);
        GemsWeek { key: WeekKey { iso_year: iso.year(), iso_week: iso.week() }, starts_at }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn utc(y: i32, m: u32, d: u32, h: u32, min: u32, s: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, h, min, s).unwrap()
    }

    fn key(iso_year: i32, iso_week: u32) -> WeekKey {
        WeekKey { iso_year, iso_week }
    }

    #[test]
    fn thursday_23_59_59_still_belongs_to_the_previous_week() {
        // 2026-01-08 is a Thursday; that week's grant was Friday 2026-01-02.
        let week = GemsCalendar::default().week_of(utc(2026, 1, 8, 23, 59, 59));
        assert_eq!(week.starts_at, utc(2026, 1, 2, 0, 0, 0));
        assert_eq!(week.key, key(2026, 1));
    }

    #[test]
    fn friday_00_00_00_starts_a_new_week() {
        let week = GemsCalendar::default().week_of(utc(2026, 1, 9, 0, 0, 0));
        assert_eq!(week.starts_at, utc(2026, 1, 9, 0, 0, 0));
        assert_eq!(week.key, key(2026, 2));
    }

    #[test]
    fn a_friday_on_new_years_day_belongs_to_iso_week_53_of_the_old_year() {
        // 2026 starts on a Thursday, so it has 53 ISO weeks; 2027-01-01 is a Friday.
        let week = GemsCalendar::default().week_of(utc(2027, 1, 1, 12, 0, 0));
        assert_eq!(week.key, key(2026, 53));
        assert_eq!(week.key.to_string(), "2026-W53");
    }

    #[test]
    fn around_the_year_end_weeks_run_52_53_then_1() {
        let calendar = GemsCalendar::default();
        let keys: Vec<_> = [
            utc(2026, 12, 31, 23, 59, 59),
            utc(2027, 1, 1, 0, 0, 0),
            utc(2027, 1, 7, 23, 59, 59),
            utc(2027, 1, 8, 0, 0, 0),
        ]
        .map(|at| calendar.week_of(at).key.to_string())
        .to_vec();
        assert_eq!(keys, ["2026-W52", "2026-W53", "2026-W53", "2027-W01"]);
    }

    #[test]
    fn a_year_without_week_53_goes_from_52_to_1() {
        // 2021-12-31 is a Friday in ISO week 52; 2022-01-07 opens 2022-W01.
        let calendar = GemsCalendar::default();
        assert_eq!(calendar.week_of(utc(2021, 12, 31, 0, 0, 0)).key, key(2021, 52));
        assert_eq!(calendar.week_of(utc(2022, 1, 7, 0, 0, 0)).key, key(2022, 1));
    }

    #[test]
    fn a_time_zone_east_of_utc_starts_the_week_earlier_in_utc() {
        // UTC+01:00: Friday 00:00 local is Thursday 23:00 UTC.
        let calendar = GemsCalendar::new(Weekday::Fri, 60).unwrap();
        assert_eq!(calendar.week_of(utc(2026, 1, 8, 22, 59, 59)).key, key(2026, 1));
        let week = calendar.week_of(utc(2026, 1, 8, 23, 0, 0));
        assert_eq!(week.key, key(2026, 2));
        assert_eq!(week.starts_at, utc(2026, 1, 8, 23, 0, 0));
    }

    #[test]
    fn a_time_zone_west_of_utc_starts_the_week_later_in_utc() {
        // UTC-05:00: Friday 00:00 local is Friday 05:00 UTC.
        let calendar = GemsCalendar::new(Weekday::Fri, -300).unwrap();
        assert_eq!(calendar.week_of(utc(2026, 1, 9, 4, 59, 59)).key, key(2026, 1));
        assert_eq!(calendar.week_of(utc(2026, 1, 9, 5, 0, 0)).starts_at, utc(2026, 1, 9, 5, 0, 0));
    }

    #[test]
    fn the_grant_weekday_is_configurable() {
        let calendar = GemsCalendar::new(Weekday::Mon, 0).unwrap();
        // 2026-01-05 is a Monday.
        let week = calendar.week_of(utc(2026, 1, 8, 12, 0, 0));
        assert_eq!(week.starts_at, utc(2026, 1, 5, 0, 0, 0));
        assert_eq!(calendar.days_until_refresh_gems(utc(2026, 1, 11, 23, 0, 0)), 1);
    }

    #[test]
    fn an_offset_beyond_a_day_is_refused() {
        assert_eq!(GemsCalendar::new(Weekday::Fri, 24 * 60), Err(OffsetOutOfRange(1440)));
        assert_eq!(GemsCalendar::new(Weekday::Fri, i32::MIN), Err(OffsetOutOfRange(i32::MIN)));
        assert_eq!(GemsCalendar::new(Weekday::Fri, 330).unwrap().utc_offset_minutes(), 330);
    }

    #[test]
    fn the_last_second_before_the_grant_is_one_day_away() {
        let calendar = GemsCalendar::default();
        assert_eq!(calendar.days_until_refresh_gems(utc(2026, 1, 8, 23, 59, 59)), 1);
        assert_eq!(calendar.days_until_refresh_gems(utc(2026, 1, 8, 0, 0, 0)), 1);
        assert_eq!(calendar.days_until_refresh_gems(utc(2026, 1, 7, 23, 59, 59)), 2);
    }

    #[test]
    fn on_a_friday_after_the_grant_new_gems_are_seven_days_away() {
        let calendar = GemsCalendar::default();
        assert_eq!(calendar.days_until_refresh_gems(utc(2026, 1, 9, 0, 0, 0)), 7);
        assert_eq!(calendar.days_until_refresh_gems(utc(2026, 1, 9, 18, 30, 0)), 7);
        assert_eq!(calendar.days_until_refresh_gems(utc(2026, 1, 10, 0, 0, 0)), 6);
        assert_eq!(calendar.next_grant_at(utc(2026, 1, 9, 0, 0, 0)), utc(2026, 1, 16, 0, 0, 0));
    }

    fn instants() -> impl Strategy<Value = DateTime<Utc>> {
        // 2000-01-01 .. 2100-01-01, with sub-second precision.
        (946_684_800i64..4_102_444_800, 0u32..1_000_000_000).prop_map(|(s, ns)| Utc.timestamp_opt(s, ns).unwrap())
    }

    fn calendars() -> impl Strategy<Value = GemsCalendar> {
        (0u8..7, -(23 * 60 + 59)..=(23 * 60 + 59))
            .prop_map(|(day, minutes)| GemsCalendar::new(Weekday::try_from(day).unwrap(), minutes).unwrap())
    }

    proptest! {
        #[test]
        fn an_instant_falls_in_the_seven_days_after_its_grant_instant(
            calendar in calendars(),
            at in instants(),
        ) {
            let week = calendar.week_of(at);
            prop_assert!(week.starts_at <= at && at < week.starts_at + WEEK);
            let local = week.starts_at.with_timezone(&calendar.offset);
            prop_assert_eq!(local.weekday(), calendar.grant_weekday());
            prop_assert_eq!(local.time(), chrono::NaiveTime::MIN);
            prop_assert_eq!(calendar.week_of(week.starts_at), week);
        }

        #[test]
        fn consecutive_weeks_have_consecutive_distinct_keys(
            calendar in calendars(),
            at in instants(),
        ) {
            let this = calendar.week_of(at);
            let next = calendar.week_of(calendar.next_grant_at(at));
            prop_assert_eq!(next.starts_at, this.starts_at + WEEK);
            prop_assert!(next.key > this.key);
            let consecutive = next.key.iso_year == this.key.iso_year
                && next.key.iso_week == this.key.iso_week + 1
                || next.key.iso_year == this.key.iso_year + 1
                    && next.key.iso_week == 1
                    && this.key.iso_week >= 52;
            prop_assert!(consecutive, "{} then {}", this.key, next.key);
        }

        #[test]
        fn days_until_refresh_gems_is_the_rounded_up_wait(
            calendar in calendars(),
            at in instants(),
        ) {
            let days = calendar.days_until_refresh_gems(at);
            prop_assert!((1..=7).contains(&days));
            let next = calendar.next_grant_at(at);
            prop_assert!(at + DAY * (days as i32) >= next);
            prop_assert!(at + DAY * (days as i32 - 1) < next);
        }
    }
}
