//! The validation rules of product.md, "Validation rules", with the spec's messages.
//!
//! Pure functions: the join form, the VIP form, username selection and the password change
//! all call these, and the property tests below pin every edge length.

/// The two internal test domains (accounts there are kept out of the e-mail consent prompt).
pub const INTERNAL_TEST_DOMAINS: [&str; 2] = ["paysite.test", "qa.paysite.test"];
/// The studio's placeholder domain for VIP accounts not yet converted.
pub const VIP_PLACEHOLDER_DOMAIN: &str = "vip.paysite.test";

pub const INVALID_EMAIL_MESSAGE: &str = "Invalid email address.";
pub const PASSWORD_RULE_MESSAGE: &str =
    "Passwords may only contain letters and numbers and MUST be between 8 and 32 characters long.";
pub const INVALID_USERNAME_MESSAGE: &str = "invalid username";
pub const USERNAME_TAKEN_MESSAGE: &str = "already taken";
pub const OLD_PASSWORD_INCORRECT_MESSAGE: &str = "old password incorrect";
pub const CONFIRMATION_MISMATCH_MESSAGE: &str = "confirmation does not match";
pub const NEW_PASSWORD_NOT_SECURE_MESSAGE: &str = "new password not secure";
/// VIP form messages by code (product.md, "The error catalogue").
pub const VIP_EMAIL_ALREADY_EXISTS_MESSAGE: &str = "This email already exists. Please choose another one.";
pub const VIP_INVALID_EMAIL_MESSAGE: &str = "Email is not valid.";
pub const VIP_GENERIC_FAILURE_MESSAGE: &str = "Failed to update your credentials. Please contact customer support.";
pub const INVALID_DISPLAY_NAME_MESSAGE: &str = "Display names have 1 to 30 characters and no control characters.";
pub const INVALID_RELATIONSHIP_MESSAGE: &str =
    "Relationship status and role are required (at most 50 characters each).";

pub const EMAIL_MIN: usize = 6;
pub const EMAIL_MAX: usize = 254;
pub const EMAIL_LOCAL_MAX: usize = 64;
pub const EMAIL_LABEL_MAX: usize = 63;
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 32;
pub const USERNAME_MIN: usize = 3;
pub const USERNAME_MAX: usize = 20;
pub const DISPLAY_NAME_MAX: usize = 30;
pub const RELATIONSHIP_MAX: usize = 50;

/// What the browser sends, lower-cased and trimmed (as the VIP form does before sending).
pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

fn local_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '%' | '+' | '-')
}

fn label_ok(label: &str) -> bool {
    !label.is_empty()
        && label.len() <= EMAIL_LABEL_MAX
        && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !label.starts_with('-')
        && !label.ends_with('-')
}

/// product.md, "Validation rules": 6 to 254 characters; the internal test pattern or the general one; local part at most
/// 64, every domain label at most 63.
pub fn is_valid_email(email: &str) -> bool {
    let len = email.chars().count();
    if !(EMAIL_MIN..=EMAIL_MAX).contains(&len) {
        return false;
    }
    let Some((local, domain)) = email.rsplit_once('@') else { return false };
    if local.is_empty() || local.len() > EMAIL_LOCAL_MAX || !local.chars().all(local_char) {
        return false;
    }
    if !domain.split('.').all(label_ok) {
        return false;
    }
    // Pattern one: the internal test domains, any local part of the allowed characters.
    if INTERNAL_TEST_DOMAINS.iter().any(|d| domain.eq_ignore_ascii_case(d)) {
        return true;
    }
    // Pattern two: a local part ending in a letter or digit, a top-level domain of 2+ letters.
    let ends_alnum = local.chars().last().is_some_and(|c| c.is_ascii_alphanumeric());
    let labels: Vec<&str> = domain.split('.').collect();
    let tld = labels.last().copied().unwrap_or_default();
    ends_alnum && labels.len() >= 2 && tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic())
}

/// An account on one of the internal test domains.
pub fn is_internal_test_email(email: &str) -> bool {
    email.rsplit_once('@').is_some_and(|(_, d)| INTERNAL_TEST_DOMAINS.iter().any(|t| d.eq_ignore_ascii_case(t)))
}

/// The VIP form: a valid e-mail that is not on the studio's placeholder domain.
pub fn is_valid_vip_email(email: &str) -> bool {
    is_valid_email(email) && !email.to_ascii_lowercase().ends_with(VIP_PLACEHOLDER_DOMAIN)
}

/// product.md, "Validation rules": letters and digits only, 8 to 32 characters.
pub fn is_valid_password(password: &str) -> bool {
    (PASSWORD_MIN..=PASSWORD_MAX).contains(&password.len()) && password.chars().all(|c| c.is_ascii_alphanumeric())
}

/// product.md, "Validation rules": 3 to 20 lower-case letters and digits.
pub fn is_valid_username(username: &str) -> bool {
    (USERNAME_MIN..=USERNAME_MAX).contains(&username.len())
        && username.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

/// Not in the spec (decision): 1 to 30 characters once trimmed, no control characters.
pub fn normalize_display_name(name: &str) -> Option<String> {
    let name = name.trim();
    let n = name.chars().count();
    ((1..=DISPLAY_NAME_MAX).contains(&n) && !name.chars().any(char::is_control)).then(|| name.to_owned())
}

/// Not in the spec (decision): both required, at most 50 characters each, no control characters.
pub fn is_valid_relationship_value(value: &str) -> bool {
    let n = value.trim().chars().count();
    (1..=RELATIONSHIP_MAX).contains(&n) && !value.chars().any(char::is_control)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn it_accepts_ordinary_and_internal_addresses() {
        for ok in
            ["jane.doe@example.com", "a1@b.co", "x+y@mail.example.org", "member@paysite.test", "qa-@qa.paysite.test"]
        {
            assert!(is_valid_email(ok), "{ok}");
        }
    }

    #[test]
    fn it_refuses_addresses_outside_both_patterns() {
        for bad in [
            "",
            "a@b.c",
            "abc",
            "no-at.example.com",
            "jane-@example.com",
            "jane@example.c0m",
            "jane@example",
            "jane@-example.com",
            "jane@example-.com",
            "ja ne@example.com",
            "jane@exa_mple.com",
            "jane@.com",
            "jane@example..com",
            "@example.com",
        ] {
            assert!(!is_valid_email(bad), "{bad}");
        }
    }

    #[test]
    fn the_edge_lengths_of_an_email_are_exact() {
        assert!(!is_valid_email("a@b.c"));
        assert!(is_valid_email("a@b.co"));
        let local64 = "a".repeat(64);
        assert!(is_valid_email(&format!("{local64}@example.com")));
        assert!(!is_valid_email(&format!("{}@example.com", "a".repeat(65))));
        assert!(is_valid_email(&format!("a@{}.com", "b".repeat(63))));
        assert!(!is_valid_email(&format!("a@{}.com", "b".repeat(64))));
        // 254 in all: 64 + 1 + 63 + 1 + 63 + 1 + 57 + 1 + 3
        let at254 = format!("{local64}@{}.{}.{}.com", "b".repeat(63), "c".repeat(63), "d".repeat(57));
        assert_eq!(at254.len(), 254);
        assert!(is_valid_email(&at254));
        let at255 = format!("{local64}@{}.{}.{}.com", "b".repeat(63), "c".repeat(63), "d".repeat(58));
        assert!(!is_valid_email(&at255));
    }

    #[test]
    fn the_vip_form_refuses_the_placeholder_domain() {
        assert!(!is_valid_vip_email("someone@vip.paysite.test"));
        assert!(is_valid_vip_email("someone@example.com"));
        assert!(!is_valid_vip_email("not an email"));
    }

    #[test]
    fn the_edge_lengths_of_passwords_and_usernames_are_exact() {
        assert!(!is_valid_password(&"a".repeat(7)));
        assert!(is_valid_password(&"a".repeat(8)));
        assert!(is_valid_password(&"a".repeat(32)));
        assert!(!is_valid_password(&"a".repeat(33)));
        assert!(!is_valid_username("ab"));
        assert!(is_valid_username("abc"));
        assert!(is_valid_username(&"a".repeat(20)));
        assert!(!is_valid_username(&"a".repeat(21)));
        assert!(!is_valid_username("Abc"));
        assert!(!is_valid_username("ab_c"));
    }

    proptest! {
        #[test]
        fn a_password_is_valid_exactly_when_alphanumeric_and_8_to_32(p in "[a-zA-Z0-9]{0,40}") {
            prop_assert_eq!(is_valid_password(&p), (8..=32).contains(&p.len()));
        }

        #[test]
        fn a_password_with_any_other_character_is_refused(
            a in "[a-zA-Z0-9]{4,15}", c in "[^a-zA-Z0-9]", b in "[a-zA-Z0-9]{4,15}"
        ) {
            let password = format!("{a}{c}{b}");
            prop_assert!(!is_valid_password(&password));
        }

        #[test]
        fn a_username_is_valid_exactly_when_lowercase_alnum_and_3_to_20(u in "[a-z0-9]{0,25}") {
            prop_assert_eq!(is_valid_username(&u), (3..=20).contains(&u.len()));
        }

        #[test]
        fn a_username_with_upper_case_or_a_symbol_is_refused(a in "[a-z0-9]{1,9}", c in "[^a-z0-9]", b in "[a-z0-9]{1,9}") {
            let username = format!("{a}{c}{b}");
            prop_assert!(!is_valid_username(&username));
        }

        #[test]
        fn a_general_email_follows_its_lengths(
            local in "[a-z0-9]{1,70}", label in "[a-z0-9]{1,70}", tld in "[a-z]{2,6}"
        ) {
            let email = format!("{local}@{label}.{tld}");
            let expected = local.len() <= 64 && label.len() <= 63 && email.len() >= 6 && email.len() <= 254;
            prop_assert_eq!(is_valid_email(&email), expected);
        }

        #[test]
        fn a_general_email_whose_local_part_ends_in_a_symbol_is_refused(local in "[a-z0-9]{1,10}[._%+-]") {
            let general = format!("{local}@example.com");
            let internal = format!("{local}@paysite.test");
            prop_assert!(!is_valid_email(&general));
            prop_assert!(is_valid_email(&internal));
        }

        #[test]
        fn a_numeric_or_one_letter_tld_is_refused(local in "[a-z0-9]{1,10}", tld in "([a-z]|[a-z]?[0-9][a-z0-9]?)") {
            let email = format!("{local}@example.{tld}");
            prop_assert!(!is_valid_email(&email));
        }

        #[test]
        fn normalising_an_email_makes_case_and_spaces_irrelevant(e in "[a-zA-Z0-9]{1,10}@[a-zA-Z]{1,10}\\.[a-zA-Z]{2,4}") {
            let padded = format!("  {}  ", e);
            prop_assert_eq!(normalize_email(&padded), e.to_lowercase());
            prop_assert!(is_valid_email(&normalize_email(&padded)));
        }
    }
}
