//! `paysite up` starts every service and the gateway, answers, and stops cleanly.

use std::{
    io::{BufRead, BufReader},
    process::{Command, Stdio},
    sync::mpsc,
    time::{Duration, Instant},
};

#[tokio::test]
async fn up_serves_every_service_and_the_brands_and_stops_cleanly_on_sigterm() {
    let exchange = format!("test.up.{}", uuid::Uuid::new_v4().simple());
    let mut child = Command::new(env!("CARGO_BIN_EXE_paysite"))
        .args(["up", "--no-seed", "--ephemeral-ports", "--gateway-addr", "127.0.0.1:0"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/paysite_test_up")
        .env("PAYSITE_EXCHANGE", &exchange)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let (lines, seen) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    // The banner names the gateway's address and each service's URL.
    let (mut gateway, mut wallet) = (None, None);
    let start = Instant::now();
    while gateway.is_none() || wallet.is_none() {
        assert!(start.elapsed() < Duration::from_secs(60), "paysite up printed no banner");
        let Ok(line) = seen.recv_timeout(Duration::from_secs(60)) else { continue };
        if let Some(addr) = line.strip_prefix("The site (gateway on ").and_then(|r| r.strip_suffix("):")) {
            gateway = Some(addr.to_owned());
        }
        if let Some(url) = line.trim().strip_prefix("wallet") {
            wallet = Some(url.trim().to_owned());
        }
    }
    let (gateway, wallet) = (gateway.unwrap(), wallet.unwrap());
    let client = reqwest::Client::new();
    let ready = async {
        loop {
            if let Ok(r) = client.get(format!("{wallet}/readyz")).send().await {
                if r.status() == 200 {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(30), ready).await.expect("the wallet became ready");
    let page = client.get(format!("http://{gateway}/videos")).header("host", "vixen.localhost").send().await.unwrap();
    assert_eq!(page.status(), 200);
    let unknown = client.get(format!("http://{gateway}/")).header("host", "elsewhere.example").send().await.unwrap();
    assert_eq!(unknown.status(), 400);
    assert_eq!(unknown.text().await.unwrap(), "Received unexpected host string");

    // SIGTERM: in-flight work finishes and the process exits 0.
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(Instant::now() < deadline, "paysite up did not stop within 20 s of SIGTERM");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(exit.success(), "paysite up exited with {exit}");
}
