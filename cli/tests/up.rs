//! `paysite up` starts every service and the gateway, answers on loopback only, and stops cleanly.

use std::{
    io::{BufRead, BufReader, ErrorKind},
    net::{IpAddr, SocketAddr, TcpStream},
    process::{Command, Stdio},
    sync::mpsc,
    time::{Duration, Instant},
};

#[tokio::test]
async fn up_serves_every_service_and_the_brands_on_loopback_only_and_stops_cleanly_on_sigterm() {
    let exchange = format!("test.up.{}", uuid::Uuid::new_v4().simple());
    // Its own vhost: the services declare their queues under their real names.
    let vhost = runtime::testing::ScratchVhost::new();
    let mut child = Command::new(env!("CARGO_BIN_EXE_paysite"))
        .args(["up", "--no-seed", "--ephemeral-ports", "--gateway-addr", "127.0.0.1:0"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/paysite_test_up")
        .env("PAYSITE_EXCHANGE", &exchange)
        .env("AMQP_URL", &vhost.url)
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
    // The banner names the gateway's address and each service's URL, then how to stop.
    let (mut gateway, mut gateway_ops, mut services, mut ops) = (None, None, Vec::new(), Vec::new());
    let start = Instant::now();
    loop {
        assert!(start.elapsed() < Duration::from_secs(60), "paysite up printed no banner");
        let Ok(line) = seen.recv_timeout(Duration::from_secs(60)) else { continue };
        if let Some(addr) = line.strip_prefix("The site (gateway on ").and_then(|r| r.strip_suffix("):")) {
            gateway = Some(addr.to_owned());
        }
        if let Some(addr) = line.strip_prefix("Operations of the gateway (/healthz /readyz /metrics): http://") {
            gateway_ops = Some(addr.parse::<SocketAddr>().unwrap());
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if let [name, url, "ops", ops_url] = words[..] {
            if let (Some(addr), Some(ops_addr)) = (url.strip_prefix("http://"), ops_url.strip_prefix("http://")) {
                services.push((name.to_owned(), addr.parse::<SocketAddr>().unwrap()));
                ops.push((format!("{name} ops"), ops_addr.parse::<SocketAddr>().unwrap()));
            }
        }
        if line.starts_with("Stop with Ctrl-C") {
            break;
        }
    }
    let gateway = gateway.expect("the banner names the gateway");
    let gateway_ops = gateway_ops.expect("the banner names the gateway's operations address");
    let wallet_ops = ops.iter().find(|(name, _)| name == "wallet ops").map(|(_, a)| format!("http://{a}")).unwrap();
    assert!(services.len() >= 7, "the banner lists every service: {services:?}");
    let client = runtime::tls::client();
    let ready = async {
        loop {
            if let Ok(r) = client.get(format!("{wallet_ops}/readyz")).send().await {
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

    // The operations routes are on their own listeners: not on a brand host, nor on a service's API.
    let metrics = client.get(format!("http://{gateway_ops}/metrics")).send().await.unwrap();
    assert_eq!(metrics.status(), 200);
    for path in ["/metrics", "/readyz", "/healthz"] {
        let on_brand = client.get(format!("http://{gateway}{path}")).header("host", "vixen.localhost").send().await;
        assert_eq!(on_brand.unwrap().status(), 404, "{path} on a brand host");
    }
    let wallet = services.iter().find(|(name, _)| name == "wallet").map(|(_, a)| *a).unwrap();
    assert_eq!(client.get(format!("http://{wallet}/metrics")).send().await.unwrap().status(), 404);
    assert_eq!(client.get(format!("{wallet_ops}/metrics")).send().await.unwrap().status(), 200);

    // Every service and the gateway answer on loopback, and on no other address of the machine.
    let mut listening = services.clone();
    listening.extend(ops.iter().cloned());
    listening.push(("gateway".to_owned(), gateway.parse().unwrap()));
    listening.push(("gateway ops".to_owned(), gateway_ops));
    let others = non_loopback_addresses();
    assert!(!others.is_empty(), "this machine has no address but loopback to try (`ip -o addr`)");
    for (name, addr) in &listening {
        assert!(addr.ip().is_loopback(), "{name} listens on {addr}");
        assert!(TcpStream::connect_timeout(addr, Duration::from_secs(2)).is_ok(), "{name} answers on {addr}");
        for ip in &others {
            let there = SocketAddr::new(*ip, addr.port());
            match TcpStream::connect_timeout(&there, Duration::from_secs(2)) {
                Ok(_) => panic!("{name} answers on {there}"),
                Err(e) => assert_eq!(e.kind(), ErrorKind::ConnectionRefused, "{name} on {there}: {e}"),
            }
        }
    }

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

/// The machine's addresses other than loopback and link-local ones, from `ip -o addr`.
fn non_loopback_addresses() -> Vec<IpAddr> {
    let out = Command::new("ip").args(["-o", "addr"]).output().expect("`ip` (iproute2) lists the addresses");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace().skip_while(|w| *w != "inet" && *w != "inet6");
            words.next()?;
            words.next()?.split('/').next()?.parse::<IpAddr>().ok()
        })
        .filter(|ip| match ip {
            IpAddr::V4(v4) => !v4.is_loopback() && !v4.is_link_local() && !v4.is_unspecified(),
            IpAddr::V6(v6) => !v6.is_loopback() && (v6.segments()[0] & 0xffc0) != 0xfe80 && !v6.is_unspecified(),
        })
        .collect()
}
