//! How a service is put together and started, alone or beside the others.
//!
//! Every service crate exposes a [`ServiceDef`]; `paysite serve <service>` runs one per
//! process (Kubernetes), `paysite up` runs them all in one process (a laptop).

use std::{future::Future, net::SocketAddr, pin::Pin, sync::Arc};

use axum::Router;
use sqlx::{migrate::Migrator, PgPool};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::{
    config::Settings,
    consumer::{self, ConsumerSettings, ConsumerSpec},
    db,
    event_store::EventStore,
    health::Readiness,
    projection::Projection,
    relay::{self, RelaySettings},
};

pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A background job (a scheduler, a reconciler): runs until the token is cancelled.
pub type Job = Box<dyn FnOnce(CancellationToken) -> BoxFuture<()> + Send>;

/// Writes a service's demo data.
pub type Seeder = fn(ServiceContext) -> BoxFuture<anyhow::Result<()>>;

/// What a service is made of once built.
pub struct Service {
    /// The internal HTTP API (the gateway and other services call it).
    pub router: Router,
    pub consumers: Vec<ConsumerSpec>,
    /// Read models `paysite rebuild-projections` can rebuild.
    pub projections: Vec<Arc<dyn Projection>>,
    pub jobs: Vec<Job>,
}

impl Service {
    /// A service of an internal HTTP API, the consumers it runs and the read models it keeps,
    /// with no periodic job.
    pub fn new(router: Router, consumers: Vec<ConsumerSpec>, projections: Vec<Arc<dyn Projection>>) -> Self {
        Service { router, consumers, projections, jobs: Vec::new() }
    }

    /// The same service running `jobs` as well.
    pub fn with_jobs(mut self, jobs: Vec<Job>) -> Self {
        self.jobs = jobs;
        self
    }
}

/// What the service gets to build itself.
#[derive(Clone)]
pub struct ServiceContext {
    pub pool: PgPool,
    pub store: EventStore,
    pub settings: Settings,
}

/// A consumer queue as the broker knows it: its name (`<service>.<purpose>`) and the routing
/// keys it binds. A service's [`ServiceDef::queues`] are the ones its consumers read in a
/// deployment, so `paysite migrate` and `paysite dlq list` know them without building it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Queue {
    pub name: &'static str,
    pub bindings: &'static [&'static str],
}

/// A service as the `paysite` command knows it.
pub struct ServiceDef {
    /// Its name: schema, routing-key prefix, queue prefix.
    pub name: &'static str,
    /// Its default port when run beside the others.
    pub port: u16,
    pub migrations: &'static Migrator,
    /// Its consumer queues in a deployment (the queue names of its default configuration):
    /// what `paysite migrate` declares and `paysite dlq list` reads, with no secret of the
    /// service needed. A test builds each service and compares.
    pub queues: &'static [Queue],
    /// The read models `paysite rebuild-projections` rebuilds, on those queues' inboxes.
    pub read_models: fn() -> Vec<Arc<dyn Projection>>,
    pub build: fn(ServiceContext) -> BoxFuture<anyhow::Result<Service>>,
    /// Writes the service's demo data (through its own commands, so it is events too);
    /// must be safe to run again.
    pub seed: Option<Seeder>,
}

impl ServiceDef {
    /// Connects to its schema and migrates it.
    pub async fn prepare(&self, settings: &Settings, max_connections: u32) -> anyhow::Result<ServiceContext> {
        db::ensure_database(settings.database_url.expose()).await?;
        let pool = db::connect(settings.database_url.expose(), self.name, max_connections).await?;
        self.migrate(&pool).await?;
        Ok(ServiceContext { store: EventStore::new(pool.clone(), self.name), pool, settings: settings.clone() })
    }

    /// Connects to its schema without migrating it: a production service, whose schema the
    /// release's migration Job has brought up to date ([`Self::check_migrated`]).
    pub async fn connect(&self, settings: &Settings, max_connections: u32) -> anyhow::Result<ServiceContext> {
        let pool = db::connect(settings.database_url.expose(), self.name, max_connections).await?;
        Ok(ServiceContext { store: EventStore::new(pool.clone(), self.name), pool, settings: settings.clone() })
    }

    /// Applies its migrations (the runtime's, then its own) to its schema, under the schema's
    /// advisory lock.
    pub async fn migrate(&self, pool: &PgPool) -> anyhow::Result<()> {
        db::migrate(pool, self.name, &self.migration_sources()).await
    }

    /// Migrates its schema connected as `database_url`'s role, the service's own, which so
    /// owns everything its migrations make (the migration Job, `paysite migrate`).
    pub async fn migrate_as(&self, database_url: &str) -> anyhow::Result<()> {
        let pool = db::connect(database_url, self.name, 1).await?;
        let result = self.migrate(&pool).await;
        pool.close().await;
        result
    }

    /// The migrations of this build that its schema has not had yet (`source/version`);
    /// empty when the schema is up to date.
    pub async fn pending_migrations(&self, pool: &PgPool) -> anyhow::Result<Vec<String>> {
        db::pending(pool, self.name, &self.migration_sources()).await
    }

    /// The migration sources of its schema: the runtime's tables, then its own.
    pub fn migration_sources(&self) -> [(&'static str, &'static Migrator); 2] {
        [("runtime", &db::RUNTIME_MIGRATIONS), (self.name, self.migrations)]
    }

    /// Declares its consumer queues ([`Self::queues`]) with their bindings and dead-letter
    /// queues: all `paysite migrate` does on the broker.
    pub async fn declare_topology(&self, settings: &Settings) -> anyhow::Result<()> {
        let queues =
            self.queues.iter().map(|q| (q.name.to_owned(), q.bindings.iter().map(|b| (*b).to_owned()).collect()));
        declare_queue_list(settings, queues.collect()).await
    }

    /// Builds the service and declares its consumer queues on the broker.
    pub async fn build(&self, ctx: &ServiceContext) -> anyhow::Result<Service> {
        let service = (self.build)(ctx.clone()).await?;
        declare_queues(&ctx.settings, &service.consumers).await?;
        Ok(service)
    }

    /// Builds the service without touching the broker (what `paysite rebuild-projections`
    /// and `paysite dlq` need to know of it).
    pub async fn build_only(&self, ctx: &ServiceContext) -> anyhow::Result<Service> {
        (self.build)(ctx.clone()).await
    }

    /// Builds the service and declares its queues if the broker answers; if it does not, the
    /// service starts anyway (its consumers declare their queues when they attach, and its
    /// events wait in the outbox): a broker outage does not keep a service from starting.
    pub async fn build_for_serving(&self, ctx: &ServiceContext) -> anyhow::Result<Service> {
        let service = (self.build)(ctx.clone()).await?;
        if let Err(e) = declare_queues(&ctx.settings, &service.consumers).await {
            tracing::warn!(service = self.name, error = %e, "queues not declared at start; the consumers declare them when the broker answers");
        }
        Ok(service)
    }

    /// Where the service listens when run alone: `PAYSITE_ADDR` (`host:port`) when set, else
    /// loopback on `PORT` or its own port. Only a deployment that says so (Kubernetes,
    /// docker-compose: `0.0.0.0:<port>`) listens on other interfaces.
    pub fn listen_addr(&self, lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<SocketAddr> {
        let set = |key: &str| lookup(key).filter(|v| !v.trim().is_empty());
        if let Some(addr) = set("PAYSITE_ADDR") {
            return addr
                .trim()
                .parse()
                .map_err(|e| anyhow::anyhow!("PAYSITE_ADDR must be host:port, got {addr:?}: {e}"));
        }
        let port = match set("PORT") {
            Some(p) => p.trim().parse().map_err(|e| anyhow::anyhow!("PORT must be a port number, got {p:?}: {e}"))?,
            None => self.port,
        };
        Ok(SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, port)))
    }

    /// Where its operations routes (`/healthz`, `/readyz`, `/metrics`) listen when run alone:
    /// `PAYSITE_OPS_ADDR` (`host:port`) when set, else loopback on [`ops_port`] of its own port.
    /// They are never on the port of the internal API, so nothing that reaches the API (a
    /// caller, an Ingress) reaches them, and a probe or a scrape needs no service token.
    pub fn ops_listen_addr(&self, lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<SocketAddr> {
        ops_addr_from(lookup, self.port)
    }

    /// Starts relay, consumers, jobs, the internal API on `addrs.api` and the operations routes
    /// on `addrs.ops`; all stop when `cancel` fires. Answers the addresses bound.
    ///
    /// Declare every service's queues (see [`Self::build`]) before starting any: an event
    /// published while no queue is bound to its routing key is dropped by the broker.
    pub async fn start(
        &self,
        ctx: ServiceContext,
        service: Service,
        addrs: Addrs,
        cancel: CancellationToken,
        tasks: &mut JoinSet<anyhow::Result<()>>,
    ) -> anyhow::Result<Addrs> {
        let readiness = Readiness::new(self.name, Some(ctx.pool.clone()));
        let ops = crate::http::serve_ops(addrs.ops, readiness, cancel.clone(), tasks).await?;
        let api = self.start_serving(ctx, service, addrs.api, cancel, tasks).await?;
        tracing::info!(service = self.name, addr = %api, ops = %ops, "service listening");
        Ok(Addrs { api, ops })
    }

    /// Starts relay, consumers, jobs and the internal API on `api` (the operations routes are
    /// already served: `paysite serve` binds them first); answers the address bound.
    pub async fn start_serving(
        &self,
        ctx: ServiceContext,
        service: Service,
        api: SocketAddr,
        cancel: CancellationToken,
        tasks: &mut JoinSet<anyhow::Result<()>>,
    ) -> anyhow::Result<SocketAddr> {
        let name = self.name;
        let relay_settings = RelaySettings::new(name, name, &ctx.settings);
        tasks.spawn(run_to_end(relay::run(ctx.pool.clone(), relay_settings, cancel.clone())));
        for spec in service.consumers {
            let settings = ConsumerSettings::new(&ctx.settings);
            tasks.spawn(run_to_end(consumer::run(ctx.pool.clone(), spec, settings, cancel.clone())));
        }
        for job in service.jobs {
            tasks.spawn(run_to_end(job(cancel.clone())));
        }
        let app = crate::http::measured(service.router, name).layer(axum::middleware::from_fn(crate::http::correlate));
        let listener = tokio::net::TcpListener::bind(api)
            .await
            .map_err(|e| anyhow::anyhow!("binding the internal API of {name} to {api}: {e}"))?;
        let api = listener.local_addr()?;
        // With PAYSITE_TLS_CERT_FILE/KEY_FILE the internal API speaks TLS only (crate::tls).
        tasks.spawn(async move { crate::tls::serve(listener, app, crate::tls::settings(), cancel).await });
        Ok(api)
    }
}

/// Where a process listens: its API (or the gateway's brand hosts) and its operations routes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addrs {
    pub api: SocketAddr,
    pub ops: SocketAddr,
}

/// The default operations port of a process whose API listens on `port`: 1000 above it
/// (wallet 8103 → 9103, gateway 8080 → 9080), so each process on one machine has its own.
/// An API on any free port (0) has its operations routes on any free port too.
pub fn ops_port(port: u16) -> u16 {
    if port == 0 {
        0
    } else {
        port.saturating_add(1000)
    }
}

/// `PAYSITE_OPS_ADDR` when set, else loopback on [`ops_port`] of `api_port`.
pub fn ops_addr_from(lookup: impl Fn(&str) -> Option<String>, api_port: u16) -> anyhow::Result<SocketAddr> {
    match lookup("PAYSITE_OPS_ADDR").filter(|v| !v.trim().is_empty()) {
        Some(addr) => {
            addr.trim().parse().map_err(|e| anyhow::anyhow!("PAYSITE_OPS_ADDR must be host:port, got {addr:?}: {e}"))
        }
        None => Ok(SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, ops_port(api_port)))),
    }
}

/// Declares consumer queues with their bindings and dead-letter queues.
pub async fn declare_queues(settings: &Settings, consumers: &[ConsumerSpec]) -> anyhow::Result<()> {
    declare_queue_list(settings, consumers.iter().map(|c| (c.queue.clone(), c.bindings.clone())).collect()).await
}

/// Declares each `(queue, bindings)` on one broker connection.
async fn declare_queue_list(settings: &Settings, queues: Vec<(String, Vec<String>)>) -> anyhow::Result<()> {
    if queues.is_empty() {
        return Ok(());
    }
    let connection = crate::broker::connect(settings.amqp_url.expose(), "paysite-topology").await?;
    let channel = connection.create_channel().await?;
    for (queue, bindings) in queues {
        crate::broker::declare_consumer_queue(&channel, &settings.exchange, &queue, &bindings).await?;
    }
    connection.close(200, "declared".into()).await?;
    Ok(())
}

async fn run_to_end(f: impl Future<Output = ()>) -> anyhow::Result<()> {
    f.await;
    Ok(())
}
