//! The unlocks service's settings, from the environment with local defaults.

use std::collections::BTreeMap;
use std::time::Duration;

use runtime::Secret;
use serde::Deserialize;

use crate::quota::{QuotaRule, QuotaRules};

/// The queue catalog events arrive on (also its inbox's name).
pub const CATALOG_QUEUE: &str = "unlocks.catalog";
/// The queue subscription events arrive on.
pub const SUBSCRIPTIONS_QUEUE: &str = "unlocks.subscriptions";
/// Spec product.md, "Unlocks": each channel pack costs 10 gems.
pub const PACK_GEMS: u32 = 10;
/// Spec product.md, "Unlocks": the free limited trial opens 3 full videos.
pub const FREE_TRIAL_VIDEOS: u32 = 3;
/// A development-only media secret; production sets `UNLOCKS_MEDIA_SECRET`.
pub const DEVELOPMENT_MEDIA_SECRET: &str = "paysite-development-media-secret";

#[derive(Clone, Debug)]
pub struct UnlocksConfig {
    /// `UNLOCKS_PACK_GEMS` (10).
    pub pack_gems: u32,
    /// `UNLOCKS_VIDEO_CREDITS`: credits a video unlock takes (1).
    pub video_credits: u32,
    /// `UNLOCKS_FREE_TRIAL_VIDEOS` (3).
    pub free_trial_videos: u32,
    /// `PAYSITE_WALLET_URL` (default the wallet's port on this machine).
    pub wallet_url: String,
    /// `PAYSITE_SUBSCRIPTION_URL`: the owner of the subscription read the access rules need.
    pub subscription_url: String,
    /// `UNLOCKS_MEDIA_SECRET`: the HMAC key of media tokens.
    pub media_secret: Secret,
    /// `UNLOCKS_MEDIA_BASE_URL`: the `cdn` of every token (default this service's own `/media/videos`).
    pub media_base_url: String,
    /// `UNLOCKS_MEDIA_DIR`: where the media files are (demo clips are generated there).
    pub media_dir: std::path::PathBuf,
    /// `UNLOCKS_TOKEN_TTL_SECS`: how long a playback token lasts (3600).
    pub play_token_ttl: Duration,
    /// `UNLOCKS_DOWNLOAD_TOKEN_TTL_SECS`: how long a download token lasts (900).
    pub download_token_ttl: Duration,
    /// Download quotas: `UNLOCKS_DOWNLOAD_QUOTA_SITE` and `UNLOCKS_DOWNLOAD_QUOTA_CHANNELS`
    /// (`<max>/<days>`, defaults 20/7 and 5/7), per-tenant overrides in `UNLOCKS_DOWNLOAD_QUOTAS`
    /// (JSON: `{"vixen": {"site": {"max": 30, "days": 7}}}`).
    pub quotas: QuotaRules,
    /// `UNLOCKS_RECONCILE_INTERVAL_MS`: how often the reconciler looks for unfinished unlocks (5 s).
    pub reconcile_interval: Duration,
    /// `UNLOCKS_RECONCILE_AFTER_MS`: how old a pending unlock must be before the reconciler
    /// takes it over from the request that began it. Default: twice the wallet client's worst
    /// case (3 tries of `wallet_timeout` plus the client's pauses, 30.3 s), so 60.6 s; an unlock whose
    /// debit is in flight in this process is skipped whatever this says.
    pub reconcile_after: Duration,
    /// `UNLOCKS_WALLET_TIMEOUT_MS`: the timeout of one debit call to the wallet (10 s).
    pub wallet_timeout: Duration,
    pub catalog_queue: String,
    pub subscriptions_queue: String,
}

impl Default for UnlocksConfig {
    fn default() -> Self {
        UnlocksConfig {
            pack_gems: PACK_GEMS,
            video_credits: 1,
            free_trial_videos: FREE_TRIAL_VIDEOS,
            wallet_url: "http://127.0.0.1:8103".into(),
            subscription_url: "http://127.0.0.1:8102".into(),
            media_secret: Secret::new(DEVELOPMENT_MEDIA_SECRET),
            media_base_url: "http://127.0.0.1:8104/media/videos".into(),
            media_dir: "/var/tmp/paysite-media".into(),
            play_token_ttl: Duration::from_secs(3600),
            download_token_ttl: Duration::from_secs(900),
            quotas: QuotaRules::default(),
            reconcile_interval: Duration::from_secs(5),
            reconcile_after: runtime::client::worst_case(Duration::from_secs(10)) * 2,
            wallet_timeout: Duration::from_secs(10),
            catalog_queue: CATALOG_QUEUE.into(),
            subscriptions_queue: SUBSCRIPTIONS_QUEUE.into(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TenantOverride {
    site: Option<QuotaRule>,
    channels: Option<QuotaRule>,
}

impl UnlocksConfig {
    pub fn from_env() -> anyhow::Result<Self> {
        Self::from_lookup(|key| std::env::var(key).ok())
    }

    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let d = UnlocksConfig::default();
        let number = |key: &str, default: u64| -> anyhow::Result<u64> {
            match lookup(key) {
                None => Ok(default),
                Some(v) => v.parse().map_err(|_| anyhow::anyhow!("{key} must be a whole number, got {v:?}")),
            }
        };
        let rule = |key: &str, default: QuotaRule| -> anyhow::Result<QuotaRule> {
            match lookup(key) {
                None => Ok(default),
                Some(v) => QuotaRule::parse(&v).ok_or_else(|| anyhow::anyhow!("{key} must be <max>/<days>, got {v:?}")),
            }
        };
        let mut quotas = QuotaRules {
            site: rule("UNLOCKS_DOWNLOAD_QUOTA_SITE", d.quotas.site)?,
            channels: rule("UNLOCKS_DOWNLOAD_QUOTA_CHANNELS", d.quotas.channels)?,
            tenants: BTreeMap::new(),
        };
        if let Some(json) = lookup("UNLOCKS_DOWNLOAD_QUOTAS").filter(|v| !v.trim().is_empty()) {
            let overrides: BTreeMap<String, TenantOverride> = serde_json::from_str(&json)
                .map_err(|e| anyhow::anyhow!("UNLOCKS_DOWNLOAD_QUOTAS must be JSON per tenant: {e}"))?;
            for (tenant, o) in overrides {
                let site = o.site.unwrap_or(quotas.site);
                let channels = o.channels.unwrap_or(quotas.channels);
                for r in [site, channels] {
                    if r.days == 0 {
                        anyhow::bail!("UNLOCKS_DOWNLOAD_QUOTAS: {tenant}: a window of 0 days");
                    }
                }
                quotas.tenants.insert(tenant, (site, channels));
            }
        }
        let given_secret = lookup("UNLOCKS_MEDIA_SECRET").filter(|s| !s.is_empty());
        if given_secret.is_none() && lookup("PAYSITE_ENV").as_deref() == Some("production") {
            anyhow::bail!("UNLOCKS_MEDIA_SECRET must be set in production: media tokens signed with the development secret can be forged by anyone who reads the code");
        }
        let media_secret = given_secret.map(Secret::new).unwrap_or(d.media_secret);
        let wallet_timeout =
            Duration::from_millis(number("UNLOCKS_WALLET_TIMEOUT_MS", d.wallet_timeout.as_millis() as u64)?.max(1));
        Ok(UnlocksConfig {
            pack_gems: number("UNLOCKS_PACK_GEMS", d.pack_gems as u64)? as u32,
            video_credits: number("UNLOCKS_VIDEO_CREDITS", d.video_credits as u64)? as u32,
            free_trial_videos: number("UNLOCKS_FREE_TRIAL_VIDEOS", d.free_trial_videos as u64)? as u32,
            wallet_url: runtime::config::service_url_from(&lookup, "wallet", 8103),
            subscription_url: runtime::config::service_url_from(&lookup, "subscription", 8102),
            media_secret,
            media_base_url: lookup("UNLOCKS_MEDIA_BASE_URL")
                .filter(|v| !v.is_empty())
                .map(|v| v.trim_end_matches('/').to_owned())
                .unwrap_or_else(|| {
                    format!("{}/media/videos", runtime::config::service_url_from(&lookup, "unlocks", 8104))
                }),
            media_dir: lookup("UNLOCKS_MEDIA_DIR").filter(|v| !v.is_empty()).map(Into::into).unwrap_or(d.media_dir),
            play_token_ttl: Duration::from_secs(number("UNLOCKS_TOKEN_TTL_SECS", d.play_token_ttl.as_secs())?),
            download_token_ttl: Duration::from_secs(number(
                "UNLOCKS_DOWNLOAD_TOKEN_TTL_SECS",
                d.download_token_ttl.as_secs(),
            )?),
            quotas,
            reconcile_interval: Duration::from_millis(number(
                "UNLOCKS_RECONCILE_INTERVAL_MS",
                d.reconcile_interval.as_millis() as u64,
            )?),
            reconcile_after: Duration::from_millis(number(
                "UNLOCKS_RECONCILE_AFTER_MS",
                (runtime::client::worst_case(wallet_timeout) * 2).as_millis() as u64,
            )?),
            wallet_timeout,
            catalog_queue: d.catalog_queue,
            subscriptions_queue: d.subscriptions_queue,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_specs_and_the_decisions_tables() {
        let c = UnlocksConfig::from_lookup(|_| None).unwrap();
        assert_eq!((c.pack_gems, c.free_trial_videos, c.video_credits), (10, 3, 1));
        assert_eq!(c.quotas.site, QuotaRule { max: 20, days: 7 });
        assert_eq!(c.quotas.channels, QuotaRule { max: 5, days: 7 });
        assert_eq!(c.wallet_url, "http://127.0.0.1:8103");
        assert_eq!(c.media_base_url, "http://127.0.0.1:8104/media/videos");
        assert_eq!(c.media_secret.expose(), DEVELOPMENT_MEDIA_SECRET);
    }

    #[test]
    fn the_pack_price_is_configured() {
        let c = UnlocksConfig::from_lookup(|k| (k == "UNLOCKS_PACK_GEMS").then(|| "12".to_owned())).unwrap();
        assert_eq!(c.pack_gems, 12);
    }

    #[test]
    fn a_tenant_overrides_its_quotas_and_keeps_the_rest() {
        let c = UnlocksConfig::from_lookup(|k| match k {
            "UNLOCKS_DOWNLOAD_QUOTA_SITE" => Some("25/14".into()),
            "UNLOCKS_DOWNLOAD_QUOTAS" => Some(r#"{"vixen": {"channels": {"max": 2, "days": 3}}}"#.into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(c.quotas.for_tenant("vixen"), (QuotaRule { max: 25, days: 14 }, QuotaRule { max: 2, days: 3 }));
        assert_eq!(c.quotas.for_tenant("tushy"), (QuotaRule { max: 25, days: 14 }, QuotaRule { max: 5, days: 7 }));
    }

    #[test]
    fn a_malformed_setting_is_a_clear_error() {
        for (key, value) in [
            ("UNLOCKS_PACK_GEMS", "ten"),
            ("UNLOCKS_DOWNLOAD_QUOTA_SITE", "20"),
            ("UNLOCKS_DOWNLOAD_QUOTAS", "{\"vixen\": {\"sites\": {}}}"),
        ] {
            let err = UnlocksConfig::from_lookup(|k| (k == key).then(|| value.to_owned())).unwrap_err();
            assert!(err.to_string().contains(key), "{err}");
        }
    }
}
