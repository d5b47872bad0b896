//! `paysite publish` with `PAYSITE_ENV=production`, as an operator runs it in the catalog's pod:
//! on a schema the migration Job has migrated, with only the database (no broker, no service
//! key), the example content is published, publishing it again writes nothing, and a refused
//! or unreadable file exits non-zero, saying why, with nothing of it written. On a schema the
//! Job has not migrated it is refused and migrates nothing itself.
//!
//! Each child gets an empty environment plus what the test gives it, as a pod gets only what
//! its manifest says.

use std::{
    io::Write,
    process::{Command, Output, Stdio},
};

use runtime::testing::ScratchVhost;
use support::{database_url, fresh_database, service_roles};

mod support;

const EXAMPLE: &str = "deploy/content/example.json";
const VIDEO: &str = "f27a923c-c1d5-4bc8-9278-e1e64eff9b04";

/// `paysite <args>` with only `env` (and PATH) in its environment, from the repository root,
/// `stdin` on its standard input.
fn run(args: &[&str], env: &[(&str, &str)], stdin: Option<&[u8]>) -> (Output, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_paysite"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("RUST_LOG", "warn")
        .envs(env.iter().copied())
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    assert!(!stderr.contains("panicked"), "paysite {args:?} panicked:\n{stderr}");
    (out, stdout, stderr)
}

fn succeeds(args: &[&str], env: &[(&str, &str)], stdin: Option<&[u8]>) -> String {
    let (out, stdout, stderr) = run(args, env, stdin);
    assert!(out.status.success(), "paysite {args:?} failed:\n{stdout}\n{stderr}");
    stdout
}

/// The error of a refused command: it exits non-zero, saying why, without a panic.
fn refused(args: &[&str], env: &[(&str, &str)]) -> String {
    let (out, stdout, stderr) = run(args, env, None);
    assert!(!out.status.success(), "paysite {args:?} was expected to be refused:\n{stdout}\n{stderr}");
    stderr
}

/// The catalog's events, as (type, actor), in order.
async fn events(db: &str) -> Vec<(String, String)> {
    let pool = sqlx::PgPool::connect(db).await.unwrap();
    let rows = sqlx::query_as("select event_type, actor from catalog.event order by global_position")
        .fetch_all(&pool)
        .await
        .unwrap();
    pool.close().await;
    rows
}

/// A file of the test's own holding `text`.
fn file(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_owned()
}

#[tokio::test]
async fn an_operator_publishes_content_in_production_once_and_a_bad_file_writes_nothing() {
    let name = "paysite_test_publish";
    fresh_database(name).await;
    let db = database_url(name);
    // The release's migration Job first, as in production: connected as the database's owner,
    // it migrates each service's schema as that service's own role.
    let vhost = ScratchVhost::new();
    let roles = service_roles(name).await;
    let mut job: Vec<(&str, &str)> =
        vec![("PAYSITE_ENV", "production"), ("DATABASE_URL", &db), ("AMQP_URL", &vhost.url)];
    job.extend(roles.iter().map(|(variable, url)| (variable.as_str(), url.as_str())));
    succeeds(&["migrate"], &job, None);

    // The operator's command, in the catalog's pod: its DATABASE_URL is the catalog's role, and
    // it needs the brands, nothing else (no broker, no service key).
    let catalog = &roles.iter().find(|(variable, _)| variable == "DATABASE_URL_CATALOG").unwrap().1;
    let operator: &[(&str, &str)] =
        &[("PAYSITE_ENV", "production"), ("DATABASE_URL", catalog), ("PAYSITE_TENANTS_DIR", "config/tenants")];
    let out = succeeds(&["publish", EXAMPLE], operator, None);
    assert!(out.contains("published 4 events (0 unchanged)"), "{out}");
    for quality in ["p360", "p480", "p720", "p1080"] {
        assert!(out.contains(&format!("media: videos/{VIDEO}/{quality}.mp4 for video example-scene")), "{out}");
    }
    assert!(out.contains("trailer: /media/trailers/example-scene.mp4"), "{out}");
    let written = events(&db).await;
    let types: Vec<&str> = written.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(types, ["PerformerPublished", "ChannelPublished", "VideoPublished", "ChannelPackPublished"]);
    assert!(written.iter().all(|(_, actor)| actor == "system:operator"), "{written:?}");
    let pool = sqlx::PgPool::connect(&db).await.unwrap();
    let outbox: i64 = sqlx::query_scalar("select count(*) from catalog.outbox").fetch_one(&pool).await.unwrap();
    assert_eq!(outbox, 4, "the catalog's relay publishes them once the service runs");
    let pack: (String, Vec<uuid::Uuid>) =
        sqlx::query_as("select slug, video_ids from catalog.channel_pack").fetch_one(&pool).await.unwrap();
    assert_eq!(pack, ("example-studio-volume-1".to_owned(), vec![VIDEO.parse().unwrap()]));
    pool.close().await;

    // Again, from standard input as `kubectl exec -i ... < file` gives it: nothing new.
    let example = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/content/example.json")).unwrap();
    let out = succeeds(&["publish", "-"], operator, Some(&example));
    assert!(out.contains("published 0 events (4 unchanged)"), "{out}");
    assert_eq!(events(&db).await.len(), 4);

    // A refused item: the file's new performer before it is not written either.
    let dir = std::env::temp_dir().join(format!("paysite-publish-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut content: Vec<serde_json::Value> = serde_json::from_slice(&example).unwrap();
    let mut performer = content[0].clone();
    performer["payload"]["performer_id"] = "0b1ac0e6-6f0e-4f55-9d1c-0d6e2c7b7a01".into();
    performer["payload"]["slug"] = "another-example".into();
    let mut video = content[2].clone();
    video["payload"]["video"]["title"] = "  ".into();
    content = vec![performer, video];
    let untitled = file(&dir, "untitled.json", &serde_json::to_string_pretty(&content).unwrap());
    let error = refused(&["publish", &untitled], operator);
    assert!(error.contains(&format!("{untitled}: refused, nothing was published")), "{error}");
    assert!(error.contains(&format!("video-{VIDEO} (item 2, VideoPublished): title must not be empty")), "{error}");

    // Malformed JSON: the file and where it stops being JSON.
    let malformed = file(&dir, "malformed.json", "[\n  {\"type\": \"PerformerPublished\",\n}\n]\n");
    let error = refused(&["publish", &malformed], operator);
    assert!(error.contains(&format!("{malformed} is not a JSON array of catalog events")), "{error}");
    assert!(error.contains("line 3 column 1"), "{error}");
    // Events that are not content.
    let comment = r#"[{"type": "CommentRemoved", "payload": {"comment_id": "0b1ac0e6-6f0e-4f55-9d1c-0d6e2c7b7a02",
        "video_id": "0b1ac0e6-6f0e-4f55-9d1c-0d6e2c7b7a03", "removed_by": "0b1ac0e6-6f0e-4f55-9d1c-0d6e2c7b7a04",
        "removed_at": "2026-01-15T12:00:00Z"}}]"#;
    let error = refused(&["publish", &file(&dir, "comment.json", comment)], operator);
    assert!(error.contains("item 1 is a CommentRemoved, which is not content"), "{error}");
    let missing = dir.join("missing.json");
    let error = refused(&["publish", missing.to_str().unwrap()], operator);
    assert!(error.contains(&format!("cannot read {}", missing.display())), "{error}");
    assert_eq!(events(&db).await.len(), 4, "nothing of a refused file was written");
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn before_the_migration_job_publishing_is_refused_and_migrates_nothing() {
    let name = "paysite_test_publish_bare";
    fresh_database(name).await;
    let db = database_url(name);
    let operator: &[(&str, &str)] =
        &[("PAYSITE_ENV", "production"), ("DATABASE_URL", &db), ("PAYSITE_TENANTS_DIR", "config/tenants")];
    let error = refused(&["publish", EXAMPLE], operator);
    assert!(error.contains("run `paysite migrate`"), "{error}");
    let pool = sqlx::PgPool::connect(&db).await.unwrap();
    let schema: bool = sqlx::query_scalar("select exists (select 1 from pg_namespace where nspname = 'catalog')")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(!schema, "paysite publish never migrates");
    pool.close().await;
    let error = refused(&["publish", EXAMPLE], &[("PAYSITE_ENV", "production")]);
    assert!(error.contains("DATABASE_URL"), "{error}");
}
