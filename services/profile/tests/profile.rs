//! The profile's part of findOneUserProfile and the profile commands over real HTTP, through
//! the typed client; account creation, VIP conversion, tandem accounts, the seed, and
//! rebuild = live. (The whole profile, put together from its owners, is the gateway's:
//! gateway/tests/profile_facts.rs.)

mod support;

use profile::api::*;
use profile::client::{as_user, ProfileClient};
use proto_events::subscription::MembershipKind;
use runtime::client::UpstreamError;
use runtime::testing::ServiceAuth;
use serde_json::json;
use support::{envelope, TestEnv, PASSWORD};
use uuid::Uuid;

fn refused(e: UpstreamError) -> (u16, String, String) {
    match e {
        UpstreamError::Refused { status, code, message, .. } => (status, code, message),
        other => panic!("not a refusal: {other}"),
    }
}

#[tokio::test]
async fn a_new_member_reads_their_own_profile_and_changes_it() {
    let env = TestEnv::new().await;
    let client = ProfileClient::new(&env.base);
    let jane = env.account("jane").await;
    env.subscribe(jane, "vixen", MembershipKind::Member).await;
    let tokens = env.session("jane").await;
    let ctx = as_user(&tokens.access_token, "vixen");

    let p = client.own_profile(&ctx).await.unwrap();
    assert_eq!((p.user_id, p.username.as_deref(), p.email.as_str()), (jane, Some("jane"), "jane@example.com"));
    assert!(p.autoplay_enabled);
    assert_eq!(p.badges, ["bronze"], "badges count the membership kept from the subscription's events");
    assert!(!p.gdpr.should_request_email_consent, "a member is not prompted; guests and tandem users are");

    let p = client.set_display_name(&ctx, "  Jane D.  ").await.unwrap();
    assert_eq!(p.display_name.as_deref(), Some("Jane D."));
    let (status, code, _) = refused(client.set_display_name(&ctx, "").await.unwrap_err());
    assert_eq!((status, code.as_str()), (422, "INVALID_DISPLAY_NAME"));
    assert!(!client.update_user_autoplay(&ctx, false).await.unwrap().autoplay_enabled);
    let consent =
        EmailConsentRequest { email_consent: true, site: None, consent_html_snippet: Some("<p>yes</p>".into()) };
    let p = client.set_email_consent(&ctx, &consent).await.unwrap();
    assert!(p.has_email_consent && !p.gdpr.should_request_email_consent);
    let when = chrono::Utc::now();
    assert!(client.acknowledge_gems_intro(&ctx, when).await.unwrap().modals.gems_intro);
    assert!(client.acknowledge_promotional_teaser_viewed(&ctx).await.unwrap().modals.teaser_viewed);
    let p = client.acknowledge_health_warning(&ctx, "TX").await.unwrap();
    assert!(p.modals.texas_health_warning_acknowledged && !p.modals.alabama_health_warning_acknowledged);
    assert_eq!(refused(client.acknowledge_health_warning(&ctx, "CA").await.unwrap_err()).0, 400);
    assert!(!client.give_cams_consent(&ctx).await.unwrap().gdpr.should_request_cams_consent);
    // The username is permanent.
    let (status, code, _) = refused(client.choose_username(&ctx, "other").await.unwrap_err());
    assert_eq!((status, code.as_str()), (409, "USERNAME_PERMANENT"));
    // Not a wifey member: the relationship section is neither visible nor editable.
    assert!(!p.relationship_info.is_visible);
    let (status, _, _) = refused(client.set_relationship(&ctx, "married", "wife").await.unwrap_err());
    assert_eq!(status, 403);

    // Every change is an event.
    let types: Vec<String> = sqlx::query_scalar(&format!(
        "select event_type from event where stream_id = 'user-{jane}' order by stream_version"
    ))
    .fetch_all(&env.pool)
    .await
    .unwrap();
    for t in [
        "UserRegistered",
        "CredentialsChanged",
        "SignedIn",
        "DisplayNameSet",
        "AutoplaySet",
        "EmailConsentSet",
        "GemsIntroAcknowledged",
        "PromotionalTeaserViewed",
        "HealthWarningAcknowledged",
        "CamsConsentGiven",
    ] {
        assert!(types.iter().any(|x| x == t), "{t} missing from {types:?}");
    }
    env.cleanup().await;
}

#[tokio::test]
async fn no_operation_reads_or_changes_another_users_profile() {
    let env = TestEnv::new().await;
    let client = ProfileClient::new(&env.base);
    let jane = env.account("jane").await;
    let john = env.account("john").await;
    let tokens = env.session("jane").await;
    let ctx = as_user(&tokens.access_token, "vixen");
    // Whatever the body says, the user is the token's.
    let response = env
        .http
        .post(env.url("/internal/profile/display-name"))
        .bearer_auth(&tokens.access_token)
        .json(&json!({ "displayName": "Mallory", "userId": john }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let mine = client.own_profile(&ctx).await.unwrap();
    assert_eq!((mine.user_id, mine.display_name.as_deref()), (jane, Some("Mallory")));
    let johns_name: Option<String> = sqlx::query_scalar("select display_name from user_profile where user_id = $1")
        .bind(john)
        .fetch_one(&env.pool)
        .await
        .unwrap();
    assert_eq!(johns_name, None);
    // No token, a forged token, a token of another brand (tenant header): refused.
    assert_eq!(env.http.get(env.url("/internal/profile")).send().await.unwrap().status(), 401);
    let forged = runtime::auth::Signer::generate("profile-1").sign(&runtime::auth::Claims::new(
        john,
        "vixen.localhost",
        "vixen",
        Uuid::now_v7(),
        vec!["admin".into()],
        std::time::Duration::from_secs(60),
    ));
    assert_eq!(env.http.get(env.url("/internal/profile")).bearer_auth(forged).send().await.unwrap().status(), 401);
    let wrong_tenant = client.own_profile(&as_user(&tokens.access_token, "tushy")).await.unwrap_err();
    assert_eq!(refused(wrong_tenant).0, 401);
    // Group changes are for admins only.
    let grant = env
        .http
        .post(env.url(&format!("/internal/users/{jane}/groups")))
        .bearer_auth(&tokens.access_token)
        .json(&json!({ "group": "admin", "granted": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(grant.status(), 403);
    env.cleanup().await;
}

#[tokio::test]
async fn the_relationship_section_is_for_admins_and_active_non_child_wifey_members() {
    let env = TestEnv::new().await;
    let client = ProfileClient::new(&env.base);
    let wife = env.account("wife").await;
    env.subscribe(wife, "wifey", MembershipKind::Member).await;
    let ctx = as_user(&env.session("wife").await.access_token, "vixen");
    let p = client.set_relationship(&ctx, "married", "wife").await.unwrap();
    assert_eq!((p.relationship_status.as_deref(), p.relationship_role.as_deref()), (Some("married"), Some("wife")));
    assert!(p.relationship_info.is_visible && p.relationship_info.is_editable);
    let (status, code, _) = refused(client.set_relationship(&ctx, "", "wife").await.unwrap_err());
    assert_eq!((status, code.as_str()), (422, "INVALID_RELATIONSHIP"));

    // A tandem child of a wifey member sees it and may not edit it.
    let child =
        TandemChildRequest { email: "kid@example.com".into(), password: PASSWORD.into(), username: Some("kid".into()) };
    let parent = client.create_tandem_child_account(&ctx, &child).await.unwrap();
    assert!(parent.tandem_subscription.has_tandem_child_account);
    let again = client.create_tandem_child_account(&ctx, &child).await.unwrap_err();
    assert_eq!(refused(again).1, "TANDEM_CHILD_EXISTS");
    let kid_ctx = as_user(&env.session("kid").await.access_token, "vixen");
    let kid = client.own_profile(&kid_ctx).await.unwrap();
    assert!(kid.tandem_subscription.is_tandem_child_account);
    assert_eq!(kid.tandem_subscription.tandem_parent_display_name.as_deref(), Some("wife"));
    assert!(kid.relationship_info.is_visible && !kid.relationship_info.is_editable);
    assert_eq!(refused(client.set_relationship(&kid_ctx, "married", "wife").await.unwrap_err()).0, 403);
    assert_eq!(refused(client.create_tandem_child_account(&kid_ctx, &child).await.unwrap_err()).0, 403);
    env.cleanup().await;
}

#[tokio::test]
async fn accounts_follow_the_rules_with_the_specs_messages() {
    let env = TestEnv::new().await;
    let client = ProfileClient::new(&env.base);
    let request = |username: &str, password: &str, email: &str| CreateAccountRequest {
        user_id: None,
        username: Some(username.into()),
        password: password.into(),
        password_hash: None,
        email: email.into(),
        site: "vixen".into(),
        biller: Some("SEGPAY".into()),
        tandem_parent_user_id: None,
        vip_invited: false,
    };
    let (status, code, message) =
        refused(client.create_account(&request("Bad!", PASSWORD, "a@example.com")).await.unwrap_err());
    assert_eq!((status, code.as_str(), message.as_str()), (422, "INVALID_USERNAME", "invalid username"));
    let (_, code, message) =
        refused(client.create_account(&request("okname", "short", "a@example.com")).await.unwrap_err());
    assert_eq!(code, "INVALID_PASSWORD");
    assert_eq!(message, "Passwords may only contain letters and numbers and MUST be between 8 and 32 characters long.");
    let (_, code, message) = refused(client.create_account(&request("okname", PASSWORD, "a@b.c")).await.unwrap_err());
    assert_eq!((code.as_str(), message.as_str()), ("INVALID_EMAIL", "Invalid email address."));
    let created = client.create_account(&request("okname", PASSWORD, " A@Example.com ")).await.unwrap();
    assert_eq!(created.email, "a@example.com");
    let (status, code, message) =
        refused(client.create_account(&request("okname", PASSWORD, "b@example.com")).await.unwrap_err());
    assert_eq!((status, code.as_str(), message.as_str()), (409, "USERNAME_TAKEN", "already taken"));
    let (_, code, _) = refused(client.create_account(&request("other", PASSWORD, "a@example.com")).await.unwrap_err());
    assert_eq!(code, "EMAIL_ALREADY_EXISTS");
    // A retried call with the same id creates nothing twice.
    let mut retried = request("retry", PASSWORD, "retry@example.com");
    retried.user_id = Some(Uuid::now_v7());
    assert!(client.create_account(&retried).await.unwrap().created);
    assert!(!client.create_account(&retried).await.unwrap().created);
    let summaries = client.users(&[created.user_id, retried.user_id.unwrap(), Uuid::now_v7()]).await.unwrap();
    assert_eq!(summaries.len(), 2);
    env.cleanup().await;
}

#[tokio::test]
async fn a_vip_user_converts_with_their_own_email_and_password() {
    let env = TestEnv::new().await;
    let client = ProfileClient::new(&env.base);
    let request = CreateAccountRequest {
        user_id: None,
        username: Some("vip".into()),
        password: PASSWORD.into(),
        password_hash: None,
        email: "vip@vip.paysite.test".into(),
        site: "vixen".into(),
        biller: None,
        tandem_parent_user_id: None,
        vip_invited: true,
    };
    client.create_account(&request).await.unwrap();
    env.account("taken").await;
    let (mine, other) = (env.session("vip").await, env.session("vip").await);
    let ctx = as_user(&mine.access_token, "vixen");
    assert!(client.own_profile(&ctx).await.unwrap().special_attributes.is_vip_user);
    let convert =
        |email: &str, password: &str| VipCredentialsRequest { new_email: email.into(), new_password: password.into() };
    let code = |e| refused(e).1;
    assert_eq!(
        code(client.convert_vip_user(&ctx, &convert("me@vip.paysite.test", PASSWORD)).await.unwrap_err()),
        "INVALID_EMAIL"
    );
    assert_eq!(
        code(client.convert_vip_user(&ctx, &convert("not-an-email", PASSWORD)).await.unwrap_err()),
        "INVALID_EMAIL"
    );
    assert_eq!(
        code(client.convert_vip_user(&ctx, &convert("me@example.com", "bad")).await.unwrap_err()),
        "INVALID_PASSWORD"
    );
    assert_eq!(
        code(client.convert_vip_user(&ctx, &convert("taken@example.com", "Mine12345")).await.unwrap_err()),
        "EMAIL_ALREADY_EXISTS"
    );
    let p = client.convert_vip_user(&ctx, &convert("  Me@Example.com ", "Mine12345")).await.unwrap();
    assert_eq!(p.email, "me@example.com");
    assert!(!p.special_attributes.is_vip_user);
    assert_eq!(
        code(client.convert_vip_user(&ctx, &convert("me2@example.com", "Mine12345")).await.unwrap_err()),
        "NOT_A_VIP_USER"
    );
    assert!(client.refresh(&other.refresh_token, "vixen.localhost").await.is_err(), "the old sessions end");
    assert_eq!(env.login("me@example.com", "Mine12345", "/", "10.9.0.1").await.status(), 303);
    assert_eq!(
        profile::http::vip_error_message("SOMETHING"),
        "Failed to update your credentials. Please contact customer support."
    );
    env.cleanup().await;
}

#[tokio::test]
async fn the_read_models_rebuilt_from_events_equal_the_live_ones() {
    let env = TestEnv::new().await;
    let client = ProfileClient::new(&env.base);
    profile::seed::seed_demo_users(&env.state).await.unwrap();
    let jane = env.account("jane").await;
    env.subscribe(jane, "wifey", MembershipKind::Member).await;
    let ctx = as_user(&env.session("jane").await.access_token, "vixen");
    client.set_relationship(&ctx, "engaged", "husband").await.unwrap();
    client.set_display_name(&ctx, "J").await.unwrap();

    let snapshot = |table: &'static str| {
        let pool = env.pool.clone();
        async move {
            sqlx::query_scalar::<_, serde_json::Value>(&format!(
                "select coalesce(jsonb_agg(to_jsonb(t) order by to_jsonb(t)::text), '[]') from {table} t"
            ))
            .fetch_one(&pool)
            .await
            .unwrap()
        }
    };
    let tables = ["user_profile", "user_group", "member_subscription"];
    let mut before = Vec::new();
    for t in tables {
        before.push(snapshot(t).await);
    }
    let live = client.own_profile(&ctx).await.unwrap();
    assert_eq!(live.badges, ["bronze"]);
    for projection in profile::projections(&env.state) {
        runtime::projection::rebuild(&env.pool, projection.as_ref()).await.unwrap();
    }
    for (t, b) in tables.iter().zip(before) {
        assert_eq!(snapshot(t).await, b, "{t} differs after a rebuild");
    }
    let rebuilt = client.own_profile(&ctx).await.unwrap();
    assert_eq!(rebuilt, live);
    env.cleanup().await;
}

#[tokio::test]
async fn the_demo_users_are_seeded_once_with_stable_ids_and_the_demo_password() {
    let env = TestEnv::new().await;
    profile::seed::seed_demo_users(&env.state).await.unwrap();
    let events = env.scalar("select count(*) from event").await;
    profile::seed::seed_demo_users(&env.state).await.unwrap();
    assert_eq!(env.scalar("select count(*) from event").await, events, "a second seed changes nothing");
    assert_eq!(env.scalar("select count(*) from user_profile").await, profile::DEMO_USERS.len() as i64);
    let admin = profile::demo_user_id("admin");
    let groups: Vec<String> = sqlx::query_scalar("select group_name from user_group where user_id = $1")
        .bind(admin)
        .fetch_all(&env.pool)
        .await
        .unwrap();
    assert_eq!(groups, ["admin"]);
    let child_parent: Option<Uuid> =
        sqlx::query_scalar("select tandem_parent_user_id from user_profile where user_id = $1")
            .bind(profile::demo_user_id("tandemchild"))
            .fetch_one(&env.pool)
            .await
            .unwrap();
    assert_eq!(child_parent, Some(profile::demo_user_id("tandemparent")));
    for user in profile::DEMO_USERS {
        let status = env.login(user.login(), profile::DEMO_PASSWORD, "/", "10.8.0.1").await.status();
        assert_eq!(status, 303, "{}", user.username);
    }
    env.cleanup().await;
}

#[tokio::test]
async fn other_services_events_arrive_through_the_consumer_into_the_profile() {
    let env = TestEnv::new().await;
    let client = ProfileClient::new(&env.base);
    let jane = env.account("jane").await;
    let spec = profile::consumers(&env.state).remove(0);
    env.declare_queue(&spec.queue, &spec.bindings).await;
    let cancel = tokio_util::sync::CancellationToken::new();
    let consumer = tokio::spawn(runtime::consumer::run(
        env.pool.clone(),
        spec,
        runtime::consumer::ConsumerSettings::new(&env.settings),
        cancel.clone(),
    ));
    let subscription = Uuid::now_v7();
    let since = chrono::Utc::now() - chrono::Duration::days(100);
    let start = support::started(subscription, jane, "wifey", MembershipKind::Member, since);
    let started = envelope("subscription", &start, &format!("subscription-{subscription}"));
    support::publish(&env, "subscription", &[started.clone(), started]).await;
    env.wait_for("select count(*) from member_subscription", 1, std::time::Duration::from_secs(10)).await;
    let ctx = as_user(&env.session("jane").await.access_token, "vixen");
    let p = client.own_profile(&ctx).await.unwrap();
    assert_eq!(p.badges, ["bronze"], "the membership counts for the badges");
    assert!(p.relationship_info.is_visible, "an active wifey member sees the relationship section");
    let expired = proto_events::subscription::SubscriptionEvent::SubscriptionExpired {
        subscription_id: subscription,
        user_id: jane,
        expired_at: chrono::Utc::now(),
    };
    support::publish(
        &env,
        "subscription",
        &[envelope("subscription", &expired, &format!("subscription-{subscription}"))],
    )
    .await;
    env.wait_for("select count(*) from member_subscription where not active", 1, std::time::Duration::from_secs(10))
        .await;
    let p = client.own_profile(&ctx).await.unwrap();
    assert!(!p.relationship_info.is_visible, "an expired one does not");
    assert_eq!(env.scalar("select count(*) from inbox").await, 2, "the duplicate was applied once");
    cancel.cancel();
    let _ = consumer.await;
    env.cleanup().await;
}

/// An operator's token, signed by the service's own key.
fn admin_token(env: &TestEnv) -> String {
    env.state.signer.sign(&runtime::auth::Claims::new(
        Uuid::now_v7(),
        "vixen.localhost",
        "vixen",
        Uuid::now_v7(),
        vec!["admin".into()],
        std::time::Duration::from_secs(60),
    ))
}

#[tokio::test]
async fn public_profiles_answer_many_users_badges_and_types_and_nothing_private() {
    // Launched a month ago: every account made now is a founder.
    let env = TestEnv::with_config("http://{brand}.localhost:8080", |c| {
        c.launch_date = chrono::Utc::now() - chrono::Duration::days(30)
    })
    .await;
    let client = ProfileClient::new(&env.base);
    let admin = admin_token(&env);
    let at = |days| chrono::Utc::now() - chrono::Duration::days(days);
    let subscribe = |user, kind, since| {
        let id = Uuid::now_v7();
        let event = support::started(id, user, "vixen", kind, since);
        (id, envelope("subscription", &event, &format!("subscription-{id}")))
    };

    // A member of 100 days: bronze.
    let jane = env.account("jane").await;
    env.feed(&subscribe(jane, MembershipKind::Member, at(100)).1).await;
    // A moderator (commenteditor) and member of 400 days: gold and moderator.
    let moderator = env.account("moderator").await;
    env.feed(&subscribe(moderator, MembershipKind::Member, at(400)).1).await;
    let granted = env
        .http
        .post(env.url(&format!("/internal/users/{moderator}/groups")))
        .bearer_auth(&admin)
        .json(&json!({ "group": "commenteditor", "granted": true }))
        .send()
        .await
        .unwrap();
    assert_eq!(granted.status(), 200, "{}", granted.text().await.unwrap());
    // A director on a new trial: no length badge yet.
    let director = env.account("director").await;
    env.feed(&subscribe(director, MembershipKind::Trial, at(10)).1).await;
    let attributes = env
        .http
        .post(env.url(&format!("/internal/users/{director}/special-attributes")))
        .bearer_auth(&admin)
        .json(&json!({ "isPornstarUser": false, "isKingUser": false, "isDirectorUser": true, "isVipUser": false,
                       "isOfficialUser": false }))
        .send()
        .await
        .unwrap();
    assert_eq!(attributes.status(), 200, "{}", attributes.text().await.unwrap());
    // A membership of 200 days that ended today keeps its silver badge (7-day grace); the type is expired.
    let lapsed = env.account("lapsed").await;
    let (subscription, started) = subscribe(lapsed, MembershipKind::Member, at(200));
    env.feed(&started).await;
    let expired = proto_events::subscription::SubscriptionEvent::SubscriptionExpired {
        subscription_id: subscription,
        user_id: lapsed,
        expired_at: chrono::Utc::now(),
    };
    env.feed(&envelope("subscription", &expired, &format!("subscription-{subscription}"))).await;
    // A tandem child counts its parent's membership.
    let ctx = as_user(&env.session("jane").await.access_token, "vixen");
    let child =
        TandemChildRequest { email: "kid@example.com".into(), password: PASSWORD.into(), username: Some("kid".into()) };
    client.create_tandem_child_account(&ctx, &child).await.unwrap();
    let kid: Uuid = sqlx::query_scalar("select user_id from user_profile where username = 'kid'")
        .fetch_one(&env.pool)
        .await
        .unwrap();
    // Nobody subscribed.
    let visitor = env.account("visitor").await;

    let unknown = Uuid::now_v7();
    let asked = [jane, moderator, director, lapsed, kid, visitor, unknown, jane];
    let mut answer = client.public_profiles(&Default::default(), &asked).await.unwrap();
    answer.sort_by_key(|p| asked.iter().position(|id| *id == p.user_id));
    let seen: Vec<(Uuid, Vec<Badge>, UserType)> =
        answer.into_iter().map(|p| (p.user_id, p.badges, p.user_type)).collect();
    use Badge::*;
    assert_eq!(
        seen,
        [
            (jane, vec![Bronze, Founder], UserType::Member),
            (moderator, vec![Gold, Moderator, Founder], UserType::Moderator),
            (director, vec![Director, Founder], UserType::Trial),
            (lapsed, vec![Silver, Founder], UserType::Expired),
            (kid, vec![Bronze, Founder], UserType::Member),
            (visitor, vec![Founder], UserType::PornPortal),
        ],
        "each user once, the unknown one left out"
    );

    // Only public facts travel: no e-mail, no name, no subscription detail.
    let raw: serde_json::Value = env
        .http
        .get(env.url("/internal/users/public"))
        .service_auth("profile")
        .query(&[("ids", format!("{moderator},{lapsed}"))])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    for entry in raw.as_array().unwrap() {
        let mut keys: Vec<&str> = entry.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["badges", "userId", "userType"]);
    }
    assert!(raw.to_string().contains(r#""userType":"expired""#), "{raw}");

    // At most 200 ids; a malformed id is a bad request.
    let many: Vec<Uuid> = (0..=profile::http::MAX_PUBLIC_PROFILES).map(|_| Uuid::now_v7()).collect();
    assert_eq!(refused(client.public_profiles(&Default::default(), &many).await.unwrap_err()).0, 400);
    assert!(client.public_profiles(&Default::default(), &many[1..]).await.unwrap().is_empty());
    let malformed =
        env.http.get(env.url("/internal/users/public?ids=nope")).service_auth("profile").send().await.unwrap();
    assert_eq!(malformed.status(), 400);
    env.cleanup().await;
}
