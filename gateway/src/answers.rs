//! Visitors' answers: what `/graphql` answered a GET of a persisted query for someone with no
//! session, kept per replica and bounded in memory, and dropped by the events that change
//! what such answers show (docs/decisions/caching-and-first-screen/visitors-answers-cached-fresh-events.md).
//!
//! A visitor's answer depends on the document, its variables and the host (the brand), and on
//! nothing else: resolvers see the site and the viewer, and a visitor has none. So the key is
//! (document hash, operation, variables with sorted keys, host), and the answer is the
//! engine's own bytes. Only answers the engine gave without errors, without a cookie and with
//! a public cache control are kept ([`Answers::keepable`]).
//!
//! Freshness comes from the events, not a timer: each replica binds a queue of its own to
//! the catalog's and the deals' events ([`BINDINGS`]) and drops every kept answer on each one
//! (a new video, comment, rating or deal may show in any brand's answers: "More from our
//! sites" shows the sisters'). An answer computed while an event arrived is not kept (the
//! generation moved). Until the queue is bound, and whenever the broker connection is lost,
//! nothing is served from or kept in the cache: a visitor gets the engine's answer, as if
//! there were no cache.

use std::{
    sync::{
        atomic::{AtomicBool, AtomicU64, Ordering},
        Arc, Mutex,
    },
    time::{Duration, Instant},
};

use axum::{body::Bytes, http::HeaderValue};
use futures::StreamExt;
use lapin::{options::BasicConsumeOptions, types::FieldTable};
use sha2::Digest;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

/// The routing keys of the events that may change a visitor's answer: every event of the
/// catalog (videos, performers, channels, packs, comments, ratings, reels) and of the deals.
pub const BINDINGS: [&str; 2] = ["catalog.#", "deals.#"];

/// The surrogate key every kept answer carries, purged (by a CDN that reads `Surrogate-Key`)
/// on the same events that drop the gateway's own copies; the brand's key beside it.
pub const SURROGATE_KEY: &str = "paysite-graphql";

/// The root fields whose answer to a visitor is the same for every visitor of a brand and
/// changes only with the catalog's or the deals' events (or the tenants' configuration, which
/// changes with a release): a visitor's query selecting only these is kept and public.
pub const SHARED_FIELDS: &[&str] = &[
    "tenantConfig",
    "findDeals",
    "videos",
    "freeTrialVideos",
    "topRated",
    "getAwardedVideos",
    "getVideo",
    "getPictureSet",
    "getAllFilters",
    "performers",
    "performer",
    "categories",
    "channels",
    "channel",
    "channelVideos",
    "getChannelVideos",
    "channelPack",
    "allChannelVideos",
    "search",
    "sisterSiteVideos",
    "sisterSitePerformers",
    "recommendations",
    "reels",
    "reel",
    "showcases",
    "showcase",
    "angels",
    "angel",
    "curatorWall",
    "comments",
    "commentReplies",
    "expertReview",
    "getWelcomePagePictureSet",
];

/// The root fields whose answer is a user's, or changes with what no followed event says (a
/// subscription's state, the clock, a cookie): never kept, always `private, no-store`.
/// `tests/answers.rs` fails when a field of the schema is in neither list.
pub const PRIVATE_FIELDS: &[&str] = &[
    "getGemsBalance",
    "getTransactions",
    "offers",
    "outgoingUpsellConfirmation",
    "adminDeals",
    "unlockState",
    "videoAccess",
    "getToken",
    "downloadResolutions",
    "downloadQuotas",
    "findOneUserProfile",
    "user",
    "favorites",
    "favoriteIds",
    "getUserSubscription",
    "welcomeCheck",
    "getRetentionOffer",
    "creditCardUpdate",
    "joinOptions",
];

/// Whether an operation selecting these root fields is the same for every visitor.
pub fn shared(root_fields: Option<&[String]>) -> bool {
    root_fields.is_some_and(|fields| {
        !fields.is_empty() && fields.iter().all(|f| f == "__typename" || SHARED_FIELDS.contains(&f.as_str()))
    })
}

/// What one cache entry is addressed by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    pub hash: String,
    pub operation: Option<String>,
    /// The variables as JSON with sorted keys (serde_json's map is ordered).
    pub variables: String,
    pub host: String,
}

/// A kept answer: the engine's bytes and their validator.
#[derive(Debug)]
pub struct Answer {
    pub body: Bytes,
    pub etag: HeaderValue,
    made_at: Instant,
}

impl Answer {
    pub fn new(body: Bytes) -> Answer {
        let digest = sha2::Sha256::digest(&body);
        let tag: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
        let etag = HeaderValue::from_str(&format!("W/\"{tag}\"")).expect("hex is a header value");
        Answer { etag, body, made_at: Instant::now() }
    }
}

/// How `Cache-Control` reads for a visitor's answer.
#[derive(Debug, Clone, Copy)]
pub struct Freshness {
    /// `max-age`: how long a browser or a shared cache may use it without asking.
    pub max_age: u32,
    /// `stale-while-revalidate`: how long after that it may still be used while it asks.
    pub stale_while_revalidate: u32,
}

impl Default for Freshness {
    fn default() -> Self {
        Freshness { max_age: 1, stale_while_revalidate: 30 }
    }
}

impl Freshness {
    /// `Cache-Control` for every cache: `public, max-age=…`. No `stale-while-revalidate` here:
    /// a browser would then show a visitor an answer up to that long after the event that
    /// changed it, on a reload, with nothing to purge it.
    pub fn header(&self) -> HeaderValue {
        HeaderValue::from_str(&format!("public, max-age={}", self.max_age)).expect("digits are a header value")
    }

    /// `CDN-Cache-Control` (RFC 9213), for the shared caches in front of the gateway only:
    /// the same `max-age`, and `stale-while-revalidate`, which a CDN purging on the events may
    /// use (docs/operations.md, "GraphQL at the edge").
    pub fn cdn_header(&self) -> HeaderValue {
        let swr = match self.stale_while_revalidate {
            0 => String::new(),
            s => format!(", stale-while-revalidate={s}"),
        };
        HeaderValue::from_str(&format!("public, max-age={}{swr}", self.max_age)).expect("digits are a header value")
    }
}

struct Entries {
    lru: lru::LruCache<Key, Arc<Answer>>,
    bytes: usize,
}

/// The replica's kept answers.
pub struct Answers {
    entries: Mutex<Entries>,
    capacity_bytes: usize,
    generation: AtomicU64,
    following: AtomicBool,
    /// The longest an answer is kept without an event: what changes with the clock alone (a
    /// deal's end, a scheduled video) shows within it.
    ttl: Duration,
    pub freshness: Freshness,
}

/// What an entry counts against the capacity: its bytes, its key's, and a little for the rest.
fn cost(key: &Key, answer: &Answer) -> usize {
    answer.body.len()
        + key.hash.len()
        + key.variables.len()
        + key.host.len()
        + key.operation.as_ref().map_or(0, String::len)
        + 64
}

/// The generation an answer was computed under, when the cache is in use.
#[derive(Debug, Clone, Copy)]
pub struct Generation(u64);

impl Answers {
    /// At most `capacity_bytes` of answers (their bodies and keys), each at most [`DEFAULT_TTL`].
    pub fn new(capacity_bytes: usize, freshness: Freshness) -> Arc<Answers> {
        Self::with_ttl(capacity_bytes, freshness, DEFAULT_TTL)
    }

    pub fn with_ttl(capacity_bytes: usize, freshness: Freshness, ttl: Duration) -> Arc<Answers> {
        Arc::new(Answers {
            entries: Mutex::new(Entries { lru: lru::LruCache::unbounded(), bytes: 0 }),
            capacity_bytes,
            generation: AtomicU64::new(0),
            following: AtomicBool::new(false),
            ttl,
            freshness,
        })
    }

    /// `PAYSITE_ANSWERS_CACHE_BYTES` (default 64 MiB; 0 keeps nothing),
    /// `PAYSITE_ANSWERS_TTL` (seconds, default 60), `PAYSITE_ANSWERS_MAX_AGE` (default 1 s)
    /// and `PAYSITE_ANSWERS_STALE_WHILE_REVALIDATE` (default 30 s).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<Arc<Answers>> {
        let number = |key: &str, default: u64| -> anyhow::Result<u64> {
            match lookup(key).filter(|v| !v.trim().is_empty()) {
                None => Ok(default),
                Some(v) => v.trim().parse().map_err(|_| anyhow::anyhow!("{key} must be a whole number, got {v:?}")),
            }
        };
        let defaults = Freshness::default();
        let capacity = number("PAYSITE_ANSWERS_CACHE_BYTES", 64 << 20)?;
        let max_age = number("PAYSITE_ANSWERS_MAX_AGE", defaults.max_age.into())?;
        let swr = number("PAYSITE_ANSWERS_STALE_WHILE_REVALIDATE", defaults.stale_while_revalidate.into())?;
        let ttl = number("PAYSITE_ANSWERS_TTL", DEFAULT_TTL.as_secs())?;
        Ok(Answers::with_ttl(
            usize::try_from(capacity).unwrap_or(usize::MAX),
            Freshness {
                max_age: u32::try_from(max_age).unwrap_or(u32::MAX),
                stale_while_revalidate: u32::try_from(swr).unwrap_or(u32::MAX),
            },
            Duration::from_secs(ttl),
        ))
    }

    /// The generation now, or `None` while the events are not followed (nothing is kept).
    pub fn generation(&self) -> Option<Generation> {
        let generation = self.generation.load(Ordering::Acquire);
        (self.following.load(Ordering::Acquire) && self.capacity_bytes > 0).then_some(Generation(generation))
    }

    /// The kept answer for `key`, while the events are followed.
    pub fn get(&self, key: &Key) -> Option<Arc<Answer>> {
        self.generation()?;
        let found = {
            let mut entries = self.entries.lock().expect("answers lock");
            match entries.lru.get(key).cloned() {
                Some(answer) if answer.made_at.elapsed() >= self.ttl => {
                    if let Some(old) = entries.lru.pop(key) {
                        entries.bytes -= cost(key, &old);
                    }
                    None
                }
                found => found,
            }
        };
        metrics::counter!("paysite_gateway_answers_total", "result" => if found.is_some() { "hit" } else { "miss" })
            .increment(1);
        found
    }

    /// Keeps `answer` for `key` when nothing changed since `computed_under` was read.
    pub fn put(&self, key: Key, answer: Arc<Answer>, computed_under: Generation) {
        let size = cost(&key, &answer);
        if size > self.capacity_bytes / 8 {
            return;
        }
        let mut entries = self.entries.lock().expect("answers lock");
        // Checked under the lock an invalidation takes too: an answer computed before an event
        // is never kept after it.
        if self.generation().map(|g| g.0) != Some(computed_under.0) {
            return;
        }
        if let Some(old) = entries.lru.put(key.clone(), answer) {
            entries.bytes -= cost(&key, &old);
        }
        entries.bytes += size;
        while entries.bytes > self.capacity_bytes {
            let Some((k, v)) = entries.lru.pop_lru() else { break };
            entries.bytes -= cost(&k, &v);
        }
    }

    /// Drops every kept answer: an event changed what answers show.
    pub fn invalidate(&self) {
        let mut entries = self.entries.lock().expect("answers lock");
        self.generation.fetch_add(1, Ordering::AcqRel);
        entries.lru.clear();
        entries.bytes = 0;
    }

    /// Whether the events are followed: on a (re)bind everything kept before is dropped (events
    /// may have been missed), and while they are not, nothing is served or kept.
    pub fn set_following(&self, following: bool) {
        self.invalidate();
        self.following.store(following, Ordering::Release);
    }

    pub fn is_following(&self) -> bool {
        self.following.load(Ordering::Acquire)
    }

    /// How many answers and bytes are kept.
    pub fn size(&self) -> (usize, usize) {
        let entries = self.entries.lock().expect("answers lock");
        (entries.lru.len(), entries.bytes)
    }
}

/// Keeps `answers` fresh until `cancel` fires: binds a queue of this process to [`BINDINGS`],
/// then drops the kept answers on every event; reconnects (and starts empty) whenever the
/// broker goes away.
pub async fn follow(answers: Arc<Answers>, source: crate::revocations::Source, cancel: CancellationToken) {
    let mut failures = 0u32;
    while !cancel.is_cancelled() {
        let result = follow_once(&answers, &source, &cancel, &mut failures).await;
        answers.set_following(false);
        match result {
            Ok(()) => break,
            Err(error) => {
                tracing::warn!(error = %format!("{error:#}"), "catalog events for visitors' answers: reconnecting");
                let delay = runtime::broker::reconnect_delay(failures);
                failures = failures.saturating_add(1);
                tokio::select! {
                    _ = cancel.cancelled() => break,
                    _ = tokio::time::sleep(delay) => {}
                }
            }
        }
    }
}

async fn follow_once(
    answers: &Answers,
    source: &crate::revocations::Source,
    cancel: &CancellationToken,
    failures: &mut u32,
) -> anyhow::Result<()> {
    let connection = runtime::broker::connect(&source.amqp_url, "gateway.answers").await?;
    let channel = connection.create_channel().await?;
    // A queue of this process alone: every replica hears every event.
    let queue = runtime::broker::own_queue(&channel, &source.exchange, &BINDINGS).await?;
    let mut deliveries = channel
        .basic_consume(
            queue.name().clone(),
            format!("gateway-answers-{}", Uuid::now_v7()).as_str().into(),
            BasicConsumeOptions { no_ack: true, ..Default::default() },
            FieldTable::default(),
        )
        .await?;
    // Bound first, used second: whatever changes from now on arrives on the queue.
    answers.set_following(true);
    *failures = 0;
    tracing::info!("catalog events followed for visitors' answers");
    loop {
        tokio::select! {
            _ = cancel.cancelled() => {
                let _ = connection.close(200, "shutdown".into()).await;
                return Ok(());
            }
            next = deliveries.next() => match next {
                Some(Ok(delivery)) => {
                    tracing::debug!(event = %delivery.routing_key, "visitors' answers dropped");
                    answers.invalidate();
                }
                Some(Err(error)) => return Err(error.into()),
                None => anyhow::bail!("the broker cancelled the consumer"),
            }
        }
    }
}

/// How long an answer is kept when no event drops it first.
pub const DEFAULT_TTL: Duration = Duration::from_secs(60);

/// How long `paysite serve gateway` waits for the first binding before serving (it serves
/// without the cache until then).
pub const FOLLOW_WAIT: Duration = Duration::from_secs(5);

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: usize) -> Key {
        Key { hash: format!("{n:064}"), operation: None, variables: "{}".into(), host: "vixen.localhost".into() }
    }

    fn answer(len: usize) -> Arc<Answer> {
        Arc::new(Answer::new(Bytes::from(vec![b'x'; len])))
    }

    #[test]
    fn nothing_is_kept_or_served_until_the_events_are_followed() {
        let answers = Answers::new(1 << 20, Freshness::default());
        assert!(answers.generation().is_none());
        answers.set_following(true);
        let g = answers.generation().unwrap();
        answers.put(key(1), answer(10), g);
        assert!(answers.get(&key(1)).is_some());
        answers.set_following(false);
        assert!(answers.get(&key(1)).is_none());
        answers.set_following(true);
        assert!(answers.get(&key(1)).is_none(), "a rebind starts empty");
    }

    #[test]
    fn an_answer_computed_before_an_event_is_not_kept_after_it() {
        let answers = Answers::new(1 << 20, Freshness::default());
        answers.set_following(true);
        let before = answers.generation().unwrap();
        answers.invalidate();
        answers.put(key(1), answer(10), before);
        assert!(answers.get(&key(1)).is_none());
        let after = answers.generation().unwrap();
        answers.put(key(1), answer(10), after);
        assert!(answers.get(&key(1)).is_some());
        answers.invalidate();
        assert!(answers.get(&key(1)).is_none());
    }

    #[test]
    fn the_bytes_kept_stay_under_the_capacity_least_recently_used_first_out() {
        let answers = Answers::new(100_000, Freshness::default());
        answers.set_following(true);
        let g = answers.generation().unwrap();
        for n in 0..100 {
            answers.put(key(n), answer(5_000), g);
            let _ = answers.get(&key(0));
        }
        let (count, bytes) = answers.size();
        assert!(bytes <= 100_000, "{bytes}");
        assert!(count >= 15, "{count}");
        assert!(answers.get(&key(0)).is_some(), "the one in use stays");
        assert!(answers.get(&key(1)).is_none(), "the oldest unused went");
        // One answer bigger than an eighth of the cache is not kept at all.
        answers.put(key(1000), answer(20_000), g);
        assert!(answers.get(&key(1000)).is_none());
    }

    #[test]
    fn an_answer_past_its_time_is_not_served() {
        let answers = Answers::with_ttl(1 << 20, Freshness::default(), Duration::from_millis(30));
        answers.set_following(true);
        answers.put(key(1), answer(10), answers.generation().unwrap());
        assert!(answers.get(&key(1)).is_some());
        std::thread::sleep(Duration::from_millis(40));
        assert!(answers.get(&key(1)).is_none());
        assert_eq!(answers.size(), (0, 0));
    }

    #[test]
    fn the_etag_is_weak_and_follows_the_bytes() {
        let a = Answer::new(Bytes::from_static(b"{\"data\":1}"));
        let b = Answer::new(Bytes::from_static(b"{\"data\":2}"));
        assert!(a.etag.to_str().unwrap().starts_with("W/\""));
        assert_ne!(a.etag, b.etag);
        assert_eq!(a.etag, Answer::new(Bytes::from_static(b"{\"data\":1}")).etag);
    }

    #[test]
    fn the_settings_are_read_and_refused_when_not_numbers() {
        let answers = Answers::from_lookup(|k| (k == "PAYSITE_ANSWERS_MAX_AGE").then(|| "5".into())).unwrap();
        assert_eq!(answers.freshness.header(), "public, max-age=5");
        assert_eq!(answers.freshness.cdn_header(), "public, max-age=5, stale-while-revalidate=30");
        let err = Answers::from_lookup(|k| (k == "PAYSITE_ANSWERS_CACHE_BYTES").then(|| "lots".into())).err().unwrap();
        assert!(err.to_string().contains("PAYSITE_ANSWERS_CACHE_BYTES"), "{err}");
    }
}
