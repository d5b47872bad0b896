//! `paysite migrate`: every service's schema, then the broker's queues. A Kubernetes migration
//! Job runs it before any service starts, so no event is published before its queues exist.
//! Nothing is built, so no service's key or secret is needed: only the database, the broker
//! and the TLS CA.
//!
//! Each service connects to the database as a role of its own (`DATABASE_URL_<SERVICE>`, the
//! URL its pods get as `DATABASE_URL`), which owns its schema: the Job, connected as the
//! database's owner (`DATABASE_URL`), lets each role connect and create its schema, then
//! migrates the schema as that role, and finally checks that no role can use another
//! service's schema. Production requires a role for every service; in development a service
//! without one is migrated as the owner, as `paysite up` runs it.

use runtime::{
    config::{Environment, Settings},
    db,
    service::ServiceDef,
};

use crate::{preflight, services};

/// A service's own database role: its name, the connection string that signs in as it, and
/// the variable that gave it (`DATABASE_URL_CATALOG`).
pub struct Role {
    pub name: String,
    pub url: String,
    pub variable: String,
}

/// Each service with its own role, if given. Production needs one
/// for every service, each a different role, none of them the owner's: an error names what
/// is missing or shared.
pub fn roles<'a>(
    defs: &[&'a ServiceDef],
    owner_role: &str,
    environment: Environment,
    lookup: impl Fn(&str) -> Option<String>,
) -> anyhow::Result<Vec<(&'a ServiceDef, Option<Role>)>> {
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for def in defs {
        let variable = format!("DATABASE_URL_{}", def.name.to_ascii_uppercase().replace('-', "_"));
        match lookup(&variable).filter(|v| !v.trim().is_empty()) {
            Some(url) => {
                let role =
                    db::role_of(&url).map_err(|e| anyhow::anyhow!("{variable} is not a connection string: {e}"))?;
                found.push((*def, Some(Role { name: role, url, variable })));
            }
            None => {
                missing.push(variable);
                found.push((*def, None));
            }
        }
    }
    if environment == Environment::Production && !missing.is_empty() {
        anyhow::bail!(
            "{} must be set when PAYSITE_ENV=production (or given as files: {}): each service connects as a role of \
             its own, which owns its schema (docs/operations.md, \"Database roles\")",
            missing.join(", "),
            missing.iter().map(|k| format!("{k}_FILE")).collect::<Vec<_>>().join(", ")
        );
    }
    let given: Vec<&Role> = found.iter().filter_map(|(_, r)| r.as_ref()).collect();
    for (i, role) in given.iter().enumerate() {
        anyhow::ensure!(
            role.name != owner_role,
            "{} signs in as {}, the database's owner (DATABASE_URL): a service's role must be its own",
            role.variable,
            role.name
        );
        if let Some(other) = given[..i].iter().find(|r| r.name == role.name) {
            anyhow::bail!(
                "{} and {} sign in as the same role {}: each service's role must be its own",
                other.variable,
                role.variable,
                role.name
            );
        }
    }
    Ok(found)
}

pub async fn run(settings: &Settings) -> anyhow::Result<()> {
    // What is missing from the configuration is said before anything is reached.
    settings.require(&["DATABASE_URL", "AMQP_URL"])?;
    let defs = services::all(settings.environment);
    let owner_url = settings.database_url.expose();
    let owner_role = db::role_of(owner_url)?;
    let plan = roles(&defs, &owner_role, settings.environment, |k| std::env::var(k).ok())?;
    preflight::check(settings, preflight::Needs::BOTH).await?;
    db::ensure_database(owner_url).await?;
    let owner = db::connect(owner_url, "public", 1).await?;
    for (def, role) in &plan {
        match role {
            Some(role) => {
                db::admit_role(&owner, &role.name, def.name).await?;
                def.migrate_as(&role.url).await?;
            }
            None => def.prepare(settings, 2).await?.pool.close().await,
        }
        def.declare_topology(settings).await?;
        match role {
            Some(role) => {
                println!("migrated {} (schema as {}, and {} queues)", def.name, role.name, def.queues.len())
            }
            None => println!("migrated {} (schema and {} queues)", def.name, def.queues.len()),
        }
    }
    // Least privilege, checked rather than assumed: no service's role may use a schema not
    // its own (a grant made by hand, a role that is a member of another).
    let schemas: Vec<&str> = plan.iter().map(|(def, _)| def.name).collect();
    for (def, role) in &plan {
        let Some(role) = role else { continue };
        let others: Vec<&str> = schemas.iter().copied().filter(|s| *s != def.name).collect();
        let reached = db::schemas_usable_by(&owner, &role.name, &others).await?;
        anyhow::ensure!(
            reached.is_empty(),
            "the role {} (of {}) may use the schemas {}: a service's role may use its own schema only",
            role.name,
            def.name,
            reached.join(", ")
        );
    }
    owner.close().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defs() -> Vec<&'static ServiceDef> {
        services::all(Environment::Production)
    }

    fn urls(skip: &str) -> impl Fn(&str) -> Option<String> + '_ {
        move |key: &str| {
            let service = key.strip_prefix("DATABASE_URL_")?.to_ascii_lowercase();
            (service != skip).then(|| format!("postgres://paysite_{service}:pw@db:5432/paysite"))
        }
    }

    fn refusal(plan: anyhow::Result<Vec<(&ServiceDef, Option<Role>)>>) -> String {
        match plan {
            Ok(_) => panic!("expected a refusal"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn production_needs_a_role_of_its_own_for_every_service() {
        let plan = roles(&defs(), "paysite", Environment::Production, urls("")).unwrap();
        assert!(plan
            .iter()
            .all(|(def, r)| r.as_ref().is_some_and(|role| role.name == format!("paysite_{}", def.name))));
        let err = refusal(roles(&defs(), "paysite", Environment::Production, urls("wallet")));
        assert!(err.starts_with("DATABASE_URL_WALLET must be set when PAYSITE_ENV=production"), "{err}");
        assert!(err.contains("DATABASE_URL_WALLET_FILE"), "{err}");
    }

    #[test]
    fn development_migrates_a_service_without_a_role_as_the_owner() {
        let plan = roles(&defs(), "paysite", Environment::Development, urls("wallet")).unwrap();
        let wallet = plan.iter().find(|(d, _)| d.name == "wallet").unwrap();
        assert!(wallet.1.is_none());
        assert!(roles(&defs(), "paysite", Environment::Development, |_| None)
            .unwrap()
            .iter()
            .all(|(_, r)| r.is_none()));
    }

    #[test]
    fn a_role_shared_by_two_services_or_the_owners_is_refused() {
        let shared =
            |key: &str| key.starts_with("DATABASE_URL_").then(|| "postgres://paysite_all:pw@db/paysite".to_owned());
        let err = refusal(roles(&defs(), "paysite", Environment::Production, shared));
        assert!(err.contains("sign in as the same role paysite_all"), "{err}");
        let owner = |key: &str| key.starts_with("DATABASE_URL_").then(|| "postgres://paysite:pw@db/paysite".to_owned());
        let err = refusal(roles(&defs(), "paysite", Environment::Production, owner));
        assert!(err.contains("the database's owner"), "{err}");
    }

    #[test]
    fn role_variables_are_secrets_read_from_files_too() {
        let plan = roles(&defs(), "paysite", Environment::Production, urls("")).unwrap();
        let catalog = plan.iter().find(|(d, _)| d.name == "catalog").and_then(|(_, r)| r.as_ref()).unwrap();
        assert_eq!(catalog.variable, "DATABASE_URL_CATALOG");
        assert!(runtime::config::is_secret_variable("DATABASE_URL_CATALOG"));
        assert!(!runtime::config::is_secret_variable("DATABASE_URL_CATALOG_FILE"));
        assert!(!runtime::config::is_secret_variable("DATABASE_URL_"));
    }
}
