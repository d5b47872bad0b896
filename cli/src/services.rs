//! Every service the `paysite` command knows, in start order.

use runtime::{service::ServiceDef, Settings};

pub fn all() -> Vec<&'static ServiceDef> {
    vec![
        &profile::SERVICE,
        &subscription::SERVICE,
        &wallet::SERVICE,
        &catalog::SERVICE,
        &deals::SERVICE,
        &unlocks::SERVICE,
        &biller_sandbox::SERVICE,
    ]
}

pub fn find(name: &str) -> anyhow::Result<&'static ServiceDef> {
    all().into_iter().find(|d| d.name == name).ok_or_else(|| {
        let known: Vec<_> = all().iter().map(|d| d.name).collect();
        anyhow::anyhow!("unknown service {name:?}; known: gateway, {}", known.join(", "))
    })
}

/// The consumer queues of every service (their dead-letter queues are `<queue>.dlq`).
pub async fn consumer_queues(settings: &Settings) -> anyhow::Result<Vec<String>> {
    let mut queues = Vec::new();
    for def in all() {
        let ctx = def.prepare(settings, 2).await?;
        let built = def.build_only(&ctx).await?;
        queues.extend(built.consumers.into_iter().map(|c| c.queue));
    }
    Ok(queues)
}
