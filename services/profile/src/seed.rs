//! The demo users: one per kind of user, all with the password `Demo12345` on `paysite.test`,
//! created through the same commands as real accounts, each with a stable id derived from its
//! username so other services' seeds can refer to it. Running the seed again changes nothing.
//!
//! Their memberships are the subscription service's to seed (see [`DemoUser::membership`]).

use chrono::Utc;
use proto_events::{Actor, EventMeta};
use runtime::service::{BoxFuture, ServiceContext};

use crate::api::CreateAccountRequest;
use crate::commands;
use crate::domain::Command;
use crate::http::create_account_with;
use crate::{ProfileConfig, State};

pub use profile_contract::demo::{demo_user_id, DemoUser, DEMO_PASSWORD, DEMO_USERS};

/// `ServiceDef.seed`.
pub fn seed(ctx: ServiceContext) -> BoxFuture<anyhow::Result<()>> {
    Box::pin(async move {
        let state = State::load(ctx.pool, ctx.store, ProfileConfig::from_env()?).await?;
        seed_demo_users(&state).await
    })
}

pub async fn seed_demo_users(state: &State) -> anyhow::Result<()> {
    let meta = EventMeta::new(Actor::System("profile.seed".into()));
    // Parents first: a tandem child names its parent.
    let mut users = DEMO_USERS.to_vec();
    users.sort_by_key(|u| u.tandem_parent.is_some());
    for demo in users {
        let user_id = demo_user_id(demo.username);
        // An account once made is left as it is: the newcomer may have chosen its username since.
        let exists = !crate::queries::user_summaries(&state.pool, &[user_id]).await?.is_empty();
        match demo.tandem_parent {
            None if exists => {}
            None => {
                let request = CreateAccountRequest {
                    user_id: Some(user_id),
                    username: (!demo.chooses_username).then(|| demo.username.to_owned()),
                    password: DEMO_PASSWORD.to_owned(),
                    password_hash: None,
                    email: demo.email.to_owned(),
                    site: demo.site.to_owned(),
                    biller: None,
                    tandem_parent_user_id: None,
                    vip_invited: demo.vip_invited,
                };
                create_account_with(state, request, &meta.clone().with_tenant(demo.site))
                    .await
                    .map_err(|e| anyhow::anyhow!("seeding {}: {e}", demo.username))?;
            }
            Some(parent) => {
                if !exists {
                    let register = Command::Register {
                        user_id,
                        email: demo.email.to_owned(),
                        username: Some(demo.username.to_owned()),
                        site: demo.site.to_owned(),
                        tandem_parent: Some(demo_user_id(parent)),
                        vip_invited: false,
                        at: Utc::now(),
                    };
                    let hash = state.passwords.hash(DEMO_PASSWORD).await?;
                    // The parent's membership is the subscription seed's; the demo data has it.
                    commands::create_tandem_child(
                        &state.store,
                        demo_user_id(parent),
                        user_id,
                        true,
                        register,
                        &hash,
                        &meta,
                    )
                    .await?;
                }
            }
        }
        for group in demo.groups {
            commands::execute(
                &state.store,
                user_id,
                &meta,
                Command::GrantGroup { group: *group, at: Utc::now() },
                None,
            )
            .await?;
        }
    }
    tracing::info!(users = DEMO_USERS.len(), "demo users seeded");
    Ok(())
}
