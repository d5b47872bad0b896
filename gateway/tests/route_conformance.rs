//! config/routes-conformance.json against the real gateway: every case's status and Location
//! (redirects never followed), as a visitor or as a real signed-in user of each kind, on a brand
//! host or the members host, over the real catalog (demo content), profile, unlocks and wallet.
//! The browser's loaders run the same file (frontend `routing/conformance.test.ts`), so the edge
//! and the browser answer alike. The routing abilities each kind of user has on each brand are
//! listed in the file for the browser's runner; this test checks them against the page's own
//! session (`UPDATE_CONFORMANCE=1` rewrites them).

mod support;

use std::{
    collections::{BTreeMap, BTreeSet},
    path::PathBuf,
};

use proto_events::subscription::MembershipKind;
use reqwest::{header, redirect::Policy};
use serde_json::Value;
use support::stack::{Options, Stack};
use uuid::Uuid;

fn conformance_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../config/routes-conformance.json")
}

fn host(case: &Value) -> String {
    match case["host"].as_str() {
        Some("members") => "members.localhost:8080".to_owned(),
        _ => format!("{}.localhost:8080", case["brand"].as_str().unwrap()),
    }
}

/// The session the page carries in `<script id="paysite-bootstrap" type="application/json">`.
fn bootstrap(html: &str) -> Option<Value> {
    let open = "<script id=\"paysite-bootstrap\" type=\"application/json\">";
    let start = html.find(open)? + open.len();
    let end = start + html[start..].find("</script>")?;
    serde_json::from_str(&html[start..end]).ok()
}

/// The (action, subject) abilities config/routes.json names.
fn routing_abilities() -> BTreeSet<(String, String)> {
    let table: Value =
        serde_json::from_str(include_str!("../../config/routes.json")).expect("config/routes.json is JSON");
    let mut found = BTreeSet::new();
    for row in table["routes"].as_array().unwrap() {
        for step in row["steps"].as_array().unwrap() {
            for pair in step["ability"].as_array().into_iter().flatten() {
                found.insert((pair[0].as_str().unwrap().to_owned(), pair[1].as_str().unwrap().to_owned()));
            }
        }
    }
    found
}

/// CASL's can(action, subject type) over the page's rule list (frontend `canOnType`).
fn can(rules: &[Value], action: &str, subject: &str) -> bool {
    let names = |v: &Value| -> Vec<String> {
        match v {
            Value::String(s) => vec![s.clone()],
            Value::Array(items) => items.iter().filter_map(|i| i.as_str().map(str::to_owned)).collect(),
            _ => Vec::new(),
        }
    };
    for rule in rules.iter().rev() {
        if !names(&rule["action"]).iter().any(|a| a == action || a == "manage") {
            continue;
        }
        if !names(&rule["subject"]).iter().any(|s| s == subject || s == "all") {
            continue;
        }
        let inverted = rule["inverted"].as_bool().unwrap_or(false);
        if inverted && (!rule["conditions"].is_null() || !rule["fields"].is_null()) {
            continue;
        }
        return !inverted;
    }
    false
}

/// The first answer, or a well-formed slug of nothing when the brand has none (a brand without
/// channels still has cases on its channel routes: not-found before any lookup).
async fn one(stack: &Stack, sql: &str, brand: &str) -> String {
    let found: Option<String> = sqlx::query_scalar(sql)
        .bind(brand)
        .fetch_optional(&stack.catalog.pool)
        .await
        .unwrap_or_else(|e| panic!("{brand}: {sql}: {e}"));
    found.unwrap_or_else(|| "nothing-here".to_owned())
}

/// The brand's demo content the placeholders name.
async fn placeholders(stack: &Stack, brand: &str) -> BTreeMap<&'static str, String> {
    let video = one(
        stack,
        "select slug from video where site = $1 and published and channel_id is null order by slug limit 1",
        brand,
    )
    .await;
    let performer = one(stack, "select slug from performer where $1 = any(sites) order by slug limit 1", brand).await;
    let channel = one(
        stack,
        "select c.slug from channel c where $1 = any(c.sites) and exists (select 1 from channel_pack p where \
         p.channel_id = c.channel_id) and exists (select 1 from video v where v.channel_id = c.channel_id and \
         v.published) order by c.slug limit 1",
        brand,
    )
    .await;
    let pack = one(
        stack,
        "select p.slug from channel_pack p join channel c using (channel_id) where c.slug = $1 order by p.slug limit 1",
        &channel,
    )
    .await;
    let channel_video = one(
        stack,
        "select v.slug from video v join channel c using (channel_id) where c.slug = $1 and v.published \
         order by v.slug limit 1",
        &channel,
    )
    .await;
    BTreeMap::from([
        ("{video}", video),
        ("{performer}", performer),
        ("{channel}", channel),
        ("{pack}", pack),
        ("{channelVideo}", channel_video),
    ])
}

fn fill(text: &str, values: &BTreeMap<&'static str, String>) -> String {
    values.iter().fold(text.to_owned(), |text, (name, value)| text.replace(name, value))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_edge_answers_every_case_of_the_conformance_file() {
    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(conformance_path()).unwrap()).unwrap();
    let stack = Stack::start(Options { seed_catalog: true, serve_page: true, ..Default::default() }).await;
    let client = runtime::tls::client_builder().redirect(Policy::none()).build().unwrap();

    // One real user per kind: an account, and a subscription to every brand the cases visit.
    let brands: BTreeSet<String> =
        file["cases"].as_array().unwrap().iter().map(|c| c["brand"].as_str().unwrap().to_owned()).collect();
    let brand_list: Vec<&str> = brands.iter().map(String::as_str).collect();
    let mut users: BTreeMap<String, Option<Uuid>> = BTreeMap::new();
    for (kind, user) in file["users"].as_object().unwrap() {
        if user["signedIn"] != true {
            users.insert(kind.clone(), None);
            continue;
        }
        let id = Uuid::now_v7();
        match user["membership"].as_str() {
            Some("member") => stack.member(id, &brand_list, MembershipKind::Member, false).await,
            Some("trial") => stack.member(id, &brand_list, MembershipKind::Trial, false).await,
            Some(other) => panic!("unknown membership {other}"),
            None => stack.account(id, brand_list[0]).await,
        }
        users.insert(kind.clone(), Some(id));
    }

    let mut content = BTreeMap::new();
    for brand in &brands {
        if file["cases"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["brand"] == **brand && c["path"].as_str().unwrap().contains('{'))
        {
            content.insert(brand.clone(), placeholders(&stack, brand).await);
        }
    }

    let routing = routing_abilities();
    let mut observed: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    let mut failures = Vec::new();
    for case in file["cases"].as_array().unwrap() {
        let brand = case["brand"].as_str().unwrap();
        let kind = case["user"].as_str().unwrap();
        let none = BTreeMap::new();
        let values = content.get(brand).unwrap_or(&none);
        let path = fill(case["path"].as_str().unwrap(), values);
        let host = host(case);
        let mut request = client.get(format!("{}{path}", stack.gw.base)).header(header::HOST, &host);
        if let Some(id) = users[kind] {
            request = request.header(header::COOKIE, format!("paysite_at={}", stack.token(id, &host, &[])));
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let location = response.headers().get(header::LOCATION).map(|l| l.to_str().unwrap().to_owned());
        let expected_location = case["location"].as_str().map(|l| fill(l, values));
        if u64::from(status) != case["status"].as_u64().unwrap() || location != expected_location {
            failures.push(format!(
                "{kind} on {host}{path}: {status} {location:?}, expected {} {expected_location:?}",
                case["status"]
            ));
        }
        if let Some(session) = response.text().await.ok().as_deref().and_then(bootstrap) {
            let rules = session["user"]["abilities"].as_array().cloned().unwrap_or_default();
            let granted = routing
                .iter()
                .filter(|(action, subject)| can(&rules, action, subject))
                .map(|(action, subject)| format!("{action} {subject}"))
                .collect();
            observed.entry(kind.to_owned()).or_default().insert(brand.to_owned(), granted);
        }
    }

    // The routing abilities the browser's runner gives each kind of user are the gateway's.
    let update = std::env::var_os("UPDATE_CONFORMANCE").is_some();
    for (kind, by_brand) in &observed {
        let listed = &mut file["users"][kind]["abilities"];
        for (brand, granted) in by_brand {
            let want = serde_json::to_value(granted).unwrap();
            if update {
                listed[brand] = want;
            } else if listed[brand] != want {
                failures.push(format!("{kind} on {brand}: the page grants {want}, the file lists {}", listed[brand]));
            }
        }
    }
    if update {
        let mut text = serde_json::to_string_pretty(&file).unwrap();
        text.push('\n');
        std::fs::write(conformance_path(), text).unwrap();
    }
    stack.cleanup().await;
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        file["cases"].as_array().unwrap().len(),
        failures.join("\n")
    );
}
