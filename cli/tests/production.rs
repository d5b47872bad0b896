//! The `paysite` command with `PAYSITE_ENV=production`, as the prod overlay runs it: the
//! migration Job needs only the database and the broker, a service waits for it with its
//! probes answering, the one-shot commands need no secret of a service they do not serve,
//! the demo data and the biller sandbox are refused, and every missing setting is an error
//! that names it, never a panic.
//!
//! Each child gets an empty environment plus what the test gives it, as a pod gets only
//! what its manifest says.

mod support;

use std::{
    net::SocketAddr,
    process::{Command, Output, Stdio},
    time::Duration,
};

use runtime::testing::ScratchVhost;
use support::{database_url, fresh_database, service_roles, SERVICES};

/// `paysite <args>` with only `env` (and PATH) in its environment, from the repository root.
fn paysite(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_paysite"));
    command
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("RUST_LOG", "warn")
        .envs(env.iter().copied());
    command
}

fn run(args: &[&str], env: &[(&str, &str)]) -> (Output, String, String) {
    let out = paysite(args, env).output().unwrap();
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    assert!(!stderr.contains("panicked"), "paysite {args:?} panicked:\n{stderr}");
    (out, stdout, stderr)
}

fn succeeds(args: &[&str], env: &[(&str, &str)]) -> String {
    let (out, stdout, stderr) = run(args, env);
    assert!(out.status.success(), "paysite {args:?} failed:\n{stdout}\n{stderr}");
    format!("{stdout}{stderr}")
}

/// The error of a refused command: it exits non-zero, saying why, without a panic.
fn refused(args: &[&str], env: &[(&str, &str)]) -> String {
    let (out, stdout, stderr) = run(args, env);
    assert!(!out.status.success(), "paysite {args:?} was expected to be refused:\n{stdout}\n{stderr}");
    stderr
}

fn free_port() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
}

async fn status(client: &reqwest::Client, url: &str) -> Option<(u16, String)> {
    let response = client.get(url).send().await.ok()?;
    let status = response.status().as_u16();
    Some((status, response.text().await.unwrap_or_default()))
}

#[tokio::test]
async fn the_migration_job_needs_only_the_database_and_the_broker_and_a_service_waits_for_it() {
    let name = "paysite_test_prod_job";
    fresh_database(name).await;
    let vhost = ScratchVhost::new();
    let db = database_url(name);
    let roles = service_roles(name).await;
    let role_url =
        |service: &str| roles.iter().find(|(k, _)| k.ends_with(&service.to_ascii_uppercase())).unwrap().1.clone();
    let wallet_db = role_url("wallet");
    let job: Vec<(&str, &str)> =
        [("PAYSITE_ENV", "production"), ("DATABASE_URL", db.as_str()), ("AMQP_URL", vhost.url.as_str())]
            .into_iter()
            .chain(roles.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .collect();
    let job = job.as_slice();
    // A service's pod: its own role's URL as DATABASE_URL, nothing of the others'.
    let pod: &[(&str, &str)] = &[("PAYSITE_ENV", "production"), ("DATABASE_URL", &wallet_db), ("AMQP_URL", &vhost.url)];

    // A production wallet started before the Job: its probes answer, it says what it waits
    // for, and it does not migrate.
    let (api, ops) = (free_port(), free_port());
    let key = runtime::testing::service_key();
    let (api_addr, ops_addr) = (api.to_string(), ops.to_string());
    let mut wallet = paysite(
        &["serve", "wallet"],
        &[
            pod,
            &[
                ("PAYSITE_SERVICE_KEY", key.expose()),
                ("PAYSITE_ADDR", &api_addr),
                ("PAYSITE_OPS_ADDR", &ops_addr),
                ("PAYSITE_TENANTS_DIR", "config/tenants"),
            ],
        ]
        .concat(),
    )
    .stdout(Stdio::null())
    .stderr(Stdio::inherit())
    .spawn()
    .unwrap();
    let client = runtime::tls::client();
    let waiting = async {
        loop {
            // Before it says what it waits for, it is still connecting: keep asking.
            if let Some((503, body)) = status(&client, &format!("http://{ops}/readyz")).await {
                if body.contains("migration Job") {
                    return body;
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    };
    let body = tokio::time::timeout(Duration::from_secs(30), waiting)
        .await
        .expect("the wallet's readiness says it waits for the migration Job");
    assert!(body.contains("unready"), "{body}");
    assert_eq!(status(&client, &format!("http://{ops}/healthz")).await.map(|s| s.0), Some(200));
    assert!(
        client.get(format!("http://{api}/internal/wallets")).send().await.is_err(),
        "the API does not listen before the schema is migrated"
    );

    // The Job: schemas and queues of the six services, not the sandbox's.
    let out = succeeds(&["migrate"], job);
    for service in SERVICES {
        assert!(out.contains(&format!("migrated {service} (schema as {name}_{service},")), "{out}");
    }
    assert!(!out.contains("sandbox"), "{out}");
    let pool = sqlx::PgPool::connect(&db).await.unwrap();
    let sandbox: bool = sqlx::query_scalar("select exists (select 1 from pg_namespace where nspname = 'sandbox')")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(!sandbox, "the biller sandbox's schema is never made in production");
    // Each schema, its event store included, belongs to its service's role.
    for service in SERVICES {
        let owners: Vec<String> = sqlx::query_scalar(
            "select distinct pg_get_userbyid(relowner)::text from pg_class c join pg_namespace n on n.oid = \
             c.relnamespace where n.nspname = $1 union select pg_get_userbyid(nspowner)::text from pg_namespace \
             where nspname = $1",
        )
        .bind(service)
        .fetch_all(&pool)
        .await
        .unwrap();
        assert_eq!(owners, vec![format!("{name}_{service}")], "the owners of {service}'s schema and tables");
    }
    pool.close().await;
    // A service's role reads its own event store and no other service's.
    let wallet_pool = sqlx::PgPool::connect(&wallet_db).await.unwrap();
    sqlx::query("select count(*) from wallet.event").execute(&wallet_pool).await.unwrap();
    for other in SERVICES.iter().filter(|s| **s != "wallet") {
        let err = sqlx::query(&format!("select count(*) from {other}.event")).execute(&wallet_pool).await.unwrap_err();
        let code = err.as_database_error().and_then(|e| e.code()).map(|c| c.into_owned());
        assert_eq!(code.as_deref(), Some("42501"), "the wallet's role reading {other}.event: {err}");
    }
    wallet_pool.close().await;
    // Again, as a retried Job does: nothing changes.
    succeeds(&["migrate"], job);

    // The waiting wallet sees the migrated schema and serves.
    let ready = async {
        while status(&client, &format!("http://{ops}/readyz")).await.map(|s| s.0) != Some(200) {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(30), ready).await.expect("the wallet became ready after the Job");
    let exit = support::stop(&mut wallet, "the production wallet");
    assert!(exit.success(), "the production wallet exited with {exit}");

    // The one-shot commands need only what they use.
    let listed = succeeds(&["dlq", "list"], &[("PAYSITE_ENV", "production"), ("AMQP_URL", &vhost.url)]);
    assert!(listed.contains("0 dead letters"), "{listed}");
    let rebuilt = succeeds(&["rebuild-projections", "wallet"], pod);
    assert!(rebuilt.contains("rebuilt"), "{rebuilt}");

    // The demo data, `up` and the biller sandbox are refused, saying why.
    let seed = refused(&["seed"], job);
    assert!(seed.contains("paysite seed refuses to run with PAYSITE_ENV=production"), "{seed}");
    let up = refused(&["up"], job);
    assert!(up.contains("paysite up refuses"), "{up}");
    let sandbox = refused(&["serve", "sandbox"], &[job, &[("PAYSITE_SERVICE_KEY", key.expose())]].concat());
    assert!(sandbox.contains("biller sandbox does not run with PAYSITE_ENV=production"), "{sandbox}");
    let pool = sqlx::PgPool::connect(&db).await.unwrap();
    let users: i64 = sqlx::query_scalar("select count(*) from profile.event").fetch_one(&pool).await.unwrap();
    assert_eq!(users, 0, "nothing was seeded");
    pool.close().await;
}

#[tokio::test]
async fn every_missing_setting_is_named_and_never_a_panic() {
    let production = ("PAYSITE_ENV", "production");
    let db = database_url("paysite_test_prod_job");
    let amqp = runtime::testing::amqp_url();
    for (args, env, named) in [
        (vec!["migrate"], vec![production, ("AMQP_URL", amqp.as_str())], "DATABASE_URL"),
        (vec!["migrate"], vec![production, ("DATABASE_URL", db.as_str())], "AMQP_URL"),
        (vec!["dlq", "list"], vec![production], "AMQP_URL"),
        (
            vec!["serve", "wallet"],
            vec![production, ("DATABASE_URL", db.as_str()), ("AMQP_URL", amqp.as_str())],
            "PAYSITE_SERVICE_KEY",
        ),
        (
            vec!["migrate"],
            vec![production, ("DATABASE_URL_FILE", "/nonexistent/db"), ("AMQP_URL", amqp.as_str())],
            "DATABASE_URL_FILE",
        ),
        (
            vec!["migrate"],
            vec![production, ("DATABASE_URL", db.as_str()), ("AMQP_URL", amqp.as_str())],
            "DATABASE_URL_PROFILE, DATABASE_URL_SUBSCRIPTION, DATABASE_URL_WALLET",
        ),
    ] {
        let error = refused(&args, &env);
        assert!(error.contains(named), "paysite {args:?} names {named}:\n{error}");
    }
}

#[tokio::test]
async fn secrets_mounted_as_files_are_read_like_their_variables() {
    let dir = std::env::temp_dir().join(format!("paysite-secrets-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let (db_file, amqp_file) = (dir.join("DATABASE_URL"), dir.join("AMQP_URL"));
    fresh_database("paysite_test_prod_files").await;
    std::fs::write(&db_file, format!("{}\n", database_url("paysite_test_prod_files"))).unwrap();
    let vhost = ScratchVhost::new();
    std::fs::write(&amqp_file, &vhost.url).unwrap();
    // The roles' URLs as one directory of files named after their variables, as the Job
    // mounts them (PAYSITE_SECRETS_DIR).
    let roles = dir.join("roles");
    std::fs::create_dir_all(&roles).unwrap();
    for (variable, url) in service_roles("paysite_test_prod_files").await {
        std::fs::write(roles.join(variable), format!("{url}\n")).unwrap();
    }
    let out = succeeds(
        &["migrate"],
        &[
            ("PAYSITE_ENV", "production"),
            ("DATABASE_URL_FILE", db_file.to_str().unwrap()),
            ("AMQP_URL_FILE", amqp_file.to_str().unwrap()),
            ("PAYSITE_SECRETS_DIR", roles.to_str().unwrap()),
        ],
    );
    assert!(out.contains("migrated unlocks (schema as paysite_test_prod_files_unlocks, and 2 queues)"), "{out}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// What `paysite migrate` declares and `paysite dlq list` reads is what the built services
/// consume: a service's definition and its consumers cannot drift apart.
#[tokio::test]
async fn every_services_declared_queues_are_the_queues_it_consumes() {
    let name = "paysite_test_prod_defs";
    fresh_database(name).await;
    let settings = runtime::Settings::from_lookup(|key| match key {
        "DATABASE_URL" => Some(database_url(name)),
        _ => None,
    })
    .unwrap();
    std::env::set_var("PAYSITE_TENANTS_DIR", concat!(env!("CARGO_MANIFEST_DIR"), "/../config/tenants"));
    std::env::set_var("PAYSITE_BILLING_DIR", concat!(env!("CARGO_MANIFEST_DIR"), "/../config/billing"));
    let defs = [
        &profile::SERVICE,
        &subscription::SERVICE,
        &wallet::SERVICE,
        &catalog::SERVICE,
        &deals::SERVICE,
        &unlocks::SERVICE,
        &biller_sandbox::SERVICE,
    ];
    for def in defs {
        let ctx = def.prepare(&settings, 2).await.unwrap();
        let built = def.build_only(&ctx).await.unwrap_or_else(|e| panic!("{} builds: {e:#}", def.name));
        let consumed: Vec<(String, Vec<String>)> =
            built.consumers.iter().map(|c| (c.queue.clone(), c.bindings.clone())).collect();
        let declared: Vec<(String, Vec<String>)> = def
            .queues
            .iter()
            .map(|q| (q.name.to_owned(), q.bindings.iter().map(|b| (*b).to_owned()).collect()))
            .collect();
        assert_eq!(declared, consumed, "{}'s declared queues", def.name);
        let rebuilt: Vec<String> = (def.read_models)().iter().map(|p| p.name().to_owned()).collect();
        let kept: Vec<String> = built.projections.iter().map(|p| p.name().to_owned()).collect();
        assert_eq!(rebuilt, kept, "{}'s read models", def.name);
        ctx.pool.close().await;
    }
}
