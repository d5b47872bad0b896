//! The catalog's own settings, from the environment with local defaults.

use crate::read_cache::Limits;

/// `CATALOG_BANNED_WORDS`: comma-separated words a comment may not contain (whole words,
/// any case). The default list is a placeholder for the studio's moderation list.
pub const DEFAULT_BANNED_WORDS: &[&str] = &["spamlink", "casino", "viagra", "scamcoin"];

#[derive(Clone, Debug, PartialEq)]
pub struct CatalogConfig {
    pub banned_words: Vec<String>,
    /// `CATALOG_READ_CACHE_MB` (64; 0 turns the cache off) and `CATALOG_READ_CACHE_ENTRIES`
    /// (50000): how much the read cache of listings and searches may hold.
    pub read_cache: Limits,
}

impl Default for CatalogConfig {
    fn default() -> Self {
        CatalogConfig {
            banned_words: DEFAULT_BANNED_WORDS.iter().map(|w| (*w).to_owned()).collect(),
            read_cache: Limits::default(),
        }
    }
}

impl CatalogConfig {
    pub fn from_env() -> Self {
        Self::from_lookup(|key| std::env::var(key).ok())
    }

    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Self {
        let mut config = CatalogConfig::default();
        if let Some(list) = lookup("CATALOG_BANNED_WORDS") {
            config.banned_words = list.split(',').map(|w| w.trim().to_lowercase()).filter(|w| !w.is_empty()).collect();
        }
        let number = |key: &str| lookup(key).and_then(|v| v.trim().parse::<usize>().ok());
        if let Some(mb) = number("CATALOG_READ_CACHE_MB") {
            config.read_cache.max_bytes = mb << 20;
        }
        if let Some(n) = number("CATALOG_READ_CACHE_ENTRIES") {
            config.read_cache.max_entries = n;
        }
        config
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn banned_words_come_from_the_environment() {
        let c = CatalogConfig::from_lookup(|k| (k == "CATALOG_BANNED_WORDS").then(|| " Foo, bar ,,".into()));
        assert_eq!(c.banned_words, vec!["foo", "bar"]);
        assert_eq!(CatalogConfig::from_lookup(|_| None), CatalogConfig::default());
    }

    #[test]
    fn the_read_cache_bounds_come_from_the_environment() {
        let c = CatalogConfig::from_lookup(|k| match k {
            "CATALOG_READ_CACHE_MB" => Some("3".into()),
            "CATALOG_READ_CACHE_ENTRIES" => Some(" 10 ".into()),
            _ => None,
        });
        assert_eq!(c.read_cache, Limits { max_bytes: 3 << 20, max_entries: 10 });
        assert_eq!(c.banned_words, CatalogConfig::default().banned_words);
        let off = CatalogConfig::from_lookup(|k| (k == "CATALOG_READ_CACHE_MB").then(|| "0".into()));
        assert_eq!(off.read_cache.max_bytes, 0);
    }
}
