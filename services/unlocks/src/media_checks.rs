//! What the media endpoint remembers between a player's range requests, so that checking each
//! one costs a hash lookup instead of a signature check and a database read:
//!
//! - the users of the access tokens it has verified (a token's text verifies the same way every
//!   time; kept until it lapses past the playback grace), and
//! - for one second, whether a token's ground was revoked (a revocation still ends playback
//!   within seconds of the event, the bound).
//!
//! Both are bounded: past their size they start again empty.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use uuid::Uuid;

/// How long a "not revoked" (or "revoked") answer is reused.
pub const REVOCATION_TTL: Duration = Duration::from_secs(1);
/// Entries each memory keeps at most.
const CAPACITY: usize = 50_000;

#[derive(Debug, Default)]
pub struct MediaChecks {
    identities: Mutex<HashMap<String, (Uuid, i64)>>,
    revocations: Mutex<HashMap<String, (Instant, bool)>>,
}

impl MediaChecks {
    /// The user of an access token verified before, if it has not lapsed at `now` (unix s).
    pub fn identity(&self, token: &str, now: i64) -> Option<Uuid> {
        let map = self.identities.lock().ok()?;
        map.get(token).filter(|(_, until)| *until > now).map(|(user, _)| *user)
    }

    /// Remembers that `token` names `user` until `until` (unix s).
    pub fn remember_identity(&self, token: &str, user: Uuid, until: i64) {
        if let Ok(mut map) = self.identities.lock() {
            if map.len() >= CAPACITY {
                map.clear();
            }
            map.insert(token.to_owned(), (user, until));
        }
    }

    /// A revocation answer for `key` given less than [`REVOCATION_TTL`] ago.
    pub fn revocation(&self, key: &str) -> Option<bool> {
        let map = self.revocations.lock().ok()?;
        map.get(key).filter(|(at, _)| at.elapsed() < REVOCATION_TTL).map(|(_, revoked)| *revoked)
    }

    pub fn remember_revocation(&self, key: String, revoked: bool) {
        if let Ok(mut map) = self.revocations.lock() {
            if map.len() >= CAPACITY {
                map.retain(|_, (at, _)| at.elapsed() < REVOCATION_TTL);
                if map.len() >= CAPACITY {
                    map.clear();
                }
            }
            map.insert(key, (Instant::now(), revoked));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_identity_is_kept_until_it_lapses_and_a_revocation_answer_for_a_second() {
        let checks = MediaChecks::default();
        let user = Uuid::from_u128(1);
        checks.remember_identity("t", user, 100);
        assert_eq!(checks.identity("t", 99), Some(user));
        assert_eq!(checks.identity("t", 100), None, "lapsed");
        assert_eq!(checks.identity("other", 50), None);
        checks.remember_revocation("g".into(), false);
        assert_eq!(checks.revocation("g"), Some(false));
        std::thread::sleep(REVOCATION_TTL + Duration::from_millis(20));
        assert_eq!(checks.revocation("g"), None, "asked again after a second");
    }
}
