//! A biller's secret rotation, step by step as docs/operations.md ("Rotating a biller's
//! secret") tells the operator, over real HTTP and the real database: each step is a restart
//! with the Secret's new contents, and no postback the biller signs is refused on the way.

mod support;

use chrono::Utc;
use proto_events::subscription::MembershipKind;
use subscription::billers::{self, SignedRequest};
use subscription::domain::Step;
use support::{out, TestEnv};
use uuid::Uuid;

const MEMBER: Step = Step::Initial { kind: MembershipKind::Member, free_limited_trial: false };
const OLD: &str = "epoch-secret-2025";
const NEW: &str = "epoch-secret-2026";

/// A postback for a new member, as the biller signs it with `secret`.
fn signed_with(env: &TestEnv, biller: &str, secret: &str) -> SignedRequest {
    let b = subscription::config::Biller {
        secret: runtime::Secret::new(secret),
        next_secret: None,
        ..env.state.config.billers[biller].clone()
    };
    let id = Uuid::now_v7();
    billers::encode(&b, &out(&format!("M-{id}"), &format!("T-{id}"), MEMBER, Uuid::now_v7()), Utc::now().timestamp())
}

async fn status(env: &TestEnv, biller: &str, secret: &str) -> u16 {
    env.send(biller, &signed_with(env, biller, secret)).await.0
}

#[tokio::test]
async fn a_biller_secret_rotates_through_a_next_value_without_refusing_a_postback() {
    // One biller of each signature scheme: EPOCH signs the form, VXNBILL (CCBill-style) and SEGPAY a header.
    for biller in ["EPOCH", "VXNBILL", "SEGPAY"] {
        let current = format!("PAYSITE_BILLER_{biller}_SECRET");
        let next = format!("PAYSITE_BILLER_{biller}_SECRET_NEXT");
        // Before: the Secret holds the current value only.
        let env = TestEnv::with_env(&[(&current, OLD)]).await;
        assert_eq!(status(&env, biller, OLD).await, 200, "{biller}: signed with the current secret");
        assert_eq!(status(&env, biller, NEW).await, 401, "{biller}: the new one is not accepted yet");
        env.cleanup().await;

        // 1. `<NAME>_SECRET_NEXT` added beside it, subscription restarted: both verify, so
        //    the biller may switch its console to the new secret whenever it likes.
        let env = TestEnv::with_env(&[(&current, OLD), (&next, NEW)]).await;
        assert_eq!(status(&env, biller, OLD).await, 200, "{biller}: the old secret during the window");
        assert_eq!(status(&env, biller, NEW).await, 200, "{biller}: the new secret during the window");
        assert_eq!(status(&env, biller, "a-guess").await, 401, "{biller}: anything else is still forged");
        // What paysite signs for the biller (hashedMemberId) stays on the current secret.
        assert_eq!(env.state.config.billers[biller].secret.expose(), OLD);
        env.cleanup().await;

        // 2. The new value moved to `<NAME>_SECRET`, `_NEXT` deleted, restarted: the old one is refused.
        let env = TestEnv::with_env(&[(&current, NEW)]).await;
        assert_eq!(status(&env, biller, NEW).await, 200, "{biller}: the new secret after the rotation");
        assert_eq!(status(&env, biller, OLD).await, 401, "{biller}: the old secret is retired");
        env.cleanup().await;
    }
}
