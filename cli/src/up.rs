//! `paysite up` and `paysite serve`: start services, alone or all together.

use std::{net::SocketAddr, time::Duration};

use runtime::{service::Addrs, Settings};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::{preflight, services};

pub async fn seed_all(settings: &Settings) -> anyhow::Result<()> {
    anyhow::ensure!(
        cfg!(feature = "demo"),
        "this paysite is built without the demo data (the `demo` feature): there is nothing to seed"
    );
    for def in services::all(settings.environment) {
        let ctx = def.prepare(settings, 4).await?;
        if let Some(seed) = def.seed {
            seed(ctx).await?;
            println!("seeded {}", def.name);
        }
    }
    Ok(())
}

pub async fn up(settings: &Settings, gateway_addr: &str, seed: bool, ephemeral_ports: bool) -> anyhow::Result<()> {
    preflight::check(settings, preflight::Needs::BOTH).await?;
    let cancel = CancellationToken::new();
    let mut tasks = JoinSet::new();
    // Services that build browser-facing URLs (login redirects, media URLs) must agree with
    // the gateway's public origins; they read these when built.
    let gateway_port = gateway_addr.parse::<SocketAddr>().map(|a| a.port()).unwrap_or(8080);
    for (key, value) in [
        ("PAYSITE_BRAND_ORIGIN", format!("http://{{brand}}.localhost:{gateway_port}")),
        ("PAYSITE_MEMBERS_ORIGIN", format!("http://members.localhost:{gateway_port}")),
        ("UNLOCKS_MEDIA_BASE_URL", "/media/videos".to_owned()),
    ] {
        if std::env::var_os(key).is_none() {
            std::env::set_var(key, value);
        }
    }
    // Addresses first: services and the gateway find each other through PAYSITE_<NAME>_URL,
    // read when they are built.
    // An ephemeral port stays bound (reserved) until just before its service binds it: released
    // earlier, another process could take it during the migrations and seeding in between.
    let mut addrs = Vec::new();
    for def in services::all(settings.environment) {
        let (api, ops, reserved) = if ephemeral_ports {
            let api = std::net::TcpListener::bind("127.0.0.1:0")?;
            let ops = std::net::TcpListener::bind("127.0.0.1:0")?;
            (api.local_addr()?, ops.local_addr()?, Some((api, ops)))
        } else {
            let at = |port| SocketAddr::from(([127, 0, 0, 1], port));
            (at(def.port), at(runtime::service::ops_port(def.port)), None)
        };
        std::env::set_var(format!("PAYSITE_{}_URL", def.name.to_ascii_uppercase()), format!("http://{api}"));
        addrs.push((Addrs { api, ops }, reserved));
    }
    // The payments host the gateway calls (the cams one-click) is the sandbox on a laptop.
    if std::env::var_os("PAYSITE_PAYMENTS_URL").is_none() {
        if let Ok(sandbox) = std::env::var("PAYSITE_SANDBOX_URL") {
            std::env::set_var("PAYSITE_PAYMENTS_URL", sandbox);
        }
    }
    // Every service is built and its queues declared before any relay publishes.
    let mut built = Vec::new();
    for def in services::all(settings.environment) {
        let ctx = def.prepare(settings, 10).await?;
        if seed {
            if let Some(seed) = def.seed {
                seed(ctx.clone()).await?;
            }
        }
        let service = def.build(&ctx).await?;
        built.push((def, ctx, service));
    }
    let mut started = Vec::new();
    for ((def, ctx, service), (addrs, reserved)) in built.into_iter().zip(addrs) {
        drop(reserved);
        let bound = def.start(ctx, service, addrs, cancel.clone(), &mut tasks).await?;
        started.push((def.name.to_owned(), bound));
    }
    // One process, many parts: each part's operations port is chosen here, not by PAYSITE_OPS_ADDR.
    let gateway_ops = if ephemeral_ports {
        "127.0.0.1:0".to_owned()
    } else {
        let port = gateway_addr.parse::<SocketAddr>().map(|a| a.port()).unwrap_or(8080);
        format!("127.0.0.1:{}", runtime::service::ops_port(port))
    };
    let gateway = start_gateway(gateway_addr, Some(&gateway_ops), cancel.clone(), &mut tasks).await?;
    println!("\npaysite is up.\n");
    println!("The site (gateway on {}):", gateway.addr);
    for host in &gateway.hosts {
        println!("  http://{host}:{}", gateway.addr.port());
    }
    println!("\nOperations of the gateway (/healthz /readyz /metrics): http://{}", gateway.ops);
    println!("\nServices (internal API, then operations: /healthz /readyz /metrics):");
    for (name, bound) in &started {
        println!("  {name:<14} {:<24} ops http://{}", format!("http://{}", bound.api), bound.ops);
    }
    if seed {
        println!("\nDemo logins (members host, password {}):", profile::DEMO_PASSWORD);
        for user in profile::DEMO_USERS {
            println!("  {:<14} {:<28} {}", user.login(), user.email, user.kind);
        }
    }
    println!("\nStop with Ctrl-C.");
    wait_and_stop(cancel, tasks).await
}

/// Runs one service (or the gateway) on `addr` (`PAYSITE_ADDR`), else on loopback: a process
/// answers on another interface only where its deployment says so.
///
/// A service binds its operations routes first, so its probes answer while it migrates (in
/// development) or waits for the release's migration Job to bring its schema up to date (in
/// production, where a serving process never migrates): `/healthz` answers, `/readyz` says
/// why it is not ready yet, and no startup probe kills a pod for a slow migration.
pub async fn serve_one(settings: &Settings, name: &str, addr: Option<&str>) -> anyhow::Result<()> {
    let cancel = CancellationToken::new();
    let mut tasks = JoinSet::new();
    if name == "gateway" {
        start_gateway(addr.unwrap_or(gateway::config::DEFAULT_ADDR), None, cancel.clone(), &mut tasks).await?;
        return wait_and_stop(cancel, tasks).await;
    }
    let def = services::find(settings.environment, name)?;
    // The gateway owns no state; a service needs its database (the broker may come later).
    preflight::check(settings, preflight::Needs::SERVICE).await?;
    let api = def.listen_addr(|key| match key {
        "PAYSITE_ADDR" => addr.map(str::to_owned),
        _ => std::env::var(key).ok(),
    })?;
    let ops = def.ops_listen_addr(|key| std::env::var(key).ok())?;
    let production = settings.environment == runtime::config::Environment::Production;
    if !production {
        runtime::db::ensure_database(settings.database_url.expose()).await?;
    }
    let ctx = def.connect(settings, 10).await?;
    let starting = runtime::health::Starting::new("connecting");
    let readiness = runtime::health::Readiness {
        starting: starting.clone(),
        ..runtime::health::Readiness::new(name, Some(ctx.pool.clone()))
    };
    let ops = runtime::http::serve_ops(ops, readiness, cancel.clone(), &mut tasks).await?;
    tracing::info!(service = name, ops = %ops, "operations routes listening");
    if production {
        wait_for_migrations(def, &ctx, &starting, &cancel).await?;
    } else {
        starting.set("migrating its schema");
        def.migrate(&ctx.pool).await?;
    }
    starting.set("building");
    let service = def.build_for_serving(&ctx).await?;
    let api = def.start_serving(ctx, service, api, cancel.clone(), &mut tasks).await?;
    starting.done();
    tracing::info!(service = name, addr = %api, ops = %ops, "service listening");
    wait_and_stop(cancel, tasks).await
}

/// Waits until the release's migration Job (`paysite migrate`) has applied every migration
/// this build knows to the service's schema: a production process never migrates, so no
/// pod holds the migration lock past its startup probe, and none serves a schema behind it.
async fn wait_for_migrations(
    def: &runtime::service::ServiceDef,
    ctx: &runtime::service::ServiceContext,
    starting: &runtime::health::Starting,
    cancel: &CancellationToken,
) -> anyhow::Result<()> {
    let mut said = false;
    // One signal listener for the whole wait: a SIGTERM between two checks is not missed.
    let stop = runtime::http::shutdown_signal();
    tokio::pin!(stop);
    loop {
        let pending = def.pending_migrations(&ctx.pool).await?;
        if pending.is_empty() {
            return Ok(());
        }
        let reason = format!(
            "waiting for the release's migration Job (paysite migrate): {} migrations of {} not applied yet, first {}",
            pending.len(),
            def.name,
            pending[0]
        );
        if !said {
            tracing::warn!(service = def.name, pending = pending.len(), first = %pending[0], "{reason}");
            said = true;
        }
        starting.set(reason);
        tokio::select! {
            _ = cancel.cancelled() => anyhow::bail!("stopped while waiting for the migration Job"),
            _ = &mut stop => anyhow::bail!("stopped while waiting for the migration Job"),
            _ = tokio::time::sleep(Duration::from_secs(2)) => {}
        }
    }
}

pub struct GatewayStarted {
    pub addr: SocketAddr,
    /// Its operations routes (`/healthz`, `/readyz`, `/metrics`).
    pub ops: SocketAddr,
    /// Every host it answers for (`vixen.localhost`, ..., `members.localhost`).
    pub hosts: Vec<String>,
}

/// The gateway on `addr`, its operations routes on `ops_addr` (else `PAYSITE_OPS_ADDR`, else
/// 1000 above its port).
pub async fn start_gateway(
    addr: &str,
    ops_addr: Option<&str>,
    cancel: CancellationToken,
    tasks: &mut JoinSet<anyhow::Result<()>>,
) -> anyhow::Result<GatewayStarted> {
    let config = gateway::GatewayConfig::from_lookup(|key| match key {
        "PAYSITE_GATEWAY_ADDR" => Some(addr.to_owned()),
        "PAYSITE_OPS_ADDR" if ops_addr.is_some() => ops_addr.map(str::to_owned),
        _ => std::env::var(key).ok(),
    })?;
    let state = gateway::GatewayState::load(&config)?;
    // Sessions ended anywhere are refused here within seconds (docs/decisions/).
    let settings = runtime::Settings::from_env()?;
    settings.require(&["AMQP_URL"])?;
    let source = gateway::revocations::Source::from_settings(&settings);
    gateway::follow_sessions(&state, source.clone(), cancel.clone()).await;
    // Visitors' answers are kept while the catalog's and deals' events are followed.
    gateway::follow_answers(&state, source, cancel.clone()).await;
    let hosts = state.sites().hosts().into_iter().map(str::to_owned).collect();
    let ops = runtime::http::serve_ops(config.ops_addr, gateway::readiness(), cancel.clone(), tasks).await?;
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    tasks.spawn(async move {
        gateway::serve(listener, state, cancel.cancelled_owned()).await?;
        Ok(())
    });
    tracing::info!(%addr, %ops, "gateway listening");
    Ok(GatewayStarted { addr, ops, hosts })
}

/// Runs until Ctrl-C/SIGTERM or a task fails, then stops everything gracefully.
async fn wait_and_stop(cancel: CancellationToken, mut tasks: JoinSet<anyhow::Result<()>>) -> anyhow::Result<()> {
    let mut failure = None;
    tokio::select! {
        _ = runtime::http::shutdown_signal() => {}
        Some(done) = tasks.join_next() => {
            match done {
                Ok(Ok(())) => tracing::warn!("a task ended early"),
                Ok(Err(e)) => failure = Some(e),
                Err(e) => failure = Some(e.into()),
            }
        }
    }
    cancel.cancel();
    let drain = async {
        while let Some(done) = tasks.join_next().await {
            if let Ok(Err(e)) = done {
                tracing::warn!(error = %e, "task failed while stopping");
            }
        }
    };
    if tokio::time::timeout(Duration::from_secs(15), drain).await.is_err() {
        tracing::warn!("some tasks did not stop within 15 s");
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
