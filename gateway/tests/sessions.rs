//! Ending a session ends its access tokens on every brand host within seconds, through the
//! real gateway and profile service: the profile's events go out through its relay to the real
//! broker, and the gateway's revocation set follows them (gateway/src/revocations.rs). A token
//! of an ended session answers UNAUTHENTICATED, as an expired one does, and the browser's
//! refresh then fails with invalid_grant. A gateway started afterwards loads the ended sessions
//! from the profile service and refuses them at once.

mod support;

use std::time::{Duration, Instant};

use reqwest::{header, StatusCode};
use serde_json::{json, Value};
use support::{
    codes, short,
    stack::{Options, Stack},
};
use uuid::Uuid;

const VIXEN: &str = "vixen.localhost:8080";
const TUSHY: &str = "tushy.localhost:8080";
const PASSWORD: &str = "Secret12345";
/// The bound: a revocation takes effect on every brand host within 5 s.
const WITHIN: Duration = Duration::from_secs(5);

async fn stack() -> Stack {
    Stack::start(Options { follow_sessions: true, ..Default::default() }).await
}

/// A user with an account, signed in on both brand hosts: (user, vixen cookies, tushy cookies).
async fn signed_in_twice(stack: &Stack) -> (Uuid, Vec<String>, Vec<String>) {
    let user = Uuid::now_v7();
    stack.account(user, "vixen").await;
    let login = format!("u{}", &user.simple().to_string()[20..]);
    let vixen = stack.sign_in(&login, PASSWORD, VIXEN).await;
    let tushy = stack.sign_in(&login, PASSWORD, TUSHY).await;
    (user, vixen, tushy)
}

fn access(cookies: &[String]) -> &str {
    cookies[0].strip_prefix("paysite_at=").expect("the access cookie first")
}

const WHO: &str = "{ findOneUserProfile { userId } }";

/// Whether the gateway on `host` takes the access token: its answer's error codes.
async fn ask(gw: &support::Gateway, host: &str, token: &str) -> Vec<String> {
    let (status, body) = gw.post(host, json!({ "query": WHO }), Some(token)).await;
    assert_eq!(status, StatusCode::OK, "{}", short(&body));
    codes(&body)
}

async fn accepted(gw: &support::Gateway, host: &str, token: &str) {
    let codes = ask(gw, host, token).await;
    assert!(codes.is_empty(), "the token works on {host}: {codes:?}");
}

/// Polls until the token is refused; answers how long that took (at most [`WITHIN`]).
async fn refused_within(gw: &support::Gateway, host: &str, token: &str) -> Duration {
    let start = Instant::now();
    loop {
        let codes = ask(gw, host, token).await;
        if codes == ["UNAUTHENTICATED"] {
            return start.elapsed();
        }
        assert!(codes.is_empty(), "{codes:?}");
        assert!(start.elapsed() < WITHIN, "the token still works on {host} after {:?}", start.elapsed());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `GET /api/refresh` on `host` with the cookies: the browser's refresh path.
async fn refresh(stack: &Stack, host: &str, cookies: &[String]) -> (StatusCode, Value) {
    let response = stack
        .gw
        .client
        .get(format!("{}/api/refresh", stack.gw.base))
        .header(header::HOST, host)
        .header(header::COOKIE, cookies.join("; "))
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap_or_default())
}

async fn logout(stack: &Stack, host: &str, cookies: &[String], everywhere: bool) {
    let path = if everywhere { "/logout?everywhere=true" } else { "/logout" };
    let response = stack
        .gw
        .client
        .post(format!("{}{path}", stack.gw.base))
        .header(header::HOST, host)
        .header(header::COOKIE, cookies.join("; "))
        .header(header::CONTENT_TYPE, "application/json")
        .header("x-paysite-csrf", "1")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_logout_refuses_that_sessions_token_within_seconds_and_a_restarted_gateway_too() {
    let stack = stack().await;
    let (_, vixen, tushy) = signed_in_twice(&stack).await;
    accepted(&stack.gw, VIXEN, access(&vixen)).await;
    accepted(&stack.gw, TUSHY, access(&tushy)).await;

    // Another tab of the vixen host still holds the access token when this one logs out.
    logout(&stack, VIXEN, &vixen, false).await;
    let took = refused_within(&stack.gw, VIXEN, access(&vixen)).await;
    println!("refused {took:?} after the logout");
    // The browser's refresh path then ends in invalid_grant.
    let (status, body) = refresh(&stack, VIXEN, &vixen).await;
    assert_eq!((status, &body["error"]), (StatusCode::UNAUTHORIZED, &json!("invalid_grant")));
    // The session of the other host is another one: it goes on.
    accepted(&stack.gw, TUSHY, access(&tushy)).await;

    // A gateway started now is not blind: it loads the ended sessions from the profile.
    let profile_url = stack.profile_url.clone();
    let upstreams = gateway::graphql::Upstreams::with_base(move |name, _| match name {
        "profile" => profile_url.clone(),
        _ => "http://127.0.0.1:9".to_owned(),
    });
    let second = support::spawn_with(upstreams, stack.gw.signer.clone()).await;
    let source = gateway::revocations::Source::from_settings(&stack.profile.settings);
    let cancel = tokio_util::sync::CancellationToken::new();
    gateway::follow_sessions(&second.state, source, cancel.clone()).await;
    assert!(second.state.revocations.is_loaded(), "the list was loaded");
    assert_eq!(ask(&second, VIXEN, access(&vixen)).await, ["UNAUTHENTICATED"], "refused at once");
    cancel.cancel();
    stack.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_logout_everywhere_refuses_the_other_hosts_token_within_seconds() {
    let stack = stack().await;
    let (_, vixen, tushy) = signed_in_twice(&stack).await;
    accepted(&stack.gw, TUSHY, access(&tushy)).await;
    logout(&stack, VIXEN, &vixen, true).await;
    let took = refused_within(&stack.gw, TUSHY, access(&tushy)).await;
    println!("refused {took:?} after the logout everywhere");
    assert_eq!(ask(&stack.gw, VIXEN, access(&vixen)).await, ["UNAUTHENTICATED"]);
    let (status, body) = refresh(&stack, TUSHY, &tushy).await;
    assert_eq!((status, &body["error"]), (StatusCode::UNAUTHORIZED, &json!("invalid_grant")));
    stack.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_password_change_refuses_the_other_sessions_tokens_within_seconds_and_keeps_its_own() {
    let stack = stack().await;
    let (_, vixen, tushy) = signed_in_twice(&stack).await;
    accepted(&stack.gw, TUSHY, access(&tushy)).await;
    let change = "mutation { changePassword(oldPassword: \"Secret12345\", newPassword: \"Another12345\", \
                  confirmPassword: \"Another12345\") { userId } }";
    let (_, body) = stack.gw.post(VIXEN, json!({ "query": change }), Some(access(&vixen))).await;
    assert!(codes(&body).is_empty(), "{}", short(&body));
    let took = refused_within(&stack.gw, TUSHY, access(&tushy)).await;
    println!("refused {took:?} after the password change");
    let (status, _) = refresh(&stack, TUSHY, &tushy).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    // The session that changed the password stays, token and refresh alike.
    accepted(&stack.gw, VIXEN, access(&vixen)).await;
    let (status, body) = refresh(&stack, VIXEN, &vixen).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    stack.cleanup().await;
}
