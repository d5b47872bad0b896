//! Hostile GraphQL documents through the gateway's whole request path, in process, on a
//! thread with a deliberately small stack: fragment cycles of every length (directly, inside
//! fields, through inline fragments), self-spreads, deep nesting of selections and of values,
//! long fragment chains, many operations, batches and persisted documents, mixed with valid
//! selections. Every document must get an answer, data or errors that each carry a code.
//!
//! The gateway's worker threads have tokio's 2 MiB stacks. Here the router runs on a
//! current-thread runtime on a [`small_stack`] thread: a walk that recurses once per fragment
//! entered, or once per bracket written, overflows it on these documents and aborts the test
//! binary, instead of passing by luck on a big stack.

mod support;

use std::{
    net::{Ipv4Addr, SocketAddr},
    sync::{
        atomic::{AtomicU32, Ordering},
        mpsc, Arc,
    },
};

use axum::{body::Body, extract::ConnectInfo, http::Request};
use gateway::{graphql::Upstreams, GatewayConfig, GatewayState};
use proptest::prelude::*;
use serde_json::{json, Value};
use tower::ServiceExt;

/// The stack the whole request path runs on (`HOSTILE_STACK_KB` overrides it, to find the
/// headroom): half a worker thread's in a debug build, whose frames are several times a
/// release build's (an ordinary query's resolvers overflow 768 KiB there), a quarter in a
/// release build (where execution's bounded recursion, collecting 32 nested inline fragments
/// at about 13 KiB a level, overflows 384 KiB). A walk without a bound, such as one around a
/// fragment cycle, overflows any.
fn small_stack() -> usize {
    let default = if cfg!(debug_assertions) { 1024 } else { 512 };
    std::env::var("HOSTILE_STACK_KB").ok().and_then(|kb| kb.parse().ok()).unwrap_or(default) * 1024
}

/// A development gateway and a production one (no introspection, no suggestions), over the
/// repository's tenants, every service unreachable: the documents are refused, or answered,
/// before any service would be asked, and a field that asks one gets SERVICE_UNAVAILABLE.
fn states() -> Vec<(&'static str, GatewayState)> {
    let tenants = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../config/tenants");
    let config = GatewayConfig::from_lookup(|key| match key {
        "PAYSITE_TENANTS_DIR" => Some(tenants.to_str().unwrap().to_owned()),
        "PAYSITE_DIST_DIR" => Some("/nonexistent".to_owned()),
        _ => None,
    })
    .unwrap();
    let upstreams = Arc::new(Upstreams::with_base(|_, _| "http://127.0.0.1:9".to_owned()));
    let development =
        GatewayState::with(&config, upstreams.clone(), runtime::auth::Signer::generate("test").verifier()).unwrap();
    let mut production = development.clone();
    production.schema = gateway::graphql::schema(Some(upstreams), false);
    vec![("development", development), ("production", production)]
}

/// One request for the worker: the gateway to ask, the host, the JSON body; the answer's
/// status and body come back on `reply`.
struct Job {
    state: usize,
    host: &'static str,
    body: String,
    reply: mpsc::Sender<(u16, Value)>,
}

/// The small-stack thread, serving jobs one after another until the sender is dropped.
fn worker() -> mpsc::Sender<Job> {
    let (send, jobs) = mpsc::channel::<Job>();
    // Built here: building the schema is not a walk over input, and wants a big stack in a
    // debug build.
    let routers: Vec<axum::Router> = states().into_iter().map(|(_, state)| gateway::router(state)).collect();
    std::thread::Builder::new()
        .name("small-stack gateway".to_owned())
        .stack_size(small_stack())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            // Each request from its own loopback address, so that no per-address limit is met.
            let next_address = AtomicU32::new(1);
            runtime.block_on(async {
                while let Ok(job) = jobs.recv() {
                    let n = next_address.fetch_add(1, Ordering::Relaxed);
                    let peer = SocketAddr::from((Ipv4Addr::from(0x7f00_0000 | (n & 0x00ff_ffff)), 40_000));
                    let request = Request::post("/graphql")
                        .header("host", job.host)
                        .header("content-type", "application/json")
                        .header("x-paysite-csrf", "1")
                        .extension(ConnectInfo(peer))
                        .body(Body::from(job.body))
                        .unwrap();
                    // A task of its own, as the server gives each connection: its future lives on
                    // the heap, and only what polling it takes is on the small stack.
                    let router = routers[job.state].clone();
                    let answered = tokio::spawn(async move {
                        let answer = router.oneshot(request).await.unwrap();
                        let status = answer.status().as_u16();
                        let bytes = axum::body::to_bytes(answer.into_body(), 1 << 22).await.unwrap();
                        (status, serde_json::from_slice(&bytes).unwrap_or(Value::String(format!("{bytes:?}"))))
                    });
                    let _ = job.reply.send(answered.await.unwrap());
                }
            });
        })
        .unwrap();
    send
}

fn worker_handle() -> &'static mpsc::Sender<Job> {
    static WORKER: std::sync::OnceLock<mpsc::Sender<Job>> = std::sync::OnceLock::new();
    WORKER.get_or_init(worker)
}

/// Sends `body` to both gateways, on the small stack.
fn send(host: &'static str, body: &Value) -> Vec<(u16, Value)> {
    (0..2)
        .map(|state| {
            let (reply, answer) = mpsc::channel();
            let job = Job { state, host, body: body.to_string(), reply };
            worker_handle().send(job).unwrap();
            answer.recv().expect("the small-stack gateway answered (a stack overflow aborts the binary)")
        })
        .collect()
}

/// One operation's answer: data without errors, or errors that each carry a code.
fn answered(answer: &Value) -> Result<(), String> {
    match answer["errors"].as_array() {
        Some(errors) if !errors.is_empty() => {
            for error in errors {
                if error["extensions"]["code"].as_str().is_none_or(str::is_empty) {
                    return Err(format!("an error without a code: {error}"));
                }
            }
            Ok(())
        }
        _ if answer.get("data").is_some_and(|d| !d.is_null()) => Ok(()),
        _ => Err(format!("neither data nor errors: {answer}")),
    }
}

/// The whole HTTP answer: one operation's, or a batch's, each of its operations answered.
fn check_answer(status: u16, body: &Value) -> Result<(), String> {
    if status >= 500 {
        return Err(format!("HTTP {status}: {body}"));
    }
    match body {
        Value::Array(answers) => answers.iter().try_for_each(answered),
        _ => answered(body),
    }
}

fn first_code(body: &Value) -> String {
    let error = if body.is_array() { &body[0]["errors"][0] } else { &body["errors"][0] };
    error["extensions"]["code"].as_str().unwrap_or("").to_owned()
}

/// Where a spread or a whole cycle is written: at the top of its selection set, inside
/// nested fields, or inside nested inline fragments.
#[derive(Debug, Clone, Copy)]
enum Wrap {
    Top,
    Fields(usize),
    Inline(usize),
}

fn wrap(inner: &str, how: Wrap) -> String {
    match how {
        Wrap::Top => inner.to_owned(),
        Wrap::Fields(n) => format!("{}{inner}{}", "a { ".repeat(n), " }".repeat(n)),
        Wrap::Inline(n) => format!("{}{inner}{}", "... on QueryRoot { ".repeat(n), " }".repeat(n)),
    }
}

/// The hostile shapes; `valid` mixes valid selections in.
#[derive(Debug, Clone)]
enum Shape {
    /// `F0 → F1 → … → F(len-1) → F0`, each spread written as `how`.
    Cycle { len: usize, how: Wrap },
    /// `fragment A on QueryRoot { a: __typename ...A }`.
    SelfSpread { how: Wrap },
    /// Selections nested `depth` deep, as fields or inline fragments.
    Nested { depth: usize, inline: bool },
    /// `len` distinct fragments, each spreading the next.
    Chain { len: usize },
    /// An argument's value nested `depth` lists (or objects) deep, after four quotes (two
    /// empty strings, which a lexer could take for an unclosed block string) when `quoted`.
    Values { depth: usize, objects: bool, quoted: bool },
    /// `n` operations, the first one named as the one to run.
    Operations { n: usize },
    /// Nothing hostile.
    Plain,
}

fn document(shape: &Shape, valid: bool) -> (String, Option<String>) {
    let mix = if valid { "__typename tenantConfig " } else { "" };
    match shape {
        Shape::Cycle { len, how } => {
            let mut text = format!("query Hostile {{ {mix}{} }}\n", wrap("...F0", *how));
            for i in 0..*len {
                let next = wrap(&format!("...F{}", (i + 1) % len), *how);
                text.push_str(&format!("fragment F{i} on QueryRoot {{ {mix}{next} }}\n"));
            }
            (text, None)
        }
        Shape::SelfSpread { how } => {
            let text =
                format!("query {{ {mix}...A }}\nfragment A on QueryRoot {{ a: __typename {} }}", wrap("...A", *how));
            (text, None)
        }
        Shape::Nested { depth, inline } => {
            let how = if *inline { Wrap::Inline(*depth) } else { Wrap::Fields(*depth) };
            (format!("{{ {mix}{} }}", wrap("__typename", how)), None)
        }
        Shape::Chain { len } => {
            let mut text = format!("{{ {mix}...F0 }}\n");
            for i in 0..*len {
                text.push_str(&format!("fragment F{i} on QueryRoot {{ {mix}...F{} }}\n", i + 1));
            }
            text.push_str(&format!("fragment F{len} on QueryRoot {{ __typename }}\n"));
            (text, None)
        }
        Shape::Values { depth, objects, quoted } => {
            let (open, close) = if *objects { ("{a: ", "}") } else { ("[", "]") };
            let value = format!("{}\"v\"{}", open.repeat(*depth), close.repeat(*depth));
            let value = if *quoted { format!("[\"\"\"\", {value}]") } else { value };
            (format!("{{ {mix}videoAccess(videoIds: {value}) {{ videoId }} }}"), None)
        }
        Shape::Operations { n } => {
            let text: String = (0..*n).map(|i| format!("query Q{i} {{ {mix}__typename }}\n")).collect();
            (text, Some("Q0".to_owned()))
        }
        Shape::Plain => (format!("{{ {mix}__typename }}"), None),
    }
}

fn wraps() -> impl Strategy<Value = Wrap> {
    prop_oneof![Just(Wrap::Top), (1usize..40).prop_map(Wrap::Fields), (1usize..40).prop_map(Wrap::Inline)]
}

fn shapes() -> impl Strategy<Value = Shape> {
    prop_oneof![
        ((1usize..60), wraps()).prop_map(|(len, how)| Shape::Cycle { len, how }),
        wraps().prop_map(|how| Shape::SelfSpread { how }),
        ((1usize..400), any::<bool>()).prop_map(|(depth, inline)| Shape::Nested { depth, inline }),
        (1usize..400).prop_map(|len| Shape::Chain { len }),
        ((1usize..900), any::<bool>(), any::<bool>()).prop_map(|(depth, objects, quoted)| Shape::Values {
            depth,
            objects,
            quoted
        }),
        (1usize..12).prop_map(|n| Shape::Operations { n }),
        Just(Shape::Plain),
    ]
}

fn request(shape: &Shape, valid: bool) -> Value {
    let (query, operation) = document(shape, valid);
    match operation {
        Some(name) => json!({ "query": query, "operationName": name }),
        None => json!({ "query": query }),
    }
}

const HOSTS: [&str; 2] = ["vixen.localhost:8080", "members.localhost:8080"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    /// One hostile document, alone, on each gateway: answered with data or coded errors.
    #[test]
    fn every_hostile_document_gets_a_coded_answer(shape in shapes(), valid in any::<bool>(), host in 0usize..2) {
        for (status, body) in send(HOSTS[host], &request(&shape, valid)) {
            prop_assert!(check_answer(status, &body).is_ok(), "{shape:?}: {:?}", check_answer(status, &body));
        }
    }

    /// Batches mixing hostile and valid documents: each operation gets its own answer.
    #[test]
    fn every_operation_of_a_hostile_batch_gets_a_coded_answer(
        batch in proptest::collection::vec((shapes(), any::<bool>()), 1..12)
    ) {
        let body = Value::Array(batch.iter().map(|(shape, valid)| request(shape, *valid)).collect());
        for (status, answer) in send(HOSTS[0], &body) {
            prop_assert!(check_answer(status, &answer).is_ok(), "{batch:?}: {:?}", check_answer(status, &answer));
        }
    }
}

#[test]
fn every_cycle_shape_is_refused_as_a_validation_error() {
    let shapes = [
        Shape::Cycle { len: 2, how: Wrap::Top },
        Shape::Cycle { len: 1, how: Wrap::Fields(3) },
        Shape::Cycle { len: 7, how: Wrap::Inline(2) },
        Shape::SelfSpread { how: Wrap::Top },
        Shape::SelfSpread { how: Wrap::Inline(5) },
    ];
    for shape in &shapes {
        for (status, body) in send(HOSTS[0], &request(shape, true)) {
            assert_eq!(status, 200, "{shape:?}: {body}");
            assert_eq!(first_code(&body), "GRAPHQL_VALIDATION_FAILED", "{shape:?}: {body}");
            assert!(body["errors"][0]["message"].as_str().unwrap().starts_with("Cannot spread fragment"), "{body}");
        }
    }
    // The issue's document, as sent.
    let issue = json!({"query": "query { ...A } fragment A on QueryRoot { ...B } fragment B on QueryRoot { ...A }"});
    for (_, body) in send(HOSTS[1], &issue) {
        assert_eq!(body["errors"][0]["message"], "Cannot spread fragment \"A\" within itself via \"B\".");
    }
    // Inside a batch, beside an operation that is answered.
    let batch = json!([issue, {"query": "{ tenantConfig }"}]);
    for (_, body) in send(HOSTS[0], &batch) {
        assert_eq!(first_code(&body), "GRAPHQL_VALIDATION_FAILED");
        assert_eq!(body[1]["data"]["tenantConfig"]["tenant"], "vixen", "{body}");
    }
}

#[test]
fn a_chain_of_ten_thousand_fragments_is_refused_with_a_code() {
    // 10,000 fragments are 400 KB of text: the body limit refuses them unread. 1,500 are within
    // the body limit, and refused by the text checks, which run before any parser.
    let (query, _) = document(&Shape::Chain { len: 10_000 }, false);
    for (status, body) in send(HOSTS[0], &json!({ "query": query })) {
        assert_eq!((status, first_code(&body)), (413, "REQUEST_TOO_LARGE".to_owned()), "{body}");
    }
    let (query, _) = document(&Shape::Chain { len: 1_500 }, false);
    for (status, body) in send(HOSTS[0], &json!({ "query": query })) {
        assert_eq!((status, first_code(&body)), (200, "QUERY_TOO_LARGE".to_owned()), "{body}");
    }
}

#[test]
fn a_persisted_cycle_is_refused_when_registered_and_when_looked_up() {
    use sha2::Digest;
    let query = "query { ...A } fragment A on QueryRoot { a: __typename ...A }";
    let hash: String = sha2::Sha256::digest(query.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    let persisted = json!({ "persistedQuery": { "version": 1, "sha256Hash": hash } });
    for (_, body) in send(HOSTS[0], &json!({ "query": query, "extensions": persisted })) {
        assert_eq!(first_code(&body), "GRAPHQL_VALIDATION_FAILED", "{body}");
    }
    // The persisted-query extension keeps what it registered, before the checks refuse it: by
    // its hash alone it is found, and refused again.
    for (_, body) in send(HOSTS[0], &json!({ "extensions": persisted })) {
        assert_eq!(first_code(&body), "GRAPHQL_VALIDATION_FAILED", "{body}");
    }
    // A document remembered as passed, sent again, is still answered; the cycle beside it is not.
    for _ in 0..2 {
        for (_, body) in send(HOSTS[0], &json!({ "query": "{ tenantConfig }" })) {
            assert_eq!(body["data"]["tenantConfig"]["tenant"], "vixen", "{body}");
        }
        for (_, body) in send(HOSTS[0], &json!({ "query": query })) {
            assert_eq!(first_code(&body), "GRAPHQL_VALIDATION_FAILED", "{body}");
        }
    }
}

#[test]
fn a_persisted_document_is_answered_when_registered_and_when_looked_up() {
    use sha2::Digest;
    let query = "query Persisted { tenantConfig }";
    let hash: String = sha2::Sha256::digest(query.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    let persisted = json!({ "persistedQuery": { "version": 1, "sha256Hash": hash } });
    for body in [json!({ "query": query, "extensions": persisted }), json!({ "extensions": persisted })] {
        for (_, answer) in send(HOSTS[0], &body) {
            assert_eq!(answer["data"]["tenantConfig"]["tenant"], "vixen", "{body}: {answer}");
        }
    }
    let unknown = json!({ "persistedQuery": { "version": 1, "sha256Hash": "0".repeat(64) } });
    for (_, answer) in send(HOSTS[0], &json!({ "extensions": unknown })) {
        assert_eq!(first_code(&answer), "PERSISTED_QUERY_NOT_FOUND", "{answer}");
    }
}

#[test]
fn deeply_nested_variables_are_refused_with_a_code() {
    let mut deep = json!("v");
    for _ in 0..200 {
        deep = json!([deep]);
    }
    // serde_json stops at 128 levels; anything the engine reads is shallower than that.
    let body = json!({ "query": "query V($ids: [ID!]!) { videoAccess(videoIds: $ids) { videoId } }", "variables": { "ids": deep } });
    for (status, answer) in send(HOSTS[0], &body) {
        assert_eq!(status, 400, "{answer}");
        assert_eq!(first_code(&answer), "BAD_REQUEST", "{answer}");
    }
}
