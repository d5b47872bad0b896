//! The deals service's settings and the brands it knows, from the environment and the
//! tenant configuration with local defaults.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Deserialize;

/// The queue the subscription events arrive on (also its inbox's name).
pub const SUBSCRIPTIONS_QUEUE: &str = "deals.subscriptions";
/// Where the tenants live, relative to the working directory (as for the gateway).
pub const DEFAULT_TENANTS_DIR: &str = "config/tenants";

#[derive(Clone, Debug, PartialEq)]
pub struct DealsConfig {
    /// `PAYSITE_TENANTS_DIR` (default `config/tenants`, else the repository's own when run
    /// from elsewhere, as tests are): the brands and their offer page ids.
    pub tenants_dir: PathBuf,
    /// The subscription-events queue; tests use their own.
    pub subscriptions_queue: String,
}

impl Default for DealsConfig {
    fn default() -> Self {
        DealsConfig { tenants_dir: default_tenants_dir(), subscriptions_queue: SUBSCRIPTIONS_QUEUE.to_owned() }
    }
}

fn default_tenants_dir() -> PathBuf {
    let relative = PathBuf::from(DEFAULT_TENANTS_DIR);
    if relative.is_dir() {
        relative
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/tenants")
    }
}

impl DealsConfig {
    pub fn from_env() -> Self {
        Self::from_lookup(|key| std::env::var(key).ok())
    }

    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Self {
        let defaults = DealsConfig::default();
        DealsConfig {
            tenants_dir: lookup("PAYSITE_TENANTS_DIR")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .unwrap_or(defaults.tenants_dir),
            subscriptions_queue: defaults.subscriptions_queue,
        }
    }
}

/// A brand as the deals service needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub key: String,
    /// The offers page id (spec §9: blacked 1, tushy 2, vixen 3, ...).
    pub offer_page_id: u32,
}

/// Every brand, by key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sites {
    by_key: BTreeMap<String, Site>,
}

/// The two fields of a tenant file this service reads; the gateway checks the rest.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TenantFile {
    tenant: String,
    offer_page_id: u32,
}

impl Sites {
    pub fn new(sites: impl IntoIterator<Item = Site>) -> anyhow::Result<Self> {
        let mut by_key = BTreeMap::new();
        let mut ids = BTreeMap::new();
        for site in sites {
            if let Some(other) = ids.insert(site.offer_page_id, site.key.clone()) {
                anyhow::bail!("{} and {other} share offer page id {}", site.key, site.offer_page_id);
            }
            if by_key.insert(site.key.clone(), site.clone()).is_some() {
                anyhow::bail!("brand {} is configured twice", site.key);
            }
        }
        anyhow::ensure!(!by_key.is_empty(), "no brands configured");
        Ok(Sites { by_key })
    }

    /// Reads `<brand>.json` files of the tenants directory (`members-area.json` is no brand).
    pub fn load(dir: &Path) -> anyhow::Result<Self> {
        let mut sites = Vec::new();
        let entries = std::fs::read_dir(dir).with_context(|| format!("reading tenants from {}", dir.display()))?;
        for entry in entries {
            let path = entry?.path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else { continue };
            if path.extension().and_then(|e| e.to_str()) != Some("json") || stem == "members-area" {
                continue;
            }
            let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
            let file: TenantFile =
                serde_json::from_str(&text).with_context(|| format!("reading tenant {}", path.display()))?;
            anyhow::ensure!(file.tenant == stem, "{} names brand {:?}", path.display(), file.tenant);
            sites.push(Site { key: file.tenant, offer_page_id: file.offer_page_id });
        }
        Self::new(sites).with_context(|| format!("checking the tenants in {}", dir.display()))
    }

    /// A brand by key, case-insensitively (`TUSHY` is `tushy`).
    pub fn get(&self, key: &str) -> Option<&Site> {
        self.by_key.get(&key.trim().to_ascii_lowercase())
    }

    pub fn contains(&self, key: &str) -> bool {
        self.by_key.contains_key(key)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Site> {
        self.by_key.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repository_tenants_carry_the_spec_offer_page_ids() {
        let sites = Sites::load(&DealsConfig::default().tenants_dir).unwrap();
        let ids: Vec<(&str, u32)> = sites.iter().map(|s| (s.key.as_str(), s.offer_page_id)).collect();
        assert_eq!(
            ids,
            vec![
                ("blacked", 1),
                ("blackedraw", 4),
                ("deeper", 6),
                ("milfy", 9),
                ("slayed", 7),
                ("tushy", 2),
                ("tushyraw", 5),
                ("vixen", 3),
                ("vixenplus", 10),
                ("wifey", 11),
            ]
        );
        assert_eq!(sites.get("TUSHY").map(|s| s.offer_page_id), Some(2));
        assert!(sites.get("members").is_none());
    }

    #[test]
    fn duplicate_offer_page_ids_are_refused() {
        let site = |key: &str, id| Site { key: key.into(), offer_page_id: id };
        assert!(Sites::new([site("a", 1), site("b", 1)]).is_err());
        assert!(Sites::new([]).is_err());
    }

    #[test]
    fn the_tenants_directory_comes_from_the_environment() {
        let config = DealsConfig::from_lookup(|k| (k == "PAYSITE_TENANTS_DIR").then(|| "/etc/paysite/tenants".into()));
        assert_eq!(config.tenants_dir, PathBuf::from("/etc/paysite/tenants"));
        assert_eq!(config.subscriptions_queue, "deals.subscriptions");
    }
}
