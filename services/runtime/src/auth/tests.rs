use super::*;

fn claims(ttl: Duration) -> Claims {
    Claims::new(Uuid::now_v7(), "vixen.localhost:8080", "vixen", Uuid::now_v7(), vec!["admin".into()], ttl)
}

#[tokio::test]
async fn a_signed_token_verifies_and_round_trips_its_claims() {
    let signer = Signer::generate("k1");
    let c = claims(Duration::from_secs(300));
    let got = signer.verifier().verify(&signer.sign(&c)).await.unwrap();
    assert_eq!(got, c);
    assert!(got.is_admin());
}

#[tokio::test]
async fn expired_tampered_foreign_and_misaddressed_tokens_are_refused() {
    let signer = Signer::generate("k1");
    let verifier = signer.verifier();
    let mut old = claims(Duration::from_secs(300));
    old.exp = chrono::Utc::now().timestamp() - 60;
    assert_eq!(verifier.verify(&signer.sign(&old)).await, Err(AuthError::Expired));

    let token = signer.sign(&claims(Duration::from_secs(300)));
    let (head, rest) = token.split_once('.').unwrap();
    let (payload, sig) = rest.split_once('.').unwrap();
    let mut forged: Claims = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap();
    forged.groups.push("commenteditor".into());
    let forged = format!("{head}.{}.{sig}", URL_SAFE_NO_PAD.encode(serde_json::to_vec(&forged).unwrap()));
    assert_eq!(verifier.verify(&forged).await, Err(AuthError::Invalid));

    let other = Signer::generate("k1");
    assert_eq!(verifier.verify(&other.sign(&claims(Duration::from_secs(60)))).await, Err(AuthError::Invalid));
    assert_eq!(verifier.verify("not.a.token").await, Err(AuthError::Invalid));
    assert_eq!(verifier.verify_for(&token, "blacked.localhost:8080").await, Err(AuthError::WrongAudience));
    assert!(verifier.verify_for(&token, "vixen.localhost:8080").await.is_ok());
}

#[tokio::test]
async fn an_id_token_is_no_bearer_token_with_or_without_a_tenant() {
    let signer = Signer::generate("k1");
    let verifier = signer.verifier();
    let extract = |token: String, tenant: Option<&'static str>| {
        let verifier = verifier.clone();
        async move {
            let mut request = axum::http::Request::builder().header(AUTHORIZATION, format!("Bearer {token}"));
            if let Some(tenant) = tenant {
                request = request.header(TENANT_HEADER, tenant);
            }
            let (mut parts, ()) = request.body(()).unwrap().into_parts();
            Authenticated::from_request_parts(&mut parts, &verifier).await.map(|a| a.0)
        }
    };
    let access = claims(Duration::from_secs(300));
    assert_eq!(extract(signer.sign(&access), None).await.unwrap(), access);
    assert_eq!(extract(signer.sign(&access), Some("vixen")).await.unwrap(), access);
    let id = Claims::new(
        Uuid::now_v7(),
        "id_token:vixen.localhost",
        "id_token",
        Uuid::now_v7(),
        vec![],
        Duration::from_secs(300),
    );
    assert_eq!(extract(signer.sign(&id), None).await.unwrap_err(), AuthError::WrongAudience);
    assert_eq!(extract(signer.sign(&id), Some("id_token")).await.unwrap_err(), AuthError::WrongAudience);
    let maybe = {
        let (mut parts, ()) = axum::http::Request::builder()
            .header(AUTHORIZATION, format!("Bearer {}", signer.sign(&id)))
            .body(())
            .unwrap()
            .into_parts();
        MaybeAuthenticated::from_request_parts(&mut parts, &verifier).await.map(|m| m.0)
    };
    assert_eq!(maybe.unwrap_err(), AuthError::WrongAudience);
}

#[test]
fn the_same_seed_gives_the_same_public_key() {
    let a = Signer::from_seed("k", [7; 32]);
    let b = Signer::from_seed("k", [7; 32]);
    assert_eq!(a.jwk(), b.jwk());
    assert_ne!(a.jwk(), Signer::from_seed("k", [8; 32]).jwk());
}
#[tokio::test]
async fn a_service_token_is_good_for_its_audience_only_and_not_for_long() {
    let key = ServiceKey::from_seed([3; 32]);
    let (token, issued) = key.issue("subscription", "profile", SERVICE_TOKEN_TTL);
    assert_eq!(key.verify(&token, "profile").unwrap(), issued);
    assert_eq!((issued.sub.as_str(), issued.iss.as_str()), ("subscription", SERVICE_ISSUER));
    assert_eq!(issued.exp - issued.iat, 60);
    assert_eq!(key.verify(&token, "wallet"), Err(AuthError::OtherService));
    assert_eq!(ServiceKey::from_seed([4; 32]).verify(&token, "profile"), Err(AuthError::Invalid));
    let (_, mut stale) = key.issue("subscription", "profile", SERVICE_TOKEN_TTL);
    stale.exp = chrono::Utc::now().timestamp() - 60;
    assert_eq!(key.verify(&key.sign(&stale), "profile"), Err(AuthError::Expired));
    // A user's access token is no service token, even signed with the same seed.
    let user = Signer::from_seed("k1", [3; 32]).sign(&claims(Duration::from_secs(60)));
    assert_eq!(key.verify(&user, "profile"), Err(AuthError::Invalid));
}

#[test]
fn a_verified_service_token_is_remembered_yet_still_expires_and_stays_for_its_audience() {
    let key = ServiceKey::from_seed([6; 32]);
    let (token, issued) = key.issue("gateway", "catalog", SERVICE_TOKEN_TTL);
    assert_eq!(key.verify(&token, "catalog").unwrap(), issued);
    assert!(key.verified.lock().unwrap().contains_key(&token));
    // Each gate holds a clone of the process's key: they share what it verified.
    assert!(key.clone().verified.lock().unwrap().contains_key(&token));
    assert_eq!(key.verify_at(&token, "wallet", issued.iat), Err(AuthError::OtherService));
    assert_eq!(key.verify_at(&token, "catalog", issued.exp + 5).unwrap(), issued);
    assert_eq!(key.verify_at(&token, "catalog", issued.exp + 6), Err(AuthError::Expired));
    // A token that differs from a remembered one by a byte of its signature is checked, and fails.
    let at = token.len() - 10;
    let swapped = if &token[at..=at] == "A" { "B" } else { "A" };
    let tampered = format!("{}{swapped}{}", &token[..at], &token[at + 1..]);
    assert_eq!(key.verify(&tampered, "catalog"), Err(AuthError::Invalid));
    assert!(!key.verified.lock().unwrap().contains_key(&tampered));
    // What it remembers stays bounded.
    for _ in 0..VERIFIED_TOKENS_KEPT + 10 {
        let (token, _) = key.issue("gateway", "catalog", SERVICE_TOKEN_TTL);
        key.verify(&token, "catalog").unwrap();
    }
    assert!(key.verified.lock().unwrap().len() <= VERIFIED_TOKENS_KEPT);
}

#[test]
fn the_issuer_reuses_a_token_per_audience_until_near_its_expiry() {
    let tokens = ServiceTokens::new(ServiceKey::from_seed([5; 32]), "gateway");
    let a = tokens.token("wallet");
    assert_eq!(tokens.token("wallet"), a);
    assert_ne!(tokens.token("catalog"), a);
    // A cached token about to expire is replaced.
    tokens.inner.cache.lock().unwrap().get_mut("wallet").unwrap().1 = chrono::Utc::now().timestamp() + 5;
    assert_ne!(tokens.token("wallet"), a);
}

#[test]
fn the_service_key_comes_from_configuration_and_never_prints() {
    use base64::engine::general_purpose::STANDARD;
    let seed = STANDARD.encode([9u8; 32]);
    let key = ServiceKey::from_lookup(|k| (k == SERVICE_KEY_ENV).then(|| seed.clone())).unwrap();
    assert_eq!(format!("{key:?}"), "ServiceKey(****)");
    assert_eq!(key.to_base64().expose(), seed);
    let (token, _) = key.issue("a", "b", SERVICE_TOKEN_TTL);
    assert!(ServiceKey::from_seed([9; 32]).verify(&token, "b").is_ok());
    let file = std::env::temp_dir().join(format!("service-key-{}", Uuid::now_v7()));
    std::fs::write(&file, format!("{seed}\n")).unwrap();
    let path = file.to_string_lossy().into_owned();
    let from_file = ServiceKey::from_lookup(|k| (k == SERVICE_KEY_FILE_ENV).then(|| path.clone())).unwrap();
    assert!(from_file.verify(&token, "b").is_ok());
    std::fs::remove_file(file).unwrap();
    let short = ServiceKey::from_lookup(|k| (k == SERVICE_KEY_ENV).then(|| "AAAA".into())).unwrap_err();
    assert!(format!("{short:#}").contains("32 bytes"), "{short:#}");
    let production = ServiceKey::from_lookup(|k| (k == "PAYSITE_ENV").then(|| "production".into())).unwrap_err();
    assert!(production.to_string().contains(SERVICE_KEY_ENV), "{production}");
    // Development without a key: one of the process's own, which nobody else holds.
    let own = ServiceKey::from_lookup(|_| None).unwrap();
    assert_eq!(own.verify(&token, "b"), Err(AuthError::Invalid));
}

#[test]
fn during_a_rotation_tokens_of_either_key_pass_and_only_the_current_key_signs() {
    use base64::engine::general_purpose::STANDARD;
    let (old, new, stranger) = (STANDARD.encode([1u8; 32]), STANDARD.encode([2u8; 32]), ServiceKey::from_seed([3; 32]));
    let keys = |current: &str, next: Option<&str>| {
        let (current, next) = (current.to_owned(), next.map(str::to_owned));
        ServiceKey::from_lookup(move |k| match k {
            SERVICE_KEY_ENV => Some(current.clone()),
            SERVICE_KEY_NEXT_ENV => next.clone(),
            _ => None,
        })
        .unwrap()
    };
    // The three steps of the rotation: the new key beside the old, the two swapped, the old gone.
    let before = keys(&old, None);
    let step1 = keys(&old, Some(&new));
    let step2 = keys(&new, Some(&old));
    let after = keys(&new, None);
    // Any two processes a rolling restart puts side by side accept each other's tokens.
    for (a, b) in [(&before, &step1), (&step1, &step2), (&step2, &after)] {
        for (signer, receiver) in [(a, b), (b, a)] {
            let (token, _) = signer.issue("gateway", "wallet", SERVICE_TOKEN_TTL);
            assert!(receiver.verify(&token, "wallet").is_ok(), "a neighbouring step's token is accepted");
        }
    }
    // Step 1 still signs with the old key: a process of `before` accepts it (checked above),
    // and after the rotation the old key is refused.
    let (old_token, _) = before.issue("gateway", "wallet", SERVICE_TOKEN_TTL);
    assert_eq!(after.verify(&old_token, "wallet"), Err(AuthError::Invalid));
    let (strange, _) = stranger.issue("gateway", "wallet", SERVICE_TOKEN_TTL);
    assert_eq!(step2.verify(&strange, "wallet"), Err(AuthError::Invalid));
    let lonely = ServiceKey::from_lookup(|k| (k == SERVICE_KEY_NEXT_ENV).then(|| new.clone())).unwrap_err();
    assert!(lonely.to_string().contains(SERVICE_KEY_ENV), "{lonely}");
}

const TABLE: &[Route] = &[
    Route::get("/internal/mine", Access::User),
    Route::post("/internal/wallets/{user_id}/debits", Access::OwnUser("user_id")),
    Route::get("/internal/open", Access::Any),
    Route::post("/internal/system", Access::Service),
    Route::get("/internal/emails", Access::ServiceOrAdmin),
];

async fn who(caller: Caller) -> String {
    match caller {
        Caller::User(c) => c.sub.to_string(),
        Caller::Service(c) => c.sub,
    }
}

fn gated(signer: &Signer, key: &ServiceKey) -> axum::Router {
    use axum::routing::{get, post};
    let router = axum::Router::new()
        .route("/internal/mine", get(who))
        .route("/internal/wallets/{user_id}/debits", post(who))
        .route("/internal/open", get(|m: MaybeAuthenticated| async move { format!("{:?}", m.0.map(|c| c.sub)) }))
        .route("/internal/system", post(|ServiceCaller(c): ServiceCaller| async move { c.sub }))
        .route("/internal/emails", get(who))
        .route("/internal/unlisted", get(|| async { "leaked" }))
        .route("/healthz", get(|| async { "ok" }))
        .with_state(signer.verifier());
    Gate::new("wallet", signer.verifier(), TABLE).with_key(key.clone()).guard(router)
}

async fn call(app: &axum::Router, method: Method, path: &str, token: Option<&str>) -> (StatusCode, String) {
    use tower::ServiceExt;
    let mut request = axum::http::Request::builder().method(method).uri(path);
    if let Some(token) = token {
        request = request.header(AUTHORIZATION, format!("Bearer {token}"));
    }
    let response = app.clone().oneshot(request.body(axum::body::Body::empty()).unwrap()).await.unwrap();
    let status = response.status();
    let body = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
    (status, String::from_utf8_lossy(&body).into_owned())
}

#[tokio::test]
async fn the_gate_admits_the_callers_its_table_names_and_no_one_else() {
    let signer = Signer::generate("k1");
    let key = ServiceKey::generate();
    let app = gated(&signer, &key);
    let user = claims(Duration::from_secs(300));
    let mut admin_claims = claims(Duration::from_secs(300));
    admin_claims.groups = vec![ADMIN_GROUP.into()];
    let mut plain = claims(Duration::from_secs(300));
    plain.groups.clear();
    let (me, admin, plain_user) = (signer.sign(&user), signer.sign(&admin_claims), signer.sign(&plain));
    let service = ServiceTokens::new(key.clone(), "unlocks").token("wallet");
    let elsewhere = ServiceTokens::new(key.clone(), "unlocks").token("catalog");
    let forged = ServiceTokens::new(ServiceKey::generate(), "unlocks").token("wallet");
    let mine = format!("/internal/wallets/{}/debits", user.sub);
    let theirs = format!("/internal/wallets/{}/debits", Uuid::now_v7());

    for (method, path) in [
        (Method::GET, "/internal/mine"),
        (Method::POST, mine.as_str()),
        (Method::GET, "/internal/open"),
        (Method::POST, "/internal/system"),
        (Method::GET, "/internal/emails"),
    ] {
        for token in [None, Some(elsewhere.as_str()), Some(forged.as_str()), Some("not.a.token")] {
            let (status, body) = call(&app, method.clone(), path, token).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {path} with {token:?}: {body}");
        }
    }
    assert_eq!(call(&app, Method::GET, "/internal/mine", Some(&me)).await, (StatusCode::OK, user.sub.to_string()));
    assert_eq!(call(&app, Method::GET, "/internal/mine", Some(&service)).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(call(&app, Method::POST, &mine, Some(&me)).await.0, StatusCode::OK);
    let (status, body) = call(&app, Method::POST, &theirs, Some(&me)).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(body.contains(CALLER_FORBIDDEN), "{body}");
    assert_eq!(call(&app, Method::POST, &theirs, Some(&admin)).await.0, StatusCode::FORBIDDEN);
    assert_eq!(call(&app, Method::POST, &theirs, Some(&service)).await, (StatusCode::OK, "unlocks".into()));
    assert_eq!(call(&app, Method::POST, "/internal/wallets/nobody/debits", Some(&me)).await.0, StatusCode::FORBIDDEN);
    // A service calling for an anonymous visitor is nobody; a user is themself.
    assert_eq!(call(&app, Method::GET, "/internal/open", Some(&service)).await, (StatusCode::OK, "None".into()));
    assert_eq!(call(&app, Method::GET, "/internal/open", Some(&me)).await.1, format!("Some({})", user.sub));
    assert_eq!(call(&app, Method::POST, "/internal/system", Some(&service)).await, (StatusCode::OK, "unlocks".into()));
    assert_eq!(call(&app, Method::POST, "/internal/system", Some(&admin)).await.0, StatusCode::FORBIDDEN);
    assert_eq!(call(&app, Method::GET, "/internal/emails", Some(&admin)).await.0, StatusCode::OK);
    assert_eq!(call(&app, Method::GET, "/internal/emails", Some(&service)).await.0, StatusCode::OK);
    assert_eq!(call(&app, Method::GET, "/internal/emails", Some(&plain_user)).await.0, StatusCode::FORBIDDEN);
    // A route the table forgot is refused to everyone; other routes are not the gate's.
    for token in [None, Some(me.as_str()), Some(service.as_str())] {
        assert_eq!(call(&app, Method::GET, "/internal/unlisted", token).await.0, StatusCode::INTERNAL_SERVER_ERROR);
    }
    assert_eq!(call(&app, Method::GET, "/healthz", None).await, (StatusCode::OK, "ok".into()));
    assert_eq!(call(&app, Method::GET, "/internal/nowhere", Some(&me)).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn behind_the_gate_a_service_token_is_no_user_and_an_id_token_no_caller() {
    let signer = Signer::generate("k1");
    let key = ServiceKey::generate();
    let app = gated(&signer, &key);
    let id = Claims::new(
        Uuid::now_v7(),
        "id_token:vixen.localhost",
        "id_token",
        Uuid::now_v7(),
        vec![],
        Duration::from_secs(300),
    );
    assert_eq!(call(&app, Method::GET, "/internal/open", Some(&signer.sign(&id))).await.0, StatusCode::UNAUTHORIZED);
    let (mut parts, ()) = axum::http::Request::builder().body(()).unwrap().into_parts();
    parts.extensions.insert(Caller::Service(key.issue("gateway", "wallet", SERVICE_TOKEN_TTL).1));
    assert_eq!(
        Authenticated::from_request_parts(&mut parts, &signer.verifier()).await.unwrap_err(),
        AuthError::Missing
    );
    assert!(MaybeAuthenticated::from_request_parts(&mut parts, &signer.verifier()).await.unwrap().0.is_none());
}
