//! Service tokens: a call on the system's behalf, signed with the deployment's service key.

use super::*;

/// Who issues service tokens: every paysite process, with the deployment's service key.
pub const SERVICE_ISSUER: &str = "paysite-service";
/// The key id of service tokens, so a receiver knows which key to check a token with.
pub const SERVICE_KID: &str = "paysite-service";
/// A service token's life.
pub const SERVICE_TOKEN_TTL: Duration = Duration::from_secs(60);
/// A cached service token is used while it has at least this long to live.
const SERVICE_TOKEN_MARGIN: i64 = 20;
/// `PAYSITE_SERVICE_KEY`: base64 of the 32-byte Ed25519 seed every paysite process of a
/// deployment shares; or `PAYSITE_SERVICE_KEY_FILE`, a file holding it (a mounted Secret).
pub const SERVICE_KEY_ENV: &str = "PAYSITE_SERVICE_KEY";
pub const SERVICE_KEY_FILE_ENV: &str = "PAYSITE_SERVICE_KEY_FILE";
/// `PAYSITE_SERVICE_KEY_NEXT`: during a rotation, the other key of the deployment (base64
/// of its seed, or `PAYSITE_SERVICE_KEY_NEXT_FILE`): tokens it signed are accepted too, but
/// nothing is signed with it. With it set on every process, first beside the old key and
/// then beside the new one, no call between two processes is refused while the pods restart
/// (docs/operations.md, "Rotating the service key").
pub const SERVICE_KEY_NEXT_ENV: &str = "PAYSITE_SERVICE_KEY_NEXT";
/// Where every internal route lives; only these pass the [`Gate`].
pub const INTERNAL_PREFIX: &str = "/internal/";

/// What a service token says: `sub` called `aud`, for a minute.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServiceClaims {
    pub iss: String,
    /// The calling process (`gateway`, `subscription`, `paysite` for `paysite up` and the command).
    pub sub: String,
    /// The service the token is for (`wallet`, ...): it is good there and nowhere else.
    pub aud: String,
    pub iat: i64,
    pub exp: i64,
    pub jti: Uuid,
}

/// The deployment's service key: signs and checks service tokens. It never prints.
#[derive(Clone)]
pub struct ServiceKey {
    seed: [u8; 32],
    signer: Signer,
    decoding: DecodingKey,
    /// The other key of a rotation ([`SERVICE_KEY_NEXT_ENV`]): its tokens are accepted.
    next: Option<DecodingKey>,
    /// Tokens whose signature and issuer this key has checked, with what they say. A service
    /// token is reused by its issuer for most of its minute, so a service receives the same
    /// few tokens again and again; an Ed25519 check each time was the largest single cost of
    /// an internal call. Keyed by the whole token (its signature included): only a string
    /// byte-for-byte equal to one that verified is answered from here, and its expiry and
    /// audience are still checked on every call.
    pub(super) verified: Arc<std::sync::Mutex<HashMap<String, ServiceClaims>>>,
}

/// Verified service tokens remembered at most; past it the expired ones go, and if that frees
/// nothing, all of them (a deployment sends a few tokens per caller and audience a minute).
pub(super) const VERIFIED_TOKENS_KEPT: usize = 1024;

/// The leeway on a service token's expiry, for clocks a little apart.
const SERVICE_TOKEN_LEEWAY: i64 = 5;

impl std::fmt::Debug for ServiceKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ServiceKey(****)")
    }
}

static DEPLOYMENT_KEY: std::sync::OnceLock<ServiceKey> = std::sync::OnceLock::new();

impl ServiceKey {
    pub fn from_seed(seed: [u8; 32]) -> Self {
        let signer = Signer::from_seed(SERVICE_KID, seed);
        let decoding = DecodingKey::from_ed_components(&URL_SAFE_NO_PAD.encode(signer.public))
            .expect("an Ed25519 public key decodes");
        ServiceKey { seed, signer, decoding, next: None, verified: Arc::default() }
    }

    /// This key, accepting the tokens `next` signs as well (a rotation's window).
    pub fn accepting(mut self, next: &ServiceKey) -> Self {
        self.next = Some(next.decoding.clone());
        self
    }

    /// The key as `PAYSITE_SERVICE_KEY` holds it, for a process this one starts.
    pub fn to_base64(&self) -> crate::Secret {
        use base64::engine::general_purpose::STANDARD;
        crate::Secret::new(STANDARD.encode(self.seed))
    }

    /// A fresh random key: good for this process only.
    pub fn generate() -> Self {
        Self::from_seed(rand::random())
    }

    /// The key from base64 of its 32-byte seed.
    pub fn from_base64(text: &str) -> anyhow::Result<Self> {
        use base64::engine::general_purpose::STANDARD;
        let bytes = STANDARD.decode(text.trim()).map_err(|_| anyhow::anyhow!("the service key is not base64"))?;
        let seed: [u8; 32] = bytes
            .try_into()
            .map_err(|b: Vec<u8>| anyhow::anyhow!("the service key's seed has 32 bytes, got {}", b.len()))?;
        Ok(Self::from_seed(seed))
    }

    /// The key `PAYSITE_SERVICE_KEY` (or the file `PAYSITE_SERVICE_KEY_FILE`) holds. Unset, a
    /// production process (`PAYSITE_ENV=production`) refuses to start; any other gets a random
    /// key of its own, which is enough for `paysite up` and the tests (one process) and lets
    /// nobody else in.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let set = |key: &str| lookup(key).filter(|v| !v.trim().is_empty());
        let text = match (set(SERVICE_KEY_ENV), set(SERVICE_KEY_FILE_ENV)) {
            (Some(text), _) => Some(text),
            (None, Some(path)) => Some(
                std::fs::read_to_string(path.trim())
                    .map_err(|e| anyhow::anyhow!("{SERVICE_KEY_FILE_ENV} {path:?} cannot be read: {e}"))?,
            ),
            (None, None) => None,
        };
        let next = match set(SERVICE_KEY_NEXT_ENV) {
            Some(text) => Some(Self::from_base64(&text).map_err(|e| anyhow::anyhow!("{SERVICE_KEY_NEXT_ENV}: {e}"))?),
            None => None,
        };
        match text {
            Some(text) => {
                let key = Self::from_base64(&text).map_err(|e| anyhow::anyhow!("{SERVICE_KEY_ENV}: {e}"))?;
                Ok(match next {
                    Some(next) => key.accepting(&next),
                    None => key,
                })
            }
            None if next.is_some() => {
                anyhow::bail!(
                    "{SERVICE_KEY_NEXT_ENV} is set without {SERVICE_KEY_ENV}: a rotation keeps the current key"
                )
            }
            None if set("PAYSITE_ENV").as_deref() == Some("production") => {
                anyhow::bail!("{SERVICE_KEY_ENV} (or {SERVICE_KEY_FILE_ENV}) must be set when PAYSITE_ENV=production")
            }
            None => {
                tracing::warn!("{SERVICE_KEY_ENV} is not set: service tokens are good inside this process only");
                Ok(Self::generate())
            }
        }
    }

    /// This process's key, read from the environment once ([`Self::from_lookup`]).
    ///
    /// # Panics
    /// When the environment holds no usable key; a process calls [`Self::init_from_env`] at
    /// start so that this happens there, with the reason, and not at its first call.
    pub fn deployment() -> &'static ServiceKey {
        DEPLOYMENT_KEY.get_or_init(|| Self::from_lookup(|k| std::env::var(k).ok()).unwrap_or_else(|e| panic!("{e:#}")))
    }

    /// Reads this process's key now; an error says what is wrong with the configuration.
    pub fn init_from_env() -> anyhow::Result<&'static ServiceKey> {
        if let Some(key) = DEPLOYMENT_KEY.get() {
            return Ok(key);
        }
        let key = Self::from_lookup(|k| std::env::var(k).ok())?;
        Ok(DEPLOYMENT_KEY.get_or_init(|| key))
    }

    pub fn sign(&self, claims: &ServiceClaims) -> String {
        self.signer.sign_any(claims)
    }

    /// A token from `caller` for `audience`, valid for `ttl`.
    pub fn issue(&self, caller: &str, audience: &str, ttl: Duration) -> (String, ServiceClaims) {
        let now = chrono::Utc::now().timestamp();
        let claims = ServiceClaims {
            iss: SERVICE_ISSUER.to_owned(),
            sub: caller.to_owned(),
            aud: audience.to_owned(),
            iat: now,
            exp: now + ttl.as_secs() as i64,
            jti: Uuid::now_v7(),
        };
        (self.sign(&claims), claims)
    }

    /// Checks signature, issuer, expiry and that the token is for `audience` (the receiving
    /// service's own name).
    pub fn verify(&self, token: &str, audience: &str) -> Result<ServiceClaims, AuthError> {
        self.verify_at(token, audience, chrono::Utc::now().timestamp())
    }

    /// [`Self::verify`] at `now` (Unix seconds). The signature is checked once per token
    /// ([`ServiceKey::verified`]); expiry and audience every time.
    pub(super) fn verify_at(&self, token: &str, audience: &str, now: i64) -> Result<ServiceClaims, AuthError> {
        let known = self.verified.lock().expect("verified tokens lock").get(token).cloned();
        let claims = match known {
            Some(claims) => claims,
            None => {
                let claims = self.check_signature(token)?;
                let mut verified = self.verified.lock().expect("verified tokens lock");
                if verified.len() >= VERIFIED_TOKENS_KEPT {
                    verified.retain(|_, c| c.exp + SERVICE_TOKEN_LEEWAY >= now);
                    if verified.len() >= VERIFIED_TOKENS_KEPT {
                        verified.clear();
                    }
                }
                verified.insert(token.to_owned(), claims.clone());
                claims
            }
        };
        if claims.exp + SERVICE_TOKEN_LEEWAY < now {
            return Err(AuthError::Expired);
        }
        if claims.aud != audience {
            return Err(AuthError::OtherService);
        }
        Ok(claims)
    }

    /// The signature, issuer and required claims of `token`; not its expiry or audience.
    fn check_signature(&self, token: &str) -> Result<ServiceClaims, AuthError> {
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.set_issuer(&[SERVICE_ISSUER]);
        validation.validate_aud = false;
        validation.validate_exp = false;
        validation.set_required_spec_claims(&["exp", "iss", "sub", "aud"]);
        let decode = |key: &DecodingKey| jsonwebtoken::decode::<ServiceClaims>(token, key, &validation);
        decode(&self.decoding)
            .or_else(|e| match &self.next {
                Some(next) => decode(next),
                None => Err(e),
            })
            .map(|data| data.claims)
            .map_err(|_| AuthError::Invalid)
    }
}

/// Issues this process's service tokens, one per audience, reused until shortly before expiry.
/// Cheap to clone.
#[derive(Clone)]
pub struct ServiceTokens {
    pub(super) inner: Arc<TokensInner>,
}

pub(super) struct TokensInner {
    key: ServiceKey,
    caller: String,
    pub(super) cache: std::sync::Mutex<HashMap<String, (String, i64)>>,
}

impl std::fmt::Debug for ServiceTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceTokens").field("caller", &self.inner.caller).finish_non_exhaustive()
    }
}

static PROCESS_NAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();
static PROCESS_TOKENS: std::sync::OnceLock<ServiceTokens> = std::sync::OnceLock::new();

impl ServiceTokens {
    pub fn new(key: ServiceKey, caller: impl Into<String>) -> Self {
        ServiceTokens {
            inner: Arc::new(TokensInner { key, caller: caller.into(), cache: std::sync::Mutex::default() }),
        }
    }

    /// Names this process in the tokens it sends (`paysite serve wallet`: `wallet`); call once,
    /// at start, before any call. Unnamed, a process is `paysite`.
    pub fn set_process_name(name: &str) {
        let _ = PROCESS_NAME.set(name.to_owned());
    }

    /// This process's issuer, with the deployment's key ([`ServiceKey::deployment`]).
    pub fn process() -> &'static ServiceTokens {
        PROCESS_TOKENS.get_or_init(|| {
            let name = PROCESS_NAME.get().map_or("paysite", String::as_str);
            ServiceTokens::new(ServiceKey::deployment().clone(), name)
        })
    }

    /// A token for `audience` (a service name), valid for at least 20 more seconds.
    pub fn token(&self, audience: &str) -> String {
        let now = chrono::Utc::now().timestamp();
        let mut cache = self.inner.cache.lock().expect("token cache lock");
        if let Some((token, exp)) = cache.get(audience) {
            if exp - now >= SERVICE_TOKEN_MARGIN {
                return token.clone();
            }
        }
        let (token, claims) = self.inner.key.issue(&self.inner.caller, audience, SERVICE_TOKEN_TTL);
        cache.insert(audience.to_owned(), (token.clone(), claims.exp));
        token
    }
}
