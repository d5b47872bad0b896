//! User tokens: the profile service signs them ([`Signer`]); every process checks them
//! ([`Verifier`]) and its handlers take the checked user ([`Authenticated`]).

use super::*;

/// The private half: signs access tokens and publishes the public half.
#[derive(Clone)]
pub struct Signer {
    kid: String,
    encoding: EncodingKey,
    pub(super) public: [u8; 32],
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

    pub(super) fn sign_any<T: Serialize>(&self, claims: &T) -> String {
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

/// Lets the user-token extractors of this module find a service's [`Verifier`] in its state
/// (`runtime::verifier_in_state!(State)`, for a state with a `verifier` field).
#[macro_export]
macro_rules! verifier_in_state {
    ($state:ty) => {
        impl $crate::api_error::__axum::extract::FromRef<$state> for $crate::auth::Verifier {
            fn from_ref(state: &$state) -> Self {
                state.verifier.clone()
            }
        }
    };
}

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
pub(super) fn check_user_token(claims: &Claims, parts: &Parts) -> Result<(), AuthError> {
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
