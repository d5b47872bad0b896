//! Access tokens: the profile service signs them, every other process checks them.
//!
//! An access token is a short-lived EdDSA (Ed25519) JWT. The profile service holds the
//! private key ([`Signer`]) and publishes the public key as a JWK set; the gateway and the
//! services check tokens with a [`Verifier`], either built from that set
//! ([`Verifier::from_jwks_url`], refreshed when an unknown key id appears) or handed the
//! key directly (tests, one-process `paysite up`).
//!
//! Inside the cluster the gateway forwards the browser's token as
//! `Authorization: Bearer <token>`, so a service that acts for a user checks who the user
//! is itself ([`Authenticated`], [`MaybeAuthenticated`]) instead of trusting a header.
//!
//! A call on the system's behalf (a service asking another, a consumer, a scheduler, the
//! gateway for an anonymous visitor, the `paysite` command) carries a service token instead:
//! a one-minute EdDSA JWT whose audience is the service called, signed with the deployment's
//! service key ([`ServiceKey`], [`ServiceTokens`]). Each service puts a [`Gate`] in front of
//! its `/internal/...` routes with its trust table (a [`Route`] list saying who may call
//! what, [`Access`]): no token 401, a token for another service 401, a caller the route is
//! not for 403 (another user's wallet, a user on a service-only route).

use std::{
    collections::HashMap,
    sync::{Arc, RwLock},
    time::{Duration, Instant},
};

use axum::{
    extract::{FromRef, FromRequestParts},
    http::{header::AUTHORIZATION, request::Parts, Method, StatusCode},
    response::{IntoResponse, Response},
    Json,
};
use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use ed25519_dalek::SigningKey;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// Who issues access tokens.
pub const ISSUER: &str = "paysite-profile";
/// The group that may do everything an operator may.
pub const ADMIN_GROUP: &str = "admin";
/// The brand a request is made on, set by the gateway from the Host header.
pub const TENANT_HEADER: &str = "x-paysite-tenant";

/// What an access token says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    pub iss: String,
    /// The user's id.
    pub sub: Uuid,
    /// The brand host the token was issued for, lower-case and without port (`vixen.localhost`).
    pub aud: String,
    /// The brand key of that host (`vixen`), or `members`.
    pub tenant: String,
    /// The session (refresh-token family) the token belongs to.
    pub sid: Uuid,
    /// The user's groups at issue time (`admin`, `commenteditor`, ...).
    #[serde(default)]
    pub groups: Vec<String>,
    /// The user's permanent username, when chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    pub iat: i64,
    pub exp: i64,
    pub jti: Uuid,
}

impl Claims {
    /// Claims for `user` on `aud`/`tenant`, valid for `ttl` from now.
    pub fn new(user: Uuid, aud: &str, tenant: &str, sid: Uuid, groups: Vec<String>, ttl: Duration) -> Self {
        let now = chrono::Utc::now().timestamp();
        Claims {
            iss: ISSUER.to_owned(),
            sub: user,
            aud: aud.to_owned(),
            tenant: tenant.to_owned(),
            sid,
            groups,
            username: None,
            iat: now,
            exp: now + ttl.as_secs() as i64,
            jti: Uuid::now_v7(),
        }
    }

    pub fn in_group(&self, group: &str) -> bool {
        self.groups.iter().any(|g| g == group)
    }

    pub fn is_admin(&self) -> bool {
        self.in_group(ADMIN_GROUP)
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AuthError {
    #[error("no access token")]
    Missing,
    #[error("the access token has expired")]
    Expired,
    #[error("the access token is not valid")]
    Invalid,
    #[error("the access token was issued for another host")]
    WrongAudience,
    #[error("the access token was issued for another brand")]
    WrongTenant,
    #[error("the signing keys cannot be fetched")]
    KeysUnavailable,
    #[error("the service token was issued for another service")]
    OtherService,
}

impl AuthError {
    pub fn code(&self) -> &'static str {
        match self {
            AuthError::KeysUnavailable => "AUTH_UNAVAILABLE",
            _ => "UNAUTHENTICATED",
        }
    }
}

impl IntoResponse for AuthError {
    fn into_response(self) -> Response {
        let status = match self {
            AuthError::KeysUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::UNAUTHORIZED,
        };
        (status, Json(serde_json::json!({ "code": self.code(), "message": self.to_string() }))).into_response()
    }
}

/// The private half: signs access tokens and publishes the public half.
#[derive(Clone)]
pub struct Signer {
    kid: String,
    encoding: EncodingKey,
    public: [u8; 32],
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Signer").field("kid", &self.kid).finish_non_exhaustive()
    }
}

/// The PKCS#8 v1 prefix of an Ed25519 private key; the 32-byte seed follows it.
const PKCS8_ED25519_PREFIX: [u8; 16] =
    [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];

impl Signer {
    /// A signer for the Ed25519 key with this 32-byte seed.
    pub fn from_seed(kid: impl Into<String>, seed: [u8; 32]) -> Self {
        let public = SigningKey::from_bytes(&seed).verifying_key().to_bytes();
        let mut der = PKCS8_ED25519_PREFIX.to_vec();
        der.extend_from_slice(&seed);
        Signer { kid: kid.into(), encoding: EncodingKey::from_ed_der(&der), public }
    }

    /// A signer with a fresh random key.
    pub fn generate(kid: impl Into<String>) -> Self {
        Self::from_seed(kid, rand::random())
    }

    pub fn kid(&self) -> &str {
        &self.kid
    }

    pub fn sign(&self, claims: &Claims) -> String {
        self.sign_any(claims)
    }

    fn sign_any<T: Serialize>(&self, claims: &T) -> String {
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&header, claims, &self.encoding).expect("an Ed25519 key always signs")
    }

    /// The public key as a JWK.
    pub fn jwk(&self) -> Jwk {
        Jwk {
            kty: "OKP".into(),
            crv: "Ed25519".into(),
            alg: "EdDSA".into(),
            r#use: "sig".into(),
            kid: self.kid.clone(),
            x: URL_SAFE_NO_PAD.encode(self.public),
        }
    }

    /// A verifier that trusts this signer's key only.
    pub fn verifier(&self) -> Verifier {
        Verifier::from_jwks(&JwkSet { keys: vec![self.jwk()] }).expect("own key is valid")
    }
}

/// One public key, as published.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Jwk {
    pub kty: String,
    pub crv: String,
    pub alg: String,
    #[serde(rename = "use")]
    pub r#use: String,
    pub kid: String,
    pub x: String,
}

/// The document at the profile service's `/.well-known/jwks.json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JwkSet {
    pub keys: Vec<Jwk>,
}

/// Checks access tokens. Cheap to clone.
#[derive(Clone)]
pub struct Verifier {
    inner: Arc<VerifierInner>,
}

struct VerifierInner {
    keys: RwLock<HashMap<String, DecodingKey>>,
    source: Option<String>,
    http: Option<reqwest::Client>,
    last_fetch: tokio::sync::Mutex<Option<Instant>>,
}

/// Unknown key ids trigger at most one fetch of the key set in this interval.
const REFETCH_INTERVAL: Duration = Duration::from_secs(10);

impl Verifier {
    pub fn from_jwks(set: &JwkSet) -> Result<Self, AuthError> {
        Ok(Verifier {
            inner: Arc::new(VerifierInner {
                keys: RwLock::new(decode_set(set)?),
                source: None,
                http: None,
                last_fetch: tokio::sync::Mutex::new(None),
            }),
        })
    }

    /// A verifier that fetches the key set from `url` when it meets a key id it does not know.
    pub fn from_jwks_url(url: impl Into<String>) -> Self {
        let builder = crate::tls::client_builder().timeout(Duration::from_secs(5));
        let http = crate::tls::http_client(builder, crate::tls::settings())
            .and_then(|b| Ok(b.build()?))
            .expect("http client (PAYSITE_TLS_CA_FILE)");
        Verifier {
            inner: Arc::new(VerifierInner {
                keys: RwLock::new(HashMap::new()),
                source: Some(url.into()),
                http: Some(http),
                last_fetch: tokio::sync::Mutex::new(None),
            }),
        }
    }

    /// Checks signature, issuer and expiry; the audience is the caller's business
    /// ([`Self::verify_for`]).
    pub async fn verify(&self, token: &str) -> Result<Claims, AuthError> {
        self.verify_with_leeway(token, 5).await
    }

    /// As [`Self::verify`], taking a token up to `leeway` seconds past its expiry. Only for
    /// identifying the session of a long-running read (a video's range requests outlive the
    /// short access token; the session's revocation still ends them).
    pub async fn verify_with_leeway(&self, token: &str, leeway: u64) -> Result<Claims, AuthError> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| AuthError::Invalid)?;
        if header.alg != Algorithm::EdDSA {
            return Err(AuthError::Invalid);
        }
        let kid = header.kid.ok_or(AuthError::Invalid)?;
        let key = match self.key(&kid) {
            Some(key) => key,
            None => {
                self.refresh().await?;
                self.key(&kid).ok_or(AuthError::Invalid)?
            }
        };
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.set_issuer(&[ISSUER]);
        validation.validate_aud = false;
        validation.leeway = leeway;
        validation.set_required_spec_claims(&["exp", "iss", "sub"]);
        match jsonwebtoken::decode::<Claims>(token, &key, &validation) {
            Ok(data) => Ok(data.claims),
            Err(e) if matches!(e.kind(), jsonwebtoken::errors::ErrorKind::ExpiredSignature) => Err(AuthError::Expired),
            Err(_) => Err(AuthError::Invalid),
        }
    }

    /// Checks the token and that it was issued for `audience` (a brand host).
    pub async fn verify_for(&self, token: &str, audience: &str) -> Result<Claims, AuthError> {
        let claims = self.verify(token).await?;
        if claims.aud != audience {
            return Err(AuthError::WrongAudience);
        }
        Ok(claims)
    }

    fn key(&self, kid: &str) -> Option<DecodingKey> {
        self.inner.keys.read().expect("keys lock").get(kid).cloned()
    }

    async fn refresh(&self) -> Result<(), AuthError> {
        let (Some(url), Some(http)) = (&self.inner.source, &self.inner.http) else {
            return Ok(());
        };
        let mut last = self.inner.last_fetch.lock().await;
        if last.is_some_and(|t| t.elapsed() < REFETCH_INTERVAL) {
            return Ok(());
        }
        *last = Some(Instant::now());
        let set: JwkSet = async { http.get(url).send().await?.error_for_status()?.json().await }.await.map_err(
            |e: reqwest::Error| {
                tracing::warn!(error = %e, url, "cannot fetch the signing keys");
                AuthError::KeysUnavailable
            },
        )?;
        *self.inner.keys.write().expect("keys lock") = decode_set(&set)?;
        Ok(())
    }
}

fn decode_set(set: &JwkSet) -> Result<HashMap<String, DecodingKey>, AuthError> {
    set.keys
        .iter()
        .filter(|k| k.kty == "OKP" && k.crv == "Ed25519")
        .map(|k| Ok((k.kid.clone(), DecodingKey::from_ed_components(&k.x).map_err(|_| AuthError::Invalid)?)))
        .collect()
}

/// The bearer token of a request, if any.
pub fn bearer(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(AUTHORIZATION)?.to_str().ok()?;
    value.strip_prefix("Bearer ").map(str::trim).filter(|t| !t.is_empty())
}

/// A request made for a signed-in user (401 `UNAUTHENTICATED` otherwise). When the gateway
/// names a tenant ([`TENANT_HEADER`]), the token must have been issued for that brand. An id
/// token (audience `id_token:<host>`) is never taken for an access token, with or without it.
#[derive(Clone, Debug)]
pub struct Authenticated(pub Claims);

/// The audience prefix of the profile service's id tokens (`id_token:<host>`).
const ID_TOKEN_AUDIENCE_PREFIX: &str = "id_token:";

impl<S> FromRequestParts<S> for Authenticated
where
    Verifier: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = AuthError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        // Behind the internal gate ([`Gate`]) the caller is already verified.
        match parts.extensions.get::<Caller>() {
            Some(Caller::User(claims)) => return Ok(Authenticated(claims.clone())),
            Some(Caller::Service(_)) => return Err(AuthError::Missing),
            None => {}
        }
        let token = bearer(parts).ok_or(AuthError::Missing)?;
        let claims = Verifier::from_ref(state).verify(token).await?;
        check_user_token(&claims, parts)?;
        Ok(Authenticated(claims))
    }
}

/// What a user's access token must be besides well signed: no id token, and issued for the
/// brand the gateway names, if it names one.
fn check_user_token(claims: &Claims, parts: &Parts) -> Result<(), AuthError> {
    if claims.aud.starts_with(ID_TOKEN_AUDIENCE_PREFIX) {
        return Err(AuthError::WrongAudience);
    }
    if let Some(tenant) = parts.headers.get(TENANT_HEADER).and_then(|v| v.to_str().ok()) {
        if tenant != claims.tenant {
            return Err(AuthError::WrongTenant);
        }
    }
    Ok(())
}

/// A request that may come from anyone; a token that is present must be valid.
#[derive(Clone, Debug)]
pub struct MaybeAuthenticated(pub Option<Claims>);

impl<S> FromRequestParts<S> for MaybeAuthenticated
where
    Verifier: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = AuthError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        // A service calling for an anonymous visitor (the gateway) is nobody in particular.
        if bearer(parts).is_none() || matches!(parts.extensions.get::<Caller>(), Some(Caller::Service(_))) {
            return Ok(MaybeAuthenticated(None));
        }
        Authenticated::from_request_parts(parts, state).await.map(|a| MaybeAuthenticated(Some(a.0)))
    }
}

/// A request made by an operator: a valid token of a user in the `admin` group
/// (403 `FORBIDDEN` for anyone else).
#[derive(Clone, Debug)]
pub struct Admin(pub Claims);

impl<S> FromRequestParts<S> for Admin
where
    Verifier: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let Authenticated(claims) =
            Authenticated::from_request_parts(parts, state).await.map_err(|e| e.into_response())?;
        if !claims.is_admin() {
            let body = serde_json::json!({ "code": "FORBIDDEN", "message": "only an admin may do this" });
            return Err((StatusCode::FORBIDDEN, Json(body)).into_response());
        }
        Ok(Admin(claims))
    }
}

// --- Service tokens: the system's own calls -------------------------------------------------

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
}

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
        ServiceKey { seed, signer, decoding }
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
        match text {
            Some(text) => Self::from_base64(&text).map_err(|e| anyhow::anyhow!("{SERVICE_KEY_ENV}: {e}")),
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
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.set_issuer(&[SERVICE_ISSUER]);
        validation.validate_aud = false;
        validation.leeway = 5;
        validation.set_required_spec_claims(&["exp", "iss", "sub", "aud"]);
        let claims = match jsonwebtoken::decode::<ServiceClaims>(token, &self.decoding, &validation) {
            Ok(data) => data.claims,
            Err(e) if matches!(e.kind(), jsonwebtoken::errors::ErrorKind::ExpiredSignature) => {
                return Err(AuthError::Expired)
            }
            Err(_) => return Err(AuthError::Invalid),
        };
        if claims.aud != audience {
            return Err(AuthError::OtherService);
        }
        Ok(claims)
    }
}

/// Issues this process's service tokens, one per audience, reused until shortly before expiry.
/// Cheap to clone.
#[derive(Clone)]
pub struct ServiceTokens {
    inner: Arc<TokensInner>,
}

struct TokensInner {
    key: ServiceKey,
    caller: String,
    cache: std::sync::Mutex<HashMap<String, (String, i64)>>,
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

// --- Who called: the internal gate ----------------------------------------------------------

/// The verified caller of an internal route: a user (their access token, forwarded by the
/// gateway) or a paysite process (a service token for this service). The [`Gate`] puts it in
/// the request's extensions; handlers take it as an extractor.
#[derive(Clone, Debug)]
pub enum Caller {
    User(Claims),
    Service(ServiceClaims),
}

/// The message of the gate's 403: a verified caller this route is not for.
pub const CALLER_FORBIDDEN: &str = "this route is not for this caller";

/// A verified caller this route is not for (403 `FORBIDDEN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forbidden;

impl IntoResponse for Forbidden {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "code": "FORBIDDEN", "message": CALLER_FORBIDDEN });
        (StatusCode::FORBIDDEN, Json(body)).into_response()
    }
}

impl Caller {
    /// The user, when a user called.
    pub fn user(&self) -> Option<&Claims> {
        match self {
            Caller::User(claims) => Some(claims),
            Caller::Service(_) => None,
        }
    }

    /// May this caller act for `user`? A service may (it names the user); a user only for
    /// themself.
    pub fn may_act_for(&self, user: Uuid) -> Result<(), Forbidden> {
        match self {
            Caller::Service(_) => Ok(()),
            Caller::User(claims) if claims.sub == user => Ok(()),
            Caller::User(_) => Err(Forbidden),
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = AuthError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts.extensions.get::<Caller>().cloned().ok_or(AuthError::Missing)
    }
}

/// A call made by a paysite process (a service token for this service); a user gets 403.
#[derive(Clone, Debug)]
pub struct ServiceCaller(pub ServiceClaims);

impl<S: Send + Sync> FromRequestParts<S> for ServiceCaller {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        match parts.extensions.get::<Caller>() {
            Some(Caller::Service(claims)) => Ok(ServiceCaller(claims.clone())),
            Some(Caller::User(_)) => Err(Forbidden.into_response()),
            None => Err(AuthError::Missing.into_response()),
        }
    }
}

/// Who may call an internal route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// A signed-in user, for themself (the user comes from the token). A service token is no
    /// user: 401, as if the gateway had called for a visitor.
    User,
    /// The user the path parameter names (their own token), or a service.
    OwnUser(&'static str),
    /// Any verified caller: a user, or a service (the gateway for an anonymous visitor).
    Any,
    /// A service only.
    Service,
    /// A service, or a user of the `admin` group.
    ServiceOrAdmin,
}

/// One internal route and who may call it: a service's trust table is a list of these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub method: Method,
    /// The route as the router has it (`/internal/wallets/{user_id}/debits`).
    pub path: &'static str,
    pub access: Access,
}

impl Route {
    pub const fn get(path: &'static str, access: Access) -> Route {
        Route { method: Method::GET, path, access }
    }
    pub const fn post(path: &'static str, access: Access) -> Route {
        Route { method: Method::POST, path, access }
    }
    pub const fn put(path: &'static str, access: Access) -> Route {
        Route { method: Method::PUT, path, access }
    }
    pub const fn delete(path: &'static str, access: Access) -> Route {
        Route { method: Method::DELETE, path, access }
    }
}

/// Stands in front of a service's internal routes: every `/internal/...` request needs a
/// verified caller the service's trust table admits (401 without one, and for a service on a
/// user's route; 403 for a caller the route is not for); a route missing from the table
/// answers 500 to everyone. Other routes
/// (health, JWKS, login pages, postbacks, media) pass untouched.
#[derive(Clone)]
pub struct Gate {
    audience: &'static str,
    verifier: Verifier,
    key: ServiceKey,
    routes: &'static [Route],
}

impl Gate {
    /// The gate of the service `audience` (its own name), checking users' tokens with
    /// `verifier` and service tokens with the deployment's key.
    pub fn new(audience: &'static str, verifier: Verifier, routes: &'static [Route]) -> Self {
        Gate { audience, verifier, key: ServiceKey::deployment().clone(), routes }
    }

    pub fn with_key(mut self, key: ServiceKey) -> Self {
        self.key = key;
        self
    }

    /// `router` with the gate in front of each of its routes. Call it last: routes added
    /// afterwards would not be guarded.
    pub fn guard<S: Clone + Send + Sync + 'static>(self, router: axum::Router<S>) -> axum::Router<S> {
        router.route_layer(axum::middleware::from_fn_with_state(self, guard_internal))
    }

    /// The route of this request in the trust table.
    pub fn route(&self, method: &Method, matched: &str) -> Option<&'static Route> {
        let method = if method == Method::HEAD { &Method::GET } else { method };
        self.routes.iter().find(|r| r.method == method && r.path == matched)
    }

    /// Who made this request: a user's access token or a service token for this service.
    pub async fn caller(&self, parts: &Parts) -> Result<Caller, AuthError> {
        let token = bearer(parts).ok_or(AuthError::Missing)?;
        let header = jsonwebtoken::decode_header(token).map_err(|_| AuthError::Invalid)?;
        if header.kid.as_deref() == Some(SERVICE_KID) {
            return self.key.verify(token, self.audience).map(Caller::Service);
        }
        let claims = self.verifier.verify(token).await?;
        check_user_token(&claims, parts)?;
        Ok(Caller::User(claims))
    }

    /// Admits the request, or answers why not.
    pub async fn admit(&self, parts: &mut Parts) -> Result<Caller, Response> {
        let matched = parts.extensions.get::<axum::extract::MatchedPath>().map(|m| m.as_str().to_owned());
        let Some(route) = matched.as_deref().and_then(|m| self.route(&parts.method, m)) else {
            tracing::error!(service = self.audience, method = %parts.method, path = ?matched, "an internal route is missing from the trust table");
            let body =
                serde_json::json!({ "code": "INTERNAL", "message": "this route is missing from the trust table" });
            return Err((StatusCode::INTERNAL_SERVER_ERROR, Json(body)).into_response());
        };
        let caller = self.caller(parts).await.map_err(IntoResponse::into_response)?;
        let allowed = match (route.access, &caller) {
            (Access::Any, _) => Ok(()),
            (Access::User, Caller::User(_)) => Ok(()),
            // A user's route called with no user (the gateway for a visitor): not signed in.
            (Access::User, Caller::Service(_)) => return Err(AuthError::Missing.into_response()),
            (Access::Service, Caller::Service(_)) => Ok(()),
            (Access::ServiceOrAdmin, Caller::Service(_)) => Ok(()),
            (Access::ServiceOrAdmin, Caller::User(claims)) if claims.is_admin() => Ok(()),
            (Access::OwnUser(param), _) => {
                let params = axum::extract::RawPathParams::from_request_parts(parts, &())
                    .await
                    .map_err(IntoResponse::into_response)?;
                let named = params.iter().find(|(name, _)| *name == param).map(|(_, value)| value.to_owned());
                match named.and_then(|v| Uuid::parse_str(&v).ok()) {
                    Some(user) => caller.may_act_for(user),
                    // A malformed id: no user, so only a service may go on to hear it is malformed.
                    None if matches!(caller, Caller::Service(_)) => Ok(()),
                    None => Err(Forbidden),
                }
            }
            _ => Err(Forbidden),
        };
        allowed.map_err(IntoResponse::into_response)?;
        Ok(caller)
    }
}

async fn guard_internal(
    axum::extract::State(gate): axum::extract::State<Gate>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if !request.uri().path().starts_with(INTERNAL_PREFIX) {
        return next.run(request).await;
    }
    let (mut parts, body) = request.into_parts();
    match gate.admit(&mut parts).await {
        Ok(caller) => {
            parts.extensions.insert(caller);
            next.run(axum::extract::Request::from_parts(parts, body)).await
        }
        Err(refusal) => refusal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(ttl: Duration) -> Claims {
        Claims::new(Uuid::now_v7(), "vixen.localhost:8080", "vixen", Uuid::now_v7(), vec!["admin".into()], ttl)
    }

    #[tokio::test]
    async fn a_signed_token_verifies_and_round_trips_its_claims() {
        let signer = Signer::generate("k1");
        let c = claims(Duration::from_secs(300));
        let got = signer.verifier().verify(&signer.sign(&c)).await.unwrap();
        assert_eq!(got, c);
        assert!(got.is_admin());
    }

    #[tokio::test]
    async fn expired_tampered_foreign_and_misaddressed_tokens_are_refused() {
        let signer = Signer::generate("k1");
        let verifier = signer.verifier();
        let mut old = claims(Duration::from_secs(300));
        old.exp = chrono::Utc::now().timestamp() - 60;
        assert_eq!(verifier.verify(&signer.sign(&old)).await, Err(AuthError::Expired));

        let token = signer.sign(&claims(Duration::from_secs(300)));
        let (head, rest) = token.split_once('.').unwrap();
        let (payload, sig) = rest.split_once('.').unwrap();
        let mut forged: Claims = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
        forged.groups.push("commenteditor".into());
        let forged = format!("{head}.{}.{sig}", URL_SAFE_NO_PAD.encode(serde_json::to_vec(&forged).unwrap()));
        assert_eq!(verifier.verify(&forged).await, Err(AuthError::Invalid));

        let other = Signer::generate("k1");
        assert_eq!(verifier.verify(&other.sign(&claims(Duration::from_secs(60)))).await, Err(AuthError::Invalid));
        assert_eq!(verifier.verify("not.a.token").await, Err(AuthError::Invalid));
        assert_eq!(verifier.verify_for(&token, "blacked.localhost:8080").await, Err(AuthError::WrongAudience));
        assert!(verifier.verify_for(&token, "vixen.localhost:8080").await.is_ok());
    }

    #[tokio::test]
    async fn an_id_token_is_no_bearer_token_with_or_without_a_tenant() {
        let signer = Signer::generate("k1");
        let verifier = signer.verifier();
        let extract = |token: String, tenant: Option<&'static str>| {
            let verifier = verifier.clone();
            async move {
                let mut request = axum::http::Request::builder().header(AUTHORIZATION, format!("Bearer {token}"));
                if let Some(tenant) = tenant {
                    request = request.header(TENANT_HEADER, tenant);
                }
                let (mut parts, ()) = request.body(()).unwrap().into_parts();
                Authenticated::from_request_parts(&mut parts, &verifier).await.map(|a| a.0)
            }
        };
        let access = claims(Duration::from_secs(300));
        assert_eq!(extract(signer.sign(&access), None).await.unwrap(), access);
        assert_eq!(extract(signer.sign(&access), Some("vixen")).await.unwrap(), access);
        let id = Claims::new(
            Uuid::now_v7(),
            "id_token:vixen.localhost",
            "id_token",
            Uuid::now_v7(),
            vec![],
            Duration::from_secs(300),
        );
        assert_eq!(extract(signer.sign(&id), None).await.unwrap_err(), AuthError::WrongAudience);
        assert_eq!(extract(signer.sign(&id), Some("id_token")).await.unwrap_err(), AuthError::WrongAudience);
        let maybe = {
            let (mut parts, ()) = axum::http::Request::builder()
                .header(AUTHORIZATION, format!("Bearer {}", signer.sign(&id)))
                .body(())
                .unwrap()
                .into_parts();
            MaybeAuthenticated::from_request_parts(&mut parts, &verifier).await.map(|m| m.0)
        };
        assert_eq!(maybe.unwrap_err(), AuthError::WrongAudience);
    }

    #[test]
    fn the_same_seed_gives_the_same_public_key() {
        let a = Signer::from_seed("k", [7; 32]);
        let b = Signer::from_seed("k", [7; 32]);
        assert_eq!(a.jwk(), b.jwk());
        assert_ne!(a.jwk(), Signer::from_seed("k", [8; 32]).jwk());
    }
    #[tokio::test]
    async fn a_service_token_is_good_for_its_audience_only_and_not_for_long() {
        let key = ServiceKey::from_seed([3; 32]);
        let (token, issued) = key.issue("subscription", "profile", SERVICE_TOKEN_TTL);
        assert_eq!(key.verify(&token, "profile").unwrap(), issued);
        assert_eq!((issued.sub.as_str(), issued.iss.as_str()), ("subscription", SERVICE_ISSUER));
        assert_eq!(issued.exp - issued.iat, 60);
        assert_eq!(key.verify(&token, "wallet"), Err(AuthError::OtherService));
        assert_eq!(ServiceKey::from_seed([4; 32]).verify(&token, "profile"), Err(AuthError::Invalid));
        let (_, mut stale) = key.issue("subscription", "profile", SERVICE_TOKEN_TTL);
        stale.exp = chrono::Utc::now().timestamp() - 60;
        assert_eq!(key.verify(&key.sign(&stale), "profile"), Err(AuthError::Expired));
        // A user's access token is no service token, even signed with the same seed.
        let user = Signer::from_seed("k1", [3; 32]).sign(&claims(Duration::from_secs(60)));
        assert_eq!(key.verify(&user, "profile"), Err(AuthError::Invalid));
    }

    #[test]
    fn the_issuer_reuses_a_token_per_audience_until_near_its_expiry() {
        let tokens = ServiceTokens::new(ServiceKey::from_seed([5; 32]), "gateway");
        let a = tokens.token("wallet");
        assert_eq!(tokens.token("wallet"), a);
        assert_ne!(tokens.token("catalog"), a);
        // A cached token about to expire is replaced.
        tokens.inner.cache.lock().unwrap().get_mut("wallet").unwrap().1 = chrono::Utc::now().timestamp() + 5;
        assert_ne!(tokens.token("wallet"), a);
    }

    #[test]
    fn the_service_key_comes_from_configuration_and_never_prints() {
        use base64::engine::general_purpose::STANDARD;
        let seed = STANDARD.encode([9u8; 32]);
        let key = ServiceKey::from_lookup(|k| (k == SERVICE_KEY_ENV).then(|| seed.clone())).unwrap();
        assert_eq!(format!("{key:?}"), "ServiceKey(****)");
        assert_eq!(key.to_base64().expose(), seed);
        let (token, _) = key.issue("a", "b", SERVICE_TOKEN_TTL);
        assert!(ServiceKey::from_seed([9; 32]).verify(&token, "b").is_ok());
        let file = std::env::temp_dir().join(format!("service-key-{}", Uuid::now_v7()));
        std::fs::write(&file, format!("{seed}\n")).unwrap();
        let path = file.to_string_lossy().into_owned();
        let from_file = ServiceKey::from_lookup(|k| (k == SERVICE_KEY_FILE_ENV).then(|| path.clone())).unwrap();
        assert!(from_file.verify(&token, "b").is_ok());
        std::fs::remove_file(file).unwrap();
        let short = ServiceKey::from_lookup(|k| (k == SERVICE_KEY_ENV).then(|| "AAAA".into())).unwrap_err();
        assert!(format!("{short:#}").contains("32 bytes"), "{short:#}");
        let production = ServiceKey::from_lookup(|k| (k == "PAYSITE_ENV").then(|| "production".into())).unwrap_err();
        assert!(production.to_string().contains(SERVICE_KEY_ENV), "{production}");
        // Development without a key: one of the process's own, which nobody else holds.
        let own = ServiceKey::from_lookup(|_| None).unwrap();
        assert_eq!(own.verify(&token, "b"), Err(AuthError::Invalid));
    }

    const TABLE: &[Route] = &[
        Route::get("/internal/mine", Access::User),
        Route::post("/internal/wallets/{user_id}/debits", Access::OwnUser("user_id")),
        Route::get("/internal/open", Access::Any),
        Route::post("/internal/system", Access::Service),
        Route::get("/internal/emails", Access::ServiceOrAdmin),
    ];

    async fn who(caller: Caller) -> String {
        match caller {
            Caller::User(c) => c.sub.to_string(),
            Caller::Service(c) => c.sub,
        }
    }

    fn gated(signer: &Signer, key: &ServiceKey) -> axum::Router {
        use axum::routing::{get, post};
        let router = axum::Router::new()
            .route("/internal/mine", get(who))
            .route("/internal/wallets/{user_id}/debits", post(who))
            .route("/internal/open", get(|m: MaybeAuthenticated| async move { format!("{:?}", m.0.map(|c| c.sub)) }))
            .route("/internal/system", post(|ServiceCaller(c): ServiceCaller| async move { c.sub }))
            .route("/internal/emails", get(who))
            .route("/internal/unlisted", get(|| async { "leaked" }))
            .route("/healthz", get(|| async { "ok" }))
            .with_state(signer.verifier());
        Gate::new("wallet", signer.verifier(), TABLE).with_key(key.clone()).guard(router)
    }

    async fn call(app: &axum::Router, method: Method, path: &str, token: Option<&str>) -> (StatusCode, String) {
        use tower::ServiceExt;
        let mut request = axum::http::Request::builder().method(method).uri(path);
        if let Some(token) = token {
            request = request.header(AUTHORIZATION, format!("Bearer {token}"));
        }
        let response = app.clone().oneshot(request.body(axum::body::Body::empty()).unwrap()).await.unwrap();
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    #[tokio::test]
    async fn the_gate_admits_the_callers_its_table_names_and_no_one_else() {
        let signer = Signer::generate("k1");
        let key = ServiceKey::generate();
        let app = gated(&signer, &key);
        let user = claims(Duration::from_secs(300));
        let mut admin_claims = claims(Duration::from_secs(300));
        admin_claims.groups = vec![ADMIN_GROUP.into()];
        let mut plain = claims(Duration::from_secs(300));
        plain.groups.clear();
        let (me, admin, plain_user) = (signer.sign(&user), signer.sign(&admin_claims), signer.sign(&plain));
        let service = ServiceTokens::new(key.clone(), "unlocks").token("wallet");
        let elsewhere = ServiceTokens::new(key.clone(), "unlocks").token("catalog");
        let forged = ServiceTokens::new(ServiceKey::generate(), "unlocks").token("wallet");
        let mine = format!("/internal/wallets/{}/debits", user.sub);
        let theirs = format!("/internal/wallets/{}/debits", Uuid::now_v7());

        for (method, path) in [
            (Method::GET, "/internal/mine"),
            (Method::POST, mine.as_str()),
            (Method::GET, "/internal/open"),
            (Method::POST, "/internal/system"),
            (Method::GET, "/internal/emails"),
        ] {
            for token in [None, Some(elsewhere.as_str()), Some(forged.as_str()), Some("not.a.token")] {
                let (status, body) = call(&app, method.clone(), path, token).await;
                assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {path} with {token:?}: {body}");
            }
        }
        assert_eq!(call(&app, Method::GET, "/internal/mine", Some(&me)).await, (StatusCode::OK, user.sub.to_string()));
        assert_eq!(call(&app, Method::GET, "/internal/mine", Some(&service)).await.0, StatusCode::UNAUTHORIZED);
        assert_eq!(call(&app, Method::POST, &mine, Some(&me)).await.0, StatusCode::OK);
        let (status, body) = call(&app, Method::POST, &theirs, Some(&me)).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        assert!(body.contains(CALLER_FORBIDDEN), "{body}");
        assert_eq!(call(&app, Method::POST, &theirs, Some(&admin)).await.0, StatusCode::FORBIDDEN);
        assert_eq!(call(&app, Method::POST, &theirs, Some(&service)).await, (StatusCode::OK, "unlocks".into()));
        assert_eq!(
            call(&app, Method::POST, "/internal/wallets/nobody/debits", Some(&me)).await.0,
            StatusCode::FORBIDDEN
        );
        // A service calling for an anonymous visitor is nobody; a user is themself.
        assert_eq!(call(&app, Method::GET, "/internal/open", Some(&service)).await, (StatusCode::OK, "None".into()));
        assert_eq!(call(&app, Method::GET, "/internal/open", Some(&me)).await.1, format!("Some({})", user.sub));
        assert_eq!(
            call(&app, Method::POST, "/internal/system", Some(&service)).await,
            (StatusCode::OK, "unlocks".into())
        );
        assert_eq!(call(&app, Method::POST, "/internal/system", Some(&admin)).await.0, StatusCode::FORBIDDEN);
        assert_eq!(call(&app, Method::GET, "/internal/emails", Some(&admin)).await.0, StatusCode::OK);
        assert_eq!(call(&app, Method::GET, "/internal/emails", Some(&service)).await.0, StatusCode::OK);
        assert_eq!(call(&app, Method::GET, "/internal/emails", Some(&plain_user)).await.0, StatusCode::FORBIDDEN);
        // A route the table forgot is refused to everyone; other routes are not the gate's.
        for token in [None, Some(me.as_str()), Some(service.as_str())] {
            assert_eq!(call(&app, Method::GET, "/internal/unlisted", token).await.0, StatusCode::INTERNAL_SERVER_ERROR);
        }
        assert_eq!(call(&app, Method::GET, "/healthz", None).await, (StatusCode::OK, "ok".into()));
        assert_eq!(call(&app, Method::GET, "/internal/nowhere", Some(&me)).await.0, StatusCode::NOT_FOUND);
    }

    #[tokio::test]
    async fn behind_the_gate_a_service_token_is_no_user_and_an_id_token_no_caller() {
        let signer = Signer::generate("k1");
        let key = ServiceKey::generate();
        let app = gated(&signer, &key);
        let id = Claims::new(
            Uuid::now_v7(),
            "id_token:vixen.localhost",
            "id_token",
            Uuid::now_v7(),
            vec![],
            Duration::from_secs(300),
        );
        assert_eq!(
            call(&app, Method::GET, "/internal/open", Some(&signer.sign(&id))).await.0,
            StatusCode::UNAUTHORIZED
        );
        let (mut parts, ()) = axum::http::Request::builder().body(()).unwrap().into_parts();
        parts.extensions.insert(Caller::Service(key.issue("gateway", "wallet", SERVICE_TOKEN_TTL).1));
        assert_eq!(
            Authenticated::from_request_parts(&mut parts, &signer.verifier()).await.unwrap_err(),
            AuthError::Missing
        );
        assert!(MaybeAuthenticated::from_request_parts(&mut parts, &signer.verifier()).await.unwrap().0.is_none());
    }
}
