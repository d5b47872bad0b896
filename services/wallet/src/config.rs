//! The wallet's own settings, from the environment with local defaults.

use std::time::Duration;

use chrono::Weekday;

use crate::calendar::GemsCalendar;
use crate::domain::FRIDAY_GEMS;

/// The queue the subscription events arrive on (also its inbox's name).
pub const SUBSCRIPTIONS_QUEUE: &str = "wallet.subscriptions";

#[derive(Clone, Debug, PartialEq)]
pub struct WalletConfig {
    /// `WALLET_GEMS_WEEKDAY` (default `fri`) and `WALLET_GEMS_UTC_OFFSET_MINUTES` (default 0):
    /// when the weekly gems arrive.
    pub calendar: GemsCalendar,
    /// `WALLET_WEEKLY_GEMS`: gems per week per earning subscription (default 10).
    pub weekly_gems: u64,
    /// `WALLET_SCHEDULER_INTERVAL_MS`: how often the scheduler passes over the current week
    /// (default one minute). A pass grants what is due and not yet granted, so a crashed or
    /// late pass is finished by the next one, on any replica.
    pub scheduler_interval: Duration,
    /// The subscription-events queue; tests use their own.
    pub subscriptions_queue: String,
}

impl Default for WalletConfig {
    fn default() -> Self {
        WalletConfig {
            calendar: GemsCalendar::default(),
            weekly_gems: FRIDAY_GEMS,
            scheduler_interval: Duration::from_secs(60),
            subscriptions_queue: SUBSCRIPTIONS_QUEUE.to_owned(),
        }
    }
}

impl WalletConfig {
    pub fn from_env() -> anyhow::Result<Self> {
        Self::from_lookup(|key| std::env::var(key).ok())
    }

    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let defaults = WalletConfig::default();
        let weekday = match lookup("WALLET_GEMS_WEEKDAY") {
            None => defaults.calendar.grant_weekday(),
            Some(v) => v
                .parse::<Weekday>()
                .map_err(|_| anyhow::anyhow!("WALLET_GEMS_WEEKDAY must be a weekday (fri, friday, ...), got {v:?}"))?,
        };
        let offset = match lookup("WALLET_GEMS_UTC_OFFSET_MINUTES") {
            None => 0,
            Some(v) => v
                .parse::<i32>()
                .map_err(|_| anyhow::anyhow!("WALLET_GEMS_UTC_OFFSET_MINUTES must be whole minutes, got {v:?}"))?,
        };
        let calendar =
            GemsCalendar::new(weekday, offset).map_err(|e| anyhow::anyhow!("WALLET_GEMS_UTC_OFFSET_MINUTES: {e}"))?;
        let number = |key: &str, default: u64| -> anyhow::Result<u64> {
            match lookup(key) {
                None => Ok(default),
                Some(v) => v.parse().map_err(|_| anyhow::anyhow!("{key} must be a whole number, got {v:?}")),
            }
        };
        Ok(WalletConfig {
            calendar,
            weekly_gems: number("WALLET_WEEKLY_GEMS", defaults.weekly_gems)?,
            scheduler_interval: Duration::from_millis(number(
                "WALLET_SCHEDULER_INTERVAL_MS",
                defaults.scheduler_interval.as_millis() as u64,
            )?),
            subscriptions_queue: defaults.subscriptions_queue,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_ten_gems_on_fridays_at_midnight_utc() {
        let config = WalletConfig::from_lookup(|_| None).unwrap();
        assert_eq!(config, WalletConfig::default());
        assert_eq!(config.calendar.grant_weekday(), Weekday::Fri);
        assert_eq!(config.calendar.utc_offset_minutes(), 0);
        assert_eq!(config.weekly_gems, 10);
        assert_eq!(config.subscriptions_queue, "wallet.subscriptions");
    }

    #[test]
    fn the_week_boundary_and_time_zone_come_from_the_environment() {
        let config = WalletConfig::from_lookup(|key| match key {
            "WALLET_GEMS_WEEKDAY" => Some("Monday".into()),
            "WALLET_GEMS_UTC_OFFSET_MINUTES" => Some("-300".into()),
            "WALLET_WEEKLY_GEMS" => Some("15".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(config.calendar, GemsCalendar::new(Weekday::Mon, -300).unwrap());
        assert_eq!(config.weekly_gems, 15);
    }

    #[test]
    fn a_malformed_setting_is_a_clear_error() {
        for (key, value) in [
            ("WALLET_GEMS_WEEKDAY", "someday"),
            ("WALLET_GEMS_UTC_OFFSET_MINUTES", "9999"),
            ("WALLET_WEEKLY_GEMS", "ten"),
        ] {
            let err = WalletConfig::from_lookup(|k| (k == key).then(|| value.to_owned())).unwrap_err();
            assert!(err.to_string().contains(key), "{err}");
        }
    }
}
