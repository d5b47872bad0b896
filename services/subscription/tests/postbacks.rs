//! The billers' postback door over real HTTP and the real database: each biller's valid
//! postbacks accepted, forged / stale / wrong-scheme / unsigned ones refused (and nothing
//! stored), repeats and parallel duplicates applied once, out-of-order postbacks converging,
//! the raw body kept and the affiliate code carried into the event.

mod support;

use proto_events::subscription::{MembershipKind, SubscriptionEvent as E, SubscriptionStanding, SubscriptionStatus};
use rand::{seq::SliceRandom, Rng, SeedableRng};
use runtime::testing::ServiceAuth;
use subscription::billers::{self, SignedRequest};
use subscription::config::Scheme;
use subscription::domain::Step;
use support::{out, TestEnv};
use uuid::Uuid;

const MEMBER: Step = Step::Initial { kind: MembershipKind::Member, free_limited_trial: false };

async fn postbacks_stored(env: &TestEnv) -> i64 {
    env.scalar("select count(*) from postback").await
}

#[tokio::test]
async fn every_billers_valid_postback_starts_a_membership_with_its_ok_answer() {
    let env = TestEnv::new().await;
    let names: Vec<String> = env.state.config.billers.keys().cloned().collect();
    for biller in &names {
        let user = Uuid::now_v7();
        let (status, text) =
            env.postback(biller, &out(&format!("{biller}-M1"), &format!("{biller}-T1"), MEMBER, user)).await;
        assert_eq!((status, text.as_str()), (200, env.state.config.billers[biller].ok_text.as_str()), "{biller}");
        let read = env.read(user, "vixen").await;
        assert_eq!(read["subscription"]["type"], "member", "{biller}");
        assert_eq!(read["billerName"], biller.as_str());
        assert_eq!(read["tenantsSubscriptionState"]["vixen"], "full");
    }
    // Segpay-style billers answer their configured text.
    assert_eq!(env.state.config.billers["SUPPORTSK"].ok_text, "SUCCESS");
    // The raw body is kept, and the affiliate code rides into the event.
    let raw: String =
        sqlx::query_scalar("select raw_body from postback where biller = 'EPOCH'").fetch_one(&env.pool).await.unwrap();
    assert!(raw.contains("epoch_digest=") && raw.contains("x_nats=NATS-AFF-42"));
    let events = env.events().await;
    assert_eq!(events.len(), names.len());
    assert!(events
        .iter()
        .all(|e| matches!(e, E::SubscriptionStarted { nats_code: Some(n), .. } if n == "NATS-AFF-42")));
    env.cleanup().await;
}

#[tokio::test]
async fn forged_stale_wrong_scheme_and_unsigned_postbacks_are_refused_and_not_stored() {
    let env = TestEnv::new().await;
    let names: Vec<String> = env.state.config.billers.keys().cloned().collect();
    for biller in &names {
        let b = env.state.config.billers[biller].clone();
        let o = out(&format!("{biller}-M"), &format!("{biller}-T"), MEMBER, Uuid::now_v7());
        let now = chrono::Utc::now().timestamp();
        let forger = subscription::config::Biller { secret: runtime::Secret::new("not-the-secret"), ..b.clone() };
        let forged = billers::encode(&forger, &o, now);
        let stale = billers::encode(&b, &o, now - 301);
        let valid = billers::encode(&b, &o, now);
        let (wrong_scheme, unsigned) = match b.scheme {
            Scheme::Epoch => {
                let text = String::from_utf8(valid.body.clone()).unwrap();
                let wrong = SignedRequest {
                    body: text.replace("digest_alg=HMAC-SHA256", "digest_alg=MD5").into_bytes(),
                    ..valid.clone()
                };
                let kept: Vec<&str> = text.split('&').filter(|p| !p.starts_with("epoch_digest=")).collect();
                (wrong, SignedRequest { body: kept.join("&").into_bytes(), ..valid.clone() })
            }
            _ => {
                let header = valid.signature_header.clone().unwrap();
                (
                    SignedRequest { signature_header: Some(header.replace("v1=", "v0=")), ..valid.clone() },
                    SignedRequest { signature_header: None, ..valid.clone() },
                )
            }
        };
        for (what, request, code) in [
            ("forged", &forged, "BAD_SIGNATURE"),
            ("stale", &stale, "STALE_TIMESTAMP"),
            ("wrong scheme", &wrong_scheme, "WRONG_SIGNATURE_SCHEME"),
            ("unsigned", &unsigned, "MISSING_SIGNATURE"),
        ] {
            let (status, body) = env.send(biller, request).await;
            assert_eq!(status, 401, "{biller} {what}: {body}");
            assert!(body.contains(code), "{biller} {what}: {body}");
        }
    }
    assert_eq!(postbacks_stored(&env).await, 0);
    assert!(env.events().await.is_empty());
    let signed = env.signed("EPOCH", &out("M", "T", MEMBER, Uuid::now_v7()));
    let (status, _) = env.send("NOSUCHBILLER", &signed).await;
    assert_eq!(status, 404);
    env.cleanup().await;
}

#[tokio::test]
async fn forged_postbacks_past_the_limit_get_429_and_a_well_signed_one_always_passes() {
    let env = TestEnv::new().await;
    let biller = "SEGPAY";
    let b = env.state.config.billers[biller].clone();
    let forger = subscription::config::Biller { secret: runtime::Secret::new("not-the-secret"), ..b.clone() };
    // As the gateway passes a postback on: the sender's address, vouched for by its service token.
    let send_from = |address: &'static str, request: SignedRequest| {
        let mut r = env
            .http
            .post(env.url(&format!("/billers/{biller}/postback")))
            .service_auth("subscription")
            .header("content-type", request.content_type)
            .header("x-forwarded-for", address)
            .body(request.body.clone());
        if let Some(h) = &request.signature_header {
            r = r.header(billers::SIGNATURE_HEADER, h);
        }
        r.send()
    };
    let now = chrono::Utc::now().timestamp();
    // An address written by whoever reaches the port directly, without the gateway's token, is
    // not believed: 25 forged deliveries claiming one address are all checked (401).
    for n in 0..25 {
        let o = out(&format!("U-{n}"), &format!("U-T-{n}"), MEMBER, Uuid::now_v7());
        let forged = billers::encode(&forger, &o, now);
        let mut r = env
            .http
            .post(env.url(&format!("/billers/{biller}/postback")))
            .header("content-type", forged.content_type)
            .header("x-forwarded-for", "198.51.100.99")
            .body(forged.body.clone());
        if let Some(h) = &forged.signature_header {
            r = r.header(billers::SIGNATURE_HEADER, h);
        }
        assert_eq!(r.send().await.unwrap().status(), 401, "unvouched {n}");
    }
    let mut statuses = Vec::new();
    for n in 0..30 {
        let o = out(&format!("F-{n}"), &format!("F-T-{n}"), MEMBER, Uuid::now_v7());
        statuses.push(send_from("198.51.100.7", billers::encode(&forger, &o, now)).await.unwrap());
    }
    let refused = statuses.iter().filter(|r| r.status() == 401).count();
    let limited: Vec<_> = statuses.iter().filter(|r| r.status() == 429).collect();
    assert_eq!(refused + limited.len(), 30);
    assert!(
        (20..=21).contains(&refused),
        "the burst of {} is checked, the rest limited",
        subscription::postbacks::FORGED_PER_ADDRESS.burst
    );
    assert!(limited.iter().all(|r| r.headers().contains_key("retry-after")));
    // The biller's own delivery, from the same address even, is applied.
    let user = Uuid::now_v7();
    let valid = billers::encode(&b, &out("REAL-M", "REAL-T", MEMBER, user), now);
    let answer = send_from("198.51.100.7", valid.clone()).await.unwrap();
    assert_eq!(answer.status(), 200);
    assert_eq!(env.read(user, "vixen").await["subscription"]["type"], "member");
    // And its repeat gets the same answer.
    let again = send_from("198.51.100.8", valid).await.unwrap();
    assert_eq!((again.status().as_u16(), again.text().await.unwrap()), (200, b.ok_text.clone()));
    env.cleanup().await;
}

#[tokio::test]
async fn the_same_postback_fifty_times_in_parallel_is_applied_once() {
    let env = TestEnv::new().await;
    let user = Uuid::now_v7();
    for (biller, step) in [("VXNBILL", MEMBER), ("VXNBILL", Step::Rebill), ("SEGPAY", MEMBER), ("EPOCH", MEMBER)] {
        let tx = format!("{biller}-{}", step.name());
        let request = env.signed(biller, &out(&format!("{biller}-PAR"), &tx, step, user));
        let answers = futures::future::join_all((0..50).map(|_| env.send(biller, &request))).await;
        let expected = env.state.config.billers[biller].ok_text.clone();
        assert!(answers.iter().all(|(s, t)| *s == 200 && *t == expected), "{answers:?}");
    }
    let events = env.events().await;
    let started = events.iter().filter(|e| matches!(e, E::SubscriptionStarted { .. })).count();
    let renewed = events.iter().filter(|e| matches!(e, E::SubscriptionRenewed { .. })).count();
    assert_eq!((started, renewed, events.len()), (3, 1, 4));
    assert_eq!(postbacks_stored(&env).await, 4);
    env.cleanup().await;
}

/// Every postback of a subscription's life sent 1 to 10 times, all shuffled, half in parallel:
/// the read ends where the timeline does, and each rebill is told once.
#[tokio::test]
async fn out_of_order_repeated_postbacks_converge_over_http() {
    let env = TestEnv::new().await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for (n, biller) in ["EPOCH", "CENTROBILL", "SUPPORTSK", "SPIZOO"].into_iter().enumerate() {
        let user = Uuid::now_v7();
        let reference = format!("{biller}-LIFE");
        // The biller's time of each step is its postback's timestamp (ten seconds apart).
        let timeline = [
            (MEMBER, "I"),
            (Step::Rebill, "K1"),
            (Step::Cancel, "C"),
            (Step::Reactivation { retention_offer_name: None, offered_gems: 0 }, "R"),
            (Step::Rebill, "K2"),
            (Step::Chargeback, "D"),
        ];
        let mut requests = Vec::new();
        for (i, (step, tx)) in timeline.iter().enumerate() {
            let o = out(&reference, &format!("{biller}-{tx}"), step.clone(), user);
            let b = &env.state.config.billers[biller];
            let signed = billers::encode(b, &o, chrono::Utc::now().timestamp() - 100 + i as i64 * 10);
            for _ in 0..rng.random_range(1..=10) {
                requests.push(signed.clone());
            }
        }
        requests.shuffle(&mut rng);
        let (first, second) = requests.split_at(requests.len() / 2);
        for r in first {
            assert_eq!(env.send(biller, r).await.0, 200);
        }
        let answers = futures::future::join_all(second.iter().map(|r| env.send(biller, r))).await;
        assert!(answers.iter().all(|(s, _)| *s == 200));
        let read = env.read(user, "vixen").await;
        assert_eq!(read["subscription"]["type"], "expired", "{biller}: {read}");
        assert_eq!(read["subscriptions"][0]["ended"], "charged_back");
        assert_eq!(read["tenantsSubscriptionState"]["vixen"], "none");
        let events = env.events().await;
        let mine: Vec<&E> = events.iter().filter(|e| e.user_id() == user).collect();
        let renewals = mine.iter().filter(|e| matches!(e, E::SubscriptionRenewed { .. })).count();
        assert_eq!(renewals, 2, "{biller} #{n}: {mine:?}");
        // Every reader that folds the events ends where the owner's read is: charged back. (A
        // rebill timed before the chargeback may be told after it; it revives nothing.)
        let standing = mine.iter().fold(SubscriptionStanding::default(), |s, e| s.after(e));
        assert_eq!(standing.status(), SubscriptionStatus::Ended, "{biller} #{n}: {mine:?}");
        assert!(mine.iter().any(|e| matches!(e, E::SubscriptionChargedBack { .. })));
    }
    env.cleanup().await;
}

/// A NUL character cannot be stored as text: a well-signed postback holding one is a 400 the
/// biller does not retry, not a 500 it retries for ever, and nothing is stored.
#[tokio::test]
async fn a_signed_postback_holding_a_nul_character_is_refused_as_malformed() {
    let env = TestEnv::new().await;
    let names: Vec<String> = env.state.config.billers.keys().cloned().collect();
    for biller in &names {
        let mut o = out(&format!("{biller}-NUL"), &format!("{biller}-NUL-T"), MEMBER, Uuid::now_v7());
        o.username = Some("jo\0".into());
        let (status, body) = env.send(biller, &env.signed(biller, &o)).await;
        assert_eq!(status, 400, "{biller}: {body}");
        assert!(body.contains("MALFORMED_POSTBACK"), "{biller}: {body}");
    }
    assert_eq!(postbacks_stored(&env).await, 0);
    assert!(env.events().await.is_empty());
    env.cleanup().await;
}

/// A sample of mutated requests over HTTP: none accepted, nothing stored; the valid ones all are.
#[tokio::test]
async fn mutated_postbacks_over_http_are_all_refused() {
    let env = TestEnv::new().await;
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let names: Vec<String> = env.state.config.billers.keys().cloned().collect();
    let mut valid_accepted = 0;
    for n in 0..400 {
        let biller = &names[n % names.len()];
        let o = out(&format!("MUT-{n}"), &format!("MUT-T-{n}"), MEMBER, Uuid::now_v7());
        let valid = env.signed(biller, &o);
        let mut bad = valid.clone();
        match rng.random_range(0..3) {
            0 => {
                let i = rng.random_range(0..bad.body.len());
                bad.body[i] ^= 1 << rng.random_range(0..7);
            }
            1 => match &mut bad.signature_header {
                Some(h) => loop {
                    // A header value must stay printable to be sent at all.
                    let mut bytes = h.clone().into_bytes();
                    let i = rng.random_range(0..bytes.len());
                    bytes[i] ^= 1 << rng.random_range(0..7);
                    if bytes.iter().all(|b| (0x21..0x7f).contains(b)) {
                        *h = String::from_utf8(bytes).unwrap();
                        break;
                    }
                },
                None => {
                    let text = String::from_utf8(bad.body.clone()).unwrap();
                    let at = text.find("epoch_digest=").unwrap() + 13 + rng.random_range(0..64);
                    bad.body[at] ^= 1 << rng.random_range(0..7);
                }
            },
            _ => {
                let keep = rng.random_range(0..bad.body.len());
                bad.body.truncate(keep);
            }
        }
        let (status, body) = env.send(biller, &bad).await;
        // 429 once a biller's forged deliveries pass their limit; the valid one still passes.
        assert!(
            status == 401 || status == 400 || status == 415 || status == 429,
            "{biller} accepted a mutated postback: {status} {body}"
        );
        if env.send(biller, &valid).await.0 == 200 {
            valid_accepted += 1;
        }
    }
    assert_eq!(valid_accepted, 400);
    assert_eq!(postbacks_stored(&env).await, 400);
    env.cleanup().await;
}

#[tokio::test]
async fn a_rebill_that_arrives_before_the_initial_waits_for_it() {
    let env = TestEnv::new().await;
    let user = Uuid::now_v7();
    assert_eq!(env.postback("ECHST", &out("E-1", "E-K", Step::Rebill, user)).await.0, 200);
    assert!(env.events().await.is_empty());
    assert_eq!(env.read(user, "vixen").await["subscription"]["type"], "porn-portal");
    let mut initial = out("E-1", "E-I", Step::Initial { kind: MembershipKind::Trial, free_limited_trial: false }, user);
    initial.join_option_id = Some(10302);
    assert_eq!(env.postback("ECHST", &initial).await.0, 200);
    let events = env.events().await;
    assert!(
        matches!(
            &events[..],
            [
                E::SubscriptionStarted { kind: MembershipKind::Trial, .. },
                E::SubscriptionUpgraded { .. },
                E::SubscriptionRenewed { .. }
            ]
        ),
        "{events:?}"
    );
    assert_eq!(env.read(user, "vixen").await["subscription"]["type"], "member");
    env.cleanup().await;
}

#[tokio::test]
async fn credits_bought_through_a_biller_start_a_porn_portal_subscription() {
    let env = TestEnv::new().await;
    let user = Uuid::now_v7();
    let mut o = out("PPV-1", "PPV-P1", Step::CreditsPurchase { credits: 12 }, user);
    o.join_option_id = None;
    assert_eq!(env.postback("EPOCH", &o).await.0, 200);
    let events = env.events().await;
    assert!(
        matches!(
            &events[..],
            [
                E::SubscriptionStarted { kind: MembershipKind::PornPortal, .. },
                E::PayPerVideoCreditsPurchased { credits: 12, .. }
            ]
        ),
        "{events:?}"
    );
    let read = env.read(user, "vixen").await;
    assert_eq!(
        (read["subscription"]["type"].as_str(), read["subscription"]["pornPortal"].as_bool()),
        (Some("porn-portal"), Some(true))
    );
    assert_eq!(read["siteAccessArray"], serde_json::json!([]));
    env.cleanup().await;
}
