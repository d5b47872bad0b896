//! The whole join journey through the sandbox over real HTTP, with the real profile and
//! subscription services: join → payment page → approve → signed postback → account,
//! subscription, welcome data and autologin; decline → signup denied with the reason; and
//! rebill, cancel, chargeback on demand.

use profile::config::{Argon2Cost, ProfileConfig};
use runtime::testing::Scratch;
use runtime::testing::ServiceAuth;
use serde_json::{json, Value};
use subscription::BillingConfig;

struct Journey {
    scratches: Vec<Scratch>,
    subscription: String,
    sandbox: String,
    http: reqwest::Client,
}

async fn serve(app: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = app.layer(axum::middleware::from_fn(runtime::http::correlate));
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

impl Journey {
    async fn start() -> Journey {
        let profile_db = Scratch::new(&[("profile", &profile::MIGRATIONS)], 8).await;
        let config = ProfileConfig {
            argon2: Argon2Cost { memory_kib: 256, iterations: 1, parallelism: 1 },
            projections_queue: format!("{}.profile", profile_db.schema),
            ..ProfileConfig::default()
        };
        let profile_state =
            profile::State::load(profile_db.pool.clone(), profile_db.store.clone(), config).await.unwrap();
        let profile = serve(profile::router(profile_state)).await;

        // The sandbox's address is known before the subscription service is built.
        let sandbox_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let sandbox = format!("http://{}", sandbox_listener.local_addr().unwrap());

        let sub_db = Scratch::new(&[("subscription", &subscription::MIGRATIONS)], 8).await;
        let mut billing = BillingConfig::from_lookup(|_| None, false).unwrap();
        billing.sandbox_url = sandbox.clone();
        let signer = runtime::auth::Signer::generate("test");
        let sub_state = subscription::State::new(
            sub_db.pool.clone(),
            sub_db.store.clone(),
            billing.clone(),
            profile::client::ProfileClient::new(profile),
            signer.verifier(),
        );
        let subscription = serve(subscription::router(sub_state)).await;

        let sandbox_db = Scratch::new(&[("sandbox", &biller_sandbox::MIGRATIONS)], 4).await;
        let state = biller_sandbox::Sandbox::new(
            sandbox_db.pool.clone(),
            billing,
            subscription.clone(),
            "http://{brand}.localhost:8080".into(),
        );
        let app = biller_sandbox::router(state);
        tokio::spawn(async move { axum::serve(sandbox_listener, app).await });
        let http = runtime::tls::client_builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        Journey { scratches: vec![profile_db, sub_db, sandbox_db], subscription, sandbox, http }
    }

    async fn join(&self, email: &str, option: u32, biller: &str) -> String {
        let body = json!({ "site": "vixen", "email": email, "password": "Secret12345", "username": "journey",
                           "joinOptionId": option, "paymentOption": biller, "nats": "NATS-J" });
        let response = self
            .http
            .post(format!("{}/internal/joins", self.subscription))
            .service_auth("subscription")
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201);
        let answer: Value = response.json().await.unwrap();
        answer["location"].as_str().unwrap().to_owned()
    }

    /// Opens the payment page and submits it with `outcome`: the redirect's location.
    async fn pay(&self, location: &str, outcome: &str, reason: &str) -> String {
        assert!(location.starts_with(&self.sandbox), "{location}");
        let page = self.http.get(location).send().await.unwrap();
        assert_eq!(page.status(), 200);
        let html = page.text().await.unwrap();
        assert!(html.contains("Approve") && html.contains("Decline with reason"));
        let query = location.split_once('?').unwrap().1;
        let mut fields: Vec<(String, String)> =
            subscription::billers::parse_form(query.as_bytes()).unwrap().into_iter().collect();
        fields.push(("outcome".into(), outcome.into()));
        fields.push(("reason".into(), reason.into()));
        let action = location.split_once('?').unwrap().0;
        let body = subscription::billers::form_body(fields.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let response = self
            .http
            .post(action)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 303, "{}", response.text().await.unwrap_or_default());
        response.headers()["location"].to_str().unwrap().to_owned()
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        // As the gateway (a visitor's pages) or another service asks: with a service token.
        let response =
            self.http.get(format!("{}{path}", self.subscription)).service_auth("subscription").send().await.unwrap();
        (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
    }

    async fn cleanup(self) {
        for s in self.scratches {
            s.cleanup().await;
        }
    }
}

fn query_of(location: &str) -> std::collections::BTreeMap<String, String> {
    subscription::billers::parse_form(location.split_once('?').unwrap().1.as_bytes()).unwrap()
}

#[tokio::test]
async fn approve_makes_the_account_membership_welcome_and_autologin() {
    let j = Journey::start().await;
    let location = j.join("journey@example.com", 10301, "EPOCH").await;
    let landing = j.pay(&location, "approve", "").await;
    assert!(landing.starts_with("http://vixen.localhost:8080/_signupsuccess?"), "{landing}");
    let welcome = query_of(&landing);
    assert_eq!((welcome["username"].as_str(), welcome["siteId"].as_str()), ("journey", "103"));
    let (status, check) = j
        .get(&format!(
            "/internal/welcome-check?site=vixen&memberId={}&hashedMemberId={}",
            welcome["memberid"], welcome["hashedMemberId"]
        ))
        .await;
    assert_eq!(status, 200, "{check}");
    assert_eq!(check["isWelcome"], true);
    assert!(check["autologinId"].as_str().is_some_and(|t| t.len() > 10));
    // The subscription is the new account's, active; on demand: rebill, cancel, chargeback.
    let user: uuid::Uuid =
        sqlx::query_scalar("select user_id from signup").fetch_one(&j.scratches[1].pool).await.unwrap();
    let path = format!("/internal/users/{user}/subscription?tenant=vixen");
    assert_eq!(j.get(&path).await.1["subscription"]["type"], "member");
    for action in ["rebill", "cancel"] {
        let r = j
            .http
            .post(format!("{}/sandbox/members/{}/{action}", j.sandbox, welcome["memberid"]))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{action}");
    }
    let after = j.get(&path).await.1;
    assert_eq!(
        (after["subscription"]["cancelled"].as_bool(), after["subscription"]["isActive"].as_bool()),
        (Some(true), Some(true))
    );
    let r =
        j.http.post(format!("{}/sandbox/members/{}/chargeback", j.sandbox, welcome["memberid"])).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(j.get(&path).await.1["subscription"]["type"], "expired");
    let events: Vec<String> = sqlx::query_scalar("select event_type from event order by global_position")
        .fetch_all(&j.scratches[1].pool)
        .await
        .unwrap();
    assert_eq!(
        events,
        ["SubscriptionStarted", "SubscriptionRenewed", "SubscriptionCancelled", "SubscriptionChargedBack"]
    );
    j.cleanup().await;
}

#[tokio::test]
async fn decline_with_a_reason_lands_on_signup_denied() {
    let j = Journey::start().await;
    let location = j.join("declined@example.com", 10301, "SEGPAY").await;
    let landing = j.pay(&location, "decline-with-reason", "Card expired").await;
    assert!(landing.starts_with("http://vixen.localhost:8080/_signupdenial?"), "{landing}");
    assert_eq!(query_of(&landing)["reason"], "Card expired");
    let signup_id = query_of(&location)["signupId"].clone();
    let (_, signup) = j.get(&format!("/internal/signups/{signup_id}")).await;
    assert_eq!((signup["status"].as_str(), signup["reason"].as_str()), (Some("denied"), Some("Card expired")));
    // A plain decline too, on a trial with another biller.
    let location = j.join("declined2@example.com", 10302, "VXNBILL").await;
    let landing = j.pay(&location, "decline", "").await;
    assert_eq!(query_of(&landing)["reason"], "DECLINED");
    j.cleanup().await;
}

#[tokio::test]
async fn unknown_members_and_actions_are_not_found() {
    let j = Journey::start().await;
    let r = j.http.post(format!("{}/sandbox/members/SBX-nope/rebill", j.sandbox)).send().await.unwrap();
    assert_eq!(r.status(), 404);
    let r = j.http.post(format!("{}/sandbox/members/SBX-nope/explode", j.sandbox)).send().await.unwrap();
    assert_eq!(r.status(), 404);
    let r = j.http.get(format!("{}/card-update/VXNBILL?member=M1", j.sandbox)).send().await.unwrap();
    assert_eq!(r.status(), 200);
    j.cleanup().await;
}

#[tokio::test]
async fn the_payment_page_sends_the_browser_only_to_a_brand_of_the_platform() {
    let j = Journey::start().await;
    let location = j.join("redirect@example.com", 10301, "EPOCH").await;
    let query = location.split_once('?').unwrap().1;
    let mut fields: Vec<(String, String)> =
        subscription::billers::parse_form(query.as_bytes()).unwrap().into_iter().collect();
    for (k, v) in fields.iter_mut() {
        if k == "site" {
            *v = "evil.example#".into();
        }
    }
    fields.push(("outcome".into(), "approve".into()));
    let body = subscription::billers::form_body(fields.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let response = j
        .http
        .post(location.split_once('?').unwrap().0)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    assert!(response.headers().get("location").is_none());
    j.cleanup().await;
}
