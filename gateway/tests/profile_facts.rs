//! findOneUserProfile through the real gateway, put together from the real owners of its
//! facts (profile, subscription, wallet, unlocks; each on its own scratch schema): every
//! derived field equals its owner's own answer, for the demo users of `paysite seed` and along
//! a generated sequence of events, under a wallet calendar that is not the default one; a
//! pack unlocked exactly 14 days ago is recent (the unlocks service's rule). Also: the profile
//! read and changed through GraphQL, and the page's and the `user` query's abilities.

mod support;

use chrono::{DateTime, Duration, Utc};
use proto_events::{
    catalog::{CatalogEvent, ChannelKind, Video},
    subscription::{MembershipKind, SubscriptionEvent},
};
use reqwest::StatusCode;
use serde_json::{json, Value};
use support::{
    codes, content, short,
    stack::{Options, Stack},
};
use uuid::Uuid;

const HOST: &str = "vixen.localhost:8080";

/// Every derived field of the profile, as the browser asks for it.
const DERIVED: &str = "{ findOneUserProfile { userId daysUntilRefreshGems unlockedChannelPackIds \
    percentageOfUnlockedChannelPacks siteAccessArray tenantsSubscriptionState hasActiveMultisiteSubscription \
    multisiteType isFreeLimitedTrial billerName activeSince \
    subscription { type subscriptionType active isActive cancelled biller pornPortal payPerVideoCredits \
      unlockedVideoIds unlockedVideos { videoId newId unlockedAt } activeSince joinDate seniority \
      isFreeLimitedTrial upgradeOptions { isUpgradeableToVixenPlusYearly } } \
    userSubscriptionsState { subscriptionsStatus { isActive isTandemChildAccount tenant type } \
      unlockedVideos { videoId newId unlockedAt } } \
    downloadQuotas { thresholdReached downloadsNumber downloadQuotaMax downloadDaysPeriod quotaLeft \
      remainingDays zeroQuota site } \
    state { gems { lastAcknowledgementDate } } \
    iterate { lastChannelPackUnlockDate activeSince siteType subscriptionType subscriptionActive \
      subscriptionLengthInMonths subscriptionLengthInDays hasActiveMultisiteSubscription tenantsSubscriptionState } \
    customerSurvey { hasUnlockedChannelPackInLastTwoWeeks subscriptionLengthInMonths subscriptionLengthInDays } } }";

/// A wallet calendar unlike the default (Fridays, midnight UTC): Tuesdays at midnight UTC-5.
fn calendar() -> wallet::calendar::GemsCalendar {
    wallet::calendar::GemsCalendar::new(chrono::Weekday::Tue, -300).unwrap()
}

async fn stack() -> Stack {
    Stack::start(Options { gems_calendar: Some(calendar()), serve_page: true, ..Default::default() }).await
}

/// The owners' own answers, asked with the user's token on the brand.
struct OwnersAnswers {
    subscription: Value,
    wallet: Value,
    unlocks: Value,
    quotas: Value,
}

async fn get(url: String, token: &str) -> Value {
    let response =
        runtime::tls::client().get(&url).bearer_auth(token).header("x-paysite-tenant", "vixen").send().await.unwrap();
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::OK, "{url}: {}", short(&body));
    body
}

async fn owners(stack: &Stack, user: Uuid, token: &str) -> OwnersAnswers {
    OwnersAnswers {
        subscription: get(format!("{}/internal/subscription", stack.subscription_url), token).await,
        wallet: get(format!("{}/internal/wallets/{user}/gems-balance", stack.wallet_url), token).await,
        unlocks: get(format!("{}/internal/unlocks/state", stack.unlocks_url), token).await,
        quotas: get(format!("{}/internal/download-quotas", stack.unlocks_url), token).await,
    }
}

async fn profile(stack: &Stack, token: &str) -> Value {
    let (status, body) = stack.gw.post(HOST, json!({ "query": DERIVED }), Some(token)).await;
    assert_eq!(status, StatusCode::OK, "{}", short(&body));
    assert!(body["errors"].is_null(), "{}", short(&body));
    body["data"]["findOneUserProfile"].clone()
}

fn instant(v: &Value) -> Option<DateTime<Utc>> {
    v.as_str().map(|s| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc))
}

fn ids(v: &Value) -> Vec<String> {
    let mut ids: Vec<String> = v.as_array().unwrap().iter().map(|i| i.as_str().unwrap().to_owned()).collect();
    ids.sort();
    ids
}

fn videos(v: &Value) -> Vec<(String, String, Option<DateTime<Utc>>)> {
    let mut all: Vec<_> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["videoId"].as_str().unwrap().to_owned(),
                v["newId"].as_str().unwrap().to_owned(),
                instant(&v["unlockedAt"]),
            )
        })
        .collect();
    all.sort();
    all
}

/// Each derived field of `p` against its owner's answer (`who` names the case).
fn holds(who: &str, p: &Value, o: &OwnersAnswers) {
    // Wallet: the gems calendar, the acknowledgement, the credits.
    assert_eq!(p["daysUntilRefreshGems"], o.wallet["daysUntilRefreshGems"], "{who}: daysUntilRefreshGems");
    assert_eq!(
        instant(&p["state"]["gems"]["lastAcknowledgementDate"]),
        instant(&o.wallet["gems"]["lastAcknowledgementDate"]),
        "{who}: state.gems.lastAcknowledgementDate"
    );
    assert_eq!(p["subscription"]["payPerVideoCredits"], o.wallet["payPerVideoCredits"], "{who}: payPerVideoCredits");
    // Unlocks: packs, videos, recent unlocks, quotas.
    assert_eq!(ids(&p["unlockedChannelPackIds"]), ids(&o.unlocks["unlockedChannelPackIds"]), "{who}: packs");
    assert_eq!(
        p["percentageOfUnlockedChannelPacks"], o.unlocks["percentageOfUnlockedChannelPacks"],
        "{who}: percentageOfUnlockedChannelPacks"
    );
    assert_eq!(ids(&p["subscription"]["unlockedVideoIds"]), ids(&o.unlocks["unlockedVideoIds"]), "{who}: videos");
    assert_eq!(videos(&p["subscription"]["unlockedVideos"]), videos(&o.unlocks["unlockedVideos"]), "{who}");
    assert_eq!(videos(&p["userSubscriptionsState"]["unlockedVideos"]), videos(&o.unlocks["unlockedVideos"]), "{who}");
    assert_eq!(
        instant(&p["iterate"]["lastChannelPackUnlockDate"]),
        instant(&o.unlocks["lastChannelPackUnlockDate"]),
        "{who}: lastChannelPackUnlockDate"
    );
    assert_eq!(
        p["customerSurvey"]["hasUnlockedChannelPackInLastTwoWeeks"], o.unlocks["hasUnlockedChannelPackInLastTwoWeeks"],
        "{who}: recent unlock"
    );
    assert_eq!(p["downloadQuotas"], o.quotas["site"], "{who}: downloadQuotas");
    // Subscription: state, access, types, lengths (a tandem child's are the parent's).
    let s = &o.subscription;
    for field in
        ["siteAccessArray", "tenantsSubscriptionState", "hasActiveMultisiteSubscription", "multisiteType", "billerName"]
    {
        assert_eq!(p[field], s[field], "{who}: {field}");
    }
    assert_eq!(p["isFreeLimitedTrial"], s["isFreeLimitedTrial"], "{who}: isFreeLimitedTrial");
    for field in ["type", "subscriptionType", "active", "isActive", "cancelled", "biller", "pornPortal", "seniority"] {
        assert_eq!(p["subscription"][field], s["subscription"][field], "{who}: subscription.{field}");
    }
    assert_eq!(p["subscription"]["isFreeLimitedTrial"], s["subscription"]["isFreeLimitedTrial"], "{who}");
    assert_eq!(p["subscription"]["upgradeOptions"], s["subscription"]["upgradeOptions"], "{who}: upgradeOptions");
    for field in ["activeSince", "joinDate"] {
        assert_eq!(instant(&p["subscription"][field]), instant(&s["subscription"][field]), "{who}: {field}");
    }
    assert_eq!(instant(&p["activeSince"]), instant(&s["subscription"]["activeSince"]), "{who}: activeSince");
    assert_eq!(
        p["userSubscriptionsState"]["subscriptionsStatus"], s["subscriptionsStatus"],
        "{who}: subscriptionsStatus"
    );
    assert_eq!(p["iterate"]["siteType"], s["siteType"], "{who}: siteType");
    assert_eq!(p["iterate"]["subscriptionType"], s["subscription"]["subscriptionType"], "{who}");
    assert_eq!(p["iterate"]["subscriptionActive"], s["subscription"]["isActive"], "{who}");
    assert_eq!(p["iterate"]["tenantsSubscriptionState"], s["tenantsSubscriptionState"], "{who}");
    assert_eq!(p["iterate"]["hasActiveMultisiteSubscription"], s["hasActiveMultisiteSubscription"], "{who}");
    for (record, field) in [
        ("iterate", "subscriptionLengthInMonths"),
        ("iterate", "subscriptionLengthInDays"),
        ("customerSurvey", "subscriptionLengthInMonths"),
        ("customerSurvey", "subscriptionLengthInDays"),
    ] {
        assert_eq!(p[record][field], s[field], "{who}: {record}.{field}");
    }
}

/// The profile through the gateway and the owners' answers, read back to back; a read that
/// straddles a moment the owners' answers turn on (a day boundary of the gems calendar) is
/// read again.
async fn check(stack: &Stack, who: &str, user: Uuid) {
    let token = stack.token(user, HOST, &[]);
    let p = profile(stack, &token).await;
    assert_eq!(p["userId"], user.to_string(), "{who}");
    let o = owners(stack, user, &token).await;
    if p["daysUntilRefreshGems"] != o.wallet["daysUntilRefreshGems"] {
        let p = profile(stack, &token).await;
        return holds(who, &p, &owners(stack, user, &token).await);
    }
    holds(who, &p, &o);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_demo_users_derived_fields_are_their_owners_answers() {
    let stack = stack().await;
    stack.seed_demo_users().await;
    for user in profile::DEMO_USERS {
        check(&stack, user.username, profile::demo_user_id(user.username)).await;
    }
    // The cases the issue names, as the owners answer them.
    let token = stack.token(profile::demo_user_id("cancelled"), HOST, &[]);
    let p = profile(&stack, &token).await;
    assert_eq!((&p["subscription"]["active"], &p["subscription"]["cancelled"]), (&json!(true), &json!(true)));
    assert_eq!(p["subscription"]["biller"], "RGNATIVE");
    let child = profile(&stack, &stack.token(profile::demo_user_id("tandemchild"), HOST, &[])).await;
    assert_eq!(child["siteAccessArray"], json!(["vixen"]), "a tandem child reads the parent's membership");
    assert_eq!(child["tenantsSubscriptionState"]["channels"], "none");
    // The wallet's calendar, not a Friday in UTC.
    let now = Utc::now();
    assert_eq!(p["daysUntilRefreshGems"], json!(calendar().days_until_refresh_gems(now)));
    stack.cleanup().await;
}

/// A small, seeded pseudo-random sequence (xorshift), so a failing run can be replayed.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, sides: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % sides
    }
}

#[derive(Clone, Copy, Debug)]
enum Step {
    Join(MembershipKind),
    Cancel,
    Expire,
    UnlockPack,
    UnlockVideo,
    Download,
    AcknowledgeGems,
    BuyCredits,
}

const UNLOCK_PACK: &str = "mutation($id: ID!) { unlockChannelPack(channelPackId: $id) { status unlockedAt } }";
const UNLOCK_VIDEO: &str = "mutation($input: UnlockVideoInput!) { UnlockVideo(input: $input) { status } }";
const DOWNLOAD: &str = "mutation($id: ID!, $size: String!) { downloadVideo(videoId: $id, size: $size) { downloadId } }";
const ACKNOWLEDGE: &str = "mutation { acknowledgeNewGemsBalance { lastAcknowledgementDate } }";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn along_a_generated_sequence_of_events_the_derived_fields_stay_their_owners_answers() {
    let stack = stack().await;
    let seed = std::env::var("PROFILE_FACTS_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_f00d_u64);
    println!("PROFILE_FACTS_SEED={seed}");
    let mut dice = Dice(seed);
    // Content: three packs of a vixen channel, each with a video, and two plain vixen videos.
    let channel = Uuid::now_v7();
    let mut events = vec![CatalogEvent::ChannelPublished {
        channel_id: channel,
        slug: "a-channel".into(),
        name: "A channel".into(),
        kind: ChannelKind::Internal,
        category: None,
        sites: vec!["vixen".into()],
        published_at: Utc::now(),
    }];
    let packs: Vec<Uuid> = (0..3).map(|_| Uuid::now_v7()).collect();
    for pack in &packs {
        let v = content::video_on("channels", Some((*pack, channel)));
        events.push(CatalogEvent::VideoPublished { video: v.clone(), published_at: Utc::now() });
        events.push(CatalogEvent::ChannelPackPublished {
            channel_pack_id: *pack,
            channel_id: channel,
            slug: format!("pack-{}", pack.simple()),
            name: "A pack".into(),
            video_ids: vec![v.video_id],
            published_at: Utc::now(),
        });
    }
    let plain: Vec<Video> = (0..2).map(|_| content::video_on("vixen", None)).collect();
    for v in &plain {
        events.push(CatalogEvent::VideoPublished { video: v.clone(), published_at: Utc::now() });
    }
    stack.publish(&events).await;

    let users: Vec<Uuid> = (0..3).map(|_| Uuid::now_v7()).collect();
    let mut subscriptions: Vec<Option<Uuid>> = vec![None; users.len()];
    for user in &users {
        stack.account(*user, "vixen").await;
        check(&stack, "a new account", *user).await;
    }
    let kinds = [MembershipKind::Member, MembershipKind::Trial, MembershipKind::PornPortal];
    // Each user joins first (a member, a pay-per-video user, a trial), then anything happens.
    let opening = [
        (0, Step::Join(MembershipKind::Member)),
        (0, Step::Download),
        (1, Step::Join(MembershipKind::PornPortal)),
        (1, Step::BuyCredits),
        (2, Step::Join(MembershipKind::Trial)),
    ];
    for n in 0..40 {
        let (i, step) = match opening.get(n) {
            Some(opening) => *opening,
            None => {
                let i = dice.roll(users.len() as u64) as usize;
                let step = match dice.roll(12) {
                    0 => Step::Join(kinds[dice.roll(3) as usize]),
                    1 => Step::Cancel,
                    2 => Step::Expire,
                    3..=5 => Step::UnlockPack,
                    6 | 7 => Step::UnlockVideo,
                    8 | 9 => Step::Download,
                    10 => Step::AcknowledgeGems,
                    _ => Step::BuyCredits,
                };
                (i, step)
            }
        };
        let user = users[i];
        let token = stack.token(user, HOST, &[]);
        let ask = |query: &'static str, variables: Value| {
            let token = token.clone();
            let stack = &stack;
            async move { stack.gw.post(HOST, json!({ "query": query, "variables": variables }), Some(&token)).await.1 }
        };
        match step {
            Step::Join(kind) => {
                let subscription_id = Uuid::now_v7();
                let days = dice.roll(400) as i64;
                stack
                    .subscription_event(&SubscriptionEvent::SubscriptionStarted {
                        subscription_id,
                        user_id: user,
                        site: "vixen".into(),
                        sites: vec!["vixen".into()],
                        kind,
                        is_free_limited_trial: false,
                        biller: if dice.roll(2) == 0 { "RGNATIVE" } else { "EPOCH" }.into(),
                        transaction_id: format!("GEN-{subscription_id}"),
                        active_since: Utc::now() - Duration::days(days),
                        nats_code: None,
                    })
                    .await;
                subscriptions[i] = Some(subscription_id);
            }
            Step::Cancel | Step::Expire => {
                let Some(subscription_id) = subscriptions[i] else {
                    println!("step {n}: user {i} has nothing to end");
                    continue;
                };
                let event = if matches!(step, Step::Cancel) {
                    SubscriptionEvent::SubscriptionCancelled {
                        subscription_id,
                        user_id: user,
                        transaction_id: format!("GEN-{}", Uuid::now_v7()),
                        cancelled_at: Utc::now(),
                    }
                } else {
                    SubscriptionEvent::SubscriptionExpired { subscription_id, user_id: user, expired_at: Utc::now() }
                };
                stack.subscription_event(&event).await;
            }
            Step::UnlockPack => {
                stack.fund_gems(user, 10).await;
                let pack = packs[dice.roll(packs.len() as u64) as usize];
                // Unlocked some days ago (the unlocks service's clock): 14 exactly, or less, or more.
                let days = [14, 13, 15, 0][dice.roll(4) as usize];
                let at = Utc::now() - Duration::days(days);
                *stack.unlocks_clock.lock().unwrap() = Some(at);
                let body = ask(UNLOCK_PACK, json!({ "id": pack })).await;
                *stack.unlocks_clock.lock().unwrap() = None;
                println!("step {n}: user {i} unlocks a pack {days} days ago: {}", short(&body));
            }
            Step::UnlockVideo => {
                let v = &plain[dice.roll(plain.len() as u64) as usize];
                let input = json!({ "input": { "videoId": v.video_id, "videoNewId": v.new_id } });
                let body = ask(UNLOCK_VIDEO, input).await;
                println!("step {n}: user {i} unlocks a video: {}", short(&body));
            }
            Step::Download => {
                let v = &plain[dice.roll(plain.len() as u64) as usize];
                let body = ask(DOWNLOAD, json!({ "id": v.video_id, "size": "p1080" })).await;
                println!("step {n}: user {i} downloads: {}", short(&body));
            }
            Step::AcknowledgeGems => {
                let body = ask(ACKNOWLEDGE, json!({})).await;
                assert!(codes(&body).is_empty(), "{}", short(&body));
            }
            Step::BuyCredits => stack.fund_credits(user, 1 + dice.roll(3)).await,
        }
        println!("step {n}: user {i} {step:?}");
        for (j, user) in users.iter().enumerate() {
            check(&stack, &format!("step {n} ({step:?}), user {j}"), *user).await;
        }
    }

    // A pack unlocked exactly 14 days before the owner reads is recent (its rule: <= 14 days).
    let user = users[0];
    stack
        .subscription_event(&SubscriptionEvent::SubscriptionStarted {
            subscription_id: Uuid::now_v7(),
            user_id: user,
            site: "vixen".into(),
            sites: vec!["vixen".into()],
            kind: MembershipKind::Member,
            is_free_limited_trial: false,
            biller: "EPOCH".into(),
            transaction_id: format!("GEN-{}", Uuid::now_v7()),
            active_since: Utc::now() - Duration::days(100),
            nats_code: None,
        })
        .await;
    let token = stack.token(user, HOST, &[]);
    let fresh_pack = Uuid::now_v7();
    let v = content::video_on("channels", Some((fresh_pack, channel)));
    stack
        .publish(&[
            CatalogEvent::VideoPublished { video: v.clone(), published_at: Utc::now() },
            CatalogEvent::ChannelPackPublished {
                channel_pack_id: fresh_pack,
                channel_id: channel,
                slug: format!("pack-{}", fresh_pack.simple()),
                name: "A pack".into(),
                video_ids: vec![v.video_id],
                published_at: Utc::now(),
            },
        ])
        .await;
    stack.fund_gems(user, 10).await;
    let unlocked_at = chrono::SubsecRound::trunc_subsecs(Utc::now() - Duration::days(30), 6);
    *stack.unlocks_clock.lock().unwrap() = Some(unlocked_at);
    let (_, body) =
        stack.gw.post(HOST, json!({ "query": UNLOCK_PACK, "variables": { "id": fresh_pack } }), Some(&token)).await;
    assert_eq!(body["data"]["unlockChannelPack"]["status"], "success", "{}", short(&body));
    *stack.unlocks_clock.lock().unwrap() = Some(unlocked_at + Duration::days(14));
    let p = profile(&stack, &token).await;
    let o = owners(&stack, user, &token).await;
    holds("exactly 14 days after the last unlock", &p, &o);
    assert_eq!(instant(&p["iterate"]["lastChannelPackUnlockDate"]), Some(unlocked_at));
    assert_eq!(p["customerSurvey"]["hasUnlockedChannelPackInLastTwoWeeks"], true, "14 days is recent");
    *stack.unlocks_clock.lock().unwrap() = Some(unlocked_at + Duration::days(14) + Duration::milliseconds(1));
    let p = profile(&stack, &token).await;
    assert_eq!(p["customerSurvey"]["hasUnlockedChannelPackInLastTwoWeeks"], false, "a moment later it is not");
    *stack.unlocks_clock.lock().unwrap() = None;
    stack.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_request_asks_each_owner_once_for_the_profile_and_the_abilities() {
    let stack = stack().await;
    let user = Uuid::now_v7();
    stack.member(user, &["vixen"], MembershipKind::Member, false).await;
    let token = stack.token(user, HOST, &[]);
    stack.take_profile_calls();
    let query = "{ findOneUserProfile { userId } user { isAuthenticated abilities { action subject } } \
                 again: findOneUserProfile { email } }";
    let (_, body) = stack.gw.post(HOST, json!({ "query": query }), Some(&token)).await;
    assert!(codes(&body).is_empty(), "{}", short(&body));
    assert_eq!(body["data"]["user"]["isAuthenticated"], true);
    let calls = stack.take_profile_calls();
    assert_eq!(calls, ["GET /internal/profile"], "the profile service is asked once per request");
    stack.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn graphql_reads_and_changes_only_the_signed_in_users_profile() {
    let stack = stack().await;
    let (jane, john) = (Uuid::now_v7(), Uuid::now_v7());
    stack.account(jane, "vixen").await;
    stack.account(john, "vixen").await;
    let username = format!("u{}", &jane.simple().to_string()[20..]);
    let cookies = stack.sign_in(&username, "Secret12345", HOST).await;
    let access = cookies[0].strip_prefix("paysite_at=").unwrap().to_owned();
    let read = "{ findOneUserProfile { userId username autoplayEnabled subscription { type isActive } \
                tenantsSubscriptionState state { modals { gemsIntro } } } }";
    let graphql = |token: Option<String>, query: &'static str| {
        let stack = &stack;
        async move { stack.gw.post(HOST, json!({ "query": query }), token.as_deref()).await.1 }
    };
    let answer = graphql(Some(access.clone()), read).await;
    let p = &answer["data"]["findOneUserProfile"];
    assert_eq!(p["userId"], jane.to_string(), "{answer}");
    assert_eq!(
        (p["username"].as_str(), p["subscription"]["type"].as_str()),
        (Some(username.as_str()), Some("porn-portal"))
    );
    assert_eq!(p["tenantsSubscriptionState"]["vixen"], "none");
    let changed = graphql(
        Some(access.clone()),
        r#"mutation { setDisplayName(displayName: "Jane") { displayName subscription { type } } }"#,
    )
    .await;
    assert_eq!(changed["data"]["setDisplayName"]["displayName"], "Jane", "{changed}");
    assert_eq!(changed["data"]["setDisplayName"]["subscription"]["type"], "porn-portal", "{changed}");
    let refused = graphql(Some(access), r#"mutation { chooseUsername(username: "other") { username } }"#).await;
    assert_eq!(refused["errors"][0]["extensions"]["code"], "USERNAME_PERMANENT", "{refused}");
    let anonymous = graphql(None, read).await;
    assert_eq!(anonymous["errors"][0]["extensions"]["code"], "UNAUTHENTICATED", "{anonymous}");
    stack.cleanup().await;
}

/// The inline session of a page: the JSON in `<script id="paysite-bootstrap">`.
fn bootstrap_of(html: &str) -> Value {
    let open = r#"<script id="paysite-bootstrap" type="application/json">"#;
    let start = html.find(open).expect("the page carries the session") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_page_and_the_user_query_carry_the_signed_in_users_abilities() {
    let stack = stack().await;
    let jane = Uuid::now_v7();
    stack.member(jane, &["vixen"], MembershipKind::Member, false).await;
    let token = stack.token(jane, HOST, &[]);
    let features = stack.gw.state.sites().resolve("vixen.localhost").unwrap().tenant.features.clone();

    // What the access rules say for jane's profile as the gateway puts it together.
    let (_, whole) = stack.gw.post(HOST, json!({ "query": "{ findOneUserProfile { userId email groups siteAccessArray tenantsSubscriptionState hasActiveMultisiteSubscription isFreeLimitedTrial unlockedChannelPackIds tandemSubscription { hasTandemChildAccount isTandemChildAccount } subscription { type active cancelled biller payPerVideoCredits unlockedVideoIds isFreeLimitedTrial isGuestUser } userSubscriptionsState { subscriptionsStatus { isActive isTandemChildAccount tenant type } } state { modals { gemsIntro teaserViewed texasHealthWarningAcknowledged alabamaHealthWarningAcknowledged } } } }" }), Some(&token)).await;
    let profile = &whole["data"]["findOneUserProfile"];
    let facts: access::ProfileFacts = serde_json::from_value(profile.clone()).unwrap();
    let member = access::abilities(&access::UserFacts::signed_in("vixen", facts), &features);
    let visitor = access::abilities(&access::UserFacts::anonymous("vixen"), &features);
    assert_ne!(member, visitor);
    assert!(access::evaluate(&member, "play", "Video", None), "an active vixen member plays videos");

    // The page: signed in, jane's routing view and abilities.
    let page = stack
        .gw
        .client
        .get(format!("{}/videos", stack.gw.base))
        .header(reqwest::header::HOST, HOST)
        .header(reqwest::header::COOKIE, format!("paysite_at={token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let session = bootstrap_of(&page.text().await.unwrap());
    let user = &session["user"];
    assert_eq!(user["isAuthenticated"], true);
    assert_eq!(user["abilities"], serde_json::to_value(&member).unwrap());
    assert_eq!(user["profile"]["email"], profile["email"]);
    assert_eq!(
        (user["profile"]["subscriptionKind"].as_str(), user["profile"]["isActive"].as_bool()),
        (Some("member"), Some(true))
    );
    assert_eq!(user["profile"]["isSubscribed"], true);
    let anonymous = stack
        .gw
        .client
        .get(format!("{}/videos", stack.gw.base))
        .header(reqwest::header::HOST, HOST)
        .send()
        .await
        .unwrap();
    let session = bootstrap_of(&anonymous.text().await.unwrap());
    assert_eq!(session["user"]["isAuthenticated"], false);
    assert_eq!(session["user"]["abilities"], serde_json::to_value(&visitor).unwrap());

    // The `user` query answers the same rules in GraphQL's shape.
    let query = "{ user { isAuthenticated abilities { action subject conditions inverted reason } } }";
    let (_, answer) = stack.gw.post(HOST, json!({ "query": query }), Some(&token)).await;
    assert_eq!(answer["data"]["user"]["isAuthenticated"], true, "{answer}");
    let as_graphql = |rules: &[access::Rule]| -> Value {
        rules
            .iter()
            .map(|r| {
                json!({
                    "action": r.action, "subject": r.subject,
                    "conditions": r.conditions.as_ref().map(|c| serde_json::to_value(c).unwrap()),
                    "inverted": r.inverted, "reason": r.reason,
                })
            })
            .collect()
    };
    assert_eq!(answer["data"]["user"]["abilities"], as_graphql(&member));
    let (_, answer) = stack.gw.post(HOST, json!({ "query": query }), None).await;
    assert_eq!(answer["data"]["user"]["isAuthenticated"], false, "{answer}");
    assert_eq!(answer["data"]["user"]["abilities"], as_graphql(&visitor));
    stack.cleanup().await;
}
