//! The gate in front of a service's `/internal/...` routes: who may call what.

use super::*;

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
