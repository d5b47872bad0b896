//! Test harness: a scratch schema with the catalog's tables on the real PostgreSQL, the
//! catalog's router on an ephemeral port, a typed client, and signed member tokens.
#![allow(dead_code)]

use catalog::client::CatalogClient;
use catalog::{AppState, CatalogConfig};
use runtime::auth::Signer;
use runtime::client::CallContext;
use runtime::testing::{self, Scratch};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

pub struct TestEnv {
    pub scratch: Scratch,
    pub state: AppState,
    pub client: CatalogClient,
    pub base: String,
    signer: Signer,
    cancel: CancellationToken,
}

runtime::deref_scratch!(TestEnv, scratch);

impl TestEnv {
    /// A fresh schema with the catalog's tables and the service listening on port 0.
    pub async fn new() -> TestEnv {
        TestEnv::with_config(CatalogConfig::default()).await
    }

    /// The same, with the service configured by `config`.
    pub async fn with_config(config: CatalogConfig) -> TestEnv {
        let scratch = Scratch::new(&[("catalog", &catalog::MIGRATIONS)], 12).await;
        let signer = Signer::generate("test");
        let state = AppState::new(scratch.pool.clone(), scratch.store.clone(), signer.verifier(), config);
        let (base, cancel) = serve(state.clone()).await;
        TestEnv { client: CatalogClient::new(&base), base, scratch, state, signer, cancel }
    }

    /// A fresh schema with the demo catalog seeded.
    pub async fn seeded() -> TestEnv {
        let env = TestEnv::new().await;
        env.seed().await;
        env
    }

    pub async fn seed(&self) {
        let ctx = runtime::service::ServiceContext {
            pool: self.pool.clone(),
            store: self.store.clone(),
            settings: self.settings.clone(),
        };
        catalog::SERVICE.seed.expect("the catalog seeds")(ctx).await.unwrap();
    }

    /// Anonymous on `tenant`.
    pub fn visitor(&self, tenant: &str) -> CallContext {
        CallContext::anonymous(tenant)
    }

    /// A signed-in member on `tenant` with `groups`.
    pub fn member(&self, tenant: &str, user: Uuid, groups: &[&str]) -> CallContext {
        let mut claims = testing::member_claims(user, tenant, groups);
        claims.username = Some(format!("member{}", &user.simple().to_string()[..6]));
        CallContext::user(self.signer.sign(&claims), tenant)
    }

    pub async fn cleanup(self) {
        self.cancel.cancel();
        self.scratch.cleanup().await;
    }
}

async fn serve(state: AppState) -> (String, CancellationToken) {
    let served = testing::serve(catalog::router(state)).await;
    (served.base, served.stop)
}

/// Another instance of the service on the same schema (a second replica), with its own
/// configuration and read cache.
pub struct Replica {
    pub state: AppState,
    pub client: CatalogClient,
    cancel: CancellationToken,
}

impl Replica {
    pub async fn on(env: &TestEnv, config: CatalogConfig) -> Replica {
        let state = AppState::new(env.pool.clone(), env.store.clone(), env.signer.verifier(), config);
        let (base, cancel) = serve(state.clone()).await;
        Replica { state, client: CatalogClient::new(&base), cancel }
    }

    /// Stops serving (the schema stays with its [`TestEnv`]).
    pub async fn detach(self) {
        self.cancel.cancel();
    }
}

/// Every row of a table, as JSON text, in a stable order.
pub async fn dump(pool: &sqlx::PgPool, table: &str) -> Vec<String> {
    sqlx::query_scalar(&format!("select row_to_json(t)::text from {table} t order by row_to_json(t)::text"))
        .fetch_all(pool)
        .await
        .unwrap()
}

pub async fn dump_all(pool: &sqlx::PgPool) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for table in catalog::projections::TABLES {
        out.push(((*table).to_owned(), dump(pool, table).await));
    }
    out
}
