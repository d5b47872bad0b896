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

use std::{
    collections::HashMap,
    sync::{Arc, RwLock},
    time::{Duration, Instant},
};

use axum::{
    extract::{FromRef, FromRequestParts},
    http::{header::AUTHORIZATION, request::Parts, StatusCode},
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
        let http = reqwest::Client::builder().timeout(Duration::from_secs(5)).build().expect("http client");
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
        let token = bearer(parts).ok_or(AuthError::Missing)?;
        let claims = Verifier::from_ref(state).verify(token).await?;
        if claims.aud.starts_with(ID_TOKEN_AUDIENCE_PREFIX) {
            return Err(AuthError::WrongAudience);
        }
        if let Some(tenant) = parts.headers.get(TENANT_HEADER).and_then(|v| v.to_str().ok()) {
            if tenant != claims.tenant {
                return Err(AuthError::WrongTenant);
            }
        }
        Ok(Authenticated(claims))
    }
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
        if bearer(parts).is_none() {
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
}
