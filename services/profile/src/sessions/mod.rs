//! Sign-in and sessions: authorization codes, the code exchange, refresh-token rotation with
//! family revocation, logout, autologin tokens, the cross-site switch, id tokens for
//! `/parent-redirect`, and the failed-login limit.
//!
//! A session is a refresh-token family for one user on one brand host. Its access tokens are
//! EdDSA JWTs (audience = the brand host); its refresh tokens are opaque, stored hashed, and
//! rotate on every use. Presenting a rotated one again revokes the whole family, unless it was
//! rotated less than `refresh_reuse_grace` ago and its successor is still unused (two tabs or a
//! retry refreshing at once): that answers [`GrantError::RefreshInProgress`] and keeps the session.

pub mod limiter;

use std::time::Duration;

use chrono::{DateTime, Utc};
use proto_events::profile::{SignInMethod, SignOutReason};
use proto_events::{Actor, EventMeta};
use runtime::auth::Claims;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::api::{AutologinIssued, RevokedSession, RevokedSessions, TokenResponse};
use crate::commands::{execute_in, CommandError};
use crate::config::ProfileConfig;
use crate::domain::{Command, User};
use crate::tokens;
use crate::State;

/// Why a grant was refused. Every refusal reads `invalid_grant` to the caller (no oracle).
#[derive(Debug, thiserror::Error)]
pub enum GrantError {
    #[error("invalid_grant")]
    InvalidGrant(&'static str),
    /// The refresh token was rotated a moment ago by another request whose successor is not
    /// used yet: retry with the newest cookie. The session is kept.
    #[error("refresh_in_progress")]
    RefreshInProgress,
    /// The user refreshed more often than any browser would (`PROFILE_REFRESH_MAX` per window).
    #[error("too_many_refreshes")]
    TooManyRefreshes,
    #[error(transparent)]
    Failed(#[from] CommandError),
}

impl From<sqlx::Error> for GrantError {
    fn from(e: sqlx::Error) -> Self {
        GrantError::Failed(CommandError::from(e))
    }
}

/// The audience of id tokens issued for `audience`: never a brand host, so an id token is
/// never taken for an access token.
pub fn id_token_audience(audience: &str) -> String {
    format!("id_token:{audience}")
}
pub const ID_TOKEN_TENANT: &str = "id_token";

fn meta(user_id: Uuid, tenant: &str) -> EventMeta {
    EventMeta::new(Actor::User(user_id)).with_tenant(tenant)
}

fn secs(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::zero())
}

/// Issues a single-use authorization code for `user_id` on `audience`.
pub async fn issue_code(
    conn: &mut PgConnection,
    config: &ProfileConfig,
    user_id: Uuid,
    audience: &str,
    tenant: &str,
    method: SignInMethod,
) -> Result<String, sqlx::Error> {
    let code = tokens::new_secret();
    sqlx::query(
        "insert into authorization_code (code_hash, user_id, audience, tenant, method, expires_at)
         values ($1, $2, $3, $4, $5, $6)",
    )
    .bind(tokens::hash(&code))
    .bind(user_id)
    .bind(audience)
    .bind(tenant)
    .bind(method_name(method))
    .bind(Utc::now() + secs(config.code_ttl))
    .execute(conn)
    .await?;
    Ok(code)
}

fn method_name(method: SignInMethod) -> &'static str {
    match method {
        SignInMethod::Password => "password",
        SignInMethod::Autologin => "autologin",
        SignInMethod::CrossSite => "cross_site",
        SignInMethod::ParentRedirect => "parent_redirect",
    }
}

fn method_of(name: &str) -> SignInMethod {
    match name {
        "autologin" => SignInMethod::Autologin,
        "cross_site" => SignInMethod::CrossSite,
        "parent_redirect" => SignInMethod::ParentRedirect,
        _ => SignInMethod::Password,
    }
}

/// `POST /internal/oidc/token`: a code, once, by the brand host it was issued for.
pub async fn exchange_code(state: &State, code: &str, audience: &str) -> Result<TokenResponse, GrantError> {
    let mut tx = state.pool.begin().await?;
    let found: Option<(Uuid, String, String, String)> = sqlx::query_as(
        "update authorization_code set used_at = now()
         where code_hash = $1 and used_at is null and expires_at > now()
         returning user_id, audience, tenant, method",
    )
    .bind(tokens::hash(code))
    .fetch_optional(&mut *tx)
    .await?;
    let Some((user_id, code_audience, tenant, method)) = found else {
        return Err(GrantError::InvalidGrant("unknown, used or expired code"));
    };
    if !code_audience.eq_ignore_ascii_case(audience) {
        // A code shown to the wrong host is spent all the same.
        tx.commit().await?;
        return Err(GrantError::InvalidGrant("code issued for another host"));
    }
    let response = start_session(state, &mut tx, user_id, &code_audience, &tenant, method_of(&method)).await?;
    tx.commit().await?;
    state.store.wake_relay();
    Ok(response)
}

/// Begins a session (a new refresh-token family) in `tx` and signs its first tokens.
pub async fn start_session(
    state: &State,
    tx: &mut PgConnection,
    user_id: Uuid,
    audience: &str,
    tenant: &str,
    method: SignInMethod,
) -> Result<TokenResponse, GrantError> {
    let session_id = Uuid::now_v7();
    let now = Utc::now();
    let command =
        Command::StartSession { session_id, audience: audience.to_owned(), tenant: tenant.to_owned(), method, at: now };
    let done = match execute_in(tx, &state.store, user_id, &meta(user_id, tenant), command, None).await {
        Ok(done) => done,
        Err(CommandError::Domain(_)) => return Err(GrantError::InvalidGrant("no such user")),
        Err(e) => return Err(e.into()),
    };
    sqlx::query(
        "insert into session_family (session_id, user_id, audience, tenant, created_at) values ($1, $2, $3, $4, $5)",
    )
    .bind(session_id)
    .bind(user_id)
    .bind(audience)
    .bind(tenant)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    let refresh = insert_refresh_token(tx, &state.config, session_id, now).await?;
    Ok(sign(
        state,
        &done.user.group_names(),
        done.user.username.clone(),
        user_id,
        audience,
        tenant,
        session_id,
        refresh,
    ))
}

async fn insert_refresh_token(
    tx: &mut PgConnection,
    config: &ProfileConfig,
    session_id: Uuid,
    now: DateTime<Utc>,
) -> Result<String, sqlx::Error> {
    let refresh = tokens::new_secret();
    sqlx::query("insert into refresh_token (token_hash, session_id, issued_at, expires_at) values ($1, $2, $3, $4)")
        .bind(tokens::hash(&refresh))
        .bind(session_id)
        .bind(now)
        .bind(now + secs(config.refresh_ttl))
        .execute(&mut *tx)
        .await?;
    Ok(refresh)
}

#[allow(clippy::too_many_arguments)]
fn sign(
    state: &State,
    groups: &[String],
    username: Option<String>,
    user_id: Uuid,
    audience: &str,
    tenant: &str,
    session_id: Uuid,
    refresh_token: String,
) -> TokenResponse {
    let mut claims = Claims::new(user_id, audience, tenant, session_id, groups.to_vec(), state.config.access_ttl);
    claims.username = username.clone();
    let access_token = state.signer.sign(&claims);
    let mut id = Claims::new(
        user_id,
        &id_token_audience(audience),
        ID_TOKEN_TENANT,
        session_id,
        vec![],
        state.config.id_token_ttl,
    );
    id.username = username;
    TokenResponse {
        access_token,
        refresh_token,
        expires_in: state.config.access_ttl.as_secs(),
        refresh_expires_in: state.config.refresh_ttl.as_secs(),
        id_token: state.signer.sign(&id),
        user_id,
        session_id,
        tenant: tenant.to_owned(),
    }
}

#[derive(sqlx::FromRow)]
struct RefreshRow {
    session_id: Uuid,
    user_id: Uuid,
    audience: String,
    tenant: String,
    expires_at: DateTime<Utc>,
    rotated_at: Option<DateTime<Utc>>,
    revoked_at: Option<DateTime<Utc>>,
}

/// `POST /internal/oidc/refresh`: rotates the refresh token; a rotated one presented again
/// revokes its family.
pub async fn refresh(state: &State, refresh_token: &str, audience: &str) -> Result<TokenResponse, GrantError> {
    let mut tx = state.pool.begin().await?;
    let row: Option<RefreshRow> = sqlx::query_as(
        "select r.session_id, f.user_id, f.audience, f.tenant, r.expires_at, r.rotated_at, f.revoked_at
         from refresh_token r join session_family f on f.session_id = r.session_id
         where r.token_hash = $1
         for update of r, f",
    )
    .bind(tokens::hash(refresh_token))
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else { return Err(GrantError::InvalidGrant("unknown refresh token")) };
    if row.revoked_at.is_some() {
        return Err(GrantError::InvalidGrant("session ended"));
    }
    if let Some(rotated_at) = row.rotated_at {
        let within_grace = Utc::now() - rotated_at < secs(state.config.refresh_reuse_grace);
        if within_grace {
            let successor_used: bool = sqlx::query_scalar(
                "select exists (select 1 from refresh_token where session_id = $1 and rotated_at > $2)",
            )
            .bind(row.session_id)
            .bind(rotated_at)
            .fetch_one(&mut *tx)
            .await?;
            if !successor_used {
                tracing::info!(session_id = %row.session_id, "refresh token presented again within the grace");
                return Err(GrantError::RefreshInProgress);
            }
        }
        // Reuse: someone holds a copy. End the family for everyone holding any of its tokens.
        let command = Command::EndSession {
            session_id: row.session_id,
            reason: SignOutReason::RefreshTokenReused,
            at: Utc::now(),
        };
        execute_in(&mut tx, &state.store, row.user_id, &meta(row.user_id, &row.tenant), command, None).await?;
        revoke_family(&mut tx, row.session_id, "refresh_token_reused").await?;
        tx.commit().await?;
        state.store.wake_relay();
        tracing::warn!(session_id = %row.session_id, user_id = %row.user_id, "refresh token reused, session revoked");
        return Err(GrantError::InvalidGrant("refresh token reused"));
    }
    if row.expires_at <= Utc::now() {
        return Err(GrantError::InvalidGrant("refresh token expired"));
    }
    if !row.audience.eq_ignore_ascii_case(audience) {
        return Err(GrantError::InvalidGrant("refresh token of another host"));
    }
    let now = Utc::now();
    // The per-account limit, counted over every session of the user; refreshes of one user
    // take turns so that parallel ones cannot all pass under it.
    sqlx::query("select pg_advisory_xact_lock(hashtextextended('profile.refresh:' || $1::text, 0))")
        .bind(row.user_id)
        .execute(&mut *tx)
        .await?;
    let recent: i64 = sqlx::query_scalar(
        "select count(*) from refresh_token r join session_family f on f.session_id = r.session_id
         where f.user_id = $1 and r.rotated_at > $2",
    )
    .bind(row.user_id)
    .bind(now - secs(state.config.refresh_window))
    .fetch_one(&mut *tx)
    .await?;
    if recent >= i64::from(state.config.refresh_max) {
        tracing::warn!(user_id = %row.user_id, recent, "refresh limit reached");
        return Err(GrantError::TooManyRefreshes);
    }
    sqlx::query("update refresh_token set rotated_at = $2 where token_hash = $1")
        .bind(tokens::hash(refresh_token))
        .bind(now)
        .execute(&mut *tx)
        .await?;
    let next = insert_refresh_token(&mut tx, &state.config, row.session_id, now).await?;
    let (username, groups) = identity(&mut tx, row.user_id).await?;
    tx.commit().await?;
    Ok(sign(state, &groups, username, row.user_id, &row.audience, &row.tenant, row.session_id, next))
}

/// The username and groups an access token carries, as the read model has them now.
async fn identity(conn: &mut PgConnection, user_id: Uuid) -> Result<(Option<String>, Vec<String>), GrantError> {
    let row: Option<(Option<String>, Vec<String>)> = sqlx::query_as(
        "select p.username, coalesce((select array_agg(group_name order by group_name) from user_group g
                 where g.user_id = p.user_id), '{}')
         from user_profile p where p.user_id = $1",
    )
    .bind(user_id)
    .fetch_optional(&mut *conn)
    .await?;
    row.ok_or(GrantError::InvalidGrant("no such user"))
}

async fn revoke_family(conn: &mut PgConnection, session_id: Uuid, reason: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "update session_family set revoked_at = now(), revoked_reason = $2 where session_id = $1 and revoked_at is null",
    )
    .bind(session_id)
    .bind(reason)
    .execute(conn)
    .await?;
    Ok(())
}

/// `POST /internal/oidc/logout`: ends the session of this refresh token, or (`everywhere`)
/// every session of its user. An unknown token ends nothing and is not an error.
pub async fn logout(state: &State, refresh_token: &str, everywhere: bool) -> Result<(), GrantError> {
    let mut tx = state.pool.begin().await?;
    let row: Option<(Uuid, Uuid, String)> = sqlx::query_as(
        "select f.session_id, f.user_id, f.tenant from refresh_token r join session_family f on f.session_id = r.session_id
         where r.token_hash = $1",
    )
    .bind(tokens::hash(refresh_token))
    .fetch_optional(&mut *tx)
    .await?;
    let Some((session_id, user_id, tenant)) = row else { return Ok(()) };
    let command = if everywhere {
        Command::RevokeSessions {
            reason: proto_events::profile::SessionsRevokedReason::SignedOutEverywhere,
            kept_session_id: None,
            at: Utc::now(),
        }
    } else {
        Command::EndSession { session_id, reason: SignOutReason::Logout, at: Utc::now() }
    };
    execute_in(&mut tx, &state.store, user_id, &meta(user_id, &tenant), command, None).await?;
    revoke_family(&mut tx, session_id, "logout").await?;
    tx.commit().await?;
    state.store.wake_relay();
    Ok(())
}

/// Whether a session is still live (not revoked).
pub async fn session_live(state: &State, session_id: Uuid) -> Result<bool, sqlx::Error> {
    let revoked: Option<Option<DateTime<Utc>>> =
        sqlx::query_scalar("select revoked_at from session_family where session_id = $1")
            .bind(session_id)
            .fetch_optional(&state.pool)
            .await?;
    Ok(matches!(revoked, Some(None)))
}

/// `GET /internal/sessions/revoked`: every session revoked within the access-token lifetime.
pub async fn recently_revoked(state: &State) -> Result<RevokedSessions, sqlx::Error> {
    let ttl = state.config.access_ttl;
    let rows: Vec<(Uuid, DateTime<Utc>)> =
        sqlx::query_as("select session_id, revoked_at from session_family where revoked_at > $1 order by revoked_at")
            .bind(Utc::now() - secs(ttl))
            .fetch_all(&state.pool)
            .await?;
    Ok(RevokedSessions {
        access_token_ttl_secs: ttl.as_secs(),
        sessions: rows.into_iter().map(|(session_id, revoked_at)| RevokedSession { session_id, revoked_at }).collect(),
    })
}

/// `POST /internal/autologin-tokens`: a single-use, short-lived token for `/?al_token=`.
pub async fn issue_autologin(state: &State, user_id: Uuid, site: &str) -> Result<Option<AutologinIssued>, sqlx::Error> {
    let exists: Option<Uuid> = sqlx::query_scalar("select user_id from user_profile where user_id = $1")
        .bind(user_id)
        .fetch_optional(&state.pool)
        .await?;
    if exists.is_none() {
        return Ok(None);
    }
    let token = tokens::new_secret();
    let now = Utc::now();
    let expires_at = now + secs(state.config.autologin_ttl);
    sqlx::query(
        "insert into autologin_token (token_hash, user_id, site, issued_at, expires_at) values ($1, $2, $3, $4, $5)",
    )
    .bind(tokens::hash(&token))
    .bind(user_id)
    .bind(site)
    .bind(now)
    .bind(expires_at)
    .execute(&state.pool)
    .await?;
    Ok(Some(AutologinIssued { al_token: token, expires_at }))
}

/// `POST /internal/oidc/autologin`: redeems an autologin token, once, for a brand host.
pub async fn redeem_autologin(state: &State, al_token: &str, audience: &str) -> Result<TokenResponse, GrantError> {
    let tenant =
        state.config.brand_of_audience(audience).ok_or(GrantError::InvalidGrant("not a brand host"))?.to_owned();
    let mut tx = state.pool.begin().await?;
    let user: Option<(Uuid, String)> = sqlx::query_as(
        "update autologin_token set used_at = now() where token_hash = $1 and used_at is null and expires_at > now()
         returning user_id, site",
    )
    .bind(tokens::hash(al_token))
    .fetch_optional(&mut *tx)
    .await?;
    let Some((user_id, site)) = user else { return Err(GrantError::InvalidGrant("unknown, used or expired al_token")) };
    if !site.eq_ignore_ascii_case(&tenant) {
        // A token shown to another brand's host is spent all the same.
        tx.commit().await?;
        return Err(GrantError::InvalidGrant("al_token issued for another site"));
    }
    let response = start_session(state, &mut tx, user_id, audience, &tenant, SignInMethod::Autologin).await?;
    tx.commit().await?;
    state.store.wake_relay();
    Ok(response)
}

/// `POST /internal/oidc/xsite`: a signed-in user switches to `site`; answers where to send
/// the browser (the target brand's callback with a fresh code).
pub async fn cross_site(
    state: &State,
    claims: &Claims,
    site: &str,
    deeplink: Option<&str>,
) -> Result<String, GrantError> {
    if !tenants::global().is_brand(site) {
        return Err(GrantError::InvalidGrant("unknown site"));
    }
    if !session_live(state, claims.sid).await? {
        return Err(GrantError::InvalidGrant("session ended"));
    }
    let origin = state.config.brand_origin_of(site);
    let audience = ProfileConfig::audience_of_origin(&origin);
    let mut conn = state.pool.acquire().await?;
    let code = issue_code(&mut conn, &state.config, claims.sub, &audience, site, SignInMethod::CrossSite).await?;
    let path = deeplink.filter(|d| is_same_site_path(d)).unwrap_or("/");
    Ok(callback_location(&origin, &code, path))
}

/// `POST /internal/oidc/parent-redirect`: an id token of a live session, once, signs the user
/// in on the brand host that presents it.
pub async fn parent_redirect(state: &State, id_token: &str, audience: &str) -> Result<TokenResponse, GrantError> {
    let tenant =
        state.config.brand_of_audience(audience).ok_or(GrantError::InvalidGrant("not a brand host"))?.to_owned();
    let claims = state.verifier.verify(id_token).await.map_err(|_| GrantError::InvalidGrant("bad id_token"))?;
    if claims.tenant != ID_TOKEN_TENANT || !claims.aud.starts_with("id_token:") {
        return Err(GrantError::InvalidGrant("not an id_token"));
    }
    if !claims.aud.eq_ignore_ascii_case(&id_token_audience(audience)) {
        return Err(GrantError::InvalidGrant("id_token issued for another host"));
    }
    if !session_live(state, claims.sid).await? {
        return Err(GrantError::InvalidGrant("session ended"));
    }
    let mut tx = state.pool.begin().await?;
    let fresh = sqlx::query("insert into redeemed_id_token (jti, expires_at) values ($1, $2) on conflict do nothing")
        .bind(claims.jti)
        .bind(DateTime::from_timestamp(claims.exp, 0).unwrap_or_else(Utc::now))
        .execute(&mut *tx)
        .await?
        .rows_affected()
        == 1;
    if !fresh {
        return Err(GrantError::InvalidGrant("id_token already used"));
    }
    let response = start_session(state, &mut tx, claims.sub, audience, &tenant, SignInMethod::ParentRedirect).await?;
    tx.commit().await?;
    state.store.wake_relay();
    Ok(response)
}

/// A path on the same site: `/x`, never `//host` or `/\host`.
pub fn is_same_site_path(path: &str) -> bool {
    path.starts_with('/') && !path.starts_with("//") && !path.starts_with("/\\") && !path.chars().any(char::is_control)
}

/// `{origin}/oidc/callback?code=…&uri=…`.
pub fn callback_location(origin: &str, code: &str, uri: &str) -> String {
    format!("{origin}/oidc/callback?code={}&uri={}", encode_component(code), encode_component(uri))
}

pub use crate::api::encode_component;

/// The user as the decider knows it (for commands that need it before deciding).
pub async fn load_user(state: &State, user_id: Uuid) -> Result<User, sqlx::Error> {
    let mut conn = state.pool.acquire().await?;
    let stream = proto_events::profile::stream_id(user_id);
    match state.store.state_of::<crate::domain::Profile>(&mut conn, &stream).await {
        Ok((user, _)) => Ok(user),
        Err(runtime::StoreError::Database(e)) => Err(e),
        Err(e) => Err(sqlx::Error::Protocol(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_same_site_paths_are_followed() {
        for ok in ["/", "/videos?page=2", "/account?password_changed=1"] {
            assert!(is_same_site_path(ok), "{ok}");
        }
        for bad in ["", "//evil.example", "/\\evil.example", "https://evil.example", "videos", "/a\nb"] {
            assert!(!is_same_site_path(bad), "{bad}");
        }
    }

    #[test]
    fn a_callback_location_encodes_its_parameters() {
        assert_eq!(
            callback_location("http://vixen.localhost:8080", "a-b_c", "/videos?page=2&x=y"),
            "http://vixen.localhost:8080/oidc/callback?code=a-b_c&uri=%2Fvideos%3Fpage%3D2%26x%3Dy"
        );
    }
}
