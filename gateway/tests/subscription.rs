//! Subscriptions and billing through the gateway, answered by the real subscription service
//! (and, for the welcome check, the real profile service), each in its own scratch schema:
//! the billers' postbacks passed through the brand host with their signatures intact, the
//! light subscription read, the welcome check after a signup, one-click purchases with
//! consent and idempotency keys, retention and the card update, and who may do what.

mod support;

use chrono::Utc;
use gateway::graphql::Upstreams;
use profile::config::{Argon2Cost, ProfileConfig};
use proto_events::subscription::MembershipKind;
use reqwest::StatusCode;
use runtime::testing::ServiceAuth;
use runtime::{auth::Signer, testing::Scratch};
use serde_json::{json, Value};
use subscription::billers::{self, Outgoing, SignedRequest};
use subscription::domain::Step;
use support::{codes, short, spawn_with, Gateway};
use uuid::Uuid;

const HOST: &str = "vixen.localhost:8080";

struct Env {
    scratch: Scratch,
    profile_scratch: Scratch,
    sandbox_scratch: Scratch,
    catalog_scratch: Option<Scratch>,
    profile: profile::client::ProfileClient,
    state: subscription::State,
    subscription_url: String,
    sandbox_url: String,
    gw: Gateway,
}

async fn serve(app: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = app.layer(axum::middleware::from_fn(runtime::http::correlate));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

/// The key every service of the test signs and checks access tokens with (the profile's
/// configured key, so the profile service accepts the gateway's tokens too).
const SEED: [u8; 32] = [7; 32];

async fn env() -> Env {
    env_with(false).await
}

/// The profile and subscription services, the biller sandbox (as the payments host) and, when
/// asked, the seeded catalog, on free ports, and a gateway in front of them.
async fn env_with(with_catalog: bool) -> Env {
    use base64::Engine;
    let profile_scratch = Scratch::new(&[("profile", &profile::MIGRATIONS)], 4).await;
    let profile_config = ProfileConfig {
        argon2: Argon2Cost { memory_kib: 256, iterations: 1, parallelism: 1 },
        projections_queue: format!("{}.profile", profile_scratch.schema),
        signing_key: Some(runtime::Secret::new(base64::engine::general_purpose::STANDARD.encode(SEED))),
        ..ProfileConfig::default()
    };
    let profile_state =
        profile::State::load(profile_scratch.pool.clone(), profile_scratch.store.clone(), profile_config)
            .await
            .unwrap();
    let profile_url = serve(profile::router(profile_state)).await;

    let scratch = Scratch::new(&[("subscription", &subscription::MIGRATIONS)], 8).await;
    let mut config = subscription::BillingConfig::from_lookup(|_| None, false).unwrap();
    config.profiles_queue = format!("{}.profiles", scratch.schema);
    let signer = Signer::from_seed(profile::keys::CONFIGURED_KID, SEED);
    let state = subscription::State::new(
        scratch.pool.clone(),
        scratch.store.clone(),
        config,
        profile::client::ProfileClient::new(profile_url.clone()),
        signer.verifier(),
    );
    let subscription_url = serve(subscription::router(state.clone())).await;

    let sandbox_scratch = Scratch::new(&[("sandbox", &biller_sandbox::MIGRATIONS)], 2).await;
    let sandbox = biller_sandbox::Sandbox::new(
        sandbox_scratch.pool.clone(),
        subscription::BillingConfig::from_lookup(|_| None, false).unwrap(),
        subscription_url.clone(),
        biller_sandbox::DEFAULT_BRAND_ORIGIN.to_owned(),
    );
    let sandbox_url = serve(biller_sandbox::router(sandbox)).await;

    let (catalog_scratch, catalog_url) = if with_catalog {
        let scratch = Scratch::new(&[("catalog", &catalog::MIGRATIONS)], 4).await;
        let ctx = runtime::service::ServiceContext {
            pool: scratch.pool.clone(),
            store: scratch.store.clone(),
            settings: scratch.settings.clone(),
        };
        catalog::SERVICE.seed.expect("the catalog seeds")(ctx).await.unwrap();
        let catalog_state = catalog::AppState::new(
            scratch.pool.clone(),
            scratch.store.clone(),
            signer.verifier(),
            catalog::CatalogConfig::default(),
        );
        let url = serve(catalog::router(catalog_state)).await;
        (Some(scratch), url)
    } else {
        (None, "http://127.0.0.1:9".to_owned())
    };

    let upstreams = Upstreams::with_base(|name, _| match name {
        "subscription" => subscription_url.clone(),
        "profile" => profile_url.clone(),
        "payments" => sandbox_url.clone(),
        "catalog" => catalog_url.clone(),
        _ => "http://127.0.0.1:9".to_owned(),
    });
    Env {
        scratch,
        profile_scratch,
        sandbox_scratch,
        catalog_scratch,
        profile: profile::client::ProfileClient::new(profile_url),
        state,
        subscription_url,
        sandbox_url,
        gw: spawn_with(upstreams, signer).await,
    }
}

impl Env {
    fn token(&self, user: Uuid) -> String {
        self.gw.token(user, "vixen.localhost", "vixen")
    }

    async fn gql(&self, query: &str, variables: Value, token: Option<&str>) -> Value {
        let (status, body) = self.gw.post(HOST, json!({ "query": query, "variables": variables }), token).await;
        assert_eq!(status, StatusCode::OK, "{}", short(&body));
        body
    }

    fn signed(&self, biller: &str, out: &Outgoing) -> SignedRequest {
        billers::encode(&self.state.config.billers[biller], out, Utc::now().timestamp())
    }

    /// A signed request sent to the brand host's biller door: status and answer text.
    async fn send(&self, biller: &str, request: &SignedRequest) -> (u16, String) {
        let mut r = self
            .gw
            .client
            .post(format!("{}/billers/{biller}/postback", self.gw.base))
            .header(reqwest::header::HOST, HOST)
            .header(reqwest::header::CONTENT_TYPE, request.content_type)
            .body(request.body.clone());
        if let Some(h) = &request.signature_header {
            r = r.header(billers::SIGNATURE_HEADER, h);
        }
        let response = r.send().await.unwrap();
        (response.status().as_u16(), response.text().await.unwrap())
    }

    async fn postback(&self, biller: &str, out: &Outgoing) -> (u16, String) {
        self.send(biller, &self.signed(biller, out)).await
    }

    async fn count(&self, sql: &str) -> i64 {
        sqlx::query_scalar(sql).fetch_one(&self.scratch.pool).await.unwrap()
    }

    async fn cleanup(self) {
        self.scratch.cleanup().await;
        self.profile_scratch.cleanup().await;
        self.sandbox_scratch.cleanup().await;
        if let Some(c) = self.catalog_scratch {
            c.cleanup().await;
        }
    }

    /// A profile account (so the gateway can read the user's e-mail).
    async fn account(&self, email: &str) -> Uuid {
        let request = profile::api::CreateAccountRequest {
            user_id: Some(Uuid::now_v7()),
            username: None,
            password: "Secret12345".into(),
            password_hash: None,
            email: email.into(),
            site: "vixen".into(),
            biller: None,
            tandem_parent_user_id: None,
            vip_invited: false,
        };
        self.profile.create_account(&request).await.unwrap().user_id
    }

    /// A raw POST to the brand host with the user's session cookie.
    async fn raw_post(&self, path: &str, token: Option<&str>, content_type: &str, body: String) -> reqwest::Response {
        let mut r = self
            .gw
            .client
            .post(format!("{}{path}", self.gw.base))
            .header(reqwest::header::HOST, HOST)
            .header(reqwest::header::CONTENT_TYPE, content_type)
            .header("x-paysite-csrf", "1")
            .body(body);
        if let Some(t) = token {
            r = r.header(reqwest::header::COOKIE, format!("paysite_at={t}"));
        }
        r.send().await.unwrap()
    }
}

fn member() -> Step {
    Step::Initial { kind: MembershipKind::Member, free_limited_trial: false }
}

/// A postback of `step` for `user` on vixen.
fn out(reference: &str, tx: &str, step: Step, user: Uuid) -> Outgoing {
    Outgoing::vixen(reference, tx, step, user, "NATS-AFF-42")
}

const LIGHT: &str = "{ getUserSubscription { siteAccessArray tenantsSubscriptionState billerName
    subscription { type subscriptionType biller pornPortal active isActive activeSince joinDate seniority
                   xSiteInfo { site } cancelled isFreeLimitedTrial upgradeOptions { isUpgradeableToVixenPlusYearly } } } }";

#[tokio::test]
async fn a_postback_through_the_brand_host_keeps_its_signature_and_opens_the_light_read() {
    let env = env().await;
    let user = Uuid::now_v7();
    let token = env.token(user);
    // No subscription yet: the default porn-portal, inactive.
    let before = env.gql(LIGHT, json!({}), Some(&token)).await;
    assert_eq!(before["data"]["getUserSubscription"]["subscription"]["type"], "porn-portal", "{}", short(&before));
    assert_eq!(before["data"]["getUserSubscription"]["subscription"]["isActive"], false);

    // Each biller format passes the gateway untouched, answered with its OK text, repeats once.
    let signed = env.signed("EPOCH", &out("E-1", "E-1-I", member(), user));
    let first = env.send("EPOCH", &signed).await;
    assert_eq!(first.0, 200, "{first:?}");
    assert_eq!(env.send("EPOCH", &signed).await, first, "a repeat answers the same");
    for (biller, reference) in [("SEGPAY", "S-1"), ("VXNBILL", "V-1")] {
        let other = Uuid::now_v7();
        let (status, text) = env.postback(biller, &out(reference, &format!("{reference}-I"), member(), other)).await;
        assert_eq!(status, 200, "{biller}: {text}");
        assert_eq!(text, env.state.config.billers[biller].ok_text, "{biller}");
    }
    assert_eq!(env.count("select count(*) from postback").await, 3);
    // The raw body arrived byte for byte.
    let raw: String = sqlx::query_scalar("select raw_body from postback where transaction_id = 'E-1-I'")
        .fetch_one(&env.scratch.pool)
        .await
        .unwrap();
    assert_eq!(raw.as_bytes(), &signed.body[..]);

    // Forged, unsigned and unknown-biller postbacks are refused by the service behind.
    let mut forged = env.signed("VXNBILL", &out("V-2", "V-2-I", member(), user));
    forged.signature_header = forged.signature_header.map(|h| h.replace('a', "b").replace('1', "2"));
    assert_eq!(env.send("VXNBILL", &forged).await.0, 401);
    let mut unsigned = env.signed("VXNBILL", &out("V-3", "V-3-I", member(), user));
    unsigned.signature_header = None;
    assert_eq!(env.send("VXNBILL", &unsigned).await.0, 401);
    assert_eq!(env.send("NOPE", &signed).await.0, 404);
    assert_eq!(env.send("epoch", &signed).await.0, 404, "only biller names reach the service");
    assert_eq!(env.count("select count(*) from postback").await, 3);

    let after = env.gql(LIGHT, json!({}), Some(&token)).await;
    let light = &after["data"]["getUserSubscription"];
    assert_eq!(light["siteAccessArray"], json!(["vixen"]), "{}", short(&after));
    assert_eq!(light["tenantsSubscriptionState"]["vixen"], "full");
    assert_eq!(light["tenantsSubscriptionState"]["tushy"], "none");
    assert_eq!(light["tenantsSubscriptionState"]["channels"], "full");
    assert_eq!(light["billerName"], "EPOCH");
    assert_eq!(light["subscription"]["type"], "member");
    assert_eq!(light["subscription"]["isActive"], true);
    assert_eq!(light["subscription"]["cancelled"], false);
    assert_eq!(light["subscription"]["upgradeOptions"]["isUpgradeableToVixenPlusYearly"], true);

    // Signed out, the read is refused.
    assert_eq!(codes(&env.gql(LIGHT, json!({}), None).await), ["UNAUTHENTICATED"]);
    env.cleanup().await;
}

const MULTISITE: &str = "mutation($key: String!, $consent: Boolean!, $option: Int!) {
    internalUpsellOneclickMultisite(optionId: $option, ref: \"2\", elm: \"hdr\", multisiteNatsCode: \"NATS-MS\",
        tracking: { marketing: { src: \"bar\" } }, consent: $consent, idempotencyKey: $key) {
        success location username memberId hashedMemberId } }";

#[tokio::test]
async fn a_one_click_multisite_purchase_needs_consent_and_charges_once_per_key() {
    let env = env().await;
    let user = Uuid::now_v7();
    let token = env.token(user);
    let vars = json!({ "key": "gw-k-1", "consent": true, "option": 3045 });
    // Eight at once (the upsell limit is ten a minute per account).
    let answers = futures::future::join_all((0..8).map(|_| env.gql(MULTISITE, vars.clone(), Some(&token)))).await;
    let first = &answers[0];
    let bought = &first["data"]["internalUpsellOneclickMultisite"];
    assert_eq!(bought["success"], true, "{}", short(first));
    assert!(bought["memberId"].as_str().unwrap().starts_with("RGN-"));
    assert!(answers.iter().all(|a| a == first), "the same key answers the same");
    assert_eq!(env.count("select count(*) from postback").await, 1, "one charge");

    let light = env.gql(LIGHT, json!({}), Some(&token)).await;
    assert!(light["data"]["getUserSubscription"]["siteAccessArray"].as_array().unwrap().len() > 1, "{}", short(&light));

    // The same key with another body, no consent, an empty key, signed out: refused.
    let other = env.gql(MULTISITE, json!({ "key": "gw-k-1", "consent": true, "option": 3046 }), Some(&token)).await;
    assert_eq!(codes(&other), ["IDEMPOTENCY_KEY_REUSED"]);
    let no_consent = env.gql(MULTISITE, json!({ "key": "gw-k-2", "consent": false, "option": 3045 }), None).await;
    assert_eq!(codes(&no_consent), ["UNAUTHENTICATED"]);
    let no_consent =
        env.gql(MULTISITE, json!({ "key": "gw-k-2", "consent": false, "option": 3045 }), Some(&token)).await;
    assert_eq!(codes(&no_consent), ["CONSENT_REQUIRED"]);
    let no_key = env.gql(MULTISITE, json!({ "key": " ", "consent": true, "option": 3045 }), Some(&token)).await;
    assert_eq!(codes(&no_key), ["BAD_USER_INPUT"]);
    // Ten purchases a minute per account: the eleventh is refused before any charge.
    let limited = env.gql(MULTISITE, json!({ "key": "gw-k-3", "consent": true, "option": 3045 }), Some(&token)).await;
    assert_eq!(codes(&limited), ["RATE_LIMITED"]);
    assert_eq!(env.count("select count(*) from postback").await, 1);
    env.cleanup().await;
}

#[tokio::test]
async fn a_single_site_purchase_and_the_trial_upgrade_act_for_the_signed_in_user() {
    let env = env().await;
    let user = Uuid::now_v7();
    let token = env.token(user);
    let single = "mutation($key: String!) { internalUpsellOneclickSinglesite(joinOptionId: 10301, siteName: \"vixen\",
        natsCode: \"NATS-1\", consent: true, idempotencyKey: $key) { success location } }";
    let answer = env.gql(single, json!({ "key": "s-1" }), Some(&token)).await;
    assert_eq!(answer["data"]["internalUpsellOneclickSinglesite"]["success"], true, "{}", short(&answer));
    let light = env.gql(LIGHT, json!({}), Some(&token)).await;
    assert_eq!(light["data"]["getUserSubscription"]["siteAccessArray"], json!(["vixen"]));

    // A trial member upgrades at the fixed price; a member has no trial to upgrade.
    let trialist = Uuid::now_v7();
    let trial = Step::Initial { kind: MembershipKind::Trial, free_limited_trial: false };
    assert_eq!(env.postback("EPOCH", &out("T-1", "T-1-I", trial, trialist)).await.0, 200);
    let upgrade =
        "mutation($key: String!) { internalUpsellTrialUpgrade(ref: \"5\", consent: true, idempotencyKey: $key)
        { success location } }";
    let answer = env.gql(upgrade, json!({ "key": "u-1" }), Some(&env.token(trialist))).await;
    assert_eq!(answer["data"]["internalUpsellTrialUpgrade"]["success"], true, "{}", short(&answer));
    let light = env.gql(LIGHT, json!({}), Some(&env.token(trialist))).await;
    assert_eq!(light["data"]["getUserSubscription"]["subscription"]["type"], "member", "{}", short(&light));
    let refused = env.gql(upgrade, json!({ "key": "u-2" }), Some(&token)).await;
    assert_eq!(codes(&refused), ["NO_TRIAL_TO_UPGRADE"]);
    env.cleanup().await;
}

const OFFER: &str = "query($user: UUID) { getRetentionOffer(userUuid: $user) { name currencies
    displayRules { priceRange { min max } rebillPeriod sites subscriptionType brands }
    deal { newPrice offeredGems } currentRebillAmount currentRebillCurrency } }";

const REACTIVATE: &str = "mutation($user: UUID!, $price: String) {
    reactivateCancelledRebill(userUuid: $user, retentionOfferName: \"stay-half-price\", deal: { newPrice: $price }) {
        success subscription { subscription { cancelled isActive } } } }";

#[tokio::test]
async fn retention_acts_only_on_the_users_own_cancelled_rebill() {
    let env = env().await;
    let user = Uuid::now_v7();
    let token = env.token(user);
    assert_eq!(env.postback("RGNATIVE", &out("RG-1", "RG-1-I", member(), user)).await.0, 200);
    let none = env.gql(OFFER, json!({ "user": user }), Some(&token)).await;
    assert_eq!(none["data"]["getRetentionOffer"], Value::Null, "no offer while it rebills: {}", short(&none));

    let cancel = "mutation { cancelSubscription { success subscription { subscription { cancelled isActive } } } }";
    let cancelled = env.gql(cancel, json!({}), Some(&token)).await;
    let change = &cancelled["data"]["cancelSubscription"];
    assert_eq!(change["subscription"]["subscription"], json!({ "cancelled": true, "isActive": true }));

    let offer = env.gql(OFFER, json!({ "user": user }), Some(&token)).await;
    let offer = &offer["data"]["getRetentionOffer"];
    assert_eq!(offer["name"], "stay-half-price");
    assert_eq!(offer["deal"]["newPrice"], "14.95");
    assert_eq!(
        (offer["currentRebillAmount"].as_str(), offer["currentRebillCurrency"].as_str()),
        (Some("29.95"), Some("USD"))
    );
    assert_eq!(offer["displayRules"]["rebillPeriod"], 30);

    // Someone else's uuid is refused before any call; signed out too.
    let theirs = Uuid::now_v7();
    assert_eq!(codes(&env.gql(OFFER, json!({ "user": theirs }), Some(&token)).await), ["FORBIDDEN"]);
    assert_eq!(codes(&env.gql(OFFER, json!({ "user": user }), None).await), ["UNAUTHENTICATED"]);
    let refused = env.gql(REACTIVATE, json!({ "user": theirs, "price": "14.95" }), Some(&token)).await;
    assert_eq!(codes(&refused), ["FORBIDDEN"]);
    // The wrong deal is refused with the flash; the offer's deal reactivates once.
    let wrong = env.gql(REACTIVATE, json!({ "user": user, "price": "1.00" }), Some(&token)).await;
    assert_eq!(codes(&wrong), ["DEAL_MISMATCH"]);
    assert_eq!(
        wrong["errors"][0]["extensions"]["flash"],
        "reactivate_cancelled_rebill_modal.reactivate_cancelled_rebill_failed"
    );
    let done = env.gql(REACTIVATE, json!({ "user": user, "price": "14.95" }), Some(&token)).await;
    let done = &done["data"]["reactivateCancelledRebill"];
    assert_eq!(done["success"], true);
    assert_eq!(done["subscription"]["subscription"], json!({ "cancelled": false, "isActive": true }));
    let again = env.gql(REACTIVATE, json!({ "user": user, "price": "14.95" }), Some(&token)).await;
    assert_eq!(codes(&again), ["NOTHING_TO_REACTIVATE"]);
    env.cleanup().await;
}

#[tokio::test]
async fn a_card_update_url_only_for_the_vxnbill_path() {
    let env = env().await;
    let (vxn, epoch) = (Uuid::now_v7(), Uuid::now_v7());
    assert_eq!(env.postback("VXNBILL", &out("V-9", "V-9-I", member(), vxn)).await.0, 200);
    assert_eq!(env.postback("EPOCH", &out("E-9", "E-9-I", member(), epoch)).await.0, 200);
    let query = "{ creditCardUpdate { url } }";
    let answer = env.gql(query, json!({}), Some(&env.token(vxn))).await;
    let url = answer["data"]["creditCardUpdate"]["url"].as_str().unwrap_or_default();
    assert!(url.contains("/card-update/VXNBILL?member=V-9"), "{}", short(&answer));
    let refused = env.gql(query, json!({}), Some(&env.token(epoch))).await;
    assert_eq!(codes(&refused), ["UPDATE_CREDIT_CARD_ERROR"]);
    assert_eq!(refused["errors"][0]["extensions"]["flash"], "account.update_credit_card_error");
    env.cleanup().await;
}

const WELCOME: &str = "query($member: String!, $hashed: String!) {
    welcomeCheck(site: \"VIXEN\", memberId: $member, hashedMemberId: $hashed) {
        memberid hashedMemberId username siteId isWelcome isTrial autologinId traffikJunkyTransactionId } }";

#[tokio::test]
async fn the_welcome_check_follows_a_signup_from_pending_to_welcome() {
    let env = env().await;
    let join = json!({ "site": "vixen", "email": "gw.joiner@example.com", "password": "Secret12345",
                       "username": "gwjoiner", "joinOptionId": 10302, "paymentOption": "CENTROBILL" });
    let started: Value = runtime::tls::client()
        .post(format!("{}/internal/joins", env.subscription_url))
        .service_auth("subscription")
        .json(&join)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let location = started["location"].as_str().unwrap();
    let query = billers::parse_form(location.split_once('?').unwrap().1.as_bytes()).unwrap();
    let signup_id: Uuid = query["signupId"].parse().unwrap();
    let hashed = subscription::joins::hashed_member_id(&env.state.config, "CENTROBILL", "CB-GW-1").unwrap();
    let vars = json!({ "member": "CB-GW-1", "hashed": hashed });

    // The redirect can beat the postback: not welcome yet.
    let pending = env.gql(WELCOME, vars.clone(), None).await;
    assert_eq!(pending["data"]["welcomeCheck"]["isWelcome"], false, "{}", short(&pending));
    // A forged hash is not found.
    let forged = env.gql(WELCOME, json!({ "member": "CB-GW-1", "hashed": "0".repeat(32) }), None).await;
    assert_eq!(codes(&forged), ["NOT_FOUND"]);

    let approval = Outgoing {
        subscription_ref: "CB-GW-1".into(),
        transaction_id: "CB-GW-1-1".into(),
        step: Ok(Step::Initial { kind: MembershipKind::Trial, free_limited_trial: false }),
        site: Some("vixen".into()),
        join_option_id: Some(10302),
        email: None,
        username: None,
        user_id: None,
        signup_id: Some(signup_id),
        nats_code: None,
    };
    let (status, text) = env.postback("CENTROBILL", &approval).await;
    assert_eq!(status, 200, "{text}");
    let welcome = env.gql(WELCOME, vars, None).await;
    let w = &welcome["data"]["welcomeCheck"];
    assert_eq!(w["isWelcome"], true, "{}", short(&welcome));
    assert_eq!(w["isTrial"], true);
    assert_eq!(w["username"], "gwjoiner");
    assert_eq!(w["memberid"], "CB-GW-1");
    assert_eq!(w["traffikJunkyTransactionId"], "CB-GW-1-1");
    assert!(w["autologinId"].as_str().is_some_and(|a| !a.is_empty()), "{}", short(&welcome));
    env.cleanup().await;
}

const JOIN_OPTIONS: &str = "{ joinOptions { site siteId joinOptions { id site kind title price currency
    rebillPrice rebillPeriodDays trialDays paymentOptions } trialUpgrade { price currency rebillPeriodDays }
    multisiteUpsellJoinOptionId } }";

const JOIN: &str = "mutation($input: JoinInput!) { join(input: $input) { signupId location } }";

fn join_input(email: &str, password: &str, option: u32, biller: &str) -> Value {
    json!({ "input": { "email": email, "password": password, "username": "gqljoiner", "joinOptionId": option,
                       "paymentOption": biller, "ref": "home", "elm": "header", "nats": "MC4wLjEuMA" } })
}

#[tokio::test]
async fn a_visitor_joins_through_the_gateway_and_the_sandbox_and_is_welcomed() {
    let env = env().await;
    // The host's brand's options first, then the default package's, with the trial upgrade price.
    let options = env.gql(JOIN_OPTIONS, json!({}), None).await;
    let o = &options["data"]["joinOptions"];
    assert_eq!(o["site"], "vixen", "{}", short(&options));
    let ids: Vec<u64> = o["joinOptions"].as_array().unwrap().iter().map(|j| j["id"].as_u64().unwrap()).collect();
    assert_eq!(&ids[..4], [10301, 10302, 10303, 10312]);
    assert!(ids.contains(&2901), "the default multisite package's options follow: {ids:?}");
    assert!(o["joinOptions"][0]["paymentOptions"].as_array().unwrap().contains(&json!("EPOCH")));
    assert!(o["trialUpgrade"]["price"].as_str().is_some_and(|p| !p.is_empty()));
    // The purchase modal's multisite package is the service's configured one.
    assert_eq!(o["multisiteUpsellJoinOptionId"], env.state.config.multisite_upsell_join_option_id);

    // Every product.md, "Validation rules" rule answers its message, and records nothing.
    for (input, code, message) in [
        (
            join_input("not-an-email", "Secret12345", 10301, "EPOCH"),
            "INVALID_EMAIL",
            profile::validation::INVALID_EMAIL_MESSAGE,
        ),
        (
            join_input("a@example.com", "short", 10301, "EPOCH"),
            "INVALID_PASSWORD",
            profile::validation::PASSWORD_RULE_MESSAGE,
        ),
        (join_input("a@example.com", "Secret12345", 999_999, "EPOCH"), "INVALID_JOIN_OPTION", "Invalid join option"),
        (
            join_input("a@example.com", "Secret12345", 10201, "EPOCH"),
            "MEMBERSHIP_UNAVAILABLE",
            "Membership unavailable",
        ),
        (
            join_input("a@example.com", "Secret12345", 10301, "SPIZOO"),
            "INVALID_PAYMENT_OPTION",
            "Invalid payment option",
        ),
    ] {
        let refused = env.gql(JOIN, input, None).await;
        assert_eq!(codes(&refused), [code], "{}", short(&refused));
        assert_eq!(refused["errors"][0]["message"], message);
    }
    // A signed-in caller is not a visitor: the join form is not theirs.
    let signed_in = env.token(Uuid::now_v7());
    let refused = env.gql(JOIN, join_input("b@example.com", "Secret12345", 10301, "EPOCH"), Some(&signed_in)).await;
    assert_eq!(codes(&refused), ["ALREADY_SIGNED_IN"], "{}", short(&refused));
    assert_eq!(env.count("select count(*) from signup").await, 0);

    // A valid form: the signup is recorded and the browser goes to the biller's payment page.
    let started = env.gql(JOIN, join_input("GQL.Joiner@Example.com", "Secret12345", 10301, "EPOCH"), None).await;
    let location = started["data"]["join"]["location"].as_str().unwrap_or_else(|| panic!("{}", short(&started)));
    let (page, query) = location.split_once('?').unwrap();
    assert!(page.ends_with("/pay/EPOCH"), "{location}");
    let fields = billers::parse_form(query.as_bytes()).unwrap();
    assert_eq!(fields["email"], "gql.joiner@example.com");
    assert_eq!(fields["nats"], "MC4wLjEuMA");
    assert_eq!(env.count("select count(*) from signup where ref = 'home' and elm = 'header'").await, 1);

    // The sandbox approves: the signed postback makes the account, the browser comes back welcomed.
    let mut form: Vec<(&str, &str)> =
        ["signupId", "site", "joinOptionId", "username", "nats"].iter().map(|k| (*k, fields[*k].as_str())).collect();
    form.push(("outcome", "approve"));
    let no_redirects = runtime::tls::client_builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let body: Vec<String> = form.iter().map(|(k, v)| format!("{k}={}", billers::form_encode(v))).collect();
    let decided = no_redirects
        .post(format!("{}/pay/EPOCH", env.sandbox_url))
        .header(reqwest::header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(body.join("&"))
        .send()
        .await
        .unwrap();
    assert_eq!(decided.status(), StatusCode::SEE_OTHER);
    let back = decided.headers()[reqwest::header::LOCATION].to_str().unwrap().to_owned();
    assert!(back.contains("/_signupsuccess?memberid="), "{back}");
    let welcome = billers::parse_form(back.split_once('?').unwrap().1.as_bytes()).unwrap();
    assert_eq!(welcome["username"], "gqljoiner");
    let vars = json!({ "member": welcome["memberid"], "hashed": welcome["hashedMemberId"] });
    let checked = env.gql(WELCOME, vars, None).await;
    let w = &checked["data"]["welcomeCheck"];
    assert_eq!((w["isWelcome"].as_bool(), w["isTrial"].as_bool()), (Some(true), Some(false)), "{}", short(&checked));
    assert!(w["autologinId"].as_str().is_some_and(|a| !a.is_empty()));

    // The same member through /_signup-extern/{biller}'s API: the welcome data; a forged hash is a 400 (signup denied).
    let extern_get = |hashed: String| {
        let url = format!(
            "{}/api/_signup-extern/epoch?memberid={}&hashedMemberId={hashed}&username=x",
            env.gw.base,
            billers::form_encode(&welcome["memberid"])
        );
        env.gw.client.get(url).header(reqwest::header::HOST, HOST).send()
    };
    let answered = extern_get(welcome["hashedMemberId"].clone()).await.unwrap();
    assert_eq!(answered.status(), StatusCode::OK);
    let body: Value = answered.json().await.unwrap();
    assert_eq!(body["data"]["memberid"], welcome["memberid"].as_str());
    assert_eq!(body["data"]["isWelcome"], true, "{}", short(&body));
    let forged = extern_get("0".repeat(32)).await.unwrap();
    assert_eq!(forged.status(), StatusCode::BAD_REQUEST);
    env.cleanup().await;
}

#[tokio::test]
async fn join_forms_are_limited_per_address() {
    let env = env().await;
    let mut codes_seen = Vec::new();
    for _ in 0..(gateway::graphql::limits::Bucket::Join.limit() + 1) {
        let refused = env.gql(JOIN, join_input("flood@example.com", "short", 10301, "EPOCH"), None).await;
        codes_seen.extend(codes(&refused));
    }
    assert_eq!(codes_seen.iter().filter(|c| *c == "INVALID_PASSWORD").count(), 10);
    assert_eq!(codes_seen.last().map(String::as_str), Some("RATE_LIMITED"));
    // Another address is not held back.
    let other = env.gql(JOIN, join_input("other@example.com", "short", 10301, "EPOCH"), None).await;
    assert_eq!(codes(&other), ["INVALID_PASSWORD"]);
    env.cleanup().await;
}

const OUTGOING: &str = "mutation($confirm: Boolean!, $member: String, $fallback: String) {
    outgoingUpsellOneclick(epochUpsellId: \"4201\", segpayUpsellId: \"4202\", rgUpsellId: \"4203\",
        fallbackUrl: $fallback, memberLink: $member, clickId: \"gas-1\", confirmationRequired: $confirm, site: \"vixen\") {
        success redirectUrl redirectToConfirmationStep
        confirmationModal { price { initial recurring } title description component } } }";

const TRACKING: &str =
    "mutation($status: Boolean!) { outgoingUpsellOneclickTracking(status: $status) { success redirectUrl } }";

#[tokio::test]
async fn an_outgoing_upsell_confirms_sells_once_and_tracks_its_outcome_with_a_cookie() {
    let env = env().await;
    let user = Uuid::now_v7();
    let token = env.token(user);
    assert_eq!(env.postback("EPOCH", &out("E-UP", "E-UP-I", member(), user)).await.0, 200);
    let member_link = "https://sandbox-cams.example.com/members?welcome=1";
    let fallback = "/_upsell_signupdenial";

    // Confirmation first: the modal, nothing sold.
    let vars = json!({ "confirm": true, "member": member_link, "fallback": fallback });
    let confirm = env.gql(OUTGOING, vars, Some(&token)).await;
    let c = &confirm["data"]["outgoingUpsellOneclick"];
    assert_eq!(c["redirectToConfirmationStep"], true, "{}", short(&confirm));
    assert_eq!(c["success"], false);
    assert_eq!(c["confirmationModal"]["price"], json!({ "initial": "1.00", "recurring": "29.95" }));
    assert_eq!(c["confirmationModal"]["component"], "ConfirmOutgoingUpsell");
    assert_eq!(env.count("select count(*) from outgoing_upsell").await, 0);

    // Confirmed: sold under the EPOCH upsell id, once however often asked.
    let vars = json!({ "confirm": false, "member": member_link, "fallback": fallback });
    for _ in 0..2 {
        let sold = env.gql(OUTGOING, vars.clone(), Some(&token)).await;
        let s = &sold["data"]["outgoingUpsellOneclick"];
        assert_eq!(
            (s["success"].as_bool(), s["redirectUrl"].as_str()),
            (Some(true), Some(member_link)),
            "{}",
            short(&sold)
        );
    }
    let sales: Vec<(String, String, String)> =
        sqlx::query_as("select biller, upsell_id, offer from outgoing_upsell where status = 'charged'")
            .fetch_all(&env.scratch.pool)
            .await
            .unwrap();
    assert_eq!(sales, [("EPOCH".to_owned(), "4201".to_owned(), "sandbox-cams-premium".to_owned())]);

    // The success route: the member link, and the success cookie set to it.
    let response = env
        .raw_post(
            "/graphql",
            Some(&token),
            "application/json",
            json!({ "query": TRACKING, "variables": { "status": true } }).to_string(),
        )
        .await;
    let cookie = response.headers().get(reqwest::header::SET_COOKIE).map(|v| v.to_str().unwrap().to_owned());
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["data"]["outgoingUpsellOneclickTracking"]["redirectUrl"], member_link, "{}", short(&body));
    let cookie = cookie.expect("a cookie");
    assert!(cookie.starts_with("outgoing_upsell_oneclick_success=https%3A%2F%2Fsandbox-cams"), "{cookie}");
    assert!(cookie.contains("Max-Age=86400"), "{cookie}");

    // A member link off the partner's hosts is refused (no open redirect).
    let evil = json!({ "confirm": false, "member": "https://evil.example.com/", "fallback": fallback });
    assert_eq!(codes(&env.gql(OUTGOING, evil, Some(&token)).await), ["UNEXPECTED_LINK"]);
    let missing = json!({ "confirm": false, "member": null, "fallback": fallback });
    assert_eq!(codes(&env.gql(OUTGOING, missing, Some(&token)).await), ["MEMBER_LINK_MISSING"]);

    // Without a membership nothing is sold: the fallback, and the failure route's cookie.
    let stranger = env.token(Uuid::now_v7());
    let vars = json!({ "confirm": false, "member": "/videos", "fallback": fallback });
    let unsold = env.gql(OUTGOING, vars, Some(&stranger)).await;
    let u = &unsold["data"]["outgoingUpsellOneclick"];
    assert_eq!(
        (u["success"].as_bool(), u["redirectUrl"].as_str()),
        (Some(false), Some(fallback)),
        "{}",
        short(&unsold)
    );
    let response = env
        .raw_post(
            "/graphql",
            Some(&stranger),
            "application/json",
            json!({ "query": TRACKING, "variables": { "status": false } }).to_string(),
        )
        .await;
    let cookie = response.headers().get(reqwest::header::SET_COOKIE).map(|v| v.to_str().unwrap().to_owned());
    assert!(cookie.is_some_and(|c| c.starts_with("outgoing_upsell_oneclick_fallback=%2F_upsell_signupdenial")));
    assert_eq!(codes(&env.gql(TRACKING, json!({ "status": true }), None).await), ["UNAUTHENTICATED"]);
    env.cleanup().await;
}

#[tokio::test]
async fn the_cams_call_reaches_the_payments_host_with_the_users_email_and_brand() {
    let env = env().await;
    let user = env.account("cams.fan@example.com").await;
    let token = env.token(user);
    let path = "/api/payments/v1/outgoing-upsells-oneclick/cams";
    // The browser's e-mail and site are replaced by the signed-in user's and the host's.
    let body = json!({ "gas_cid": "click-7", "tour_link_code": "T1", "email": "someone.else@example.com", "siteName": "tushy" });
    // Nothing goes to the partner before the member agreed (CamsConsent).
    let response = env.raw_post(path, Some(&token), "application/json", body.to_string()).await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    let refusal: Value = response.json().await.unwrap();
    assert_eq!(refusal["code"], "CAMS_CONSENT_REQUIRED");
    // giveCamsConsent records it (the profile service's call; the GraphQL mutation answers the whole
    // profile, which needs services this test does not run).
    let call = runtime::client::CallContext {
        bearer: Some(token.clone()),
        tenant: Some("vixen".into()),
        correlation_id: None,
    };
    assert!(!env.profile.give_cams_consent(&call).await.unwrap().gdpr.should_request_cams_consent);
    let response = env.raw_post(path, Some(&token), "application/json", body.to_string()).await;
    assert_eq!(response.status(), StatusCode::OK);
    let answer: Value = response.json().await.unwrap();
    let url = answer["url"].as_str().unwrap();
    assert!(url.contains("/partners/cams?"), "{url}");
    assert!(url.contains("email=cams.fan%40example.com") && url.contains("site=vixen"), "{url}");
    assert!(url.contains("gas_cid=click-7") && url.contains("tour_link_code=T1"), "{url}");
    // Signed out: 401; not JSON: refused; the payments host refusing: its status passes.
    assert_eq!(env.raw_post(path, None, "application/json", "{}".into()).await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(
        env.raw_post(path, Some(&token), "application/x-www-form-urlencoded", "a=1".into()).await.status(),
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        env.raw_post(path, Some(&token), "application/json", "[1]".into()).await.status(),
        StatusCode::BAD_REQUEST
    );
    env.cleanup().await;
}

#[tokio::test]
async fn the_welcome_page_gets_a_picture_set_of_its_brand() {
    let env = env_with(true).await;
    let query = "query($site: String!) { getWelcomePagePictureSet(input: { site: $site }) {
        site images { src placeholder width height fileExtensions name highdpi { double triple } } } }";
    let answer = env.gql(query, json!({ "site": "VIXEN" }), None).await;
    let set = &answer["data"]["getWelcomePagePictureSet"];
    assert_eq!(set["site"], "VIXEN", "{}", short(&answer));
    let images = set["images"].as_array().unwrap();
    assert!(!images.is_empty() && images.len() <= 12, "{}", short(&answer));
    for image in images {
        assert!(image["src"].as_str().is_some_and(|s| !s.is_empty()));
        assert!(image["width"].as_u64().unwrap() > 0 && image["height"].as_u64().unwrap() > 0);
        assert!(image["highdpi"]["double"].as_str().is_some());
    }
    // Another brand's pictures are not this host's to give.
    assert_eq!(codes(&env.gql(query, json!({ "site": "TUSHY" }), None).await), ["BAD_USER_INPUT"]);
    env.cleanup().await;
}
