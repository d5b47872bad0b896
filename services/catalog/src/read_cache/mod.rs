//! The read cache: listing pages with their totals and search results, kept in process as
//! the JSON bytes the API answers, and served only while the read models they were computed
//! from are unchanged.
//!
//! Freshness. Every write to a table a cached read uses bumps a *generation* in the writer's
//! own transaction (triggers of migration `0005_read_generation.sql`: the live projection,
//! the bulk seed, a rebuild in another process and hand-written SQL alike). An answer is
//! stored with the generations it was computed under and served only while they are
//! unchanged. The generations a request compares against are read from the database by a
//! check that *started after the request arrived*, so a write committed before the request
//! (any write its caller has seen, through this replica or another) is always seen: never a
//! stale answer after a write. Concurrent requests share one check ([`Clock`]): under load
//! that is one tiny query per round trip, whatever the number of requests.
//!
//! Metrics (`/metrics`): `paysite_catalog_read_cache_answers_total{outcome="hit|miss|coalesced"}`,
//! `paysite_catalog_read_cache_checks_total`, `paysite_catalog_read_cache_evictions_total`, and
//! the gauges `paysite_catalog_read_cache_entries` and `paysite_catalog_read_cache_bytes`.
//!
//! Cost bounds. Bodies are kept LZ4-compressed (a page of cards, some 22 KiB of JSON that
//! repeats its image addresses, keeps in a fraction of that; decompressing it on a hit costs a
//! few microseconds), so the same memory holds several times the answers. Entries are
//! evicted least recently used first once their bytes (compressed body and key) pass
//! `max_bytes` or their number passes `max_entries`. Concurrent misses for the same
//! key under the same generations are computed once (single flight): the others wait for
//! that answer.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use lru::LruCache;
use serde::Serialize;
use sqlx::PgPool;
use tokio::sync::OnceCell;

use crate::queries::site_scope;

mod clock;

pub use clock::Clock;

/// Scope of the performers' and categories' slugs and names: what the search's name
/// suggestions show. (Cards keep their names on the video row since migration
/// `0008_card_refs.sql`, so a rename moves the sites of the videos it rewrites too.)
pub const NAMES: &str = "names";
/// Scope of the rest of the performers and categories on a site (ratings, counts, sites):
/// what that site's search suggests by name (migration `0007_people_by_site.sql`).
pub fn people(site_scope: &str) -> String {
    format!("people:{site_scope}")
}
/// Scope of the search lexicon.
pub const TERMS: &str = "terms";

/// The generation of every scope at one moment (a scope's generation only grows).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Generations {
    scopes: HashMap<String, i64>,
    total: i64,
}

impl Generations {
    pub fn of(&self, scope: &str) -> i64 {
        self.scopes.get(scope).copied().unwrap_or(0)
    }

    /// The sum over every scope: changes whenever anything changes.
    pub fn total(&self) -> i64 {
        self.total
    }

    /// Reads them.
    pub async fn read(pool: &PgPool) -> sqlx::Result<Generations> {
        let rows: Vec<(String, i64)> =
            sqlx::query_as("select scope, sum(generation)::bigint from read_generation group by scope")
                .fetch_all(pool)
                .await?;
        let total = rows.iter().map(|(_, g)| g).sum();
        Ok(Generations { scopes: rows.into_iter().collect(), total })
    }
}

/// What a cached answer depends on: its tag is the sum of these scopes' generations (each
/// only grows, so the sum is unchanged exactly when all of them are).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Depends {
    Scopes(Vec<String>),
    /// The combined brand reads every brand: any change.
    Everything,
}

impl Depends {
    /// A video listing of a site: its videos (the names on its cards included, migration
    /// `0008_card_refs.sql`), counts and category rows.
    pub fn listing(site: &str) -> Depends {
        match site_scope(site).as_str() {
            "*" => Depends::Everything,
            scope => Depends::Scopes(vec![scope.to_owned()]),
        }
    }

    /// A search on a site: the listing's, the names and the site's performers' and
    /// categories' suggestions, and the lexicon the words are corrected against.
    pub fn search(site: &str) -> Depends {
        match Depends::listing(site) {
            Depends::Scopes(mut s) => {
                s.extend([NAMES.to_owned(), people(&site_scope(site)), TERMS.to_owned()]);
                Depends::Scopes(s)
            }
            Depends::Everything => Depends::Everything,
        }
    }

    pub fn tag(&self, g: &Generations) -> i64 {
        match self {
            Depends::Scopes(scopes) => scopes.iter().map(|s| g.of(s)).sum(),
            Depends::Everything => g.total(),
        }
    }
}
/// How much the cache may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of bodies and keys; 0 turns the cache off.
    pub max_bytes: usize,
    pub max_entries: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_bytes: 64 << 20, max_entries: 50_000 }
    }
}

/// Counters since the cache was made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Served from the cache.
    pub hits: u64,
    /// Computed (the request that ran the queries).
    pub misses: u64,
    /// Waited for another request's computation of the same key.
    pub coalesced: u64,
    pub evictions: u64,
    /// Generation checks (queries).
    pub checks: u64,
    pub entries: usize,
    pub bytes: usize,
}

impl Stats {
    /// Requests answered without running the queries themselves.
    pub fn hit_rate(&self) -> f64 {
        let all = self.hits + self.misses + self.coalesced;
        if all == 0 {
            0.0
        } else {
            (self.hits + self.coalesced) as f64 / all as f64
        }
    }

    /// What happened between `earlier` and `self`.
    pub fn since(&self, earlier: &Stats) -> Stats {
        Stats {
            hits: self.hits - earlier.hits,
            misses: self.misses - earlier.misses,
            coalesced: self.coalesced - earlier.coalesced,
            evictions: self.evictions - earlier.evictions,
            checks: self.checks - earlier.checks,
            entries: self.entries,
            bytes: self.bytes,
        }
    }
}

struct Entry {
    tag: i64,
    /// The body, LZ4-compressed with its length in front.
    packed: Bytes,
    size: usize,
}

struct Store {
    lru: LruCache<String, Entry>,
    bytes: usize,
}

type Flight = Arc<OnceCell<Bytes>>;

/// How a request got its answer.
enum Outcome {
    Hit,
    /// It computed the answer.
    Led,
    /// It waited for another request's computation.
    Waited,
}

/// The read cache of one process.
pub struct ReadCache {
    limits: Limits,
    clock: Clock,
    store: Mutex<Store>,
    in_flight: Mutex<HashMap<(String, i64), Flight>>,
    hits: AtomicU64,
    misses: AtomicU64,
    coalesced: AtomicU64,
    evictions: AtomicU64,
}

/// What an entry costs besides its key and body.
const ENTRY_OVERHEAD: usize = 96;

/// Leaves the in-flight table when the request that joined a flight is done (or dropped).
struct Boarding<'a> {
    cache: &'a ReadCache,
    key: Option<(String, i64)>,
    flight: Flight,
}

impl Drop for Boarding<'_> {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            let mut in_flight = self.cache.in_flight.lock().unwrap_or_else(|e| e.into_inner());
            if in_flight.get(&key).is_some_and(|f| Arc::ptr_eq(f, &self.flight)) {
                in_flight.remove(&key);
            }
        }
    }
}

/// JSON bytes of an answer.
pub fn encode<T: Serialize>(value: &T) -> anyhow::Result<Bytes> {
    Ok(Bytes::from(serde_json::to_vec(value)?))
}

impl ReadCache {
    pub fn new(limits: Limits) -> ReadCache {
        ReadCache {
            limits,
            clock: Clock::default(),
            store: Mutex::new(Store { lru: LruCache::unbounded(), bytes: 0 }),
            in_flight: Mutex::new(HashMap::new()),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            coalesced: AtomicU64::new(0),
            evictions: AtomicU64::new(0),
        }
    }

    pub fn enabled(&self) -> bool {
        self.limits.max_bytes > 0 && self.limits.max_entries > 0
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    pub fn stats(&self) -> Stats {
        let (entries, bytes) = {
            let store = self.lock_store();
            (store.lru.len(), store.bytes)
        };
        Stats {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            coalesced: self.coalesced.load(Ordering::Relaxed),
            evictions: self.evictions.load(Ordering::Relaxed),
            checks: self.clock.checks(),
            entries,
            bytes,
        }
    }

    fn lock_store(&self) -> std::sync::MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The answer for `key`: from the cache when it was computed under the generations
    /// `depends` names as they are now, else computed by `compute` (once for all concurrent
    /// requests of the key) and kept. `compute` is given the generations the answer is kept
    /// under, for the parts it reads through [`ReadCache::get_or_compute_under`].
    pub async fn get_or_compute<E, F, Fut>(
        &self,
        pool: &PgPool,
        key: String,
        depends: &Depends,
        compute: F,
    ) -> Result<Bytes, E>
    where
        E: From<sqlx::Error>,
        F: FnOnce(Arc<Generations>) -> Fut,
        Fut: Future<Output = Result<Bytes, E>>,
    {
        if !self.enabled() {
            return compute(Arc::default()).await;
        }
        let generations = self.clock.now(pool).await?;
        let (body, outcome) = self.through(generations, key, depends, compute).await?;
        // Literal labels: the macro then builds no label list per answer.
        match outcome {
            Outcome::Hit => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                metrics::counter!("paysite_catalog_read_cache_answers_total", "outcome" => "hit").increment(1);
            }
            Outcome::Led => {
                self.misses.fetch_add(1, Ordering::Relaxed);
                metrics::counter!("paysite_catalog_read_cache_answers_total", "outcome" => "miss").increment(1);
            }
            Outcome::Waited => {
                self.coalesced.fetch_add(1, Ordering::Relaxed);
                metrics::counter!("paysite_catalog_read_cache_answers_total", "outcome" => "coalesced").increment(1);
            }
        }
        Ok(body)
    }

    /// A part of an answer being computed under `generations` (the search's candidate set,
    /// shared by its pages): cached like an answer, under the same generations as the answer
    /// that asks (no check of its own), and not counted in [`Stats`], which counts answers.
    pub async fn get_or_compute_under<E, F, Fut>(
        &self,
        generations: &Arc<Generations>,
        key: String,
        depends: &Depends,
        compute: F,
    ) -> Result<Bytes, E>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Bytes, E>>,
    {
        if !self.enabled() {
            return compute().await;
        }
        Ok(self.through(generations.clone(), key, depends, |_| compute()).await?.0)
    }

    async fn through<E, F, Fut>(
        &self,
        generations: Arc<Generations>,
        key: String,
        depends: &Depends,
        compute: F,
    ) -> Result<(Bytes, Outcome), E>
    where
        F: FnOnce(Arc<Generations>) -> Fut,
        Fut: Future<Output = Result<Bytes, E>>,
    {
        let tag = depends.tag(&generations);
        if let Some(body) = self.lookup(&key, tag) {
            return Ok((body, Outcome::Hit));
        }
        let flight_key = (key, tag);
        let flight = {
            let mut in_flight = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
            in_flight.entry(flight_key.clone()).or_default().clone()
        };
        let boarding = Boarding { cache: self, key: Some(flight_key), flight: flight.clone() };
        let led = AtomicBool::new(false);
        let body = flight
            .get_or_try_init(|| {
                led.store(true, Ordering::Relaxed);
                async {
                    let body = compute(generations).await?;
                    if let Some((key, tag)) = &boarding.key {
                        self.insert(key, *tag, body.clone());
                    }
                    Ok::<Bytes, E>(body)
                }
            })
            .await?
            .clone();
        drop(boarding);
        Ok((body, if led.load(Ordering::Relaxed) { Outcome::Led } else { Outcome::Waited }))
    }

    fn lookup(&self, key: &str, tag: i64) -> Option<Bytes> {
        let packed = {
            let mut store = self.lock_store();
            match store.lru.get(key) {
                // Shared, so the lock is not held while decompressing.
                Some(e) if e.tag == tag => e.packed.clone(),
                _ => return None,
            }
        };
        // Only this process wrote it; should it ever fail to decompress, recompute.
        lz4_flex::decompress_size_prepended(&packed).ok().map(Bytes::from)
    }

    fn insert(&self, key: &str, tag: i64, body: Bytes) {
        let packed = Bytes::from(lz4_flex::compress_prepend_size(&body));
        let size = key.len() + packed.len() + ENTRY_OVERHEAD;
        // One answer may not take more than an eighth of the cache.
        if size > self.limits.max_bytes / 8 {
            return;
        }
        let (entries, bytes, evicted) = {
            let mut store = self.lock_store();
            if let Some(old) = store.lru.peek(key) {
                if old.tag > tag {
                    // A newer answer got there first.
                    return;
                }
            }
            if let Some(old) = store.lru.put(key.to_owned(), Entry { tag, packed, size }) {
                store.bytes -= old.size;
            }
            store.bytes += size;
            let mut evicted = 0u64;
            while store.bytes > self.limits.max_bytes || store.lru.len() > self.limits.max_entries {
                let Some((_, old)) = store.lru.pop_lru() else { break };
                store.bytes -= old.size;
                evicted += 1;
            }
            (store.lru.len(), store.bytes, evicted)
        };
        // Reported after the lock is let go.
        if evicted > 0 {
            self.evictions.fetch_add(evicted, Ordering::Relaxed);
            metrics::counter!("paysite_catalog_read_cache_evictions_total").increment(evicted);
        }
        metrics::gauge!("paysite_catalog_read_cache_entries").set(entries as f64);
        metrics::gauge!("paysite_catalog_read_cache_bytes").set(bytes as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generations(pairs: &[(&str, i64)]) -> Generations {
        Generations {
            scopes: pairs.iter().map(|(s, g)| ((*s).to_owned(), *g)).collect(),
            total: pairs.iter().map(|(_, g)| g).sum(),
        }
    }

    #[test]
    fn a_listing_depends_on_its_site_only() {
        let g = generations(&[("vixen", 5), ("tushy", 7), (NAMES, 2), ("people:vixen", 11), (TERMS, 3)]);
        assert_eq!(Depends::listing("vixen").tag(&g), 5);
        assert_eq!(Depends::search("vixen").tag(&g), 5 + 2 + 11 + 3);
        assert_eq!(Depends::listing(tenants::global().combined().tenant.as_str()), Depends::Everything);
        assert_eq!(Depends::listing(tenants::global().combined().tenant.as_str()).tag(&g), 28);
        // A write on another site leaves the tag alone. A rename moves the names scope, which
        // the cards no longer read (the rename rewrites the named videos' rows, which moves
        // their sites); the search's name suggestions still read it.
        let other = generations(&[("vixen", 5), ("tushy", 8), (NAMES, 2), ("people:vixen", 11), (TERMS, 3)]);
        assert_eq!(Depends::listing("vixen").tag(&other), 5);
        let renamed = generations(&[("vixen", 5), ("tushy", 7), (NAMES, 3), ("people:vixen", 11), (TERMS, 3)]);
        assert_eq!(Depends::listing("vixen").tag(&renamed), 5);
        assert_eq!(Depends::search("vixen").tag(&renamed), Depends::search("vixen").tag(&g) + 1);
    }

    #[test]
    fn a_search_depends_on_its_own_sites_people_only() {
        let g = generations(&[("tushy", 7), (NAMES, 2), ("people:tushy", 11), ("people:vixen", 4), (TERMS, 3)]);
        assert_eq!(Depends::search("tushy").tag(&g), 7 + 2 + 11 + 3);
        // A performer of vixen only re-rated: tushy's search keeps its tag, vixen's moves.
        let rerated = generations(&[("tushy", 7), (NAMES, 2), ("people:tushy", 11), ("people:vixen", 5), (TERMS, 3)]);
        assert_eq!(Depends::search("tushy").tag(&rerated), Depends::search("tushy").tag(&g));
        assert_ne!(Depends::search("vixen").tag(&rerated), Depends::search("vixen").tag(&g));
        assert_eq!(Depends::search(tenants::global().combined().tenant.as_str()), Depends::Everything);
    }

    #[test]
    fn the_store_keeps_within_its_bounds_least_recently_used_out_first() {
        let cache = ReadCache::new(Limits { max_bytes: 10_000, max_entries: 3 });
        for k in ["a", "b", "c"] {
            cache.insert(k, 1, Bytes::from_static(b"{}"));
        }
        assert!(cache.lookup("a", 1).is_some()); // a is now the most recent
        cache.insert("d", 1, Bytes::from_static(b"{}"));
        assert!(cache.lookup("b", 1).is_none(), "the least recently used goes");
        assert!(cache.lookup("a", 1).is_some() && cache.lookup("c", 1).is_some());
        assert_eq!(cache.stats().entries, 3);
        assert_eq!(cache.stats().evictions, 1);

        let by_bytes = ReadCache::new(Limits { max_bytes: 4_000, max_entries: 1000 });
        by_bytes.insert("000", 1, incompressible(100, 0));
        // Key, the body as kept (it does not shrink) and the overhead.
        let each = by_bytes.stats().bytes;
        assert!((3 + 100 + ENTRY_OVERHEAD..3 + 120 + ENTRY_OVERHEAD).contains(&each), "{each}");
        for i in 1..100 {
            by_bytes.insert(&format!("{i:03}"), 1, incompressible(100, i));
            assert!(by_bytes.stats().bytes <= 4_000);
        }
        let fit = 4_000 / each;
        assert_eq!(by_bytes.stats().entries, fit);
        assert!(by_bytes.lookup("099", 1).is_some() && by_bytes.lookup(&format!("{:03}", 99 - fit), 1).is_none());
        // Larger than an eighth of the cache: not kept.
        by_bytes.insert("big", 1, incompressible(600, 7));
        assert!(by_bytes.lookup("big", 1).is_none());
    }

    /// Bytes LZ4 cannot shrink.
    fn incompressible(len: usize, seed: u64) -> Bytes {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect::<Vec<u8>>()
            .into()
    }

    #[test]
    fn bodies_are_kept_compressed_and_come_back_whole() {
        let cache = ReadCache::new(Limits::default());
        let card = r#"{"slug":"golden-morning-1234","images":{"src":"/media/placeholder/video/golden-morning-1234.svg?w=640&h=360&t=Golden%20Morning"}}"#;
        let page = Bytes::from(format!("[{}]", [card; 12].join(",")));
        cache.insert("page", 1, page.clone());
        assert_eq!(cache.lookup("page", 1), Some(page.clone()));
        let kept = cache.stats().bytes;
        assert!(kept < page.len() / 3, "{kept} bytes kept for {}", page.len());
    }

    #[test]
    fn an_answer_is_served_only_under_its_own_tag_and_never_replaced_by_an_older_one() {
        let cache = ReadCache::new(Limits::default());
        cache.insert("k", 2, Bytes::from_static(b"new"));
        cache.insert("k", 1, Bytes::from_static(b"old"));
        assert_eq!(cache.lookup("k", 2).as_deref(), Some(&b"new"[..]));
        assert!(cache.lookup("k", 1).is_none());
        assert!(cache.lookup("k", 3).is_none());
    }
}
