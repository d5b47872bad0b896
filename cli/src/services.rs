//! Every service the `paysite` command knows, in start order.

use runtime::{config::Environment, service::ServiceDef};

/// Every service of a deployment in `environment`: the biller sandbox, which signs postbacks
/// for anyone who reaches it, is one only in development. In production it is never
/// migrated, built, seeded or served.
pub fn all(environment: Environment) -> Vec<&'static ServiceDef> {
    let mut services = vec![
        &profile::SERVICE,
        &subscription::SERVICE,
        &wallet::SERVICE,
        &catalog::SERVICE,
        &deals::SERVICE,
        &unlocks::SERVICE,
    ];
    if environment != Environment::Production {
        services.push(&biller_sandbox::SERVICE);
    }
    services
}

pub fn find(environment: Environment, name: &str) -> anyhow::Result<&'static ServiceDef> {
    if environment == Environment::Production && name == biller_sandbox::SERVICE.name {
        anyhow::bail!(
            "the biller sandbox does not run with PAYSITE_ENV=production: it signs postbacks for anyone who reaches it"
        );
    }
    all(environment).into_iter().find(|d| d.name == name).ok_or_else(|| {
        let known: Vec<_> = all(environment).iter().map(|d| d.name).collect();
        anyhow::anyhow!("unknown service {name:?}; known: gateway, {}", known.join(", "))
    })
}

/// The consumer queues of every service (their dead-letter queues are `<queue>.dlq`), as
/// their definitions declare them: nothing is built, so no service's secret is needed.
pub fn consumer_queues(environment: Environment) -> Vec<String> {
    all(environment).iter().flat_map(|def| def.queues.iter().map(|q| q.name.to_owned())).collect()
}
