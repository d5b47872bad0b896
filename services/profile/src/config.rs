//! The profile service's own settings, from the environment with local defaults.

use std::time::Duration;

use anyhow::{bail, Context};
use base64::{engine::general_purpose::STANDARD, Engine};
use chrono::{DateTime, NaiveDate, Utc};
use runtime::Secret;

/// The queue other services' events arrive on (also its inbox's name).
pub const PROJECTIONS_QUEUE: &str = "profile.projections";

pub use profile_contract::passwords::Argon2Cost;

#[derive(Clone, Debug)]
pub struct ProfileConfig {
    /// `PROFILE_SIGNING_KEY`: base64 of a 32-byte Ed25519 seed. Unset: a key generated once
    /// and kept in the schema.
    pub signing_key: Option<Secret>,
    /// `PROFILE_ACCESS_TOKEN_TTL_SECS` (default 600).
    pub access_ttl: Duration,
    /// `PROFILE_REFRESH_TOKEN_TTL_DAYS` (default 30): a refresh token's life; each rotation starts a new one.
    pub refresh_ttl: Duration,
    /// `PROFILE_REFRESH_REUSE_GRACE_SECS` (default 30): a rotated refresh token presented again
    /// within this long of its rotation, while its successor is still unused, is a concurrent or
    /// retried refresh (answered 409 `refresh_in_progress`, the session kept), not a theft.
    pub refresh_reuse_grace: Duration,
    /// Authorization codes live 60 s; autologin tokens `PROFILE_AUTOLOGIN_TTL_SECS` (default 300); id tokens 300 s.
    pub code_ttl: Duration,
    pub autologin_ttl: Duration,
    pub id_token_ttl: Duration,
    /// `PROFILE_LOGIN_WINDOW_SECS` (default 900) and `PROFILE_LOGIN_MAX_FAILURES` (default 5): how
    /// long failures are remembered, and how many pass without delay; past them each attempt
    /// waits a delay that doubles per failure, up to the window (sessions::limiter).
    pub login_window: Duration,
    pub login_max_failures: u32,
    /// `PROFILE_REFRESH_WINDOW_SECS` (default 600) and `PROFILE_REFRESH_MAX` (default 60): a user's
    /// refreshes, over all their sessions, past this many in a window are answered 429
    /// `too_many_refreshes` (the browser refreshes every 48 minutes per session).
    pub refresh_window: Duration,
    pub refresh_max: u32,
    /// `PROFILE_ARGON2_MEMORY_KIB`, `PROFILE_ARGON2_ITERATIONS`, `PROFILE_ARGON2_PARALLELISM`.
    pub argon2: Argon2Cost,
    /// `PAYSITE_LAUNCH_DATE` (default 2026-01-01): the founder badge goes to accounts of the
    /// first six months after it.
    pub launch_date: DateTime<Utc>,
    /// `PAYSITE_BRAND_ORIGIN` (default `http://{brand}.localhost:8080`): where a brand host lives;
    /// sign-in codes are only ever sent back to one of these.
    pub brand_origin: String,
    /// The consumer queue of other services' events.
    pub projections_queue: String,
}

impl Default for ProfileConfig {
    fn default() -> Self {
        ProfileConfig {
            signing_key: None,
            access_ttl: Duration::from_secs(600),
            refresh_ttl: Duration::from_secs(30 * 86_400),
            refresh_reuse_grace: Duration::from_secs(30),
            code_ttl: Duration::from_secs(60),
            autologin_ttl: Duration::from_secs(300),
            id_token_ttl: Duration::from_secs(300),
            login_window: Duration::from_secs(900),
            login_max_failures: 5,
            refresh_window: Duration::from_secs(600),
            refresh_max: 60,
            argon2: Argon2Cost::default(),
            launch_date: NaiveDate::from_ymd_opt(2026, 1, 1).unwrap().and_hms_opt(0, 0, 0).unwrap().and_utc(),
            brand_origin: "http://{brand}.localhost:8080".into(),
            projections_queue: PROJECTIONS_QUEUE.into(),
        }
    }
}

impl ProfileConfig {
    pub fn from_env() -> anyhow::Result<Self> {
        Self::from_lookup(|key| std::env::var(key).ok())
    }

    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let d = ProfileConfig::default();
        let value = |key: &str| lookup(key).filter(|v| !v.trim().is_empty());
        let number = |key: &str, default: u64| -> anyhow::Result<u64> {
            match value(key) {
                None => Ok(default),
                Some(v) => v.trim().parse().with_context(|| format!("{key} must be a whole number, got {v:?}")),
            }
        };
        let signing_key = value("PROFILE_SIGNING_KEY").map(Secret::new);
        if let Some(key) = &signing_key {
            seed_from_base64(key.expose()).context("PROFILE_SIGNING_KEY")?;
        }
        let launch_date = match value("PAYSITE_LAUNCH_DATE") {
            None => d.launch_date,
            Some(v) => NaiveDate::parse_from_str(v.trim(), "%Y-%m-%d")
                .with_context(|| format!("PAYSITE_LAUNCH_DATE must be YYYY-MM-DD, got {v:?}"))?
                .and_hms_opt(0, 0, 0)
                .unwrap()
                .and_utc(),
        };
        let brand_origin = value("PAYSITE_BRAND_ORIGIN").unwrap_or(d.brand_origin);
        if !brand_origin.contains("{brand}") {
            bail!("PAYSITE_BRAND_ORIGIN must contain {{brand}}");
        }
        Ok(ProfileConfig {
            signing_key,
            access_ttl: Duration::from_secs(number("PROFILE_ACCESS_TOKEN_TTL_SECS", 600)?),
            refresh_ttl: Duration::from_secs(number("PROFILE_REFRESH_TOKEN_TTL_DAYS", 30)? * 86_400),
            refresh_reuse_grace: Duration::from_secs(number("PROFILE_REFRESH_REUSE_GRACE_SECS", 30)?),
            code_ttl: d.code_ttl,
            autologin_ttl: Duration::from_secs(number("PROFILE_AUTOLOGIN_TTL_SECS", 300)?),
            id_token_ttl: d.id_token_ttl,
            login_window: Duration::from_secs(number("PROFILE_LOGIN_WINDOW_SECS", 900)?),
            login_max_failures: number("PROFILE_LOGIN_MAX_FAILURES", 5)? as u32,
            refresh_window: Duration::from_secs(number("PROFILE_REFRESH_WINDOW_SECS", 600)?),
            refresh_max: number("PROFILE_REFRESH_MAX", 60)? as u32,
            argon2: Argon2Cost {
                memory_kib: number("PROFILE_ARGON2_MEMORY_KIB", d.argon2.memory_kib as u64)? as u32,
                iterations: number("PROFILE_ARGON2_ITERATIONS", d.argon2.iterations as u64)? as u32,
                parallelism: number("PROFILE_ARGON2_PARALLELISM", d.argon2.parallelism as u64)? as u32,
            },
            launch_date,
            brand_origin: brand_origin.trim().trim_end_matches('/').to_owned(),
            projections_queue: d.projections_queue,
        })
    }

    /// `scheme://host[:port]` of a brand.
    pub fn brand_origin_of(&self, brand: &str) -> String {
        self.brand_origin.replace("{brand}", brand)
    }

    /// The brand host (the access token's audience) of an origin: the host alone, lower-case,
    /// without scheme or port (`vixen.localhost`), as the gateway's `Site::host`.
    pub fn audience_of_origin(origin: &str) -> String {
        let authority = origin.split_once("://").map_or(origin, |(_, rest)| rest);
        let host = match authority.rfind(':') {
            Some(i) if !authority[i..].contains(']') => &authority[..i],
            _ => authority,
        };
        host.to_ascii_lowercase()
    }

    /// The brand whose origin `origin` is, if any.
    pub fn brand_of_origin(&self, origin: &str) -> Option<&'static str> {
        tenants::global().keys().find(|b| self.brand_origin_of(b).eq_ignore_ascii_case(origin))
    }

    /// The brand whose host (audience) this is, if any.
    pub fn brand_of_audience(&self, audience: &str) -> Option<&'static str> {
        tenants::global()
            .keys()
            .find(|b| Self::audience_of_origin(&self.brand_origin_of(b)).eq_ignore_ascii_case(audience))
    }
}

/// A 32-byte seed from its base64.
pub fn seed_from_base64(text: &str) -> anyhow::Result<[u8; 32]> {
    let bytes = STANDARD.decode(text.trim()).context("not base64")?;
    bytes.try_into().map_err(|b: Vec<u8>| anyhow::anyhow!("a seed has 32 bytes, got {}", b.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brand_hosts_come_from_the_origin_template() {
        let config = ProfileConfig::default();
        assert_eq!(config.brand_origin_of("vixen"), "http://vixen.localhost:8080");
        assert_eq!(config.brand_of_origin("http://tushy.localhost:8080"), Some("tushy"));
        assert_eq!(config.brand_of_origin("http://evil.example"), None);
        assert_eq!(config.brand_of_audience("wifey.localhost"), Some("wifey"));
        assert_eq!(ProfileConfig::audience_of_origin("https://www.vixen.com"), "www.vixen.com");
        assert_eq!(ProfileConfig::audience_of_origin("http://Vixen.localhost:8080"), "vixen.localhost");
    }

    #[test]
    fn a_bad_signing_key_is_refused_at_start() {
        let err = ProfileConfig::from_lookup(|k| (k == "PROFILE_SIGNING_KEY").then(|| "AAAA".into())).unwrap_err();
        assert!(format!("{err:#}").contains("32 bytes"), "{err:#}");
        let good = STANDARD.encode([7u8; 32]);
        assert!(ProfileConfig::from_lookup(|k| (k == "PROFILE_SIGNING_KEY").then(|| good.clone())).is_ok());
    }
}
