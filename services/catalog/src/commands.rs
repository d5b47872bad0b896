//! The write path: load a stream, decide, append, project, in one transaction.
//!
//! Content (the studio's videos, performers, channels ...) is published in batches: the
//! demo seed and the 100k-video seed go through [`publish_all`], which validates every
//! entity with the [`Content`] decider and writes one event per changed stream.

use std::collections::{HashMap, HashSet};

use proto_events::catalog::{
    angel_stream_id, category_stream_id, channel_pack_stream_id, channel_stream_id, comment_stream_id,
    curator_post_stream_id, performer_stream_id, picture_set_stream_id, reel_stream_id, showcase_stream_id,
    tracking_stream_id, video_stream_id, viewer_stream_id, CatalogEvent,
};
use proto_events::{Envelope, EventMeta};
use runtime::retry::retrying;
use runtime::{Decider, EventStore, Projected, StoreError};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::domain::{
    normalise_comment, with_comment_id, CommentCommand, CommentDecider, CommentError, Content, ContentCommand,
    ContentError, ContentState, Parent, ViewerCommandFor, ViewerDecider, ViewerError,
};
use crate::projections;

/// Load, decide, append and project one command on one stream, retrying a lost race.
pub async fn execute<D>(
    store: &EventStore,
    stream_id: &str,
    meta: &EventMeta,
    command: D::Command,
) -> anyhow::Result<Result<Vec<CatalogEvent>, D::Error>>
where
    D: Decider<Event = CatalogEvent>,
    D::Command: Clone,
{
    let executed = store.execute::<D, _>(stream_id, meta, || command.clone(), project).await?;
    Ok(executed.map(|done| done.decided))
}

/// The read models of `decided`, in the events' transaction.
fn project<'t>(conn: &'t mut PgConnection, _written: &'t [Envelope], decided: &'t [CatalogEvent]) -> Projected<'t> {
    Box::pin(async move {
        for e in decided {
            projections::apply(conn, e).await.map_err(store_error)?;
        }
        Ok(())
    })
}

/// A read model's failure as the event store's, keeping the database error (a deadlock
/// between two writers on the read cache's generation rows, for example a performer renamed
/// while one of their videos is rated, is then retried like a lost race).
fn store_error(e: anyhow::Error) -> StoreError {
    match e.downcast::<sqlx::Error>() {
        Ok(db) => StoreError::Database(db),
        Err(other) => StoreError::Database(sqlx::Error::Decode(other.into())),
    }
}

pub async fn viewer(
    store: &EventStore,
    meta: &EventMeta,
    command: ViewerCommandFor,
) -> anyhow::Result<Result<Vec<CatalogEvent>, ViewerError>> {
    let stream = viewer_stream_id(command.user_id);
    execute::<ViewerDecider>(store, &stream, meta, command).await
}

/// A comment command on an existing comment.
pub async fn comment(
    store: &EventStore,
    meta: &EventMeta,
    comment_id: Uuid,
    command: CommentCommand,
) -> anyhow::Result<Result<Vec<CatalogEvent>, CommentError>> {
    execute::<CommentOn>(store, &comment_stream_id(comment_id), meta, (comment_id, command)).await
}

/// What a new comment or reply needs besides its text.
pub struct NewComment {
    pub comment_id: Uuid,
    pub video_id: Uuid,
    pub user_id: Uuid,
    pub author_name: Option<String>,
    pub text: String,
    pub parent_id: Option<Uuid>,
    pub banned_words: Vec<String>,
}

/// Adds a comment or a reply. The duplicate check runs under a lock on (member, video), so two
/// identical comments sent at once cannot both pass.
pub async fn add_comment(
    store: &EventStore,
    meta: &EventMeta,
    new: NewComment,
) -> anyhow::Result<Result<CatalogEvent, CommentError>> {
    let mut tx = store.pool().begin().await?;
    sqlx::query("select pg_advisory_xact_lock(hashtextextended($1, 7))")
        .bind(format!("comment:{}:{}", new.user_id, new.video_id))
        .execute(&mut *tx)
        .await?;
    let normalised = normalise_comment(&new.text);
    let duplicate: bool = sqlx::query_scalar(
        "select exists (select 1 from comment where user_id = $1 and video_id = $2 and not removed
                        and lower(regexp_replace(btrim(text), '\\s+', ' ', 'g')) = $3)",
    )
    .bind(new.user_id)
    .bind(new.video_id)
    .bind(&normalised)
    .fetch_one(&mut *tx)
    .await?;
    let parent = match new.parent_id {
        None => None,
        Some(parent_id) => {
            let row: Option<(Uuid, Option<Uuid>, bool)> =
                sqlx::query_as("select video_id, parent_comment_id, removed from comment where comment_id = $1")
                    .bind(parent_id)
                    .fetch_optional(&mut *tx)
                    .await?;
            match row {
                None => return Ok(Err(CommentError::NotFound)),
                Some((video_id, grand, removed)) => {
                    Some(Parent { comment_id: parent_id, video_id, is_reply: grand.is_some(), removed })
                }
            }
        }
    };
    let command = CommentCommand::Add {
        comment_id: new.comment_id,
        video_id: new.video_id,
        user_id: new.user_id,
        author_name: new.author_name,
        text: new.text,
        parent,
        duplicate,
        banned_words: new.banned_words,
        at: chrono::Utc::now(),
    };
    let stream = comment_stream_id(new.comment_id);
    let executed = match store.execute_in::<CommentDecider, _>(&mut tx, &stream, meta, command, project).await? {
        Ok(executed) => executed,
        Err(e) => return Ok(Err(e)),
    };
    tx.commit().await?;
    store.wake_relay();
    Ok(Ok(executed.decided.into_iter().next().expect("a comment is one event")))
}

/// The comment decider on a stream whose id it is told: its events carry the comment's id,
/// which the decider alone leaves nil.
struct CommentOn;

impl Decider for CommentOn {
    type Event = CatalogEvent;
    type State = <CommentDecider as Decider>::State;
    type Command = (Uuid, CommentCommand);
    type Error = CommentError;

    fn decide(state: &Self::State, (comment_id, command): Self::Command) -> Result<Vec<CatalogEvent>, CommentError> {
        CommentDecider::decide(state, command).map(|events| with_comment_id(events, comment_id))
    }

    fn evolve(state: Self::State, event: &CatalogEvent) -> Self::State {
        CommentDecider::evolve(state, event)
    }
}

/// Records a tracking event on the member's tracking stream.
pub async fn track(store: &EventStore, meta: &EventMeta, user_id: Uuid, event: CatalogEvent) -> anyhow::Result<()> {
    let stream = tracking_stream_id(user_id);
    // No decision: the event goes after whatever the stream holds, so only its version is read.
    retrying(|| async {
        let mut tx = store.pool().begin().await?;
        let version = store.version(&mut tx, &stream).await?;
        store.append(&mut tx, &stream, version, std::slice::from_ref(&event), meta).await?;
        projections::apply(&mut tx, &event).await.map_err(store_error)?;
        tx.commit().await?;
        Ok::<_, StoreError>(())
    })
    .await?;
    store.wake_relay();
    Ok(())
}

/// The stream a piece of content is written to.
pub fn content_stream(event: &CatalogEvent) -> Option<String> {
    Some(match event {
        CatalogEvent::VideoPublished { video, .. } | CatalogEvent::VideoUpdated { video, .. } => {
            video_stream_id(video.video_id)
        }
        CatalogEvent::VideoUnpublished { video_id, .. } => video_stream_id(*video_id),
        CatalogEvent::PerformerPublished { performer_id, .. } => performer_stream_id(*performer_id),
        CatalogEvent::CategoryDefined { category_id, .. } => category_stream_id(*category_id),
        CatalogEvent::ChannelPublished { channel_id, .. } => channel_stream_id(*channel_id),
        CatalogEvent::ChannelPackPublished { channel_pack_id, .. } => channel_pack_stream_id(*channel_pack_id),
        CatalogEvent::PictureSetPublished { picture_set_id, .. } => picture_set_stream_id(*picture_set_id),
        CatalogEvent::ReelPublished { reel_id, .. } => reel_stream_id(*reel_id),
        CatalogEvent::ShowcasePublished { showcase_id, .. } => showcase_stream_id(*showcase_id),
        CatalogEvent::AngelPublished { angel_id, .. } => angel_stream_id(*angel_id),
        CatalogEvent::CuratorPostPublished { post_id, .. } => curator_post_stream_id(*post_id),
        _ => return None,
    })
}

/// What a batch publish did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Published {
    pub written: usize,
    pub unchanged: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error("{stream}: {error}")]
    Refused { stream: String, error: ContentError },
    #[error(transparent)]
    Failed(#[from] anyhow::Error),
}

impl From<sqlx::Error> for PublishError {
    fn from(e: sqlx::Error) -> Self {
        PublishError::Failed(e.into())
    }
}

impl From<runtime::StoreError> for PublishError {
    fn from(e: runtime::StoreError) -> Self {
        PublishError::Failed(e.into())
    }
}

/// What referential checks need to know, loaded once per batch.
struct Known {
    performers: HashSet<Uuid>,
    categories: HashSet<String>,
    channels: HashMap<Uuid, String>,
    videos: HashSet<Uuid>,
}

async fn known(tx: &mut PgConnection) -> sqlx::Result<Known> {
    let performers: Vec<Uuid> = sqlx::query_scalar("select performer_id from performer").fetch_all(&mut *tx).await?;
    let categories: Vec<String> = sqlx::query_scalar("select slug from category").fetch_all(&mut *tx).await?;
    let channels: Vec<(Uuid, String)> =
        sqlx::query_as("select channel_id, slug from channel").fetch_all(&mut *tx).await?;
    Ok(Known {
        performers: performers.into_iter().collect(),
        categories: categories.into_iter().collect(),
        channels: channels.into_iter().collect(),
        videos: HashSet::new(),
    })
}

fn check_references(known: &Known, event: &CatalogEvent) -> Result<(), ContentError> {
    let missing = |what: &str, id: &dyn std::fmt::Display| Err(ContentError::Invalid(format!("unknown {what} {id}")));
    match event {
        CatalogEvent::VideoPublished { video, .. } | CatalogEvent::VideoUpdated { video, .. } => {
            if let Some(p) = video.performer_ids.iter().find(|p| !known.performers.contains(p)) {
                return missing("performer", p);
            }
            if let Some(c) = video.category_slugs.iter().find(|c| !known.categories.contains(*c)) {
                return missing("category", c);
            }
            if let Some(ch) = &video.channel {
                match known.channels.get(&ch.channel_id) {
                    Some(slug) if *slug == ch.slug => {}
                    _ => return missing("channel", &ch.channel_id),
                }
            }
            Ok(())
        }
        CatalogEvent::ChannelPackPublished { channel_id, .. } if !known.channels.contains_key(channel_id) => {
            missing("channel", channel_id)
        }
        CatalogEvent::PictureSetPublished { video_id, .. } | CatalogEvent::ReelPublished { video_id, .. }
            if !known.videos.contains(video_id) =>
        {
            missing("video", video_id)
        }
        CatalogEvent::AngelPublished { performer_id, .. } if !known.performers.contains(performer_id) => {
            missing("performer", performer_id)
        }
        _ => Ok(()),
    }
}

/// Publishes content in order, in transactions of `chunk` entities: each entity is decided on
/// its stream (new, changed or unchanged), validated, appended and projected. With `bulk`, the
/// read models of new videos are written in set statements ([`projections::apply_bulk`]).
pub async fn publish_all(
    store: &EventStore,
    meta: &EventMeta,
    content: &[CatalogEvent],
    chunk: usize,
    bulk: bool,
) -> Result<Published, PublishError> {
    let mut report = Published::default();
    for part in content.chunks(chunk.max(1)) {
        let mut tx = store.pool().begin().await?;
        // One publisher at a time, before any row is read or locked: what a chunk derives from
        // other content (its references, a card's performer and category names, the search
        // words from their names) is then read after the previous publisher committed, so a
        // rename and a video naming the renamed performer, published at once, cannot leave the
        // video with the old name. Publishing is an editor's or the seed's work; members'
        // writes (ratings, comments) do not take it.
        sqlx::query("select pg_advisory_xact_lock(hashtextextended('catalog:content', 7))").execute(&mut *tx).await?;
        let mut known = known(&mut tx).await?;
        let streams: Vec<String> = part
            .iter()
            .map(|e| {
                content_stream(e).ok_or_else(|| PublishError::Refused {
                    stream: "?".into(),
                    error: ContentError::Invalid("not content".into()),
                })
            })
            .collect::<Result<_, _>>()?;
        let video_refs: Vec<Uuid> =
            part.iter()
                .filter_map(|e| match e {
                    CatalogEvent::PictureSetPublished { video_id, .. }
                    | CatalogEvent::ReelPublished { video_id, .. } => Some(*video_id),
                    _ => None,
                })
                .collect();
        let present: Vec<Uuid> = sqlx::query_scalar("select video_id from video where video_id = any($1)")
            .bind(&video_refs)
            .fetch_all(&mut *tx)
            .await?;
        known.videos.extend(present);
        let versions: Vec<(String, i64)> = sqlx::query_as(
            "select stream_id, max(stream_version) from event where stream_id = any($1) group by stream_id",
        )
        .bind(&streams)
        .fetch_all(&mut *tx)
        .await?;
        let versions: HashMap<String, i64> = versions.into_iter().collect();
        let mut written = Vec::new();
        for (event, stream) in part.iter().zip(&streams) {
            let version = versions.get(stream).copied().unwrap_or(0);
            let state = if version == 0 {
                ContentState::default()
            } else {
                store.state_of::<Content>(&mut tx, stream).await?.0
            };
            check_references(&known, event).map_err(|error| PublishError::Refused { stream: stream.clone(), error })?;
            let command = match event {
                CatalogEvent::VideoUnpublished { video_id, unpublished_at } => {
                    ContentCommand::UnpublishVideo { video_id: *video_id, at: *unpublished_at }
                }
                other => ContentCommand::Publish(Box::new(other.clone())),
            };
            let events = Content::decide(&state, command)
                .map_err(|error| PublishError::Refused { stream: stream.clone(), error })?;
            if events.is_empty() {
                report.unchanged += 1;
                continue;
            }
            store.append(&mut tx, stream, version, &events, meta).await?;
            // Later entities of the batch may refer to this one.
            for e in &events {
                match e {
                    CatalogEvent::PerformerPublished { performer_id, .. } => {
                        known.performers.insert(*performer_id);
                    }
                    CatalogEvent::CategoryDefined { slug, .. } => {
                        known.categories.insert(slug.clone());
                    }
                    CatalogEvent::ChannelPublished { channel_id, slug, .. } => {
                        known.channels.insert(*channel_id, slug.clone());
                    }
                    CatalogEvent::VideoPublished { video, .. } => {
                        known.videos.insert(video.video_id);
                    }
                    _ => {}
                }
            }
            report.written += events.len();
            written.extend(events);
        }
        if bulk {
            projections::apply_bulk(&mut tx, &written).await?;
        } else {
            for e in &written {
                projections::apply(&mut tx, e).await?;
            }
        }
        tx.commit().await?;
        store.wake_relay();
    }
    Ok(report)
}
