//! Connection pools scoped to a service's schema, and migrations per schema.

use std::time::Duration;

use sqlx::{migrate::Migrator, postgres::PgPoolOptions, PgPool};

/// Every service schema gets these first: event store, outbox, inbox.
pub static RUNTIME_MIGRATIONS: Migrator = sqlx::migrate!("../../migrations/runtime");

/// A schema name safe to splice into SQL (`wallet`, `t_1f2e...`).
pub fn check_schema_name(schema: &str) -> anyhow::Result<()> {
    let ok = !schema.is_empty()
        && schema.len() <= 63
        && schema.chars().next().is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && schema.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    anyhow::ensure!(ok, "invalid schema name {schema:?}");
    Ok(())
}

/// A pool whose connections see `schema` first, so service SQL names its tables plainly. TLS as
/// the URL's `sslmode` and the process's TLS settings say (`crate::tls`).
pub async fn connect(database_url: &str, schema: &str, max_connections: u32) -> anyhow::Result<PgPool> {
    connect_with(database_url, schema, max_connections, crate::tls::settings()).await
}

/// [`connect`] with explicit TLS settings.
pub async fn connect_with(
    database_url: &str,
    schema: &str,
    max_connections: u32,
    tls: &crate::tls::TlsSettings,
) -> anyhow::Result<PgPool> {
    check_schema_name(schema)?;
    let options = crate::tls::pg_options(database_url, tls)?
        .options([("search_path", schema)])
        .application_name(&format!("paysite-{schema}"));
    let pool = PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(10))
        .connect_with(options)
        .await?;
    Ok(pool)
}

/// Creates the database named in `database_url` if it does not exist yet.
pub async fn ensure_database(database_url: &str) -> anyhow::Result<()> {
    let options = crate::tls::pg_options(database_url, crate::tls::settings())?;
    let name = options.get_database().unwrap_or("postgres").to_owned();
    let admin = PgPoolOptions::new().max_connections(1).connect_with(options.database("postgres")).await?;
    let exists: bool = sqlx::query_scalar("select exists (select 1 from pg_database where datname = $1)")
        .bind(&name)
        .fetch_one(&admin)
        .await?;
    if !exists {
        let sql = format!("create database \"{}\"", name.replace('"', "\"\""));
        if let Err(e) = sqlx::query(&sql).execute(&admin).await {
            // Another process may have created it meanwhile: PostgreSQL says so as "already
            // exists" (42P04), or, when both creations ran at once, as a unique violation of
            // pg_database's name index (23505).
            let raced = e.as_database_error().and_then(|d| d.code()).is_some_and(|c| c == "42P04" || c == "23505");
            if !raced {
                return Err(e.into());
            }
        }
    }
    admin.close().await;
    Ok(())
}

/// The role a connection string signs in as (its user; `postgres` when it names none).
pub fn role_of(database_url: &str) -> anyhow::Result<String> {
    let options = crate::tls::pg_options(database_url, crate::tls::settings())?;
    Ok(options.get_username().to_owned())
}

/// A role name as an SQL identifier (`"paysite_catalog"`).
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Lets `role` connect to the database `owner` is connected to and create its schema there:
/// what the migration Job does, as the database's owner, before it migrates `schema` as the
/// service's own role, so the role owns the schema, its event store and its read models, and
/// no other service's role can read them (a schema grants nothing to anyone else). A schema
/// that already exists must be the role's: one made by another role (an earlier layout, where
/// every service connected as the owner) is an error saying how to hand it over.
pub async fn admit_role(owner: &PgPool, role: &str, schema: &str) -> anyhow::Result<()> {
    check_schema_name(schema)?;
    let exists: bool = sqlx::query_scalar("select exists (select 1 from pg_roles where rolname = $1)")
        .bind(role)
        .fetch_one(owner)
        .await?;
    anyhow::ensure!(
        exists,
        "the role {role} (of the service {schema}) does not exist: it is declared in the database cluster's \
         managed roles (docs/operations.md, \"Database roles\")"
    );
    let database: String = sqlx::query_scalar("select current_database()").fetch_one(owner).await?;
    sqlx::query(&format!("grant connect, create on database {} to {}", quoted(&database), quoted(role)))
        .execute(owner)
        .await?;
    let held_by: Option<String> =
        sqlx::query_scalar("select pg_get_userbyid(nspowner)::text from pg_namespace where nspname = $1")
            .bind(schema)
            .fetch_optional(owner)
            .await?;
    if let Some(held_by) = held_by.filter(|h| h != role) {
        anyhow::bail!(
            "the schema {schema} belongs to {held_by}, not to its service's role {role}: as a superuser, `alter \
             schema {schema} owner to {role}` and the same for each of its tables and sequences (`alter table \
             {schema}.<table> owner to {role}`), then run the migration again"
        );
    }
    Ok(())
}

/// Which of `schemas` `role` may use (list or read anything in): a service's role may use
/// its own schema only.
pub async fn schemas_usable_by(pool: &PgPool, role: &str, schemas: &[&str]) -> anyhow::Result<Vec<String>> {
    let mut usable = Vec::new();
    for schema in schemas {
        let can: Option<bool> =
            sqlx::query_scalar("select has_schema_privilege($1, oid, 'USAGE') from pg_namespace where nspname = $2")
                .bind(role)
                .bind(schema)
                .fetch_optional(pool)
                .await?;
        if can == Some(true) {
            usable.push((*schema).to_owned());
        }
    }
    Ok(usable)
}

/// Applies the runtime's migrations and then the service's own, into `schema`.
///
/// Each source keeps its own ledger (`schema_migration`), checked by checksum, under an
/// advisory lock so replicas starting together migrate once.
pub async fn migrate(pool: &PgPool, schema: &str, sources: &[(&str, &Migrator)]) -> anyhow::Result<()> {
    check_schema_name(schema)?;
    let mut conn = pool.acquire().await?;
    sqlx::query("select pg_advisory_lock(hashtext('paysite.migrate.' || $1))").bind(schema).execute(&mut *conn).await?;
    let result = async {
        sqlx::query(&format!("create schema if not exists {schema}")).execute(&mut *conn).await?;
        sqlx::query(&format!(
            "create table if not exists {schema}.schema_migration (
                source text not null,
                version bigint not null,
                description text not null,
                checksum bytea not null,
                applied_at timestamptz not null default now(),
                primary key (source, version))"
        ))
        .execute(&mut *conn)
        .await?;
        for (source, migrator) in sources {
            for m in migrator.iter() {
                let applied: Option<Vec<u8>> = sqlx::query_scalar(&format!(
                    "select checksum from {schema}.schema_migration where source = $1 and version = $2"
                ))
                .bind(source)
                .bind(m.version)
                .fetch_optional(&mut *conn)
                .await?;
                match applied {
                    Some(sum) if sum == m.checksum.as_ref() => continue,
                    Some(_) => anyhow::bail!(
                        "migration {source}/{} ({}) changed after it was applied to {schema}",
                        m.version,
                        m.description
                    ),
                    None => {}
                }
                let mut tx = sqlx::Connection::begin(&mut *conn).await?;
                sqlx::query(&format!("set local search_path to {schema}")).execute(&mut *tx).await?;
                sqlx::raw_sql(&m.sql).execute(&mut *tx).await.map_err(|e| {
                    anyhow::anyhow!("migration {source}/{} ({}) failed: {e}", m.version, m.description)
                })?;
                sqlx::query(&format!(
                    "insert into {schema}.schema_migration (source, version, description, checksum) values ($1, $2, $3, $4)"
                ))
                .bind(source)
                .bind(m.version)
                .bind(&*m.description)
                .bind(m.checksum.as_ref())
                .execute(&mut *tx)
                .await?;
                tx.commit().await?;
            }
        }
        anyhow::Ok(())
    }
    .await;
    sqlx::query("select pg_advisory_unlock(hashtext('paysite.migrate.' || $1))")
        .bind(schema)
        .execute(&mut *conn)
        .await?;
    result
}

/// The migrations of `sources` that `schema` has not had (`source/version description`), or
/// has had with another checksum (a migration changed after it was applied). A schema not
/// created yet has every migration pending.
pub async fn pending(pool: &PgPool, schema: &str, sources: &[(&str, &Migrator)]) -> anyhow::Result<Vec<String>> {
    check_schema_name(schema)?;
    let ledger: Option<String> = sqlx::query_scalar("select to_regclass($1)::text")
        .bind(format!("{schema}.schema_migration"))
        .fetch_one(pool)
        .await?;
    let applied: Vec<(String, i64, Vec<u8>)> = match ledger {
        None => Vec::new(),
        Some(_) => {
            sqlx::query_as(&format!("select source, version, checksum from {schema}.schema_migration"))
                .fetch_all(pool)
                .await?
        }
    };
    let mut missing = Vec::new();
    for (source, migrator) in sources {
        for m in migrator.iter() {
            let done = applied.iter().any(|(s, v, sum)| s == source && *v == m.version && sum == m.checksum.as_ref());
            if !done {
                missing.push(format!("{source}/{} ({})", m.version, m.description));
            }
        }
    }
    Ok(missing)
}

#[cfg(test)]
mod tests {
    use super::check_schema_name;

    #[test]
    fn only_plain_lower_case_schema_names_pass() {
        for good in ["wallet", "t_0123abc", "_x"] {
            assert!(check_schema_name(good).is_ok(), "{good}");
        }
        for bad in ["", "Wallet", "1x", "a-b", "a;drop", "a b", &"x".repeat(64)] {
            assert!(check_schema_name(bad).is_err(), "{bad}");
        }
    }
}
