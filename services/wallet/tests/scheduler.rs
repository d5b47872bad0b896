//! The weekly gems job against the real database and broker: once per subscription and
//! week with two workers and one of them killed, and never after a cancel.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use proto_events::subscription::MembershipKind;
use proto_events::wallet::{stream_id, WalletEvent};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;
use wallet::scheduler::{GrantOutcome, Scheduler};

use support::{cancelled, started, utc, TestEnv};

/// A worker process and the grant lines it printed.
struct Worker {
    child: Child,
}

fn spawn_worker(
    env: &TestEnv,
    name: &'static str,
    clock_file: &std::path::Path,
    lines: mpsc::Sender<(&'static str, String)>,
) -> Worker {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wallet-friday-worker"))
        .args(["--schema", &env.schema, "--clock-file", clock_file.to_str().unwrap(), "--interval-ms", "20"])
        .env("DATABASE_URL", support::database_url())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("wallet-friday-worker starts");
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send((name, line)).is_err() {
                break;
            }
        }
    });
    Worker { child }
}

fn set_clock(file: &std::path::Path, now: DateTime<Utc>) {
    let tmp = file.with_extension("tmp");
    std::fs::write(&tmp, now.to_rfc3339()).unwrap();
    std::fs::rename(&tmp, file).unwrap();
}

/// Friday gems events of the schema: (subscription, week key) for each.
async fn friday_grants(env: &TestEnv) -> Vec<(Uuid, String)> {
    let references: Vec<String> = sqlx::query_scalar(
        "select payload->>'reference' from event
         where event_type = 'GemsGranted' and payload->>'reason' = 'friday_gems' order by global_position",
    )
    .fetch_all(&env.pool)
    .await
    .unwrap();
    references
        .into_iter()
        .map(|r| {
            let (subscription, week) = r.split_once('/').unwrap();
            (subscription.parse().unwrap(), week.to_owned())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_two_fridays_with_two_workers_one_killed_mid_run_grant_exactly_once_per_earning_subscription() {
    let env = TestEnv::new().await;
    env.declare_queue().await;
    let cancel = CancellationToken::new();
    let consumer = env.consumer_task(&cancel);

    // 24 members, 6 of them with a second site; 3 trials and 3 porn-portal users who earn
    // nothing; 4 single-site members who cancel after the 20th Friday.
    let joined = utc(2026, 1, 1, 12, 0);
    let mut earning: Vec<(Uuid, Uuid)> = vec![];
    let mut never: Vec<(Uuid, Uuid)> = vec![];
    let mut starts = vec![];
    for n in 0..30 {
        let user = Uuid::now_v7();
        let kind = match n {
            0..24 => MembershipKind::Member,
            24..27 => MembershipKind::Trial,
            _ => MembershipKind::PornPortal,
        };
        let sites = if n < 6 { 2 } else { 1 };
        for _ in 0..sites {
            let subscription = Uuid::now_v7();
            starts.push(env.envelope(&started(subscription, user, kind, joined)));
            if kind == MembershipKind::Member {
                earning.push((subscription, user));
            } else {
                never.push((subscription, user));
            }
        }
    }
    let leaving: Vec<(Uuid, Uuid)> = earning[earning.len() - 4..].to_vec();
    env.publish(&starts).await;
    env.wait_for("select count(*) from subscription", starts.len() as i64, Duration::from_secs(30)).await;

    let dir = std::env::temp_dir().join(format!("wallet-{}", env.schema));
    std::fs::create_dir_all(&dir).unwrap();
    let clock_file = dir.join("clock");
    set_clock(&clock_file, joined);
    let (tx, lines) = mpsc::channel();
    let mut a = spawn_worker(&env, "a", &clock_file, tx.clone());
    let mut b = spawn_worker(&env, "b", &clock_file, tx);
    let mut printed: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut a_killed_in: Option<String> = None;

    let calendar = env.state.config.calendar;
    let first_friday = utc(2026, 1, 2, 0, 0);
    for week in 1..=52i64 {
        let now = first_friday + chrono::Duration::weeks(week - 1) + chrono::Duration::hours(1);
        let key = calendar.week_of(now).key.to_string();
        set_clock(&clock_file, now);
        let due = if week <= 20 { earning.len() } else { earning.len() - leaving.len() };
        let started_at = Instant::now();
        loop {
            while let Ok((name, line)) = lines.try_recv() {
                // Kill worker a in the middle of a pass: right after one of its grants, with
                // more of the week still to grant.
                if name == "a" && a_killed_in.is_none() && week >= 26 && line.ends_with(&key) {
                    support::kill9(&mut a.child);
                    a_killed_in = Some(key.clone());
                }
                printed.entry(name).or_default().push(line);
            }
            let granted = friday_grants(&env).await.iter().filter(|(_, w)| *w == key).count();
            if granted >= due {
                assert_eq!(granted, due, "week {key}: one grant per earning subscription");
                break;
            }
            assert!(started_at.elapsed() < Duration::from_secs(60), "week {key}: {granted} of {due} granted");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        if week == 20 {
            let cancels: Vec<_> = leaving.iter().map(|(s, u)| env.envelope(&cancelled(*s, *u, now))).collect();
            env.publish(&cancels).await;
            env.wait_for("select count(*) from subscription where status = 'cancelled'", 4, Duration::from_secs(30))
                .await;
        }
    }
    // Both workers keep passing over the last week: nothing more is granted.
    tokio::time::sleep(Duration::from_millis(300)).await;
    support::kill9(&mut b.child);
    while let Ok((name, line)) = lines.try_recv() {
        printed.entry(name).or_default().push(line);
    }

    let a_killed_in = a_killed_in.expect("worker a was killed mid-run");
    assert!(a.child.try_wait().unwrap().is_some_and(|s| !s.success()), "worker a died of the kill");
    let grants = friday_grants(&env).await;
    let per_subscription: BTreeMap<Uuid, BTreeSet<String>> = grants.iter().fold(BTreeMap::new(), |mut m, (s, w)| {
        m.entry(*s).or_default().insert(w.clone());
        m
    });
    assert_eq!(grants.len(), per_subscription.values().map(BTreeSet::len).sum::<usize>(), "no week granted twice");
    for (subscription, _) in &earning[..earning.len() - 4] {
        assert_eq!(per_subscription[subscription].len(), 52, "{subscription}: 52 Fridays");
    }
    for (subscription, user) in &leaving {
        let weeks = &per_subscription[subscription];
        assert_eq!(weeks.len(), 20, "{subscription}: the 20 Fridays before its cancel");
        assert!(weeks.iter().all(|w| w.as_str() <= "2026-W20"), "{weeks:?}");
        // In the wallet's stream, the forfeit is the last word.
        let stream = env.store.load(&stream_id(*user)).await.unwrap();
        let last = proto_events::decode::<WalletEvent>(stream.last().unwrap()).unwrap();
        assert!(matches!(last, WalletEvent::GemsForfeited { amount: 200, balance_after: 0, .. }), "{last:?}");
    }
    for (subscription, _) in &never {
        assert!(!per_subscription.contains_key(subscription), "{subscription} earns nothing");
    }
    // A member with two sites holds both sites' gems.
    let two_sites = earning[0].1;
    let gems: i64 = sqlx::query_scalar("select gems from wallet where user_id = $1")
        .bind(two_sites)
        .fetch_one(&env.pool)
        .await
        .unwrap();
    assert_eq!(gems, 2 * 52 * 10);
    let granted_lines =
        |name| printed.get(name).map_or(0, |l: &Vec<String>| l.iter().filter(|l| l.starts_with("granted")).count());
    let (a_lines, b_lines) = (granted_lines("a"), granted_lines("b"));
    assert!(a_lines > 0 && b_lines > 0, "both workers granted: a {a_lines}, b {b_lines}");
    // A grant that committed as worker a died may not have been printed.
    assert!(
        (grants.len() - 1..=grants.len()).contains(&(a_lines + b_lines)),
        "each grant printed once at most: a {a_lines}, b {b_lines}, {} grants",
        grants.len()
    );
    println!("worker a killed in {a_killed_in}; a granted {a_lines}, b granted {b_lines}");

    cancel.cancel();
    consumer.await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    env.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_friday_grant_racing_a_cancel_never_lands_after_its_forfeit() {
    let env = TestEnv::new().await;
    let joined = utc(2026, 1, 1, 12, 0);
    let week = env.state.config.calendar.week_of(utc(2026, 1, 2, 1, 0));
    let members: Vec<(Uuid, Uuid)> = (0..60).map(|_| (Uuid::now_v7(), Uuid::now_v7())).collect();
    for (subscription, user) in &members {
        env.feed(&env.envelope(&started(*subscription, *user, MembershipKind::Member, joined))).await;
    }
    let scheduler = Scheduler::new(env.state.clone());
    let env = std::sync::Arc::new(env);
    let mut racers = tokio::task::JoinSet::new();
    for (n, (subscription, user)) in members.iter().copied().enumerate() {
        let (scheduler, env) = (scheduler.clone(), env.clone());
        racers.spawn(async move {
            let cancel = env.envelope(&cancelled(subscription, user, utc(2026, 1, 2, 1, 0)));
            let (grant, _) = if n % 2 == 0 {
                tokio::join!(scheduler.grant(subscription, week), env.feed(&cancel))
            } else {
                let (fed, grant) = tokio::join!(env.feed(&cancel), scheduler.grant(subscription, week));
                (grant, fed)
            };
            grant.unwrap()
        });
    }
    let mut outcomes = BTreeMap::new();
    while let Some(outcome) = racers.join_next().await {
        *outcomes.entry(format!("{:?}", outcome.unwrap())).or_insert(0) += 1;
    }
    for (_, user) in &members {
        let gems: Option<i64> = sqlx::query_scalar("select gems from wallet where user_id = $1")
            .bind(user)
            .fetch_optional(&env.pool)
            .await
            .unwrap();
        assert_eq!(gems.unwrap_or(0), 0, "{user}: no gems outlive the cancel");
    }
    let granted = outcomes.get(&format!("{:?}", GrantOutcome::Granted)).copied().unwrap_or(0);
    let forfeits = env.scalar("select count(*) from event where event_type = 'GemsForfeited'").await;
    assert_eq!(forfeits, granted, "every grant that won the race was forfeited by the cancel");
    println!("grant outcomes: {outcomes:?}");
    std::sync::Arc::into_inner(env).unwrap().cleanup().await;
}

#[tokio::test]
async fn a_pass_grants_the_earning_subscriptions_once_and_skips_the_others() {
    let env = TestEnv::new().await;
    let joined = utc(2026, 1, 1, 12, 0);
    let (member, trial, late) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
    let user = Uuid::now_v7();
    env.feed(&env.envelope(&started(member, user, MembershipKind::Member, joined))).await;
    env.feed(&env.envelope(&started(trial, user, MembershipKind::Trial, joined))).await;
    // Joined an hour after the grant instant: waits for next Friday.
    env.feed(&env.envelope(&started(late, user, MembershipKind::Member, utc(2026, 1, 2, 1, 0)))).await;
    env.clock.set(utc(2026, 1, 2, 2, 0));
    let scheduler = Scheduler::new(env.state.clone());
    let first = scheduler.pass().await.unwrap();
    assert_eq!((first.due, first.granted), (1, 1));
    let again = scheduler.pass().await.unwrap();
    assert_eq!((again.due, again.granted), (0, 0), "a second pass finds nothing due");
    env.clock.set(utc(2026, 1, 9, 0, 0));
    let next = scheduler.pass().await.unwrap();
    assert_eq!((next.due, next.granted), (2, 2), "next Friday both members earn");
    assert_eq!(env.scalar("select gems from wallet").await, 30);
    env.cleanup().await;
}
