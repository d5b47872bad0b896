//! The general slug rule, owned here because both sides of the boundary apply it: the catalog
//! refuses content whose slug breaks it, and its client refuses to put such a slug into a path.

/// Lower-case letters and digits in hyphen-separated runs, 1 to 200 characters
/// (`^[a-z0-9]+(-[a-z0-9]+)*$`).
pub fn is_valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= 200
        && slug
            .split('-')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::is_valid_slug;

    #[test]
    fn only_hyphen_separated_lower_case_runs_pass() {
        for good in ["a", "example-scene", "x1-2-y3", &"a".repeat(200)] {
            assert!(is_valid_slug(good), "{good}");
        }
        for bad in ["", "-", "a-", "-a", "a--b", "A", "a_b", "a b", "a/b", "../admin", "é", &"a".repeat(201)] {
            assert!(!is_valid_slug(bad), "{bad}");
        }
    }
}
