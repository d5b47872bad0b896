//! A crash between the wallet's debit and the unlock's record: the process is killed with
//! SIGKILL right there; after a restart, exactly one debit and one unlock exist.

mod support;

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use proto_events::subscription::MembershipKind;
use runtime::auth::{Claims, Signer};
use uuid::Uuid;

use support::{channel_event, database_url, kill9, pack_event, TestEnv};

struct Harness {
    child: Child,
    lines: mpsc::Receiver<String>,
    base: String,
}

impl Harness {
    fn start(env: &TestEnv, seed: &[u8; 32], hang: bool, reconcile_after_ms: &str) -> Harness {
        let mut child = Command::new(env!("CARGO_BIN_EXE_unlocks-harness"))
            .args(["--schema", &env.schema])
            .env("DATABASE_URL", database_url())
            .env("PAYSITE_WALLET_URL", &env.wallet_url)
            .env("PAYSITE_SUBSCRIPTION_URL", &env.subscription_url)
            .env("PAYSITE_SERVICE_KEY", runtime::testing::service_key().expose())
            .env("UNLOCKS_HARNESS_SIGNER_SEED", URL_SAFE_NO_PAD.encode(seed))
            .env("UNLOCKS_HARNESS_HANG_AFTER_DEBIT", if hang { "1" } else { "0" })
            .env("UNLOCKS_RECONCILE_AFTER_MS", reconcile_after_ms)
            .env("UNLOCKS_RECONCILE_INTERVAL_MS", "100")
            .env("UNLOCKS_MEDIA_DIR", support::media_dir())
            .env("RUST_LOG", "error")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("unlocks-harness starts");
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut harness = Harness { child, lines, base: String::new() };
        let listening = harness.line_starting("LISTENING ");
        harness.base = format!("http://{listening}");
        harness
    }

    fn line_starting(&mut self, prefix: &str) -> String {
        loop {
            let line = self.lines.recv_timeout(Duration::from_secs(30)).expect("the harness speaks");
            if let Some(rest) = line.strip_prefix(prefix) {
                return rest.to_owned();
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_crash_between_debit_and_record_ends_with_one_debit_and_one_unlock_after_restart() {
    let env = TestEnv::new().await;
    let (pack, channel) = (Uuid::now_v7(), Uuid::now_v7());
    env.catalog(&[channel_event(channel), pack_event(pack, channel, vec![Uuid::now_v7()])]).await;
    let user = Uuid::now_v7();
    env.subscribe(user, MembershipKind::Member, &["vixen"], false).await;
    env.fund_gems(user, 50).await;
    // The harness trusts the test's signer, as the subscription service it asks does.
    let seed: [u8; 32] = env.signer_seed;
    let signer = Signer::from_seed("test", seed);
    let token = signer.sign(&Claims::new(
        user,
        "vixen.localhost:8080",
        "vixen",
        Uuid::now_v7(),
        vec![],
        Duration::from_secs(600),
    ));

    // The first process debits, then is killed before it records the unlock.
    let mut first = Harness::start(&env, &seed, true, "3600000");
    let url = format!("{}/internal/unlocks/channel-packs/{pack}", first.base);
    let client = env.http();
    let (c, t) = (client.clone(), token.clone());
    let request = tokio::spawn(async move { c.post(url).bearer_auth(t).send().await });
    let debited = tokio::task::block_in_place(|| first.line_starting("DEBITED "));
    kill9(&mut first.child);
    assert!(request.await.unwrap().is_err(), "the request died with its process");
    let unlock_id: Uuid = debited.parse().unwrap();
    assert_eq!(env.debits().await, 1, "the debit is recorded");
    assert_eq!(env.scalar("select count(*) from channel_pack_unlock").await, 0, "the unlock is not");
    assert_eq!(env.scalar("select count(*) from pending_unlock").await, 1);

    // After a restart the reconciler finishes it.
    let mut second = Harness::start(&env, &seed, false, "0");
    env.wait_for("select count(*) from channel_pack_unlock", 1, Duration::from_secs(30)).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(env.debits().await, 1, "exactly one debit");
    assert_eq!(
        env.scalar("select count(*) from event where event_type = 'ChannelPackUnlocked'").await,
        1,
        "exactly one unlock"
    );
    assert_eq!(env.scalar("select count(*) from pending_unlock").await, 0);
    let recorded: Uuid =
        sqlx::query_scalar("select unlock_id from channel_pack_unlock").fetch_one(&env.pool).await.unwrap();
    assert_eq!(recorded, unlock_id, "the unlock is the one the debit paid for");
    assert_eq!(env.gems(user).await, 40);
    // The user asking again is told it is unlocked, and nothing more is debited.
    let again = client
        .post(format!("{}/internal/unlocks/channel-packs/{pack}", second.base))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), reqwest::StatusCode::CONFLICT);
    assert_eq!(again.json::<serde_json::Value>().await.unwrap()["code"], "ALREADY_UNLOCKED");
    assert_eq!(env.debits().await, 1);
    kill9(&mut second.child);
    env.cleanup().await;
}
