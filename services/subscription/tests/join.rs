//! Join and account creation with the real profile service: the join form's checks, an
//! approved signup (account, subscription, welcome data, autologin), a declined one (denied
//! with the reason, signup-extern 400).

mod support;

use proto_events::subscription::SubscriptionEvent as E;
use serde_json::json;
use subscription::billers::Outgoing;
use subscription::domain::Step;
use support::TestEnv;

fn join(email: &str, option: u32, biller: &str) -> serde_json::Value {
    json!({ "site": "vixen", "email": email, "password": "Secret12345", "username": "newjoiner",
            "joinOptionId": option, "paymentOption": biller, "ref": "3", "elm": "hdr", "nats": "NATS-JOIN" })
}

fn query_value(location: &str, key: &str) -> String {
    let query = location.split_once('?').unwrap().1;
    let fields = subscription::billers::parse_form(query.as_bytes()).unwrap();
    fields[key].clone()
}

#[tokio::test]
async fn the_join_form_says_what_is_wrong() {
    let env = TestEnv::new().await;
    let cases = [
        (json!({ "email": "nope" }), "INVALID_EMAIL", "Invalid email address."),
        (json!({ "password": "short" }), "INVALID_PASSWORD", profile::validation::PASSWORD_RULE_MESSAGE),
        (json!({ "joinOptionId": 1 }), "INVALID_JOIN_OPTION", "Invalid join option"),
        (json!({ "paymentOption": "NOPE" }), "INVALID_PAYMENT_OPTION", "Invalid payment option"),
        (json!({ "joinOptionId": 10201 }), "MEMBERSHIP_UNAVAILABLE", "Membership unavailable"),
    ];
    for (change, code, message) in cases {
        let mut body = join("jo@example.com", 10301, "EPOCH");
        for (k, v) in change.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (status, refused) = env.post("/internal/joins", None, &body).await;
        assert_eq!((status, refused["code"].as_str(), refused["message"].as_str()), (422, Some(code), Some(message)));
    }
    // An e-mail with an account is told to log in.
    sqlx::query("insert into account (user_id, email) values ($1, 'known@example.com')")
        .bind(uuid::Uuid::now_v7())
        .execute(&env.pool)
        .await
        .unwrap();
    let (status, refused) = env.post("/internal/joins", None, &join("Known@Example.com", 10301, "EPOCH")).await;
    assert_eq!((status, refused["code"].as_str()), (422, Some("ACCOUNT_EXISTS_LOG_IN")));
    // Join options come with their example prices, the VP package last.
    let (status, options) = env.get("/internal/join-options?site=vixen", None).await;
    assert_eq!(status, 200);
    let options = options["joinOptions"].as_array().unwrap();
    assert_eq!(options[0]["price"], "29.95");
    assert!(options.iter().any(|o| o["site"] == "multisiteVP"));
    env.cleanup().await;
}

#[tokio::test]
async fn a_ujc_landing_credits_the_affiliate_code_of_the_kind_of_sale() {
    let env = TestEnv::with_profile().await;
    let with_codes = |email: &str, option: u32| {
        let mut body = join(email, option, "EPOCH");
        body.as_object_mut().unwrap().remove("nats");
        body["affCodeSingle"] = json!("AFF-SINGLE");
        body["affCodeMulti"] = json!("AFF-MULTI");
        body
    };
    // vixen's own option is a single-site sale; the VP package's is a multisite one.
    for (email, option, expected) in
        [("single@example.com", 10301, "AFF-SINGLE"), ("multi@example.com", 2901, "AFF-MULTI")]
    {
        let (status, started) = env.post("/internal/joins", None, &with_codes(email, option)).await;
        assert_eq!(status, 201, "{started}");
        let location = started["location"].as_str().unwrap();
        assert_eq!(query_value(location, "nats"), expected, "{location}");
        let signup_id: uuid::Uuid = query_value(location, "signupId").parse().unwrap();
        let kept: Option<String> = sqlx::query_scalar("select nats from signup where signup_id = $1")
            .bind(signup_id)
            .fetch_one(&env.pool)
            .await
            .unwrap();
        assert_eq!(kept.as_deref(), Some(expected));
    }
    // The join link's own nats value wins over a landing's code.
    let mut both = with_codes("both@example.com", 10301);
    both["nats"] = json!("NATS-LINK");
    let (_, started) = env.post("/internal/joins", None, &both).await;
    assert_eq!(query_value(started["location"].as_str().unwrap(), "nats"), "NATS-LINK");
    env.cleanup().await;
}

#[tokio::test]
async fn a_taken_username_is_refused_before_the_visitor_pays() {
    let env = TestEnv::with_profile().await;
    // An account with the username, made as a biller's approval makes one.
    let (status, started) = env.post("/internal/joins", None, &join("first@example.com", 10301, "SEGPAY")).await;
    assert_eq!(status, 201, "{started}");
    let signup_id: uuid::Uuid = query_value(started["location"].as_str().unwrap(), "signupId").parse().unwrap();
    let (_, approval) = decline_and_approval(signup_id);
    assert_eq!(env.postback("SEGPAY", &approval).await.0, 200);
    // The same username for another e-mail: the profile's 'already taken', and no signup is recorded.
    let (status, refused) = env.post("/internal/joins", None, &join("second@example.com", 10301, "EPOCH")).await;
    assert_eq!(
        (status, refused["code"].as_str(), refused["message"].as_str()),
        (422, Some("USERNAME_TAKEN"), Some(profile::validation::USERNAME_TAKEN_MESSAGE)),
        "{refused}"
    );
    let recorded: i64 = sqlx::query_scalar("select count(*) from signup where email = 'second@example.com'")
        .fetch_one(&env.pool)
        .await
        .unwrap();
    assert_eq!(recorded, 0);
    env.cleanup().await;
}

/// The join race: both visitors passed the form's check with one username; the second
/// approval still makes an account (the payment is kept), without the username, and its
/// welcome data says so and still signs the member in to choose another.
#[tokio::test]
async fn an_approval_whose_username_was_taken_meanwhile_keeps_the_payment_and_asks_for_another() {
    let env = TestEnv::with_profile().await;
    let (status, first) = env.post("/internal/joins", None, &join("racer.one@example.com", 10301, "SEGPAY")).await;
    assert_eq!(status, 201, "{first}");
    let (status, second) = env.post("/internal/joins", None, &join("racer.two@example.com", 10301, "SEGPAY")).await;
    assert_eq!(status, 201, "both pass the check while the username is free: {second}");
    let signup_of = |started: &serde_json::Value| -> uuid::Uuid {
        query_value(started["location"].as_str().unwrap(), "signupId").parse().unwrap()
    };
    let (first_id, second_id) = (signup_of(&first), signup_of(&second));
    let (_, approval) = decline_and_approval(second_id);
    assert_eq!(env.postback("SEGPAY", &approval).await.0, 200);
    let late = Outgoing { subscription_ref: "SP-LATE".into(), transaction_id: "SP-LATE-1".into(), ..approval.clone() };
    let late = Outgoing { signup_id: Some(first_id), ..late };
    // Taken now: the biller is still answered 200 (and again on a retry), never refused.
    for _ in 0..2 {
        let (status, answer) = env.postback("SEGPAY", &late).await;
        assert_eq!(status, 200, "{answer}");
    }
    let (_, signup) = env.get(&format!("/internal/signups/{first_id}"), None).await;
    assert_eq!(signup["status"], "approved", "{signup}");
    assert_eq!(signup["welcome"]["usernameLost"], true, "{signup}");
    let (_, other) = env.get(&format!("/internal/signups/{second_id}"), None).await;
    assert_eq!(other["welcome"]["usernameLost"], false, "{other}");
    // The account exists, with the membership and without a username.
    let user_id: uuid::Uuid = sqlx::query_scalar("select user_id from signup where signup_id = $1")
        .bind(first_id)
        .fetch_one(&env.pool)
        .await
        .unwrap();
    let users = env.profile_users(user_id).await;
    assert_eq!(users[0]["email"], "racer.one@example.com", "{users}");
    assert!(users[0]["username"].is_null(), "{users}");
    assert_eq!(env.read(user_id, "vixen").await["subscription"]["type"], "member");
    // The welcome link signs the member in, and says why a username is asked for.
    let path = format!(
        "/internal/welcome-check?site=vixen&memberId=SP-LATE&hashedMemberId={}",
        signup["welcome"]["hashedMemberId"].as_str().unwrap()
    );
    let (status, check) = env.get(&path, None).await;
    assert_eq!(status, 200, "{check}");
    assert!(check["autologinId"].as_str().is_some_and(|t| !t.is_empty()), "{check}");
    assert_eq!((check["usernameLost"].as_bool(), check["username"].as_str()), (Some(true), Some("newjoiner")));
    env.cleanup().await;
}

#[tokio::test]
async fn an_approved_signup_makes_the_account_the_membership_and_the_welcome() {
    let env = TestEnv::with_profile().await;
    let (status, started) =
        env.post("/internal/joins", None, &join("New.Joiner@Example.com", 10302, "CENTROBILL")).await;
    assert_eq!(status, 201, "{started}");
    let location = started["location"].as_str().unwrap();
    assert!(location.starts_with("http://127.0.0.1:8090/pay/CENTROBILL?"), "{location}");
    let signup_id: uuid::Uuid = query_value(location, "signupId").parse().unwrap();
    assert_eq!(query_value(location, "price"), "1.00");
    // While the biller decides, only the password's argon2id hash is kept.
    let held: Option<String> = sqlx::query_scalar("select password_hash from signup where signup_id = $1")
        .bind(signup_id)
        .fetch_one(&env.pool)
        .await
        .unwrap();
    let held = held.unwrap();
    assert!(profile::passwords::is_argon2id_hash(&held) && !held.contains("Secret12345"), "{held}");
    // The biller approves: its postback names the signup.
    let approval = Outgoing {
        subscription_ref: "CB-778".into(),
        transaction_id: "CB-778-1".into(),
        step: Ok(Step::Initial { kind: proto_events::subscription::MembershipKind::Trial, free_limited_trial: false }),
        site: Some("vixen".into()),
        join_option_id: Some(10302),
        email: None,
        username: None,
        user_id: None,
        signup_id: Some(signup_id),
        nats_code: None,
    };
    for _ in 0..3 {
        assert_eq!(env.postback("CENTROBILL", &approval).await.0, 200);
    }
    let (_, signup) = env.get(&format!("/internal/signups/{signup_id}"), None).await;
    assert_eq!(signup["status"], "approved");
    // The account reaches this service by event, later; a second join with the address is
    // already told to log in.
    let (status, again) = env.post("/internal/joins", None, &join("new.joiner@EXAMPLE.com", 10301, "EPOCH")).await;
    assert_eq!((status, again["code"].as_str()), (422, Some("ACCOUNT_EXISTS_LOG_IN")), "{again}");
    let welcome = &signup["welcome"];
    assert_eq!((welcome["memberid"].as_str(), welcome["isTrial"].as_bool()), (Some("CB-778"), Some(true)));
    assert_eq!(welcome["siteId"], 103);
    let stored_password: Option<String> = sqlx::query_scalar("select password_hash from signup where signup_id = $1")
        .bind(signup_id)
        .fetch_one(&env.pool)
        .await
        .unwrap();
    assert_eq!(stored_password, None, "the password is not kept once the account exists");
    // The account is the profile's, with the signup's user id; the subscription is that user's.
    let user_id = match &env.events().await[..] {
        [E::SubscriptionStarted { user_id, nats_code, .. }] => {
            assert_eq!(nats_code.as_deref(), Some("NATS-JOIN"));
            *user_id
        }
        other => panic!("{other:?}"),
    };
    let users = env.profile_users(user_id).await;
    assert_eq!(users[0]["email"], "new.joiner@example.com", "{users}");
    assert_eq!(env.read(user_id, "vixen").await["subscription"]["type"], "trial");
    // welcomeCheck gives the autologin id the home page redeems.
    let path = format!(
        "/internal/welcome-check?site=vixen&memberId=CB-778&hashedMemberId={}",
        welcome["hashedMemberId"].as_str().unwrap()
    );
    let (status, check) = env.get(&path, None).await;
    assert_eq!(status, 200, "{check}");
    assert!(check["autologinId"].as_str().is_some_and(|t| !t.is_empty()));
    assert_eq!((check["isWelcome"].as_bool(), check["isTrial"].as_bool()), (Some(true), Some(true)));
    assert_eq!(check["traffikJunkyTransactionId"], "CB-778-1");
    // The token is issued once: the same link again, or naming another brand, answers the
    // welcome data without one.
    let (status, again) = env.get(&path, None).await;
    assert_eq!(status, 200, "{again}");
    assert!(again["autologinId"].is_null(), "{again}");
    assert_eq!((again["isWelcome"].as_bool(), again["memberid"].as_str()), (Some(true), Some("CB-778")));
    let (status, elsewhere) = env.get(&path.replace("site=vixen", "site=tushy"), None).await;
    assert_eq!(status, 200, "{elsewhere}");
    assert!(elsewhere["autologinId"].is_null(), "{elsewhere}");
    // An hour after the approval the link no longer signs in (it sits in the browser's history).
    sqlx::query("update signup set decided_at = decided_at - interval '61 minutes' where member_id = 'CB-778'")
        .execute(&env.pool)
        .await
        .unwrap();
    let (status, stale) = env.get(&path, None).await;
    assert_eq!(status, 200, "{stale}");
    assert!(stale["autologinId"].is_null(), "{stale}");
    assert_eq!(stale["isWelcome"], true);
    // A forged hash is nobody.
    let (status, _) = env.get("/internal/welcome-check?site=vixen&memberId=CB-778&hashedMemberId=00", None).await;
    assert_eq!(status, 404);
    env.cleanup().await;
}

#[tokio::test]
async fn a_declined_signup_is_denied_with_the_reason() {
    let env = TestEnv::with_profile().await;
    let (_, started) = env.post("/internal/joins", None, &join("declined@example.com", 10301, "SEGPAY")).await;
    let signup_id: uuid::Uuid = query_value(started["location"].as_str().unwrap(), "signupId").parse().unwrap();
    let decline = Outgoing {
        subscription_ref: "SP-DEN".into(),
        transaction_id: "SP-DEN-1".into(),
        step: Err("Card expired".into()),
        site: Some("vixen".into()),
        join_option_id: Some(10301),
        email: None,
        username: None,
        user_id: None,
        signup_id: Some(signup_id),
        nats_code: None,
    };
    let (status, text) = env.postback("SEGPAY", &decline).await;
    assert_eq!((status, text.as_str()), (200, "OK"));
    let (_, signup) = env.get(&format!("/internal/signups/{signup_id}"), None).await;
    assert_eq!((signup["status"].as_str(), signup["reason"].as_str()), (Some("denied"), Some("Card expired")));
    assert_eq!(signup["welcome"]["isWelcome"], false);
    let hashed = subscription::joins::hashed_member_id(&env.state.config, "SEGPAY", "SP-DEN").unwrap();
    let (status, denied) =
        env.get(&format!("/internal/signup-extern/segpay?memberId=SP-DEN&hashedMemberId={hashed}"), None).await;
    assert_eq!(
        (status, denied["code"].as_str(), denied["reason"].as_str()),
        (400, Some("SIGNUP_DENIED"), Some("Card expired"))
    );
    assert!(env.events().await.is_empty());
    env.cleanup().await;
}

/// A decline and an approval for one signup, as the biller sends them.
fn decline_and_approval(signup_id: uuid::Uuid) -> (Outgoing, Outgoing) {
    let decline = Outgoing {
        subscription_ref: "SP-OOO".into(),
        transaction_id: "SP-OOO-1".into(),
        step: Err("Do not honor".into()),
        site: Some("vixen".into()),
        join_option_id: Some(10301),
        email: None,
        username: None,
        user_id: None,
        signup_id: Some(signup_id),
        nats_code: None,
    };
    let approval = Outgoing {
        transaction_id: "SP-OOO-2".into(),
        step: Ok(Step::Initial { kind: proto_events::subscription::MembershipKind::Member, free_limited_trial: false }),
        ..decline.clone()
    };
    (decline, approval)
}

#[tokio::test]
async fn an_approval_and_a_decline_of_one_signup_end_approved_in_either_order() {
    let env = TestEnv::with_profile().await;
    let mut accounts = Vec::new();
    for (n, approval_first) in [(0, false), (1, true)] {
        let email = format!("out.of.order{n}@example.com");
        let mut body = join(&email, 10301, "SEGPAY");
        body["username"] = json!(format!("outoforder{n}"));
        let (status, started) = env.post("/internal/joins", None, &body).await;
        assert_eq!(status, 201, "{started}");
        let signup_id: uuid::Uuid = query_value(started["location"].as_str().unwrap(), "signupId").parse().unwrap();
        let (mut decline, mut approval) = decline_and_approval(signup_id);
        for o in [&mut decline, &mut approval] {
            o.subscription_ref = format!("{}-{n}", o.subscription_ref);
            o.transaction_id = format!("{}-{n}", o.transaction_id);
        }
        let order = if approval_first { [&approval, &decline] } else { [&decline, &approval] };
        for o in order {
            let (status, text) = env.postback("SEGPAY", o).await;
            assert_eq!(status, 200, "{text}");
        }
        let (_, signup) = env.get(&format!("/internal/signups/{signup_id}"), None).await;
        assert_eq!(signup["status"], "approved", "approval first: {approval_first}: {signup}");
        assert!(signup["reason"].is_null(), "{signup}");
        assert_eq!(signup["welcome"]["isWelcome"], true);
        let hash: Option<String> = sqlx::query_scalar("select password_hash from signup where signup_id = $1")
            .bind(signup_id)
            .fetch_one(&env.pool)
            .await
            .unwrap();
        assert_eq!(hash, None, "the hash is erased once the account exists");
        let user_id: uuid::Uuid = sqlx::query_scalar("select user_id from signup where signup_id = $1")
            .bind(signup_id)
            .fetch_one(&env.pool)
            .await
            .unwrap();
        accounts.push((user_id, email));
    }
    for (user_id, email) in accounts {
        let users = env.profile_users(user_id).await;
        assert_eq!(users[0]["email"], email.as_str(), "the account exists: {users}");
        assert_eq!(env.read(user_id, "vixen").await["subscription"]["type"], "member");
    }
    env.cleanup().await;
}

#[tokio::test]
async fn a_signup_past_its_ttl_is_expired_and_its_hash_erased() {
    let env = TestEnv::with_profile().await;
    let (_, started) = env.post("/internal/joins", None, &join("late@example.com", 10301, "SEGPAY")).await;
    let signup_id: uuid::Uuid = query_value(started["location"].as_str().unwrap(), "signupId").parse().unwrap();
    let (_, fresh) = env.post("/internal/joins", None, &join("fresh@example.com", 10301, "SEGPAY")).await;
    let fresh_id: uuid::Uuid = query_value(fresh["location"].as_str().unwrap(), "signupId").parse().unwrap();
    let (_, approval) = decline_and_approval(signup_id);
    // Checked on read: an approval past the TTL is refused even before any sweep.
    sqlx::query("update signup set created_at = now() - interval '25 hours' where signup_id = $1")
        .bind(signup_id)
        .execute(&env.pool)
        .await
        .unwrap();
    let (status, text) = env.postback("SEGPAY", &approval).await;
    assert_eq!(status, 422, "{text}");
    // The sweep expires it and erases its hash; the fresh signup keeps its own.
    assert_eq!(subscription::joins::sweep(&env.state).await.unwrap(), 1);
    assert_eq!(subscription::joins::sweep(&env.state).await.unwrap(), 0);
    let rows: Vec<(uuid::Uuid, String, Option<String>)> =
        sqlx::query_as("select signup_id, status, password_hash from signup order by created_at")
            .fetch_all(&env.pool)
            .await
            .unwrap();
    assert_eq!(rows.len(), 2);
    for (id, status, hash) in rows {
        if id == signup_id {
            assert_eq!((status.as_str(), hash), ("expired", None));
        } else {
            assert_eq!(id, fresh_id);
            assert_eq!(status, "pending");
            assert!(hash.is_some());
        }
    }
    assert!(env.events().await.is_empty(), "no subscription for an expired signup");
    env.cleanup().await;
}

#[tokio::test]
async fn ten_concurrent_copies_of_an_initial_sale_all_get_the_first_answer() {
    let env = TestEnv::with_profile().await;
    let mut body = join("parallel.sale@example.com", 10301, "SEGPAY");
    body["username"] = json!("parallelsale");
    let (status, started) = env.post("/internal/joins", None, &body).await;
    assert_eq!(status, 201, "{started}");
    let signup_id: uuid::Uuid = query_value(started["location"].as_str().unwrap(), "signupId").parse().unwrap();
    let (_, approval) = decline_and_approval(signup_id);
    let answers = futures::future::join_all((0..10).map(|_| env.postback("SEGPAY", &approval))).await;
    let first = answers[0].clone();
    assert_eq!(first.0, 200, "{answers:?}");
    assert!(answers.iter().all(|a| *a == first), "{answers:?}");
    // Applied once: one subscription, one account.
    let started: Vec<_> =
        env.events().await.into_iter().filter(|e| matches!(e, E::SubscriptionStarted { .. })).collect();
    assert_eq!(started.len(), 1, "{started:?}");
    let (_, signup) = env.get(&format!("/internal/signups/{signup_id}"), None).await;
    assert_eq!(signup["status"], "approved", "{signup}");
    let user_id: uuid::Uuid = sqlx::query_scalar("select user_id from signup where signup_id = $1")
        .bind(signup_id)
        .fetch_one(&env.pool)
        .await
        .unwrap();
    let users = env.profile_users(user_id).await;
    assert_eq!(users.as_array().map(Vec::len), Some(1), "{users}");
    assert_eq!(users[0]["email"], "parallel.sale@example.com");
    env.cleanup().await;
}

#[tokio::test]
async fn a_nul_or_control_character_gets_the_fields_message_before_any_lookup() {
    let env = TestEnv::with_profile().await;
    let cases = [
        ("email", "jo\u{0}@example.com", "INVALID_EMAIL", "Invalid email address."),
        ("email", "\u{0}", "INVALID_EMAIL", "Invalid email address."),
        ("email", "jo@example.com\u{1b}", "INVALID_EMAIL", "Invalid email address."),
        ("password", "Secret\u{0}12345", "INVALID_PASSWORD", profile::validation::PASSWORD_RULE_MESSAGE),
        ("username", "new\u{0}joiner", "INVALID_USERNAME", profile::validation::INVALID_USERNAME_MESSAGE),
    ];
    for (field, value, code, message) in cases {
        let mut body = join("nul.joiner@example.com", 10301, "EPOCH");
        body[field] = json!(value);
        let (status, refused) = env.post("/internal/joins", None, &body).await;
        assert_eq!(
            (status, refused["code"].as_str(), refused["message"].as_str()),
            (422, Some(code), Some(message)),
            "{field} {value:?}: {refused}"
        );
    }
    // A tracking value with a NUL is dropped, the join goes on.
    let mut body = join("nul.tracking@example.com", 10301, "EPOCH");
    body["nats"] = json!("NATS\u{0}X");
    let (status, started) = env.post("/internal/joins", None, &body).await;
    assert_eq!(status, 201, "{started}");
    let nats: Option<String> = sqlx::query_scalar("select nats from signup where email = 'nul.tracking@example.com'")
        .fetch_one(&env.pool)
        .await
        .unwrap();
    assert_eq!(nats, None);
    env.cleanup().await;
}

#[tokio::test]
async fn the_welcome_link_issues_its_token_for_its_own_brand_only() {
    let env = TestEnv::with_profile().await;
    let mut body = join("own.brand@example.com", 10301, "SEGPAY");
    body["username"] = json!("ownbrand");
    let (status, started) = env.post("/internal/joins", None, &body).await;
    assert_eq!(status, 201, "{started}");
    let signup_id: uuid::Uuid = query_value(started["location"].as_str().unwrap(), "signupId").parse().unwrap();
    let (_, approval) = decline_and_approval(signup_id);
    assert_eq!(env.postback("SEGPAY", &approval).await.0, 200);
    let (_, signup) = env.get(&format!("/internal/signups/{signup_id}"), None).await;
    let hashed = signup["welcome"]["hashedMemberId"].as_str().unwrap().to_owned();
    let path = |site: &str| format!("/internal/welcome-check?site={site}&memberId=SP-OOO&hashedMemberId={hashed}");
    // Another brand first: no token, and the link's own brand still gets its one.
    let (_, elsewhere) = env.get(&path("tushy"), None).await;
    assert!(elsewhere["autologinId"].is_null(), "{elsewhere}");
    let (_, own) = env.get(&path("vixen"), None).await;
    assert!(own["autologinId"].as_str().is_some_and(|t| !t.is_empty()), "{own}");
    let (_, again) = env.get(&path("vixen"), None).await;
    assert!(again["autologinId"].is_null(), "{again}");
    env.cleanup().await;
}
