//! The `paysite` command: run the product, migrate, seed, serve one service, rebuild
//! projections, work the dead-letter queues and run the benchmarks.

#[cfg(feature = "bench")]
mod bench;
mod migrate;
mod preflight;
mod progress;
mod publish;
mod services;
mod up;

use clap::{Parser, Subcommand};
use runtime::Settings;
use uuid::Uuid;

/// `paysite --version`: the version and the build's optional features, so a release can be
/// checked to carry neither the demo data nor the benchmarks (scripts/rehearse does).
#[cfg(all(feature = "demo", feature = "bench"))]
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (features: demo, bench)");
#[cfg(all(feature = "demo", not(feature = "bench")))]
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (features: demo)");
#[cfg(not(feature = "demo"))]
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (features: none)");

#[derive(Parser)]
#[command(name = "paysite", version = VERSION, about = "The paysite command")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Migrate, seed the demo data, start every service and the gateway in one process.
    Up {
        /// Address the gateway listens on.
        #[arg(long, env = "PAYSITE_GATEWAY_ADDR", default_value = "127.0.0.1:8080")]
        gateway_addr: String,
        /// Skip seeding the demo data.
        #[arg(long)]
        no_seed: bool,
        /// Let each service take any free port instead of its own (tests, a second copy).
        #[arg(long)]
        ephemeral_ports: bool,
    },
    /// Apply every service's migrations.
    Migrate,
    /// Write the demo data of every service.
    Seed {
        /// Instead, write a large generated catalogue of this many videos (benchmarks).
        #[arg(long)]
        scale: Option<usize>,
    },
    /// Run one service (or the gateway) alone, as in Kubernetes.
    Serve {
        /// A service name, or `gateway`.
        service: String,
        /// The address to listen on; by default loopback on the service's port. Kubernetes and
        /// docker-compose set 0.0.0.0 explicitly.
        #[arg(long, env = "PAYSITE_ADDR")]
        addr: Option<String>,
    },
    /// Rebuild a service's read models from its events.
    RebuildProjections { service: String },
    /// Publish catalog content (a JSON array of catalog events, as the admin route takes) from a
    /// file, or `-` for standard input; publishing the same content again writes nothing.
    Publish {
        /// A JSON file of catalog events, or `-` for standard input.
        file: String,
    },
    /// The dead-letter queues.
    Dlq {
        #[command(subcommand)]
        action: DlqAction,
    },
    /// Run a benchmark and print its figures.
    #[cfg(feature = "bench")]
    Bench { name: String },
}

#[derive(Subcommand)]
enum DlqAction {
    /// Show what is dead-lettered, per consumer queue, with the error.
    List {
        /// Only this consumer queue (`<service>.<purpose>`).
        #[arg(long)]
        queue: Option<String>,
    },
    /// Send dead letters back to their queue once the cause is fixed.
    Replay {
        #[arg(long)]
        queue: String,
        /// Only this event.
        #[arg(long)]
        event_id: Option<Uuid>,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    // Secrets mounted as files (`DATABASE_URL_FILE`, ...) first: every setting below reads
    // its variable.
    runtime::config::load_secret_files()?;
    let settings = Settings::from_env()?;
    // TLS material named in the environment is read now, so a missing or broken Secret stops
    // the process here, naming the file, rather than at its first connection.
    runtime::tls::TlsSettings::from_env()?.check()?;
    runtime::tls::install_crypto_provider();
    let name = match &cli.command {
        Command::Serve { service, .. } => service.clone(),
        _ => "paysite".to_owned(),
    };
    let _telemetry = runtime::telemetry::init(&name, settings.otlp_endpoint.as_deref());
    if settings.environment == runtime::config::Environment::Production {
        refuse_in_production(&cli.command)?;
    }
    // Commands that serve or call internal APIs need the service key: without a usable one
    // they stop here, saying why, rather than at their first call.
    if matches!(cli.command, Command::Up { .. } | Command::Serve { .. } | Command::Seed { .. }) {
        // A release that still carries a placeholder address (the prod overlay's
        // payments.example.com) stops here, naming it, not at its first payment.
        runtime::config::check_production_urls(settings.environment)?;
        runtime::auth::ServiceKey::init_from_env()?;
        // The brands, once for the process (`PAYSITE_TENANTS_DIR`): a broken directory stops
        // it here, naming the file, instead of at the first request that needs a brand.
        tenants::init()?;
    }
    runtime::auth::ServiceTokens::set_process_name(&name);
    match cli.command {
        Command::Up { gateway_addr, no_seed, ephemeral_ports } => {
            up::up(&settings, &gateway_addr, !no_seed, ephemeral_ports).await
        }
        Command::Migrate => migrate::run(&settings).await,
        Command::Seed { scale } => {
            // Seeding writes events; the relays publish them once the services run.
            preflight::check(&settings, preflight::Needs::DATABASE).await?;
            match scale {
                None => up::seed_all(&settings).await,
                Some(n) => seed_scale(&settings, n).await,
            }
        }
        Command::Serve { service, addr } => up::serve_one(&settings, &service, addr.as_deref()).await,
        Command::RebuildProjections { service } => {
            let def = services::find(settings.environment, &service)?;
            preflight::check(&settings, preflight::Needs::DATABASE).await?;
            // The read models come from the definition, not a built service: only the
            // database is needed.
            let ctx = def.prepare(&settings, 4).await?;
            let projections = (def.read_models)();
            if projections.is_empty() {
                println!("{service} keeps no read models");
            }
            for projection in projections {
                let bar = progress::bar(&format!("rebuilding {}", projection.name()));
                let replayed =
                    runtime::projection::rebuild_with_progress(&ctx.pool, projection.as_ref(), &|done, total| {
                        progress::set(&bar, done, total)
                    })
                    .await?;
                bar.finish_and_clear();
                println!("rebuilt {} from {replayed} events", projection.name());
            }
            Ok(())
        }
        Command::Publish { file } => publish::run(&settings, &file).await,
        Command::Dlq { action } => dlq(&settings, action).await,
        #[cfg(feature = "bench")]
        Command::Bench { name } => bench::run(&settings, &name).await,
    }
}

/// What does not run with `PAYSITE_ENV=production`: the demo data (17 users with a published
/// password, an admin among them) and `paysite up`, which runs the biller sandbox.
fn refuse_in_production(command: &Command) -> anyhow::Result<()> {
    match command {
        Command::Seed { .. } => anyhow::bail!(
            "paysite seed refuses to run with PAYSITE_ENV=production: it writes the demo data, users with a \
             published password among them"
        ),
        Command::Up { .. } => anyhow::bail!(
            "paysite up refuses to run with PAYSITE_ENV=production: it seeds the demo data and runs the biller \
             sandbox; a production deployment runs `paysite migrate`, then `paysite serve <service>` per process"
        ),
        _ => Ok(()),
    }
}

/// `paysite seed --scale N`: a large generated catalogue (benchmarks).
#[cfg(feature = "demo")]
async fn seed_scale(settings: &Settings, n: usize) -> anyhow::Result<()> {
    let ctx = catalog::SERVICE.prepare(settings, 8).await?;
    let bar = progress::bar(&format!("seeding {n} videos"));
    catalog::seed_scale_with_progress(ctx, n, &|done, total| progress::set(&bar, done, total)).await?;
    bar.finish_and_clear();
    println!("seeded a catalogue of {n} videos");
    Ok(())
}

#[cfg(not(feature = "demo"))]
async fn seed_scale(_settings: &Settings, _n: usize) -> anyhow::Result<()> {
    anyhow::bail!("this paysite is built without the demo data (the `demo` feature)")
}

async fn dlq(settings: &Settings, action: DlqAction) -> anyhow::Result<()> {
    // The queues come from the services' definitions: only the broker is needed.
    preflight::check(settings, preflight::Needs::BROKER).await?;
    let amqp = settings.amqp_url.expose();
    match action {
        DlqAction::List { queue } => {
            let queues = match queue {
                Some(q) => vec![q],
                None => services::consumer_queues(settings.environment),
            };
            let mut total = 0;
            for q in queues {
                for letter in runtime::dlq::list(amqp, &q).await? {
                    total += 1;
                    println!("{}", serde_json::to_string(&letter)?);
                }
            }
            eprintln!("{total} dead letters");
            Ok(())
        }
        DlqAction::Replay { queue, event_id } => {
            let replayed = runtime::dlq::replay(amqp, &queue, event_id).await?;
            for letter in &replayed {
                println!("{}", serde_json::to_string(letter)?);
            }
            eprintln!("replayed {} dead letters to {queue}", replayed.len());
            Ok(())
        }
    }
}
