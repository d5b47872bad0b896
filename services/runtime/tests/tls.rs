//! TLS as configuration, against real servers: a throwaway PostgreSQL cluster with ssl=on and a
//! certificate from a CA generated here (the machine's own cluster is left alone), and a service
//! listener serving TLS to the internal client. Certificates come from the `openssl` command.
//!
//! Each test runs in its own process (nextest), so setting `PAYSITE_TLS_CA_FILE` for the
//! process-wide settings touches no other test.

use std::{
    net::TcpStream,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use runtime::{
    client::{CallContext, Upstream},
    tls::{Identity, TlsSettings},
};
use tokio_util::sync::CancellationToken;

/// A CA, a server certificate it signs for `localhost` and 127.0.0.1, and an unrelated CA.
struct Certs {
    dir: PathBuf,
}

impl Certs {
    fn generate(dir: &Path) -> Certs {
        let dir = dir.join("certs");
        std::fs::create_dir_all(&dir).unwrap();
        let openssl = |args: &[&str]| {
            let out = Command::new("openssl").args(args).current_dir(&dir).output().expect("openssl must be installed");
            assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
        for ca in ["ca", "other-ca"] {
            let (key, crt, subj) = (format!("{ca}.key"), format!("{ca}.crt"), format!("/CN=paysite test {ca}"));
            let mut args = vec!["req", "-x509", "-days", "2", "-subj", &subj, "-keyout", &key, "-out", &crt];
            args.extend(ec);
            args.extend(["-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"]);
            openssl(&args);
        }
        std::fs::write(
            dir.join("server.ext"),
            "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n\
             keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n",
        )
        .unwrap();
        let certs = Certs { dir };
        certs.issue("ca", "server");
        certs
    }

    /// A new server certificate for the same names, signed by `ca` (`ca` or `other-ca`), as
    /// `<name>.crt` and `<name>.key`.
    fn issue(&self, ca: &str, name: &str) {
        let openssl = |args: &[&str]| {
            let out =
                Command::new("openssl").args(args).current_dir(&self.dir).output().expect("openssl must be installed");
            assert!(out.status.success(), "openssl {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        };
        let (key, csr, crt) = (format!("{name}.key"), format!("{name}.csr"), format!("{name}.crt"));
        openssl(&[
            "req",
            "-new",
            "-subj",
            "/CN=localhost",
            "-keyout",
            &key,
            "-out",
            &csr,
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
        ]);
        let (ca_crt, ca_key) = (format!("{ca}.crt"), format!("{ca}.key"));
        openssl(&[
            "x509",
            "-req",
            "-in",
            &csr,
            "-CA",
            &ca_crt,
            "-CAkey",
            &ca_key,
            "-CAcreateserial",
            "-days",
            "2",
            "-extfile",
            "server.ext",
            "-out",
            &crt,
        ]);
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn trusting(&self, ca: &str) -> TlsSettings {
        TlsSettings { ca_file: Some(self.path(ca)), identity: None }
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0\n")).unwrap_or(false)
}

/// Runs a PostgreSQL program as the `postgres` user when this test runs as root (initdb and
/// the server refuse root), else as this user.
fn pg_command(bin: &Path, program: &str) -> Command {
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(bin.join(program));
        c
    } else {
        Command::new(bin.join(program))
    }
}

fn pg_bin_dir() -> PathBuf {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL's server programs under /usr/lib/postgresql")
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop().expect("an initdb under /usr/lib/postgresql/*/bin")
}

/// A throwaway cluster on a free port that takes TLS connections only (`hostssl` trust,
/// everything else rejected), with the server certificate of `certs`. Stopped on drop.
struct TlsPostgres {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl TlsPostgres {
    fn start(certs: &Certs, dir: tempfile::TempDir) -> TlsPostgres {
        let bin = pg_bin_dir();
        let data = dir.path().join("data");
        if is_root() {
            let status = Command::new("chown").args(["-R", "postgres:postgres"]).arg(dir.path()).status().unwrap();
            assert!(status.success());
            std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        }
        let out = pg_command(&bin, "initdb")
            .args(["-A", "trust", "-U", "postgres", "--no-sync", "-D"])
            .arg(&data)
            .output()
            .unwrap();
        assert!(out.status.success(), "initdb: {}", String::from_utf8_lossy(&out.stderr));
        // The key must belong to the server's user and be private to it.
        for f in ["server.crt", "server.key"] {
            std::fs::copy(certs.path(f), data.join(f)).unwrap();
        }
        std::fs::set_permissions(data.join("server.key"), std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
        if is_root() {
            let status =
                Command::new("chown").args(["postgres:postgres"]).arg(data.join("server.key")).status().unwrap();
            assert!(status.success());
            let status =
                Command::new("chown").args(["postgres:postgres"]).arg(data.join("server.crt")).status().unwrap();
            assert!(status.success());
        }
        let port = free_port();
        let conf = format!(
            "listen_addresses = '127.0.0.1'\nport = {port}\nunix_socket_directories = '{}'\nssl = on\n\
             ssl_cert_file = 'server.crt'\nssl_key_file = 'server.key'\nfsync = off\nmax_connections = 20\n",
            dir.path().display()
        );
        append(&data.join("postgresql.conf"), &conf);
        std::fs::write(
            data.join("pg_hba.conf"),
            "hostssl all all 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 reject\n",
        )
        .unwrap();
        let child = pg_command(&bin, "postgres")
            .arg("-D")
            .arg(&data)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let pg = TlsPostgres { child, port, _dir: dir };
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "the throwaway PostgreSQL did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        pg
    }

    fn url(&self, sslmode: &str) -> String {
        format!("postgres://postgres@localhost:{}/postgres?sslmode={sslmode}", self.port)
    }
}

impl Drop for TlsPostgres {
    fn drop(&mut self) {
        // SIGTERM through runuser reaches the server: a "smart" shutdown, then reap it.
        let _ = Command::new("kill").arg(self.child.id().to_string()).status();
        let _ = self.child.wait();
    }
}

fn append(path: &Path, text: &str) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

#[tokio::test]
async fn the_stack_s_database_connection_speaks_tls_verified_against_the_configured_ca() {
    let dir = tempfile::tempdir().unwrap();
    let certs = Certs::generate(dir.path());
    let pg = TlsPostgres::start(&certs, tempfile::tempdir().unwrap());

    // The stack's own pool (runtime::db), verify-full: our CA signed the server's certificate
    // for `localhost`, so the connection is made, and it is encrypted.
    let pool = runtime::db::connect_with(&pg.url("verify-full"), "public", 2, &certs.trusting("ca.crt"))
        .await
        .expect("a TLS connection verified against the configured CA");
    let (ssl, version): (bool, String) =
        sqlx::query_as("select ssl, version from pg_stat_ssl where pid = pg_backend_pid()")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(ssl, "the connection is encrypted");
    assert!(version.starts_with("TLSv1.") && version != "TLSv1.1", "{version}");
    pool.close().await;

    // The same server is refused when the configured CA did not sign its certificate, and when
    // no CA is configured at all (only the public roots, which know nothing of it).
    let wrong = runtime::db::connect_with(&pg.url("verify-full"), "public", 1, &certs.trusting("other-ca.crt")).await;
    assert!(wrong.is_err(), "a certificate from an unknown CA is refused");
    let none = runtime::db::connect_with(&pg.url("verify-full"), "public", 1, &TlsSettings::default()).await;
    assert!(none.is_err(), "no configured CA: refused");

    // And the server itself takes no plain connection: TLS is really on the wire.
    let plain = runtime::db::connect_with(&pg.url("disable"), "public", 1, &TlsSettings::default()).await;
    let plain = format!("{:#}", plain.expect_err("plain text refused by pg_hba"));
    assert!(plain.contains("pg_hba") || plain.contains("rejects"), "{plain}");
}

#[tokio::test]
async fn an_internal_api_serves_tls_and_the_internal_client_trusts_the_configured_ca() {
    let dir = tempfile::tempdir().unwrap();
    let certs = Certs::generate(dir.path());
    // The process's settings: this test's own process (nextest), so no other test sees them.
    std::env::set_var(runtime::tls::CA_FILE, certs.path("ca.crt"));

    let identity = Identity { cert_file: certs.path("server.crt"), key_file: certs.path("server.key") };
    let served = TlsSettings { ca_file: None, identity: Some(identity) };
    let app = axum::Router::new()
        .route("/ping", axum::routing::get(|| async { axum::Json(serde_json::json!({"ok": true})) }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let cancel = CancellationToken::new();
    let server = tokio::spawn({
        let cancel = cancel.clone();
        async move { runtime::tls::serve(listener, app, &served, cancel).await }
    });

    // The internal client, as every service builds it, over https.
    let upstream = Upstream::new("test", format!("https://localhost:{port}"), Duration::from_secs(5));
    let answer: serde_json::Value = upstream.get("/ping", &[], &CallContext::system()).await.expect("https call");
    assert_eq!(answer, serde_json::json!({"ok": true}));

    // A client without the CA refuses the certificate; plain HTTP gets no answer from the TLS port.
    let bare = runtime::tls::client_builder().build().unwrap();
    let refused = bare.get(format!("https://localhost:{port}/ping")).send().await;
    assert!(refused.is_err(), "an unknown CA is refused");
    let plain = bare.get(format!("http://localhost:{port}/ping")).send().await;
    assert!(plain.is_err() || !plain.unwrap().status().is_success(), "no plain HTTP on a TLS listener");

    // Cancelling stops the listener.
    cancel.cancel();
    tokio::time::timeout(Duration::from_secs(5), server).await.expect("the listener stops").unwrap().unwrap();
}

#[tokio::test]
async fn a_renewed_certificate_is_served_without_a_restart_and_a_broken_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let certs = Certs::generate(dir.path());
    // The mounted Secret: files the listener reads, replaced in place as the kubelet does.
    let (cert_file, key_file) = (dir.path().join("tls.crt"), dir.path().join("tls.key"));
    std::fs::copy(certs.path("server.crt"), &cert_file).unwrap();
    std::fs::copy(certs.path("server.key"), &key_file).unwrap();
    let served = TlsSettings {
        ca_file: None,
        identity: Some(Identity { cert_file: cert_file.clone(), key_file: key_file.clone() }),
    };
    let app = axum::Router::new().route("/ping", axum::routing::get(|| async { "pong" }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("https://localhost:{}/ping", listener.local_addr().unwrap().port());
    let cancel = CancellationToken::new();
    let server = tokio::spawn({
        let cancel = cancel.clone();
        async move { runtime::tls::serve_reloading_every(listener, app, &served, Duration::from_millis(100), cancel).await }
    });
    let trusting = |ca: &str| {
        runtime::tls::http_client(runtime::tls::client_builder(), &certs.trusting(ca)).unwrap().build().unwrap()
    };
    // A fresh client per request: no pooled connection keeps the old handshake.
    let answers = |ca: &'static str| {
        let client = trusting(ca);
        let url = url.clone();
        async move { client.get(&url).send().await.is_ok_and(|r| r.status().is_success()) }
    };
    assert!(answers("ca.crt").await, "the first certificate is served");
    assert!(!answers("other-ca.crt").await);

    // Renewed by another CA (so the test can tell which one is served): new connections get it.
    certs.issue("other-ca", "renewed");
    std::fs::copy(certs.path("renewed.key"), &key_file).unwrap();
    std::fs::copy(certs.path("renewed.crt"), &cert_file).unwrap();
    let renewed = async {
        while !answers("other-ca.crt").await {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), renewed).await.expect("the renewed certificate is served");
    assert!(!answers("ca.crt").await, "the old certificate is no longer served");

    // A broken renewal (a key of another certificate) is refused: the current one stays.
    certs.issue("ca", "mismatched");
    std::fs::copy(certs.path("mismatched.crt"), &cert_file).unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(answers("other-ca.crt").await, "the certificate in use stays when its replacement is broken");
    assert!(!answers("ca.crt").await);

    cancel.cancel();
    tokio::time::timeout(Duration::from_secs(5), server).await.expect("the listener stops").unwrap().unwrap();
}

/// A TLS front for the machine's RabbitMQ: terminates TLS with the server certificate and passes
/// the bytes on to 127.0.0.1:5672, so an `amqps://` URL reaches the real broker encrypted.
async fn tls_front_for_rabbitmq(certs: &Certs, cancel: CancellationToken) -> u16 {
    let identity = Identity { cert_file: certs.path("server.crt"), key_file: certs.path("server.key") };
    let acceptor = tokio_rustls::TlsAcceptor::from(runtime::tls::server_config(&identity).unwrap());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        loop {
            let (stream, _) = tokio::select! {
                _ = cancel.cancelled() => return,
                accepted = listener.accept() => accepted.unwrap(),
            };
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let Ok(mut tls) = acceptor.accept(stream).await else { return };
                let mut broker = tokio::net::TcpStream::connect("127.0.0.1:5672").await.unwrap();
                let _ = tokio::io::copy_bidirectional(&mut tls, &mut broker).await;
            });
        }
    });
    port
}

#[tokio::test]
async fn an_amqps_connection_reaches_the_broker_trusting_the_configured_ca() {
    let dir = tempfile::tempdir().unwrap();
    let certs = Certs::generate(dir.path());
    let cancel = CancellationToken::new();
    let port = tls_front_for_rabbitmq(&certs, cancel.clone()).await;
    let url = format!("amqps://guest:guest@localhost:{port}/%2f");
    // The process's settings: this test's own process (nextest), so no other test sees them.
    std::env::set_var(runtime::tls::CA_FILE, certs.path("ca.crt"));

    // Without the CA (public roots only) the broker's certificate is refused; so is another CA.
    let refused = runtime::broker::connect_with(&url, "tls-test", &TlsSettings::default()).await;
    assert!(refused.is_err(), "an unknown CA is refused");
    let wrong = runtime::broker::connect_with(&url, "tls-test", &certs.trusting("other-ca.crt")).await;
    assert!(wrong.is_err(), "a certificate from another CA is refused");

    // With it, the stack's own connect speaks AMQP over TLS to the real broker: a channel opens
    // and a queue is declared there.
    let connection = runtime::broker::connect(&url, "tls-test").await.expect("amqps with the configured CA");
    let channel = connection.create_channel().await.unwrap();
    let queue = channel
        .queue_declare(
            "".into(),
            lapin::options::QueueDeclareOptions { exclusive: true, auto_delete: true, ..Default::default() },
            Default::default(),
        )
        .await
        .unwrap();
    assert_eq!(queue.message_count(), 0);
    connection.close(200, "done".into()).await.unwrap();
    cancel.cancel();
}
