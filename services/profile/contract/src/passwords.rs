//! Password hashes: argon2id PHC strings, computed off the async threads.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use argon2::{Algorithm, Argon2, Params, PasswordHash, PasswordHasher, PasswordVerifier, Version};

/// argon2id cost. The defaults are OWASP's minimum recommendation for argon2id
/// (19 MiB, 2 passes, 1 lane).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Argon2Cost {
    pub memory_kib: u32,
    pub iterations: u32,
    pub parallelism: u32,
}

impl Default for Argon2Cost {
    fn default() -> Self {
        Argon2Cost { memory_kib: 19_456, iterations: 2, parallelism: 1 }
    }
}

impl std::fmt::Display for Argon2Cost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "argon2id m={} KiB, t={}, p={}", self.memory_kib, self.iterations, self.parallelism)
    }
}

/// Hashes and checks passwords at one argon2id cost.
#[derive(Clone, Debug)]
pub struct Passwords {
    cost: Argon2Cost,
    /// The decoy's PHC string at this cost, hashed once ([`Self::warm`] or the first unknown
    /// login), so an unknown login costs one verification, as a known one does.
    decoy: Arc<OnceLock<String>>,
    /// How many argon2 runs (hashes, verifications) this instance has made.
    runs: Arc<Runs>,
}

#[derive(Debug, Default)]
struct Runs {
    hashes: AtomicU64,
    verifications: AtomicU64,
}

/// A hash that any password is checked against when the account does not exist, so that a
/// wrong username costs as long as a wrong password.
const DECOY_PASSWORD: &str = "decoy0password";

impl Passwords {
    pub fn new(cost: Argon2Cost) -> Self {
        Passwords { cost, decoy: Arc::default(), runs: Arc::default() }
    }

    /// Hashes the decoy now (at start, off the request path) unless it is already.
    pub async fn warm(&self) -> anyhow::Result<()> {
        let this = self.clone();
        tokio::task::spawn_blocking(move || this.decoy().map(|_| ())).await?
    }

    fn decoy(&self) -> anyhow::Result<&str> {
        if let Some(decoy) = self.decoy.get() {
            return Ok(decoy);
        }
        let hash = self.hash_now(DECOY_PASSWORD)?;
        Ok(self.decoy.get_or_init(|| hash))
    }

    /// `(hashes, verifications)` run so far by this instance and its clones.
    pub fn argon2_runs(&self) -> (u64, u64) {
        (self.runs.hashes.load(Ordering::Relaxed), self.runs.verifications.load(Ordering::Relaxed))
    }

    pub fn cost(&self) -> Argon2Cost {
        self.cost
    }

    fn argon2(&self) -> anyhow::Result<Argon2<'static>> {
        let params = Params::new(self.cost.memory_kib, self.cost.iterations, self.cost.parallelism, None)
            .map_err(|e| anyhow::anyhow!("argon2 parameters: {e}"))?;
        Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
    }

    /// The PHC string of `password` with a fresh salt.
    pub fn hash_now(&self, password: &str) -> anyhow::Result<String> {
        self.runs.hashes.fetch_add(1, Ordering::Relaxed);
        let hash = self.argon2()?.hash_password(password.as_bytes()).map_err(|e| anyhow::anyhow!("argon2: {e}"))?;
        Ok(hash.to_string())
    }

    pub async fn hash(&self, password: &str) -> anyhow::Result<String> {
        let (this, password) = (self.clone(), password.to_owned());
        tokio::task::spawn_blocking(move || this.hash_now(&password)).await?
    }

    /// Whether `password` matches `phc` (the cost is read from the hash itself).
    pub fn verify_now(&self, password: &str, phc: &str) -> bool {
        let Ok(parsed) = PasswordHash::new(phc) else { return false };
        self.runs.verifications.fetch_add(1, Ordering::Relaxed);
        Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok()
    }

    /// [`Self::verify_now`] off the async threads; `None` checks against a decoy and fails.
    pub async fn verify(&self, password: &str, phc: Option<String>) -> anyhow::Result<bool> {
        let this = self.clone();
        let password = password.to_owned();
        tokio::task::spawn_blocking(move || match phc {
            Some(phc) => Ok(this.verify_now(&password, &phc)),
            None => {
                let _ = this.verify_now(&password, this.decoy()?);
                Ok(false)
            }
        })
        .await?
    }
}

/// Whether `phc` is an argon2id PHC string (what [`Passwords::hash`] makes), so a hash handed
/// over by another service can be stored as an account's password.
pub fn is_argon2id_hash(phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|h| h.algorithm.as_str() == "argon2id" && h.hash.is_some() && h.salt.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cheap() -> Passwords {
        Passwords::new(Argon2Cost { memory_kib: 64, iterations: 1, parallelism: 1 })
    }

    #[test]
    fn a_hash_is_argon2id_and_checks_only_its_password() {
        let p = cheap();
        let hash = p.hash_now("Demo12345").unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=64,t=1,p=1$"), "{hash}");
        assert!(p.verify_now("Demo12345", &hash));
        assert!(!p.verify_now("Demo12346", &hash));
        assert!(!p.verify_now("Demo12345", "not a hash"));
        assert_ne!(hash, p.hash_now("Demo12345").unwrap(), "salted");
        assert!(is_argon2id_hash(&hash));
        for not_one in
            ["", "Demo12345", "$argon2i$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo", "$argon2id$v=19$m=64,t=1,p=1"]
        {
            assert!(!is_argon2id_hash(not_one), "{not_one}");
        }
    }

    #[tokio::test]
    async fn an_unknown_login_costs_one_verification_like_a_known_one() {
        let p = cheap();
        let known = p.hash_now("Demo12345").unwrap();
        p.warm().await.unwrap();
        let before = p.argon2_runs();
        assert!(p.verify("Demo12345", Some(known)).await.unwrap());
        let after_known = p.argon2_runs();
        assert_eq!((after_known.0 - before.0, after_known.1 - before.1), (0, 1), "a known login");
        for _ in 0..3 {
            let start = p.argon2_runs();
            assert!(!p.verify("Demo12345", None).await.unwrap());
            let end = p.argon2_runs();
            assert_eq!((end.0 - start.0, end.1 - start.1), (0, 1), "an unknown login: no hash, one verification");
        }
    }

    #[tokio::test]
    async fn the_decoy_is_hashed_once_at_the_configured_cost() {
        let p = cheap();
        assert!(!p.verify("x", None).await.unwrap());
        assert!(!p.clone().verify("y", None).await.unwrap());
        p.warm().await.unwrap();
        assert_eq!(p.argon2_runs().0, 1, "one decoy hash for all clones");
        assert!(p.decoy.get().unwrap().starts_with("$argon2id$v=19$m=64,t=1,p=1$"));
    }
}
