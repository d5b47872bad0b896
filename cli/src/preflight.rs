//! Before a command runs: are the servers it needs there? If not, say what to do about it,
//! in the terms of the place it runs in (a Kubernetes pod, a compose container, a machine).

use std::time::Duration;

use runtime::Settings;

/// What a command needs before it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    pub database: bool,
    pub broker: Broker,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broker {
    /// Not used.
    No,
    /// Used, but the command works without it for a while (a service: its outbox keeps the
    /// events until the broker is back): a warning, not a stop.
    Later,
    /// Used at once (queues declared, dead letters read).
    Now,
}

impl Needs {
    pub const BOTH: Needs = Needs { database: true, broker: Broker::Now };
    pub const DATABASE: Needs = Needs { database: true, broker: Broker::No };
    pub const BROKER: Needs = Needs { database: false, broker: Broker::Now };
    /// A service: its database, and the broker when it can.
    pub const SERVICE: Needs = Needs { database: true, broker: Broker::Later };
}

/// Where the command runs, for the advice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A Kubernetes pod (`KUBERNETES_SERVICE_HOST` is set).
    Pod,
    /// A container, as docker compose runs it (`/.dockerenv`).
    Container,
    /// A machine with the servers installed (Debian, this project's development machines).
    Machine,
}

impl Place {
    pub fn here() -> Place {
        Place::from(std::env::var_os("KUBERNETES_SERVICE_HOST").is_some(), std::path::Path::new("/.dockerenv").exists())
    }

    pub fn from(kubernetes: bool, docker: bool) -> Place {
        match (kubernetes, docker) {
            (true, _) => Place::Pod,
            (false, true) => Place::Container,
            _ => Place::Machine,
        }
    }

    pub fn database_advice(self) -> &'static str {
        match self {
            Place::Pod => {
                "PostgreSQL does not answer (DATABASE_URL, from the Secret paysite-connections). Check that the \
                 database cluster is ready and the Secret points at its -rw Service:\n    \
                 kubectl -n <namespace> get cluster paysite-db\n    \
                 kubectl -n <namespace> get secret paysite-connections -o jsonpath='{.data.DATABASE_URL}' | base64 -d\n\
                 (docs/operations.md, \"Secrets\"; the NetworkPolicy paysite-egress-database must allow port 5432)"
            }
            Place::Container => {
                "PostgreSQL does not answer (DATABASE_URL). In the compose stack:\n    \
                 docker compose ps postgres\n    docker compose up -d postgres"
            }
            Place::Machine => {
                "PostgreSQL does not answer (DATABASE_URL). Start it with:\n    \
                 pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"
            }
        }
    }

    pub fn broker_advice(self) -> &'static str {
        match self {
            Place::Pod => {
                "RabbitMQ does not answer (AMQP_URL, from the Secret paysite-connections). Check the broker \
                 cluster and the Secret:\n    \
                 kubectl -n <namespace> get rabbitmqcluster paysite-mq\n    \
                 kubectl -n <namespace> get secret paysite-connections -o jsonpath='{.data.AMQP_URL}' | base64 -d\n\
                 (docs/operations.md, \"Secrets\"; the NetworkPolicy paysite-egress-backends must allow port 5672)"
            }
            Place::Container => {
                "RabbitMQ does not answer (AMQP_URL). In the compose stack:\n    \
                 docker compose ps rabbitmq\n    docker compose up -d rabbitmq"
            }
            Place::Machine => "RabbitMQ does not answer (AMQP_URL). Start it with:\n    rabbitmq-server -detached",
        }
    }
}

/// Checks what `needs` names; stops with advice for this place when something required is
/// missing, and warns (on stderr) about a broker a service can start without.
pub async fn check(settings: &Settings, needs: Needs) -> anyhow::Result<()> {
    let mut named = Vec::new();
    if needs.database {
        named.push("DATABASE_URL");
    }
    if needs.broker != Broker::No {
        named.push("AMQP_URL");
    }
    settings.require(&named)?;
    let place = Place::here();
    let mut problems = Vec::new();
    if needs.database && !database_answers(settings).await {
        problems.push(place.database_advice().to_owned());
    }
    if needs.broker != Broker::No && !broker_answers(settings).await {
        match needs.broker {
            Broker::Now => problems.push(place.broker_advice().to_owned()),
            _ => {
                eprintln!(
                    "paysite: warning: {}\nStarting anyway: events wait in the outbox until the broker answers.",
                    place.broker_advice()
                );
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        anyhow::bail!("{}", problems.join("\n"))
    }
}

async fn database_answers(settings: &Settings) -> bool {
    let db = tokio::time::timeout(Duration::from_secs(5), async {
        let options: sqlx::postgres::PgConnectOptions = settings.database_url.expose().parse()?;
        let pool = sqlx::postgres::PgPoolOptions::new()
            .max_connections(1)
            .acquire_timeout(Duration::from_secs(4))
            .connect_with(options.database("postgres"))
            .await?;
        pool.close().await;
        anyhow::Ok(())
    })
    .await;
    matches!(db, Ok(Ok(())))
}

async fn broker_answers(settings: &Settings) -> bool {
    let broker =
        tokio::time::timeout(Duration::from_secs(5), runtime::broker::connect(settings.amqp_url.expose(), "preflight"))
            .await;
    match broker {
        Ok(Ok(connection)) => {
            let _ = connection.close(200, "ok".into()).await;
            true
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_advice_fits_where_the_command_runs() {
        assert_eq!(Place::from(true, true), Place::Pod);
        assert_eq!(Place::from(false, true), Place::Container);
        assert_eq!(Place::from(false, false), Place::Machine);
        for place in [Place::Pod, Place::Container] {
            assert!(!place.database_advice().contains("pg_ctlcluster"), "{place:?}");
            assert!(!place.broker_advice().contains("rabbitmq-server"), "{place:?}");
        }
        assert!(Place::Pod.database_advice().contains("kubectl"));
        assert!(Place::Container.broker_advice().contains("docker compose"));
        assert!(Place::Machine.database_advice().contains("pg_ctlcluster"));
    }

    #[tokio::test]
    async fn a_missing_database_stops_the_command_and_a_missing_broker_only_warns_a_service() {
        let nowhere = Settings::from_lookup(|key| match key {
            "DATABASE_URL" => Some("postgres://postgres@127.0.0.1:1/nowhere".into()),
            "AMQP_URL" => Some("amqp://guest:guest@127.0.0.1:1/%2f".into()),
            _ => None,
        })
        .unwrap();
        let err = check(&nowhere, Needs::DATABASE).await.unwrap_err().to_string();
        assert!(err.contains("PostgreSQL does not answer"), "{err}");
        let err = check(&nowhere, Needs::BROKER).await.unwrap_err().to_string();
        assert!(err.contains("RabbitMQ does not answer") && !err.contains("PostgreSQL"), "{err}");
        let broker_only_missing = Settings::from_lookup(|key| match key {
            "AMQP_URL" => Some("amqp://guest:guest@127.0.0.1:1/%2f".into()),
            _ => None,
        })
        .unwrap();
        check(&broker_only_missing, Needs::SERVICE).await.expect("a service starts without the broker");
        assert!(check(&broker_only_missing, Needs::BOTH).await.is_err());
    }
}
