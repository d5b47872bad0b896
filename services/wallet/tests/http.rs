//! The internal API over real HTTP, on port 0.

mod support;

use reqwest::StatusCode;
use runtime::testing::ServiceAuth;
use serde_json::{json, Value};
use uuid::Uuid;
use wallet::domain::Command;
use wallet::http::{AcknowledgeResponse, DebitResponse, GemsBalanceResponse, TransactionsResponse};

use support::{utc, TestEnv};

/// Serves the wallet's router (with the runtime's correlation middleware) on a free port.
async fn serve(env: &TestEnv) -> String {
    let app = wallet::router(env.state.clone()).layer(axum::middleware::from_fn(runtime::http::correlate));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

/// The wallet's gems balance of `user`, asked as a service.
async fn gems_balance(base: &str, user: Uuid) -> GemsBalanceResponse {
    runtime::tls::client()
        .get(format!("{base}/internal/wallets/{user}/gems-balance"))
        .service_auth("wallet")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

/// The channel pack the tests' gems debits pay for.
const PACK: Uuid = Uuid::from_u128(0xc7);

fn debit_body(key: &str, amount: u64) -> Value {
    json!({ "asset": "gems", "amount": amount, "idempotency_key": key, "reason": "pack_unlock", "channel_pack_id": PACK })
}

#[tokio::test]
async fn a_debit_answers_its_receipt_and_a_retry_with_its_key_answers_the_same() {
    let env = TestEnv::new().await;
    let base = serve(&env).await;
    let user = Uuid::now_v7();
    env.fund(user, 30).await;
    let client = runtime::tls::client();
    let url = format!("{base}/internal/wallets/{user}/debits");
    let first = client.post(&url).service_auth("wallet").json(&debit_body("unlock-1", 10)).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    assert!(first.headers().contains_key("x-correlation-id"));
    let first: DebitResponse = first.json().await.unwrap();
    assert_eq!(
        first,
        DebitResponse {
            idempotency_key: "unlock-1".into(),
            asset: proto_events::wallet::Asset::Gems,
            amount: 10,
            reason: "pack_unlock".into(),
            balance_after: 20,
        }
    );
    // Another debit moves the balance; the retry of the first still answers 20.
    client
        .post(&url)
        .service_auth("wallet")
        .json(&debit_body("unlock-2", 10))
        .send()
        .await
        .unwrap()
        .error_for_status()
        .unwrap();
    let retry: DebitResponse = client
        .post(&url)
        .service_auth("wallet")
        .json(&debit_body("unlock-1", 10))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(retry, first);
    assert_eq!(env.scalar("select gems from wallet").await, 10);
    // The same key for another amount is refused.
    let reused = client.post(&url).service_auth("wallet").json(&debit_body("unlock-1", 5)).send().await.unwrap();
    assert_eq!(reused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(reused.json::<Value>().await.unwrap()["code"], "IDEMPOTENCY_KEY_REUSED");
    env.cleanup().await;
}

#[tokio::test]
async fn not_enough_gems_answers_409_with_the_days_until_new_gems() {
    let env = TestEnv::new().await;
    let base = serve(&env).await;
    let user = Uuid::now_v7();
    env.fund(user, 5).await;
    // Wednesday noon: the next gems come Friday at midnight, in a day and a half.
    env.clock.set(utc(2026, 1, 7, 12, 0));
    let response = runtime::tls::client()
        .post(format!("{base}/internal/wallets/{user}/debits"))
        .service_auth("wallet")
        .json(&debit_body("unlock-1", 10))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CONFLICT);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], "NOT_ENOUGH_GEMS");
    assert_eq!(body["daysUntilRefreshGems"], 2);
    assert_eq!((body["balance"].as_u64(), body["needed"].as_u64()), (Some(5), Some(10)));
    assert_eq!(env.scalar("select count(*) from ledger_entry where entry_type = 'debit'").await, 0);
    env.cleanup().await;
}

#[tokio::test]
async fn a_malformed_or_unacceptable_debit_is_refused_with_a_code() {
    let env = TestEnv::new().await;
    let base = serve(&env).await;
    let client = runtime::tls::client();
    let user = Uuid::now_v7();
    let url = format!("{base}/internal/wallets/{user}/debits");
    let cases = [
        (
            json!({ "asset": "gems", "amount": 0, "idempotency_key": "k", "reason": "pack_unlock" }),
            422,
            "INVALID_REQUEST",
        ),
        (
            json!({ "asset": "gems", "amount": 10, "idempotency_key": "", "reason": "pack_unlock" }),
            422,
            "INVALID_REQUEST",
        ),
        (
            json!({ "asset": "gems", "amount": 10, "idempotency_key": "k", "reason": "video_unlock" }),
            422,
            "INVALID_REQUEST",
        ),
        (
            json!({ "asset": "rubies", "amount": 10, "idempotency_key": "k", "reason": "pack_unlock" }),
            422,
            "INVALID_REQUEST",
        ),
        // A gems debit names the pack it pays for.
        (
            json!({ "asset": "gems", "amount": 10, "idempotency_key": "k", "reason": "pack_unlock" }),
            422,
            "INVALID_REQUEST",
        ),
        (
            json!({ "asset": "credits", "amount": 1, "idempotencyKey": "k", "reason": "video_unlock" }),
            409,
            "NOT_ENOUGH_CREDITS",
        ),
    ];
    for (body, status, code) in cases {
        let response = client.post(&url).service_auth("wallet").json(&body).send().await.unwrap();
        assert_eq!(response.status().as_u16(), status, "{body}");
        assert_eq!(response.json::<Value>().await.unwrap()["code"], code, "{body}");
    }
    let not_json = client
        .post(&url)
        .service_auth("wallet")
        .header("content-type", "application/json")
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), StatusCode::BAD_REQUEST);
    assert_eq!(not_json.json::<Value>().await.unwrap()["code"], "BAD_REQUEST");
    let bad_user = client
        .post(format!("{base}/internal/wallets/not-a-uuid/debits"))
        .service_auth("wallet")
        .json(&debit_body("k", 1))
        .send()
        .await
        .unwrap();
    assert_eq!(bad_user.status(), StatusCode::BAD_REQUEST);
    assert_eq!(env.scalar("select count(*) from event").await, 0, "nothing was recorded");
    env.cleanup().await;
}

#[tokio::test]
async fn the_gems_balance_answers_the_configured_weekly_amount() {
    let env = TestEnv::with(|c| wallet::WalletConfig { weekly_gems: 15, ..c }).await;
    let base = serve(&env).await;
    assert_eq!(gems_balance(&base, Uuid::now_v7()).await.weekly_gems, 15);
    env.cleanup().await;
}

#[tokio::test]
async fn the_gems_balance_and_the_transactions_newest_first_since_an_instant() {
    let env = TestEnv::new().await;
    let base = serve(&env).await;
    let client = runtime::tls::client();
    let user = Uuid::now_v7();

    let empty = gems_balance(&base, user).await;
    assert_eq!(empty.wallet.balance.amount, 0);
    assert_eq!(empty.days_until_refresh_gems, 2);
    assert_eq!(empty.weekly_gems, 10, "the default weekly amount (product.md, 'Gems and the wallet')");
    assert!(empty.gems.may_show_gems_modal && !empty.gems.has_new_gems);

    env.fund(user, 30).await;
    let before_debits = chrono::Utc::now();
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    for key in ["unlock-1", "unlock-2"] {
        client
            .post(format!("{base}/internal/wallets/{user}/debits"))
            .service_auth("wallet")
            .json(&debit_body(key, 10))
            .send()
            .await
            .unwrap()
            .error_for_status()
            .unwrap();
    }
    let balance: Value = client
        .get(format!("{base}/internal/wallets/{user}/gems-balance"))
        .service_auth("wallet")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(balance["wallet"]["balance"]["amount"], 10);
    assert_eq!(balance["daysUntilRefreshGems"], 2);
    assert_eq!(balance["gems"]["lastAcknowledgementDate"], Value::Null);
    assert_eq!(balance["gems"]["hasNewGems"], true);

    let all: TransactionsResponse = client
        .get(format!("{base}/internal/wallets/{user}/transactions"))
        .service_auth("wallet")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let lines: Vec<(&str, &str, u64, u64)> = all
        .transactions
        .iter()
        .map(|t| (t.transaction_type.as_str(), t.transaction_reason.as_str(), t.amount, t.balance_after))
        .collect();
    assert_eq!(
        lines,
        vec![("debit", "pack_unlock", 10, 10), ("debit", "pack_unlock", 10, 20), ("grant", "retention_deal", 30, 30)]
    );
    assert!(all.transactions.iter().all(|t| t.currency == "gems"));
    assert!(all.transactions.windows(2).all(|w| w[0].created_at >= w[1].created_at));

    let since = before_debits.to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
    let recent: TransactionsResponse = client
        .get(format!("{base}/internal/wallets/{user}/transactions?since={since}"))
        .service_auth("wallet")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(recent.transactions.len(), 2, "only the debits are since then");
    let bad = client
        .get(format!("{base}/internal/wallets/{user}/transactions?since=yesterday"))
        .service_auth("wallet")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    env.cleanup().await;
}

#[tokio::test]
async fn acknowledging_the_new_gems_balance_counts_once_a_day() {
    let env = TestEnv::new().await;
    let base = serve(&env).await;
    let client = runtime::tls::client();
    let user = Uuid::now_v7();
    env.fund(user, 10).await;
    let acknowledge = || async {
        let response = client
            .post(format!("{base}/internal/wallets/{user}/acknowledge-new-gems-balance"))
            .service_auth("wallet")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        response.json::<AcknowledgeResponse>().await.unwrap()
    };
    let balance = || gems_balance(&base, user);
    env.clock.set(utc(2026, 1, 7, 12, 0));
    let first = acknowledge().await;
    assert_eq!(first, AcknowledgeResponse { last_acknowledgement_date: Some(utc(2026, 1, 7, 12, 0)), recorded: true });
    let seen = balance().await;
    assert_eq!(seen.gems.last_acknowledgement_date, Some(utc(2026, 1, 7, 12, 0)));
    assert!(!seen.gems.may_show_gems_modal && !seen.gems.has_new_gems);

    env.clock.set(utc(2026, 1, 8, 11, 59));
    let again = acknowledge().await;
    assert_eq!(again, AcknowledgeResponse { last_acknowledgement_date: Some(utc(2026, 1, 7, 12, 0)), recorded: false });
    assert!(!balance().await.gems.may_show_gems_modal, "not again within the day");

    env.clock.set(utc(2026, 1, 8, 12, 0));
    assert!(balance().await.gems.may_show_gems_modal, "a day later the modal may show again");
    env.run(user, Command::AcknowledgeNewGemsBalance { now: utc(2026, 1, 8, 12, 0) }).await;
    let events = env.scalar("select count(*) from event where event_type = 'NewGemsBalanceAcknowledged'").await;
    assert_eq!(events, 2);
    env.cleanup().await;
}

#[tokio::test]
async fn a_wallet_answers_its_own_user_or_a_service_and_no_one_else() {
    let env = TestEnv::new().await;
    let signer = runtime::auth::Signer::generate("test");
    let state = env.state.clone().with_verifier(signer.verifier());
    let app = wallet::router(state).layer(axum::middleware::from_fn(runtime::http::correlate));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let (jane, mallory) = (Uuid::now_v7(), Uuid::now_v7());
    env.fund(jane, 30).await;
    let token = |user: Uuid| {
        let claims = runtime::auth::Claims::new(
            user,
            "vixen.localhost",
            "vixen",
            Uuid::now_v7(),
            vec![],
            std::time::Duration::from_secs(300),
        );
        signer.sign(&claims)
    };
    let client = runtime::tls::client();
    let debit = |bearer: Option<String>| {
        let mut request = client.post(format!("{base}/internal/wallets/{jane}/debits")).json(&debit_body("k-1", 10));
        if let Some(bearer) = bearer {
            request = request.bearer_auth(bearer);
        }
        request.send()
    };
    // No token, another user's token, a service token for another service: no debit.
    assert_eq!(debit(None).await.unwrap().status(), StatusCode::UNAUTHORIZED);
    assert_eq!(debit(Some(token(mallory))).await.unwrap().status(), StatusCode::FORBIDDEN);
    let for_catalog = runtime::testing::service_token("catalog");
    assert_eq!(debit(Some(for_catalog)).await.unwrap().status(), StatusCode::UNAUTHORIZED);
    for path in ["gems-balance", "transactions"] {
        let read = |bearer: String| client.get(format!("{base}/internal/wallets/{jane}/{path}")).bearer_auth(bearer);
        assert_eq!(read(token(mallory)).send().await.unwrap().status(), StatusCode::FORBIDDEN, "{path}");
        assert_eq!(read(token(jane)).send().await.unwrap().status(), StatusCode::OK, "{path}");
    }
    assert_eq!(env.scalar("select count(*) from event where event_type like '%Debited'").await, 0);
    // Her own token, or the unlocks service's, debits her wallet.
    assert_eq!(debit(Some(token(jane))).await.unwrap().status(), StatusCode::OK);
    assert_eq!(debit(Some(runtime::testing::service_token("wallet"))).await.unwrap().status(), StatusCode::OK);
    env.cleanup().await;
}
