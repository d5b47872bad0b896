//! `paysite publish <FILE|->`: an operator puts content into the catalogue, in production too,
//! where there is neither demo data nor an admin user to call the admin route with.
//!
//! The file is what `POST /internal/admin/content` takes, a JSON array of catalog events
//! (PerformerPublished, ChannelPublished, VideoPublished, ChannelPackPublished, ...), and it
//! goes through the same `commands::publish_all`, so it is validated as the route and the seed
//! are, and publishing it again writes nothing. Only the catalog's schema is needed: the
//! catalog's relay publishes the written events to the other services (unlocks learns of the
//! packs and videos from them) once the service runs.

use std::io::Read;

use catalog::commands::{self, PublishError, Published};
use proto_events::catalog::{CatalogEvent, Video};
use proto_events::{Actor, EventMeta};
use runtime::Settings;

use crate::preflight;

/// The actor of what an operator publishes with this command.
pub const ACTOR: &str = "operator";

pub async fn run(settings: &Settings, file: &str) -> anyhow::Result<()> {
    // The file first: a typo in it stops the command before it needs the database.
    let content = read(file)?;
    if let Some((n, event)) = content.iter().enumerate().find(|(_, e)| commands::content_stream(e).is_none()) {
        anyhow::bail!(
            "{}: item {} is a {}, which is not content (publishable: the ...Published events, CategoryDefined, \
             VideoUpdated, VideoUnpublished); nothing was published",
            name(file),
            n + 1,
            event_type(event)
        );
    }
    // The rules read the brands (a video's site, a performer's sites): a broken tenant directory
    // is an error naming its file here, not a panic inside the first check.
    tenants::init()?;
    preflight::check(settings, preflight::Needs::DATABASE).await?;
    // Connected, never migrated: in production the release's migration Job owns the schema.
    let ctx = catalog::SERVICE.connect(settings, 2).await?;
    let pending = catalog::SERVICE.pending_migrations(&ctx.pool).await?;
    if let Some(first) = pending.first() {
        ctx.pool.close().await;
        anyhow::bail!(
            "the catalog's schema lacks {} migrations of this build (first {first}): run `paysite migrate` (the \
             release's migration Job) first; nothing was published",
            pending.len()
        );
    }
    let meta = EventMeta::new(Actor::System(ACTOR.into()));
    // One transaction for the whole file: a refused item leaves nothing of the file published,
    // so the operator fixes the file and runs it again, with nothing half done to think of.
    let published = commands::publish_all(&ctx.store, &meta, &content, content.len().max(1), false).await;
    if published.as_ref().is_ok_and(|report: &Published| report.written > 0) {
        wake_relay(&ctx.pool).await;
    }
    ctx.pool.close().await;
    match published {
        Ok(report) => {
            println!("published {} events ({} unchanged)", report.written, report.unchanged);
            for line in media_lines(&content) {
                println!("{line}");
            }
            Ok(())
        }
        Err(PublishError::Refused { stream, error }) => {
            let item = content
                .iter()
                .position(|e| commands::content_stream(e).as_deref() == Some(stream.as_str()))
                .map(|n| format!(" (item {}, {})", n + 1, event_type(&content[n])))
                .unwrap_or_default();
            anyhow::bail!("{}: refused, nothing was published: {stream}{item}: {error}", name(file))
        }
        Err(PublishError::Failed(e)) => Err(e.context(format!("publishing {}", name(file)))),
    }
}

/// How the file is named in messages.
fn name(file: &str) -> &str {
    if file == "-" {
        "standard input"
    } else {
        file
    }
}

/// The catalog events of `file` (`-`: standard input).
fn read(file: &str) -> anyhow::Result<Vec<CatalogEvent>> {
    let text = if file == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| anyhow::anyhow!("cannot read standard input: {e}"))?;
        text
    } else {
        std::fs::read_to_string(file).map_err(|e| anyhow::anyhow!("cannot read {file}: {e}"))?
    };
    // serde_json's message ends with the line and column it stopped at.
    serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!("{} is not a JSON array of catalog events: {e}; nothing was published", name(file))
    })
}

fn event_type(event: &CatalogEvent) -> String {
    proto_events::encode(event).event_type
}

/// Wakes a running catalog's relay at once (its poll would find the events later anyway). Sent
/// here rather than left to the event store's own wake-up, which goes out on a task of its own
/// that the pool's closing would cut short.
async fn wake_relay(pool: &sqlx::PgPool) {
    let channel = runtime::relay::outbox_channel(catalog::SERVICE.name);
    if let Err(e) = sqlx::query("select pg_notify($1, '')").bind(channel).execute(pool).await {
        tracing::debug!(error = %e, "relay wake-up not sent; the relay's poll will find the events");
    }
}

/// What the operator uploads for each video of the file: the files the unlocks service looks for
/// under its `UNLOCKS_MEDIA_DIR` (one per quality the video lists; a token is issued for each),
/// and the trailer's address on the brand hosts.
fn media_lines(content: &[CatalogEvent]) -> Vec<String> {
    content
        .iter()
        .filter_map(|e| match e {
            CatalogEvent::VideoPublished { video, .. } | CatalogEvent::VideoUpdated { video, .. } => Some(video),
            _ => None,
        })
        .flat_map(video_media)
        .collect()
}

fn video_media(video: &Video) -> Vec<String> {
    let slug = &video.slug;
    let mut lines: Vec<String> = video
        .qualities
        .iter()
        .map(|q| match q {
            proto_events::catalog::VideoQuality::Hls => format!(
                "media: {}/*.ts (HLS segments of {} s, played in name order) for video {slug}",
                unlocks::media::own_hls_dir(video.video_id).display(),
                unlocks::media::HLS_SEGMENT_SECONDS
            ),
            quality => {
                format!("media: {} for video {slug}", unlocks::media::own_file(video.video_id, *quality).display())
            }
        })
        .collect();
    if lines.is_empty() {
        lines.push(format!("media: none for video {slug}: it lists no qualities, so no media token is issued for it"));
    }
    lines.push(format!("trailer: {} on the brand hosts for video {slug}", catalog::media::trailer(slug)));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_quality_of_a_video_names_its_file_in_the_media_directory() {
        use proto_events::catalog::VideoQuality::{Hls, P720};
        let mut video = runtime::testing::video("vixen", None);
        video.qualities = vec![P720, Hls];
        let id = video.video_id;
        assert_eq!(
            video_media(&video),
            [
                format!("media: videos/{id}/p720.mp4 for video {}", video.slug),
                format!(
                    "media: videos/{id}/hls/*.ts (HLS segments of 6 s, played in name order) for video {}",
                    video.slug
                ),
                format!("trailer: /media/trailers/{0}.mp4 on the brand hosts for video {0}", video.slug),
            ]
        );
        video.qualities.clear();
        assert!(video_media(&video)[0].contains("no media token"));
    }

    #[test]
    fn a_file_that_is_not_an_array_of_events_names_itself_and_the_position() {
        let dir = std::env::temp_dir().join(format!("paysite-publish-{}", uuid::Uuid::new_v4().simple()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("content.json");
        std::fs::write(&file, "[\n  {\"type\": \"VideoPublished\", \"payload\": {}}\n]\n").unwrap();
        let path = file.to_str().unwrap();
        let err = read(path).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{path} is not a JSON array of catalog events: ")), "{err}");
        assert!(err.contains("line 2 column"), "{err}");
        let err = read(&format!("{path}.missing")).unwrap_err().to_string();
        assert!(err.starts_with("cannot read "), "{err}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_example_content_reads_as_catalog_events() {
        let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/content/example.json");
        let content = read(example).unwrap();
        assert!(content.iter().all(|e| commands::content_stream(e).is_some()));
        for e in &content {
            catalog::domain::validate_content(e).unwrap_or_else(|err| panic!("{e:?}: {err}"));
        }
    }
}
