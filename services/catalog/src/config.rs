//! The catalog's own settings, from the environment with local defaults.

/// `CATALOG_BANNED_WORDS`: comma-separated words a comment may not contain (whole words,
/// any case). The default list is a placeholder for the studio's moderation list.
pub const DEFAULT_BANNED_WORDS: &[&str] = &["spamlink", "casino", "viagra", "scamcoin"];

#[derive(Clone, Debug, PartialEq)]
pub struct CatalogConfig {
    pub banned_words: Vec<String>,
}

impl Default for CatalogConfig {
    fn default() -> Self {
        CatalogConfig { banned_words: DEFAULT_BANNED_WORDS.iter().map(|w| (*w).to_owned()).collect() }
    }
}

impl CatalogConfig {
    pub fn from_env() -> Self {
        Self::from_lookup(|key| std::env::var(key).ok())
    }

    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Self {
        match lookup("CATALOG_BANNED_WORDS") {
            None => CatalogConfig::default(),
            Some(list) => CatalogConfig {
                banned_words: list.split(',').map(|w| w.trim().to_lowercase()).filter(|w| !w.is_empty()).collect(),
            },
        }
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
}
