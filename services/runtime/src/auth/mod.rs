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

mod gate;
mod route;
mod service;
#[cfg(test)]
mod tests;
mod user;

pub use gate::*;
pub use route::*;
pub use service::*;
pub use user::*;
