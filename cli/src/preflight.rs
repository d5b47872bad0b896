//! Before anything runs: are PostgreSQL and RabbitMQ there? If not, say how to start them.

use std::time::Duration;

use runtime::Settings;

pub async fn check(settings: &Settings) -> anyhow::Result<()> {
    let mut problems = Vec::new();
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
    if !matches!(db, Ok(Ok(()))) {
        problems.push(
            "PostgreSQL does not answer (DATABASE_URL). Start it with:\n    \
             pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start"
                .to_owned(),
        );
    }
    let broker =
        tokio::time::timeout(Duration::from_secs(5), runtime::broker::connect(settings.amqp_url.expose(), "preflight"))
            .await;
    match broker {
        Ok(Ok(connection)) => {
            let _ = connection.close(200, "ok".into()).await;
        }
        _ => problems
            .push("RabbitMQ does not answer (AMQP_URL). Start it with:\n    rabbitmq-server -detached".to_owned()),
    }
    if problems.is_empty() {
        Ok(())
    } else {
        anyhow::bail!("{}", problems.join("\n"))
    }
}
