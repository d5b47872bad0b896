//! The demo users' memberships (profile's [`profile_contract::demo::DEMO_USERS`], `membership`), made the way
//! real ones are: biller postbacks through the decider. Transaction ids are stable per user, so
//! running the seed again changes nothing.

use chrono::{DateTime, Duration, Utc};
use proto_events::subscription::MembershipKind;
use runtime::auth::Verifier;
use runtime::service::{BoxFuture, ServiceContext};

use crate::billers::{Outcome, Postback};
use crate::domain::Step;
use crate::postbacks;
use crate::{BillingConfig, State};

/// One demo membership: a biller, a site and join option, and its facts (days ago, step).
pub struct DemoMembership {
    pub username: &'static str,
    pub biller: &'static str,
    pub site: &'static str,
    pub join_option_id: u32,
    pub facts: Vec<(i64, Step)>,
}

const MEMBER: Step = Step::Initial { kind: MembershipKind::Member, free_limited_trial: false };

/// What each demo user gets (see the `membership` text of each in profile's seed).
pub fn demo_memberships() -> Vec<DemoMembership> {
    let member = |username, biller, days| DemoMembership {
        username,
        biller,
        site: "vixen",
        join_option_id: 10301,
        facts: vec![(days, MEMBER), (days - 30, Step::Rebill)],
    };
    vec![
        member("member", "EPOCH", 430),
        DemoMembership {
            username: "multisite",
            biller: "SEGPAY",
            site: "multisite2025",
            join_option_id: 3045,
            facts: vec![(200, MEMBER), (170, Step::Rebill)],
        },
        DemoMembership {
            username: "trial",
            biller: "CENTROBILL",
            site: "vixen",
            join_option_id: 10302,
            facts: vec![(1, Step::Initial { kind: MembershipKind::Trial, free_limited_trial: false })],
        },
        DemoMembership {
            username: "freetrial",
            biller: "EPOCH",
            site: "vixen",
            join_option_id: 10303,
            facts: vec![(2, Step::Initial { kind: MembershipKind::Trial, free_limited_trial: true })],
        },
        DemoMembership {
            username: "ppv",
            biller: "RGNATIVE",
            site: "vixen",
            join_option_id: 0,
            facts: vec![
                (20, Step::Initial { kind: MembershipKind::PornPortal, free_limited_trial: false }),
                (20, Step::CreditsPurchase { credits: 12 }),
            ],
        },
        DemoMembership {
            username: "guest",
            biller: "RGNATIVE",
            site: "vixen",
            join_option_id: 0,
            facts: vec![(10, Step::Initial { kind: MembershipKind::PornPortal, free_limited_trial: false })],
        },
        DemoMembership {
            username: "expired",
            biller: "EPOCH",
            site: "vixen",
            join_option_id: 10301,
            facts: vec![(120, MEMBER), (90, Step::Rebill), (60, Step::RebillFailed), (59, Step::Expire)],
        },
        DemoMembership {
            username: "cancelled",
            biller: "RGNATIVE",
            site: "vixen",
            join_option_id: 10301,
            facts: vec![(75, MEMBER), (45, Step::Rebill), (15, Step::Rebill), (5, Step::Cancel)],
        },
        member("tandemparent", "VXNBILL", 250),
        member("moderator", "EPOCH", 800),
        member("preview", "ECHST", 100),
        member("texas", "SEGPAY", 60),
        member("vip", "EPOCH", 40),
        member("teaser", "EPOCH", 35),
        member("newcomer", "EPOCH", 3),
    ]
}

/// The postbacks of a demo membership, as a biller would have sent them.
pub fn postbacks_of(demo: &DemoMembership, now: DateTime<Utc>) -> Vec<Postback> {
    let user_id = profile_contract::demo::demo_user_id(demo.username);
    demo.facts
        .iter()
        .enumerate()
        .map(|(n, (days_ago, step))| Postback {
            biller: demo.biller.to_owned(),
            subscription_ref: format!("DEMO-{}", demo.username),
            transaction_id: format!("DEMO-{}-{n}-{}", demo.username, step.name()),
            at: now - Duration::days(*days_ago),
            outcome: Outcome::Applied(step.clone()),
            site: Some(demo.site.to_owned()),
            join_option_id: (demo.join_option_id != 0).then_some(demo.join_option_id),
            email: None,
            username: Some(demo.username.to_owned()),
            user_id: Some(user_id),
            signup_id: None,
            nats_code: None,
        })
        .collect()
}

/// `ServiceDef.seed`.
pub fn seed(ctx: ServiceContext) -> BoxFuture<anyhow::Result<()>> {
    Box::pin(async move {
        let production = ctx.settings.environment == runtime::config::Environment::Production;
        let config = BillingConfig::from_env(production)?;
        let profile = profile_contract::client::ProfileClient::from_env();
        let verifier = Verifier::from_jwks_url(profile.jwks_url());
        let state = State::new(ctx.pool, ctx.store, config, profile, verifier);
        seed_demo_memberships(&state).await
    })
}

pub async fn seed_demo_memberships(state: &State) -> anyhow::Result<()> {
    let now = state.clock.now();
    let mut applied = 0;
    for demo in demo_memberships() {
        for postback in postbacks_of(&demo, now) {
            let raw =
                serde_json::json!({ "seed": demo.username, "transactionId": postback.transaction_id }).to_string();
            let recorded = postbacks::apply(state, &postback, raw, Some("application/json".into()), None, None)
                .await
                .map_err(|e| anyhow::anyhow!("seeding {}: {e}", demo.username))?;
            if !matches!(recorded, crate::commands::Recorded::Duplicate) {
                applied += 1;
            }
        }
    }
    tracing::info!(applied, "demo memberships seeded");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_demo_user_that_needs_a_membership_has_one() {
        let demos = demo_memberships();
        for user in profile_contract::demo::DEMO_USERS {
            let needs = !matches!(user.username, "admin" | "tandemchild");
            assert_eq!(demos.iter().any(|d| d.username == user.username), needs, "{}", user.username);
        }
        let config = BillingConfig::from_lookup(|_| None, false).unwrap();
        for d in &demos {
            assert!(config.biller(d.biller).is_some());
            assert!(d.join_option_id == 0 || config.join_option(d.join_option_id).is_some_and(|o| o.site == d.site));
        }
    }
}
