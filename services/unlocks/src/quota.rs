//! Download quotas and resolutions (product.md, "Downloads and quotas" downloadQuotas and download resolutions, product.md, "Downloads and quotas").
//!
//! A user's downloads count in buckets: one per site, and one that Compilations, Behind The
//! Scenes and Intimates channel videos share. A bucket allows `max` downloads in any rolling
//! window of `days` days; the quota frees a place `days` after the oldest download in the
//! window. Pure rules; the store counts under the user's lock.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, Utc};
use proto_events::catalog::{ChannelCategory, VideoQuality};
use proto_events::unlocks::DownloadQuotaBucket;
use serde::{Deserialize, Serialize};

pub use unlocks_contract::api::{DownloadQuotas, DownloadResolution};

/// `max` downloads per `days` days.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuotaRule {
    pub max: u32,
    pub days: u32,
}

impl QuotaRule {
    /// `<max>/<days>`, days at least 1.
    pub fn parse(s: &str) -> Option<QuotaRule> {
        let (max, days) = s.split_once('/')?;
        let rule = QuotaRule { max: max.trim().parse().ok()?, days: days.trim().parse().ok()? };
        (rule.days > 0).then_some(rule)
    }
}

/// The quotas of every tenant: defaults and per-tenant overrides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotaRules {
    pub site: QuotaRule,
    pub channels: QuotaRule,
    /// Tenant -> (site, channels).
    pub tenants: BTreeMap<String, (QuotaRule, QuotaRule)>,
}

impl Default for QuotaRules {
    /// The decisions table: 20 per 7 days per site, 5 per 7 days for the three channel categories.
    fn default() -> Self {
        QuotaRules {
            site: QuotaRule { max: 20, days: 7 },
            channels: QuotaRule { max: 5, days: 7 },
            tenants: BTreeMap::new(),
        }
    }
}

impl QuotaRules {
    /// (site rule, channels rule) of a tenant.
    pub fn for_tenant(&self, tenant: &str) -> (QuotaRule, QuotaRule) {
        self.tenants.get(tenant).copied().unwrap_or((self.site, self.channels))
    }

    /// The rule of `bucket`; a site bucket follows its site's tenant, the channels bucket the
    /// tenant the request is made on.
    pub fn rule(&self, bucket: &DownloadQuotaBucket, request_tenant: Option<&str>) -> QuotaRule {
        match bucket {
            DownloadQuotaBucket::Site { site } => self.for_tenant(site).0,
            DownloadQuotaBucket::ChannelCategory { .. } => match request_tenant {
                Some(t) => self.for_tenant(t).1,
                None => self.channels,
            },
        }
    }
}

/// The bucket a video's download counts in.
pub fn bucket_of(site: &str, channel_category: Option<ChannelCategory>) -> DownloadQuotaBucket {
    match channel_category {
        Some(category) => DownloadQuotaBucket::ChannelCategory { category },
        None => DownloadQuotaBucket::Site { site: site.to_owned() },
    }
}

/// The stored key of a bucket: the three channel categories share one.
pub fn bucket_key(bucket: &DownloadQuotaBucket) -> String {
    match bucket {
        DownloadQuotaBucket::Site { site } => format!("site:{site}"),
        DownloadQuotaBucket::ChannelCategory { .. } => "channels".to_owned(),
    }
}

/// The start of the window ending at `now`: downloads after it count.
pub fn window_start(rule: QuotaRule, now: DateTime<Utc>) -> DateTime<Utc> {
    now - Duration::days(rule.days as i64)
}

/// The standing of a bucket with `granted` (download instants, any order) at `now`;
/// downloads before the window are ignored. A download stamped after `now` counts: a
/// concurrent request may read the clock before another one's grant commits.
pub fn standing(
    rule: QuotaRule,
    bucket: &DownloadQuotaBucket,
    granted: &[DateTime<Utc>],
    now: DateTime<Utc>,
) -> DownloadQuotas {
    let start = window_start(rule, now);
    let mut in_window: Vec<DateTime<Utc>> = granted.iter().copied().filter(|t| *t > start).collect();
    in_window.sort_unstable();
    let count = in_window.len() as u32;
    // Under the limit: when the oldest leaves. At or over it (a lowered limit can leave more
    // than `max` in the window): when enough have left to get below it, i.e. when the
    // (count - max + 1)-th oldest leaves.
    let frees_with = (count.saturating_sub(rule.max) as usize).min(in_window.len().saturating_sub(1));
    let remaining_days = in_window
        .get(frees_with)
        .map(|t| {
            let frees_at = *t + Duration::days(rule.days as i64);
            let ms = (frees_at - now).num_milliseconds().max(0);
            ((ms + 86_399_999) / 86_400_000) as u32
        })
        .unwrap_or(0);
    DownloadQuotas {
        threshold_reached: count >= rule.max,
        downloads_number: count,
        download_quota_max: rule.max,
        download_days_period: rule.days,
        quota_left: rule.max.saturating_sub(count),
        remaining_days,
        zero_quota: rule.max == 0,
        site: match bucket {
            DownloadQuotaBucket::Site { site } => site.clone(),
            DownloadQuotaBucket::ChannelCategory { .. } => "channels".to_owned(),
        },
    }
}

/// The message of ReachedDownloadQuotaError.
pub fn reached_message(remaining_days: u32) -> String {
    format!("limit exceeded, try again in {remaining_days} days")
}

/// Everything a quality is: its key, label, frame size and `res`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QualitySpec {
    pub quality: VideoQuality,
    pub key: &'static str,
    pub label: &'static str,
    pub width: u32,
    pub height: u32,
    pub res: &'static str,
}

/// Every quality, smallest first; hls last (streams only, never a download).
pub const QUALITIES: [QualitySpec; 8] = [
    QualitySpec { quality: VideoQuality::P270, key: "p270", label: "SD MP4 270P", width: 480, height: 270, res: "270" },
    QualitySpec { quality: VideoQuality::P360, key: "p360", label: "SD MP4 360P", width: 640, height: 360, res: "360" },
    QualitySpec { quality: VideoQuality::P480, key: "p480", label: "SD MP4 480P", width: 854, height: 480, res: "480" },
    QualitySpec {
        quality: VideoQuality::P480l,
        key: "p480l",
        label: "MOBILE MP4 480P",
        width: 854,
        height: 480,
        res: "480 mobile",
    },
    QualitySpec {
        quality: VideoQuality::P720,
        key: "p720",
        label: "HD MP4 720P",
        width: 1280,
        height: 720,
        res: "720",
    },
    QualitySpec {
        quality: VideoQuality::P1080,
        key: "p1080",
        label: "HD MP4 1080P",
        width: 1920,
        height: 1080,
        res: "1080",
    },
    QualitySpec {
        quality: VideoQuality::P2160,
        key: "p2160",
        label: "4K MP4 UHD",
        width: 3840,
        height: 2160,
        res: "2160",
    },
    QualitySpec { quality: VideoQuality::Hls, key: "hls", label: "HLS", width: 0, height: 0, res: "hls" },
];

pub fn spec_of(quality: VideoQuality) -> QualitySpec {
    *QUALITIES.iter().find(|q| q.quality == quality).expect("every quality has a spec")
}

pub fn quality_from_key(key: &str) -> Option<VideoQuality> {
    QUALITIES.iter().find(|q| q.key == key).map(|q| q.quality)
}

pub fn is_downloadable(quality: VideoQuality) -> bool {
    quality != VideoQuality::Hls
}

/// The download resolutions of a video with `qualities`, largest first.
pub fn download_resolutions(qualities: &[VideoQuality]) -> Vec<DownloadResolution> {
    QUALITIES
        .iter()
        .rev()
        .filter(|q| is_downloadable(q.quality) && qualities.contains(&q.quality))
        .map(|q| DownloadResolution { label: q.label.into(), size: q.key.into(), width: q.width, res: q.res.into() })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn at(d: u32, h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, d, h, 0, 0).unwrap()
    }

    fn site() -> DownloadQuotaBucket {
        DownloadQuotaBucket::Site { site: "vixen".into() }
    }

    #[test]
    fn the_three_channel_categories_share_one_bucket_and_sites_have_their_own() {
        let keys: Vec<String> =
            [ChannelCategory::Compilations, ChannelCategory::BehindTheScenes, ChannelCategory::Intimates]
                .into_iter()
                .map(|c| bucket_key(&bucket_of("vixen", Some(c))))
                .collect();
        assert_eq!(keys, ["channels", "channels", "channels"]);
        assert_eq!(bucket_key(&bucket_of("vixen", None)), "site:vixen");
        assert_ne!(bucket_key(&bucket_of("tushy", None)), "site:vixen");
    }

    #[test]
    fn a_full_quota_says_when_its_oldest_download_stops_counting() {
        let rule = QuotaRule { max: 2, days: 7 };
        let s = standing(rule, &site(), &[at(1, 12), at(3, 12)], at(5, 0));
        assert!(s.threshold_reached);
        assert_eq!((s.downloads_number, s.quota_left), (2, 0));
        // The 1st at noon frees on the 8th at noon: 3.5 days from the 5th at midnight.
        assert_eq!(s.remaining_days, 4);
        assert_eq!(reached_message(s.remaining_days), "limit exceeded, try again in 4 days");
        // On the 8th after noon only one counts.
        let later = standing(rule, &site(), &[at(1, 12), at(3, 12)], at(8, 13));
        assert_eq!((later.downloads_number, later.threshold_reached, later.quota_left), (1, false, 1));
    }

    #[test]
    fn over_a_lowered_limit_the_wait_is_until_enough_have_left() {
        // Four in the window, the limit lowered to 2: a slot frees when the 3rd oldest
        // (the 3rd at noon) leaves, on the 10th at noon, not when the 1st leaves (the 8th).
        let rule = QuotaRule { max: 2, days: 7 };
        let s = standing(rule, &site(), &[at(3, 12), at(1, 12), at(4, 12), at(2, 12)], at(5, 0));
        assert_eq!((s.downloads_number, s.threshold_reached), (4, true));
        assert_eq!(s.remaining_days, 6);
        let then = standing(rule, &site(), &[at(3, 12), at(1, 12), at(4, 12), at(2, 12)], at(10, 13));
        assert!(!then.threshold_reached);
    }

    #[test]
    fn an_empty_bucket_and_a_zero_quota() {
        let s = standing(QuotaRule { max: 20, days: 7 }, &site(), &[], at(5, 0));
        assert_eq!((s.downloads_number, s.quota_left, s.remaining_days, s.threshold_reached), (0, 20, 0, false));
        let zero = standing(QuotaRule { max: 0, days: 7 }, &site(), &[], at(5, 0));
        assert!(zero.zero_quota && zero.threshold_reached);
    }

    #[test]
    fn resolutions_are_the_specs_labels_largest_first_without_hls() {
        let all: Vec<VideoQuality> = QUALITIES.iter().map(|q| q.quality).collect();
        let r = download_resolutions(&all);
        assert_eq!(r.len(), 7);
        assert_eq!((r[0].label.as_str(), r[0].res.as_str(), r[0].width), ("4K MP4 UHD", "2160", 3840));
        assert_eq!((r[1].label.as_str(), r[1].size.as_str()), ("HD MP4 1080P", "p1080"));
        let res: Vec<&str> = r.iter().map(|r| r.res.as_str()).collect();
        assert_eq!(res, ["2160", "1080", "720", "480 mobile", "480", "360", "270"]);
        assert_eq!(quality_from_key("p480l"), Some(VideoQuality::P480l));
        for q in QUALITIES {
            assert_eq!(serde_json::to_value(q.quality).unwrap(), q.key, "the key is the wire spelling");
        }
    }

    proptest! {
        #[test]
        fn the_standing_counts_exactly_the_window(offsets in proptest::collection::vec(0i64..30 * 24, 0..40), max in 0u32..25, days in 1u32..15) {
            let now = at(31, 0);
            let granted: Vec<DateTime<Utc>> = offsets.iter().map(|h| now - Duration::hours(*h)).collect();
            let rule = QuotaRule { max, days };
            let s = standing(rule, &site(), &granted, now);
            let counted = offsets.iter().filter(|h| **h < days as i64 * 24).count() as u32;
            prop_assert_eq!(s.downloads_number, counted);
            prop_assert_eq!(s.threshold_reached, counted >= max);
            prop_assert_eq!(s.quota_left + counted.min(max), max);
            prop_assert!(s.remaining_days <= days);
            prop_assert_eq!(s.remaining_days == 0, counted == 0);
            // Waiting the days said frees a slot (a zero quota never does).
            if s.threshold_reached && max > 0 {
                let later = standing(rule, &site(), &granted, now + Duration::days(s.remaining_days as i64));
                prop_assert!(!later.threshold_reached, "still full after {} days", s.remaining_days);
            }
        }
    }
}
