//! The deals service's settings and the brands it knows, from the environment and the
//! tenant configuration with local defaults.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The queue the subscription events arrive on (also its inbox's name).
pub const SUBSCRIPTIONS_QUEUE: &str = "deals.subscriptions";

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
        DealsConfig { tenants_dir: tenants::dir_from(|_| None), subscriptions_queue: SUBSCRIPTIONS_QUEUE.to_owned() }
    }
}

impl DealsConfig {
    pub fn from_env() -> Self {
        Self::from_lookup(|key| std::env::var(key).ok())
    }

    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Self {
        DealsConfig { tenants_dir: tenants::dir_from(lookup), ..DealsConfig::default() }
    }
}

/// A brand as the deals service needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub key: String,
    /// The offers page id (product.md, "Brands and hosts": blacked 1, tushy 2, vixen 3, ...).
    pub offer_page_id: u32,
}

/// Every brand, by key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sites {
    by_key: BTreeMap<String, Site>,
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

    /// The brands of the tenants directory (the `tenants` crate loads and checks it).
    pub fn load(dir: &Path) -> anyhow::Result<Self> {
        let tenants = tenants::init_from(dir)?;
        Self::new(tenants.brands.iter().map(|t| Site { key: t.tenant.clone(), offer_page_id: t.offer_page_id }))
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
