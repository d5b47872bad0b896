//! Sign-in, codes, refresh rotation, logout, autologin, the failed-login limit and password
//! changes, over real HTTP against the profile service.

mod support;

use profile::api::TokenResponse;
use runtime::testing::ServiceAuth;
use serde_json::{json, Value};
use support::{code_of, TestEnv, PASSWORD};

async fn refresh(env: &TestEnv, token: &str) -> reqwest::Response {
    env.http
        .post(env.url("/internal/oidc/refresh"))
        .service_auth("profile")
        .json(&json!({ "refreshToken": token, "audience": "vixen.localhost" }))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_login_gives_a_code_for_the_brand_host_once_and_the_token_verifies() {
    let env = TestEnv::new().await;
    let user = env.account("jane").await;
    let response = env.login("jane", PASSWORD, "http://vixen.localhost:8080/videos?page=2", "10.0.0.1").await;
    assert_eq!(response.status(), 303);
    let location = response.headers()["location"].to_str().unwrap().to_owned();
    assert!(location.starts_with("http://vixen.localhost:8080/oidc/callback?code="), "{location}");
    assert!(location.ends_with("&uri=%2Fvideos%3Fpage%3D2"), "{location}");
    let code = code_of(&location);

    // Another host cannot use it.
    let other = env
        .http
        .post(env.url("/internal/oidc/token"))
        .service_auth("profile")
        .json(&json!({ "code": code, "audience": "tushy.localhost" }))
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 401);
    assert_eq!(other.json::<Value>().await.unwrap()["error"], "invalid_grant");

    // A code refused once is spent: single use whatever happened.
    let again = env
        .http
        .post(env.url("/internal/oidc/token"))
        .service_auth("profile")
        .json(&json!({ "code": code, "audience": "vixen.localhost" }))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 401);

    let tokens = env.session("jane").await;
    let claims = env.state.verifier.verify_for(&tokens.access_token, "vixen.localhost").await.unwrap();
    assert_eq!(claims.sub, user);
    assert_eq!(claims.tenant, "vixen");
    assert_eq!(claims.username.as_deref(), Some("jane"));

    // The published key verifies it too.
    let jwks: runtime::auth::JwkSet =
        env.http.get(env.url("/.well-known/jwks.json")).send().await.unwrap().json().await.unwrap();
    let verifier = runtime::auth::Verifier::from_jwks(&jwks).unwrap();
    assert_eq!(verifier.verify(&tokens.access_token).await.unwrap().sub, user);
    // The id token is not an access token for any brand host.
    assert!(verifier.verify_for(&tokens.id_token, "vixen.localhost").await.is_err());
    env.cleanup().await;
}

#[tokio::test]
async fn a_wrong_password_is_refused_with_the_form_again() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let response = env.login("jane", "Wrong12345", "/", "10.0.0.2").await;
    assert_eq!(response.status(), 401);
    let page = response.text().await.unwrap();
    assert!(page.contains("Invalid username or password."), "{page}");
    assert!(page.contains(r#"role="alert""#));
    // An open redirect is refused before any password is checked.
    let response = env.http.get(env.url("/oidc/login?uri=https%3A%2F%2Fevil.example%2F")).send().await.unwrap();
    assert_eq!(response.status(), 400);
    assert!(response.text().await.unwrap().contains("This sign-in link is not valid."));
    env.cleanup().await;
}

#[tokio::test]
async fn the_login_form_refuses_a_post_without_its_token() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let response = env
        .http
        .post(env.url("/oidc/login"))
        .header("x-paysite-tenant", "vixenplus")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(support::form_body(&[("username", "jane"), ("password", PASSWORD), ("uri", "/"), ("csrf", "forged")]))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    env.cleanup().await;
}

/// The device cookie a successful sign-in set (`name=value`).
fn device_cookie(response: &reqwest::Response) -> String {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(profile::login_page::DEVICE_COOKIE))
        .expect("a device cookie")
        .split(';')
        .next()
        .unwrap()
        .to_owned()
}

#[tokio::test]
async fn the_owners_device_still_signs_in_after_fifty_failures_from_elsewhere() {
    let env = TestEnv::new().await;
    env.account("owner").await;
    env.account("neighbour").await;
    let first = env.login("owner", PASSWORD, "/", "10.7.0.1").await;
    assert_eq!(first.status(), 303);
    let device = device_cookie(&first);
    for n in 0..50 {
        let status = env.login("owner", "Wrong12345", "/", &format!("10.7.1.{n}")).await.status();
        assert!(status == 401 || status == 429, "{status}");
    }
    // Without the device the account is held, even with the right password...
    assert_eq!(env.login("owner", PASSWORD, "/", "10.7.0.2").await.status(), 429);
    // ...the owner's device is not, from its usual address or another.
    let again = env.login_from("owner", PASSWORD, "/", "10.7.0.1", Some(&device)).await;
    assert_eq!(again.status(), 303);
    assert!(again.headers().get_all("set-cookie").iter().all(|v| !v.to_str().unwrap().starts_with("paysite_device")));
    assert_eq!(env.login_from("owner", PASSWORD, "/", "10.7.9.9", Some(&device)).await.status(), 303);
    // A device cookie is the account's own: on another account it counts for nothing.
    for _ in 0..5 {
        env.login("neighbour", "Wrong12345", "/", "10.7.2.1").await;
    }
    assert_eq!(env.login_from("neighbour", PASSWORD, "/", "10.7.0.1", Some(&device)).await.status(), 429);
    // The device's own failures hold the device (a stolen cookie is no free oracle).
    for _ in 0..5 {
        assert_eq!(env.login_from("owner", "Wrong12345", "/", "10.7.0.1", Some(&device)).await.status(), 401);
    }
    assert_eq!(env.login_from("owner", PASSWORD, "/", "10.7.0.1", Some(&device)).await.status(), 429);
    env.cleanup().await;
}

#[tokio::test]
async fn one_addresss_failures_do_not_hold_an_owner_behind_it_with_a_device() {
    let env = TestEnv::new().await;
    env.account("behind").await;
    let device = device_cookie(&env.login("behind", PASSWORD, "/", "10.8.0.1").await);
    for i in 0..5 {
        env.account(&format!("shared{i}")).await;
        assert_eq!(env.login(&format!("shared{i}"), "Wrong12345", "/", "10.8.0.1").await.status(), 401);
    }
    assert_eq!(env.login("behind", PASSWORD, "/", "10.8.0.1").await.status(), 429);
    assert_eq!(env.login_from("behind", PASSWORD, "/", "10.8.0.1", Some(&device)).await.status(), 303);
    env.cleanup().await;
}

#[tokio::test]
async fn the_sixth_failed_login_in_a_window_is_429_per_account_and_per_address() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    for attempt in 1..=5 {
        let address = format!("10.1.0.{attempt}");
        assert_eq!(env.login("jane", "Wrong12345", "/", &address).await.status(), 401, "attempt {attempt}");
    }
    // The sixth, from yet another address and even with the right password: the account is held.
    assert_eq!(env.login("jane", PASSWORD, "/", "10.1.0.6").await.status(), 429);

    // Per address: five failures on five accounts from one address hold the address.
    for i in 0..5 {
        env.account(&format!("user{i}")).await;
        assert_eq!(env.login(&format!("user{i}"), "Wrong12345", "/", "10.2.0.1").await.status(), 401);
    }
    env.account("fresh").await;
    assert_eq!(env.login("fresh", PASSWORD, "/", "10.2.0.1").await.status(), 429);
    assert_eq!(env.login("fresh", PASSWORD, "/", "10.2.0.2").await.status(), 303);
    env.cleanup().await;
}

#[tokio::test]
async fn refresh_rotates_and_the_reuse_of_a_rotated_token_revokes_the_family() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let first = env.session("jane").await;
    let second: TokenResponse = refresh(&env, &first.refresh_token).await.json().await.unwrap();
    assert_ne!(second.refresh_token, first.refresh_token);
    assert_eq!(second.session_id, first.session_id);
    let third: TokenResponse = refresh(&env, &second.refresh_token).await.json().await.unwrap();

    // Reuse of the first: refused, and the family dies with it.
    let reuse = refresh(&env, &first.refresh_token).await;
    assert_eq!(reuse.status(), 401);
    assert_eq!(reuse.json::<Value>().await.unwrap()["error"], "invalid_grant");
    assert_eq!(refresh(&env, &third.refresh_token).await.status(), 401);
    let ended: i64 = env
        .scalar(
            "select count(*) from event where event_type = 'SignedOut' and payload->>'reason' = 'refresh_token_reused'",
        )
        .await;
    assert_eq!(ended, 1);
    // A refresh token works only on its own host.
    let other = env.session("jane").await;
    let elsewhere = env
        .http
        .post(env.url("/internal/oidc/refresh"))
        .service_auth("profile")
        .json(&json!({ "refreshToken": other.refresh_token, "audience": "tushy.localhost" }))
        .send()
        .await
        .unwrap();
    assert_eq!(elsewhere.status(), 401);
    env.cleanup().await;
}

#[tokio::test]
async fn a_token_presented_again_within_the_grace_keeps_the_session_until_its_successor_is_used() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let first = env.session("jane").await;
    let second: TokenResponse = refresh(&env, &first.refresh_token).await.json().await.unwrap();
    // Another tab, or a retry after a lost answer: refused as in progress, nothing revoked.
    for _ in 0..2 {
        let again = refresh(&env, &first.refresh_token).await;
        assert_eq!(again.status(), 409);
        assert_eq!(again.json::<Value>().await.unwrap()["error"], "refresh_in_progress");
    }
    let revoked: i64 = env.scalar("select count(*) from session_family where revoked_at is not null").await;
    assert_eq!(revoked, 0);
    let third: TokenResponse = refresh(&env, &second.refresh_token).await.json().await.unwrap();
    assert_eq!(third.session_id, first.session_id);
    // Its successor is used now: the first token again is a copy, and ends the family.
    assert_eq!(refresh(&env, &first.refresh_token).await.status(), 401);
    assert_eq!(refresh(&env, &third.refresh_token).await.status(), 401);

    // The same happens concurrently: two refreshes of one token at once keep the session.
    let fresh = env.session("jane").await;
    let (a, b) = tokio::join!(refresh(&env, &fresh.refresh_token), refresh(&env, &fresh.refresh_token));
    let mut statuses = [a.status().as_u16(), b.status().as_u16()];
    statuses.sort();
    assert_eq!(statuses, [200, 409]);
    let winner: TokenResponse = if a.status() == 200 { a.json().await.unwrap() } else { b.json().await.unwrap() };
    assert_eq!(refresh(&env, &winner.refresh_token).await.status(), 200);
    env.cleanup().await;
}

#[tokio::test]
async fn a_token_presented_again_after_the_grace_ends_the_family() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let first = env.session("jane").await;
    let second: TokenResponse = refresh(&env, &first.refresh_token).await.json().await.unwrap();
    // The successor is unused, but the rotation is older than the grace (30 s by default).
    sqlx::query(
        "update refresh_token set rotated_at = rotated_at - interval '31 seconds' where rotated_at is not null",
    )
    .execute(&env.pool)
    .await
    .unwrap();
    let reuse = refresh(&env, &first.refresh_token).await;
    assert_eq!(reuse.status(), 401);
    assert_eq!(reuse.json::<Value>().await.unwrap()["error"], "invalid_grant");
    assert_eq!(refresh(&env, &second.refresh_token).await.status(), 401, "the whole family is revoked");
    env.cleanup().await;
}

#[tokio::test]
async fn logout_ends_one_session_and_logout_everywhere_ends_all() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let (a, b, c) = (env.session("jane").await, env.session("jane").await, env.session("jane").await);
    let out = env
        .http
        .post(env.url("/internal/oidc/logout"))
        .service_auth("profile")
        .json(&json!({ "refreshToken": a.refresh_token }))
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 200);
    assert_eq!(refresh(&env, &a.refresh_token).await.status(), 401);
    assert_eq!(refresh(&env, &b.refresh_token).await.status(), 200);
    let everywhere = env
        .http
        .post(env.url("/internal/oidc/logout"))
        .service_auth("profile")
        .json(&json!({ "refreshToken": c.refresh_token, "everywhere": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(everywhere.status(), 200);
    let b2 = env.session("jane").await;
    assert_eq!(refresh(&env, &c.refresh_token).await.status(), 401);
    // b's newest token was rotated by the refresh above; any of its family is dead now.
    let live: i64 = env
        .scalar(&format!(
            "select count(*) from session_family where revoked_at is null and session_id <> '{}'",
            b2.session_id
        ))
        .await;
    assert_eq!(live, 0);
    env.cleanup().await;
}

#[tokio::test]
async fn the_sessions_ended_within_an_access_tokens_life_are_listed_and_their_events_name_them() {
    let env = TestEnv::new().await;
    let jane = env.account("jane").await;
    let (a, b, c) = (env.session("jane").await, env.session("jane").await, env.session("jane").await);
    let client = profile::client::ProfileClient::new(&env.base);
    assert!(client.revoked_sessions().await.unwrap().sessions.is_empty());
    let out = env
        .http
        .post(env.url("/internal/oidc/logout"))
        .service_auth("profile")
        .json(&json!({ "refreshToken": a.refresh_token, "everywhere": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 200);
    let list = client.revoked_sessions().await.unwrap();
    assert_eq!(list.access_token_ttl_secs, env.state.config.access_ttl.as_secs());
    let mut listed: Vec<_> = list.sessions.iter().map(|s| s.session_id).collect();
    listed.sort();
    let mut ended = vec![a.session_id, b.session_id, c.session_id];
    ended.sort();
    assert_eq!(listed, ended);
    // The event names the sessions it ended, for the gateways that refuse their tokens.
    let payload: Value =
        sqlx::query_scalar("select payload from event where stream_id = $1 and event_type = 'SessionsRevoked'")
            .bind(proto_events::profile::stream_id(jane))
            .fetch_one(&env.pool)
            .await
            .unwrap();
    let mut named: Vec<uuid::Uuid> = serde_json::from_value(payload["session_ids"].clone()).unwrap();
    named.sort();
    assert_eq!(named, ended);
    // A session ended longer ago than an access token lives is not listed any more.
    sqlx::query("update session_family set revoked_at = now() - interval '1 hour' where session_id = $1")
        .bind(a.session_id)
        .execute(&env.pool)
        .await
        .unwrap();
    let listed = client.revoked_sessions().await.unwrap().sessions;
    assert!(listed.iter().all(|s| s.session_id != a.session_id) && listed.len() == 2, "{listed:?}");
    env.cleanup().await;
}

#[tokio::test]
async fn an_autologin_token_works_once() {
    let env = TestEnv::new().await;
    let user = env.account("jane").await;
    let issued: profile::api::AutologinIssued = env
        .http
        .post(env.url("/internal/autologin-tokens"))
        .service_auth("profile")
        .json(&json!({ "userId": user, "site": "vixen" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let redeem = || {
        env.http
            .post(env.url("/internal/oidc/autologin"))
            .service_auth("profile")
            .json(&json!({ "alToken": issued.al_token, "audience": "vixen.localhost" }))
            .send()
    };
    // Another brand's host cannot redeem it, and the attempt spends it.
    let stolen: profile::api::AutologinIssued = env
        .http
        .post(env.url("/internal/autologin-tokens"))
        .service_auth("profile")
        .json(&json!({ "userId": user, "site": "vixen" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let redeem_at = |token: String, audience: &'static str| {
        env.http
            .post(env.url("/internal/oidc/autologin"))
            .service_auth("profile")
            .json(&json!({ "alToken": token, "audience": audience }))
            .send()
    };
    assert_eq!(redeem_at(stolen.al_token.clone(), "tushy.localhost").await.unwrap().status(), 401);
    assert_eq!(redeem_at(stolen.al_token, "vixen.localhost").await.unwrap().status(), 401);

    let first = redeem().await.unwrap();
    assert_eq!(first.status(), 200);
    let tokens: TokenResponse = first.json().await.unwrap();
    assert_eq!(tokens.user_id, user);
    assert_eq!(redeem().await.unwrap().status(), 401);
    let unknown = env
        .http
        .post(env.url("/internal/autologin-tokens"))
        .service_auth("profile")
        .json(&json!({ "userId": uuid::Uuid::now_v7(), "site": "vixen" }))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);
    env.cleanup().await;
}

#[tokio::test]
async fn only_a_service_token_for_the_profile_service_gets_an_autologin_token() {
    let env = TestEnv::new().await;
    let jane = env.account("janeal").await;
    env.account("malloryal").await;
    let mallory = env.session("malloryal").await;
    let ask = |token: Option<String>| {
        let mut request = env.http.post(env.url("/internal/autologin-tokens"));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        request.json(&json!({ "userId": jane, "site": "vixen" })).send()
    };
    // No token, a user's own access token, a service token meant for the wallet: no sign-in.
    assert_eq!(ask(None).await.unwrap().status(), 401);
    assert_eq!(ask(Some(mallory.access_token.clone())).await.unwrap().status(), 403);
    let for_wallet = runtime::testing::service_token("wallet");
    assert_eq!(ask(Some(for_wallet)).await.unwrap().status(), 401);
    // The e-mails of `/internal/users` are not a member's to read either.
    let emails = env.http.get(env.url(&format!("/internal/users?ids={jane}"))).bearer_auth(&mallory.access_token);
    assert_eq!(emails.send().await.unwrap().status(), 403);
    // The subscription service's call, with its token for the profile service, gets one.
    let issued = ask(Some(runtime::testing::service_token("profile"))).await.unwrap();
    assert_eq!(issued.status(), 200);
    env.cleanup().await;
}

#[tokio::test]
async fn a_password_change_ends_the_other_sessions_and_keeps_this_one() {
    let env = TestEnv::new().await;
    env.account("jane").await;
    let (mine, other) = (env.session("jane").await, env.session("jane").await);
    let change = |old, new, confirm| env.change_password(&mine.access_token, old, new, confirm);
    let wrong = change("Nope12345", "Better12345", "Better12345").await;
    assert_eq!(wrong.status(), 422);
    let body: Value = wrong.json().await.unwrap();
    assert_eq!(
        (body["code"].as_str(), body["message"].as_str()),
        (Some("OLD_PASSWORD_INCORRECT"), Some("old password incorrect"))
    );
    let body: Value = change(PASSWORD, "Better12345", "Better12346").await.json().await.unwrap();
    assert_eq!(body["message"], "confirmation does not match");
    let body: Value = change(PASSWORD, "bad pass!", "bad pass!").await.json().await.unwrap();
    assert_eq!(body["message"], "new password not secure");

    assert_eq!(change(PASSWORD, "Better12345", "Better12345").await.status(), 200);
    assert_eq!(refresh(&env, &other.refresh_token).await.status(), 401);
    assert_eq!(refresh(&env, &mine.refresh_token).await.status(), 200);
    assert_eq!(env.login("jane", PASSWORD, "/", "10.3.0.1").await.status(), 401);
    assert_eq!(env.login("jane", "Better12345", "/", "10.3.0.1").await.status(), 303);
    env.cleanup().await;
}

#[tokio::test]
async fn wrong_old_passwords_meet_the_accounts_limit_and_a_right_one_is_not_counted() {
    let env = TestEnv::new().await;
    env.account("guessed").await;
    let session = env.session("guessed").await;
    // The confirmation never matches: a right old password is refused for it.
    let change = |old| env.change_password(&session.access_token, old, "Better12345", "Better12346");
    // A right old password (refused for its confirmation) takes back its reservation.
    for _ in 0..6 {
        let body: Value = change(PASSWORD).await.json().await.unwrap();
        assert_eq!(body["message"], "confirmation does not match");
    }
    for n in 0..5 {
        let guess = format!("Guess{n}12345");
        let wrong = env.change_password(&session.access_token, &guess, "Better12345", "Better12346").await;
        assert_eq!(wrong.status(), 422, "guess {n}");
    }
    for _ in 0..3 {
        let refused = change("Guess512345").await;
        assert_eq!(refused.status(), 429);
        let body: Value = refused.json().await.unwrap();
        assert_eq!(
            (body["code"].as_str(), body["message"].as_str()),
            (Some("TOO_MANY_ATTEMPTS"), Some(profile::http::CHANGE_PASSWORD_TOO_MANY_MESSAGE))
        );
    }
    // The right password is not checked either while the account is held.
    assert_eq!(change(PASSWORD).await.status(), 429);
    env.cleanup().await;
}

#[tokio::test]
async fn sign_in_and_change_password_share_one_count_and_each_failure_past_five_waits_longer() {
    let env = TestEnv::new().await;
    env.account("shared").await;
    let session = env.session("shared").await;
    let change = |old| env.change_password(&session.access_token, old, "Better12345", "Better12345");
    // Three wrong old passwords and two wrong sign-ins from elsewhere: five on one count.
    for n in 0..3 {
        let guess = format!("Guess{n}12345");
        let wrong = env.change_password(&session.access_token, &guess, "Better12345", "Better12345").await;
        assert_eq!(wrong.status(), 422, "guess {n}");
    }
    for n in 0..2 {
        assert_eq!(env.login("shared", "Wrong12345", "/", &format!("10.9.0.{n}")).await.status(), 401);
    }
    // The sixth waits the first delay, on either door, with the right password too.
    let held = env.login("shared", PASSWORD, "/", "10.9.1.1").await;
    assert_eq!(held.status(), 429);
    let wait: u64 = held.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=2).contains(&wait), "{wait}");
    assert_eq!(change(PASSWORD).await.status(), 429);
    // After the delay one more attempt is checked; its failure doubles the next delay.
    tokio::time::sleep(profile::sessions::limiter::FIRST_DELAY + std::time::Duration::from_millis(200)).await;
    assert_eq!(env.login("shared", "Wrong12345", "/", "10.9.1.2").await.status(), 401);
    let held = env.login("shared", PASSWORD, "/", "10.9.1.3").await;
    assert_eq!(held.status(), 429);
    let wait: u64 = held.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((3..=4).contains(&wait), "{wait}");
    env.cleanup().await;
}

#[tokio::test]
async fn a_cross_site_switch_gives_a_code_for_the_other_brand_and_parent_redirect_takes_an_id_token_once() {
    let env = TestEnv::new().await;
    let user = env.account("jane").await;
    let tokens = env.session("jane").await;
    let redirect: profile::api::Redirect = env
        .http
        .post(env.url("/internal/oidc/xsite"))
        .bearer_auth(&tokens.access_token)
        .json(&json!({ "site": "tushy", "deeplink": "/videos" }))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(redirect.location.starts_with("http://tushy.localhost:8080/oidc/callback?code="), "{}", redirect.location);
    assert!(redirect.location.ends_with("&uri=%2Fvideos"));
    let exchanged = env
        .http
        .post(env.url("/internal/oidc/token"))
        .service_auth("profile")
        .json(&json!({ "code": code_of(&redirect.location), "audience": "tushy.localhost" }))
        .send()
        .await
        .unwrap();
    let tushy: TokenResponse = exchanged.json().await.unwrap();
    assert_eq!((tushy.user_id, tushy.tenant.as_str()), (user, "tushy"));

    let parent = |audience: &'static str| {
        env.http
            .post(env.url("/internal/oidc/parent-redirect"))
            .service_auth("profile")
            .json(&json!({ "idToken": tokens.id_token, "audience": audience }))
            .send()
    };
    // An id token of the vixen host signs in on the vixen host only.
    assert_eq!(parent("blacked.localhost").await.unwrap().status(), 401);
    let again = parent("vixen.localhost").await.unwrap();
    assert_eq!(again.status(), 200);
    assert_eq!(again.json::<TokenResponse>().await.unwrap().tenant, "vixen");
    assert_eq!(parent("vixen.localhost").await.unwrap().status(), 401);
    // An access token is no id token.
    let access_as_id = env
        .http
        .post(env.url("/internal/oidc/parent-redirect"))
        .service_auth("profile")
        .json(&json!({ "idToken": tokens.access_token, "audience": "vixen.localhost" }))
        .send()
        .await
        .unwrap();
    assert_eq!(access_as_id.status(), 401);
    env.cleanup().await;
}

#[tokio::test]
async fn refreshes_past_the_per_account_limit_are_429_over_all_sessions_and_parallel_ones_cannot_pass_it() {
    let env = TestEnv::with_config("http://{brand}.localhost:8080", |c| c.refresh_max = 4).await;
    env.account("jane").await;
    env.account("john").await;
    // Two sessions of jane share her limit: 2 + 2 refreshes pass.
    let (mut a, mut b) = (env.session("jane").await, env.session("jane").await);
    for _ in 0..2 {
        a = refresh(&env, &a.refresh_token).await.json().await.unwrap();
        b = refresh(&env, &b.refresh_token).await.json().await.unwrap();
    }
    let refused = refresh(&env, &a.refresh_token).await;
    assert_eq!(refused.status(), 429);
    assert_eq!(refused.json::<Value>().await.unwrap()["error"], "too_many_refreshes");
    // The refused refresh rotated nothing: the session is intact, just paused.
    let revoked: i64 = env.scalar("select count(*) from session_family where revoked_at is not null").await;
    assert_eq!(revoked, 0);
    // Another user is not affected.
    let john = env.session("john").await;
    assert_eq!(refresh(&env, &john.refresh_token).await.status(), 200);

    // Parallel refreshes of many sessions: no more than the limit pass.
    let env2 = TestEnv::with_config("http://{brand}.localhost:8080", |c| c.refresh_max = 4).await;
    env2.account("jane").await;
    let mut sessions = Vec::new();
    for _ in 0..10 {
        sessions.push(env2.session("jane").await);
    }
    let answers = futures::future::join_all(sessions.iter().map(|s| refresh(&env2, &s.refresh_token))).await;
    let passed = answers.iter().filter(|r| r.status() == 200).count();
    let limited = answers.iter().filter(|r| r.status() == 429).count();
    assert_eq!((passed, limited), (4, 6));
    env.cleanup().await;
    env2.cleanup().await;
}
