//! The members host's login form (`GET /oidc/login?uri=…`) and its submission
//! (`POST /oidc/login`), which answers 303 to `{brand host}/oidc/callback?code=…&uri=…`.
//!
//! The gateway proxies members-host `/oidc/*` here, passing the members host's tenant in
//! `x-paysite-tenant` and the client address in `x-forwarded-for`. `uri` is either an absolute
//! URL on one of the brand hosts or a path (then the members host's own brand is meant); a
//! code is only ever sent to a brand host of `PAYSITE_BRAND_ORIGIN`. The form carries a
//! double-submit token against login CSRF.

use axum::{
    extract::{Query, State},
    http::{header, HeaderMap, StatusCode},
    response::{Html, IntoResponse, Response},
    Form,
};
use proto_events::profile::SignInMethod;
use runtime::auth::TENANT_HEADER;
use serde::Deserialize;

use crate::config::ProfileConfig;
use crate::sessions::{callback_location, is_same_site_path, issue_code, limiter};
use crate::{queries, tokens, State as ProfileState};

pub use crate::api::CSRF_COOKIE;
/// The device cookie (OWASP): a device that signed in to an account before.
pub const DEVICE_COOKIE: &str = "paysite_device";
/// How long a device stays known.
pub const DEVICE_MAX_AGE_SECS: u64 = 180 * 24 * 3600;
pub const INVALID_CREDENTIALS_MESSAGE: &str = "Invalid username or password.";
pub const TOO_MANY_ATTEMPTS_MESSAGE: &str = "Too many failed sign-ins. Please wait a few minutes and try again.";
pub const FORM_EXPIRED_MESSAGE: &str = "Your sign-in form expired. Please try again.";
pub const BAD_TARGET_MESSAGE: &str = "This sign-in link is not valid.";

/// Where a sign-in returns to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub origin: String,
    pub audience: String,
    pub tenant: String,
    /// The path and query on the brand host.
    pub path: String,
}

/// Resolves `uri` to a brand host and a path there; `None` for anything else.
pub fn resolve_target(config: &ProfileConfig, uri: Option<&str>, members_tenant: Option<&str>) -> Option<Target> {
    let uri = uri.map(str::trim).filter(|u| !u.is_empty()).unwrap_or("/");
    let (origin, path) = if let Some((scheme, rest)) = uri.split_once("://") {
        if scheme != "http" && scheme != "https" {
            return None;
        }
        let cut = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let (authority, path) = rest.split_at(cut);
        let path = if path.is_empty() {
            "/".to_owned()
        } else if path.starts_with('/') {
            path.to_owned()
        } else {
            format!("/{path}")
        };
        (format!("{scheme}://{authority}"), path)
    } else {
        let brand = members_tenant.filter(|t| tenants::global().is_brand(t))?;
        (config.brand_origin_of(brand), uri.to_owned())
    };
    if !is_same_site_path(&path) {
        return None;
    }
    let tenant = config.brand_of_origin(&origin)?;
    let origin = config.brand_origin_of(tenant);
    Some(Target { audience: ProfileConfig::audience_of_origin(&origin), origin, tenant: tenant.to_owned(), path })
}

#[derive(Debug, Deserialize)]
pub struct LoginQuery {
    pub uri: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    pub username: String,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub uri: String,
    #[serde(default)]
    pub csrf: String,
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

fn tenant_of(headers: &HeaderMap) -> Option<&str> {
    headers.get(TENANT_HEADER).and_then(|v| v.to_str().ok())
}

/// The client address the gateway saw (first hop of `x-forwarded-for`).
pub fn client_address(headers: &HeaderMap) -> String {
    headers
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// `form_target` is the brand origin the form's answer redirects to: browsers check a form's
/// redirects against `form-action` too, so it must be allowed beside 'self'.
fn page(
    status: StatusCode,
    uri: &str,
    username: &str,
    error: Option<&str>,
    secure: bool,
    form_target: Option<&str>,
) -> Response {
    let csrf = tokens::new_secret();
    let error_html = error
        .map(|e| format!(r#"<p id="login-error" class="error" role="alert">{}</p>"#, escape(e)))
        .unwrap_or_default();
    let described = if error.is_some() { r#" aria-describedby="login-error" aria-invalid="true""# } else { "" };
    let body = format!(
        r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sign in</title>
<style>body{{font-family:system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem}}label{{display:block;margin-top:1rem}}input{{width:100%;padding:.5rem;font-size:1rem}}button{{margin-top:1.5rem;padding:.6rem 1.2rem;font-size:1rem}}.error{{color:#b00020;font-weight:600}}</style>
</head>
<body>
<main>
<h1>Sign in</h1>
{error_html}
<form method="post" action="/oidc/login">
<input type="hidden" name="uri" value="{uri}">
<input type="hidden" name="csrf" value="{csrf}">
<label for="username">Username or email</label>
<input id="username" name="username" autocomplete="username" required value="{username}"{described}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required{described}>
<button type="submit">Sign in</button>
</form>
<p><a href="/support">Need help?</a></p>
</main>
</body>
</html>"#,
        uri = escape(uri),
        username = escape(username),
    );
    let secure = if secure { "; Secure" } else { "" };
    let set_cookie = format!("{CSRF_COOKIE}={csrf}; Path=/oidc; HttpOnly; SameSite=Lax; Max-Age=3600{secure}");
    (
        status,
        [
            (header::SET_COOKIE, set_cookie),
            (header::CACHE_CONTROL, "no-store".to_owned()),
            (header::CONTENT_SECURITY_POLICY, form_action_policy(form_target)),
        ],
        Html(body),
    )
        .into_response()
}

/// The page's Content-Security-Policy: the form may post here and be redirected to the brand.
fn form_action_policy(form_target: Option<&str>) -> String {
    // Origins come from the configuration (`brand_origin_of`), never from the request.
    let target = form_target.map(|origin| format!(" {origin}")).unwrap_or_default();
    format!("default-src 'none'; style-src 'unsafe-inline'; form-action 'self'{target}; frame-ancestors 'none'")
}

fn is_https(headers: &HeaderMap) -> bool {
    headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok()) == Some("https")
}

pub async fn login_form(
    State(state): State<ProfileState>,
    Query(query): Query<LoginQuery>,
    headers: HeaderMap,
) -> Response {
    let uri = query.uri.unwrap_or_else(|| "/".to_owned());
    let Some(target) = resolve_target(&state.config, Some(&uri), tenant_of(&headers)) else {
        return page(StatusCode::BAD_REQUEST, "/", "", Some(BAD_TARGET_MESSAGE), is_https(&headers), None);
    };
    page(StatusCode::OK, &uri, "", None, is_https(&headers), Some(&target.origin))
}

#[tracing::instrument(name = "login", skip_all)]
pub async fn login_submit(
    State(state): State<ProfileState>,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Response {
    let secure = is_https(&headers);
    let form_target = resolve_target(&state.config, Some(&form.uri), tenant_of(&headers)).map(|t| t.origin);
    let retry = |status, error| page(status, &form.uri, &form.username, Some(error), secure, form_target.as_deref());
    if form.csrf.is_empty() || runtime::http::cookie(&headers, CSRF_COOKIE) != Some(form.csrf.as_str()) {
        return retry(StatusCode::FORBIDDEN, FORM_EXPIRED_MESSAGE);
    }
    let Some(target) = resolve_target(&state.config, Some(&form.uri), tenant_of(&headers)) else {
        return retry(StatusCode::BAD_REQUEST, BAD_TARGET_MESSAGE);
    };
    let device = runtime::http::cookie(&headers, DEVICE_COOKIE);
    match sign_in(&state, &form.username, &form.password, &client_address(&headers), device, &target).await {
        Ok(SignIn::Code { code, new_device }) => {
            let location = callback_location(&target.origin, &code, &target.path);
            let mut answer =
                (StatusCode::SEE_OTHER, [(header::LOCATION, location), (header::CACHE_CONTROL, "no-store".to_owned())])
                    .into_response();
            if let Some(token) = new_device {
                let secure = if secure { "; Secure" } else { "" };
                let set = format!(
                    "{DEVICE_COOKIE}={token}; Path=/oidc; HttpOnly; SameSite=Lax; Max-Age={DEVICE_MAX_AGE_SECS}{secure}"
                );
                if let Ok(value) = header::HeaderValue::from_str(&set) {
                    answer.headers_mut().append(header::SET_COOKIE, value);
                }
            }
            answer
        }
        Ok(SignIn::Refused) => retry(StatusCode::UNAUTHORIZED, INVALID_CREDENTIALS_MESSAGE),
        Ok(SignIn::TooManyAttempts { retry_after }) => {
            let mut answer = retry(StatusCode::TOO_MANY_REQUESTS, TOO_MANY_ATTEMPTS_MESSAGE);
            let secs = runtime::throttle::retry_after_secs(retry_after);
            answer.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from(secs));
            answer
        }
        Err(e) => {
            tracing::error!(error = %format!("{e:#}"), "sign-in failed");
            retry(StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong. Please try again.")
        }
    }
}

pub enum SignIn {
    /// Signed in: the code for the target host, and a device cookie's secret when this device
    /// was not known for the account yet.
    Code {
        code: String,
        new_device: Option<String>,
    },
    Refused,
    /// Too soon after the latest failures: the delay left.
    TooManyAttempts {
        retry_after: std::time::Duration,
    },
}

/// Checks the limit, then the password; a success issues a code for the target host.
///
/// The limit (OWASP's device cookie scheme, with growing delays): a sign-in from a device that
/// signed in to this account before (`device`, the cookie's secret) is counted on that device
/// alone; any other is counted per account (by user id, the count changePassword shares) and per
/// client address. So failures from elsewhere, or from the owner's address, never slow the
/// owner's own device.
pub async fn sign_in(
    state: &ProfileState,
    login: &str,
    password: &str,
    address: &str,
    device: Option<&str>,
    target: &Target,
) -> anyhow::Result<SignIn> {
    let account = if login.trim().is_empty() { None } else { queries::find_login(&state.pool, login).await? };
    let (user_id, hash) = match account {
        Some((user_id, hash)) => (Some(user_id), hash),
        None => (None, None),
    };
    let known_device = match (device, user_id) {
        (Some(secret), Some(user_id)) => known_device(state, secret, user_id).await?,
        _ => None,
    };
    let subjects = match &known_device {
        Some(device_hash) => vec![limiter::device_subject(device_hash)],
        None => {
            // Without a known client address only the account is counted, so that one attacker
            // cannot hold everyone whose address is unknown.
            let account = match user_id {
                Some(user_id) => limiter::user_subject(user_id),
                None => limiter::account_subject(login),
            };
            let mut subjects = vec![account];
            if address != "unknown" {
                subjects.push(limiter::address_subject(address));
            }
            subjects
        }
    };
    let reservation = match limiter::reserve(state, &subjects).await? {
        limiter::Reservation::Reserved(ids) => ids,
        limiter::Reservation::Wait(retry_after) => {
            tracing::warn!(address, ?retry_after, "sign-in refused: too many failures");
            return Ok(SignIn::TooManyAttempts { retry_after });
        }
    };
    let ok = state.passwords.verify(password, hash).await?;
    // A wrong password leaves the reservation as the recorded failure.
    let Some(user_id) = user_id.filter(|_| ok) else {
        return Ok(SignIn::Refused);
    };
    limiter::release(state, &reservation).await?;
    limiter::clear(state, &subjects[0]).await?;
    let new_device = match known_device {
        Some(_) => None,
        None => {
            let secret = crate::tokens::new_secret();
            sqlx::query("insert into trusted_device (token_hash, user_id) values ($1, $2)")
                .bind(crate::tokens::hash(&secret))
                .bind(user_id)
                .execute(&state.pool)
                .await?;
            Some(secret)
        }
    };
    let mut conn = state.pool.acquire().await?;
    let code =
        issue_code(&mut conn, &state.config, user_id, &target.audience, &target.tenant, SignInMethod::Password).await?;
    Ok(SignIn::Code { code, new_device })
}

/// The device's stored hash (hex) when `secret` is a device cookie of `user_id` still within
/// its lifetime.
async fn known_device(state: &ProfileState, secret: &str, user_id: uuid::Uuid) -> Result<Option<String>, sqlx::Error> {
    let hash = crate::tokens::hash(secret);
    let found: Option<i32> = sqlx::query_scalar(
        "select 1 from trusted_device where token_hash = $1 and user_id = $2
             and created_at > now() - make_interval(secs => $3)",
    )
    .bind(&hash)
    .bind(user_id)
    .bind(DEVICE_MAX_AGE_SECS as f64)
    .fetch_optional(&state.pool)
    .await?;
    Ok(found.map(|_| hash.iter().map(|b| format!("{b:02x}")).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_target_is_a_brand_host_and_a_same_site_path() {
        let config = ProfileConfig::default();
        let t = resolve_target(&config, Some("http://vixen.localhost:8080/videos?page=2"), None).unwrap();
        assert_eq!(t.tenant, "vixen");
        assert_eq!(t.audience, "vixen.localhost");
        assert_eq!(t.path, "/videos?page=2");
        let t = resolve_target(&config, Some("/account"), Some("vixenplus")).unwrap();
        assert_eq!((t.tenant.as_str(), t.path.as_str()), ("vixenplus", "/account"));
        assert_eq!(resolve_target(&config, None, Some("tushy")).unwrap().path, "/");
        for bad in [
            "https://evil.example/",
            "//evil.example",
            "javascript:alert(1)",
            "http://vixen.localhost:8080.evil.example/",
        ] {
            assert_eq!(resolve_target(&config, Some(bad), Some("vixen")), None, "{bad}");
        }
        assert_eq!(resolve_target(&config, Some("/x"), None), None);
    }

    #[test]
    fn the_form_may_be_redirected_to_its_brand_only() {
        let policy = form_action_policy(Some("http://vixen.localhost:8080"));
        assert!(policy.contains("form-action 'self' http://vixen.localhost:8080;"), "{policy}");
        assert!(form_action_policy(None).contains("form-action 'self';"));
    }

    #[test]
    fn reflected_values_are_escaped() {
        assert_eq!(escape(r#""><script>"#), "&quot;&gt;&lt;script&gt;");
    }
}
