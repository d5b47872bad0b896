//! `paysite up` as a child process on ephemeral ports, on a database and broker vhost of the
//! test's, with what its banner names; stopped with SIGTERM when dropped.
#![allow(dead_code)]

use std::{
    io::{BufRead, BufReader},
    net::SocketAddr,
    process::{Child, Command, ExitStatus, Stdio},
    sync::mpsc,
    time::{Duration, Instant},
};

pub struct Up {
    pub child: Child,
    /// The gateway's brand-host address.
    pub gateway: String,
    pub gateway_ops: SocketAddr,
    /// Each service's API address, by name, in the banner's order.
    pub services: Vec<(String, SocketAddr)>,
    /// Each service's operations address, as `<name> ops`.
    pub ops: Vec<(String, SocketAddr)>,
    /// Its own exchange, and its own broker vhost (deleted after the child stopped: fields drop
    /// after `Drop::drop`).
    pub exchange: String,
    pub vhost: runtime::testing::ScratchVhost,
}

impl Up {
    /// Starts `paysite up --no-seed` on the database `database`, with `env` added, and reads its
    /// banner.
    pub fn start(database: &str, env: &[(&str, &str)]) -> Up {
        let exchange = format!("test.up.{}", uuid::Uuid::new_v4().simple());
        // Its own vhost: the services declare their queues under their real names.
        let vhost = runtime::testing::ScratchVhost::new();
        let mut child = Command::new(env!("CARGO_BIN_EXE_paysite"))
            .args(["up", "--no-seed", "--ephemeral-ports", "--gateway-addr", "127.0.0.1:0"])
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .env("DATABASE_URL", format!("postgres://postgres@127.0.0.1:5432/{database}"))
            .env("PAYSITE_EXCHANGE", &exchange)
            .env("AMQP_URL", &vhost.url)
            .env("RUST_LOG", "warn")
            .envs(env.iter().copied())
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
            assert!(start.elapsed() < Duration::from_secs(120), "paysite up printed no banner");
            let Ok(line) = seen.recv_timeout(Duration::from_secs(120)) else { continue };
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
        Up {
            child,
            gateway: gateway.expect("the banner names the gateway"),
            gateway_ops: gateway_ops.expect("the banner names the gateway's operations address"),
            services,
            ops,
            exchange,
            vhost,
        }
    }

    /// The service `name`'s base URL.
    pub fn url(&self, name: &str) -> String {
        let addr = self.services.iter().find(|(n, _)| n == name).map(|(_, a)| *a);
        format!("http://{}", addr.unwrap_or_else(|| panic!("the banner names {name}")))
    }

    /// Waits for the service `name`'s `/readyz` to answer 200.
    pub async fn ready(&self, name: &str) {
        let ops = self.ops.iter().find(|(n, _)| *n == format!("{name} ops")).map(|(_, a)| format!("http://{a}"));
        let ops = ops.unwrap_or_else(|| panic!("the banner names {name}'s operations address"));
        let client = runtime::tls::client();
        let ready = async {
            while !client.get(format!("{ops}/readyz")).send().await.is_ok_and(|r| r.status() == 200) {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(60), ready).await.unwrap_or_else(|_| panic!("{name} became ready"));
    }

    /// Waits for every service's `/readyz`.
    pub async fn all_ready(&self) {
        for (name, _) in &self.services {
            self.ready(name).await;
        }
    }

    /// SIGTERM, and the exit within 20 s.
    pub fn stop(&mut self) -> ExitStatus {
        stop(&mut self.child, "paysite up")
    }
}

impl Drop for Up {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            if terminate(&mut self.child).is_none() {
                let _ = self.child.kill();
            }
        }
    }
}

/// SIGTERM to `child` (`what`, for the messages), and its exit within 20 s: in-flight work
/// finishes first.
pub fn stop(child: &mut Child, what: &str) -> ExitStatus {
    terminate(child).unwrap_or_else(|| panic!("{what} did not stop within 20 s of SIGTERM"))
}

/// SIGTERM, then the exit status if it comes within 20 s.
fn terminate(child: &mut Child) -> Option<ExitStatus> {
    let _ = Command::new("kill").args(["-TERM", &child.id().to_string()]).status();
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Ok(Some(exit)) = child.try_wait() {
            return Some(exit);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    None
}

/// The connection string of the database `name` on this machine's server.
pub fn database_url(name: &str) -> String {
    format!("postgres://postgres@127.0.0.1:5432/{name}")
}

/// A database of the test's own, empty: production processes never create one.
pub async fn fresh_database(name: &str) {
    let admin = sqlx::PgPool::connect(&database_url("postgres")).await.unwrap();
    sqlx::query(&format!("drop database if exists {name} with (force)")).execute(&admin).await.unwrap();
    sqlx::query(&format!("create database {name}")).execute(&admin).await.unwrap();
    admin.close().await;
}

/// The services `paysite migrate` migrates in production, each as a database role of its own.
pub const SERVICES: [&str; 6] = ["profile", "subscription", "wallet", "catalog", "deals", "unlocks"];

/// The services' own roles for the database `database`, as the database cluster's managed
/// roles make them (trust authentication here, so no password): `(DATABASE_URL_<SERVICE>, its
/// URL)` for each. Roles belong to the whole server, so each test's are named after its
/// database (`<database>_<service>`), made again after [`fresh_database`] dropped what they held.
pub async fn service_roles(database: &str) -> Vec<(String, String)> {
    let admin = sqlx::PgPool::connect(&database_url("postgres")).await.unwrap();
    let mut env = Vec::new();
    for service in SERVICES {
        let role = format!("{database}_{service}");
        sqlx::query(&format!("drop role if exists {role}")).execute(&admin).await.unwrap();
        sqlx::query(&format!("create role {role} login")).execute(&admin).await.unwrap();
        env.push((
            format!("DATABASE_URL_{}", service.to_ascii_uppercase()),
            format!("postgres://{role}@127.0.0.1:5432/{database}"),
        ));
    }
    admin.close().await;
    env
}
