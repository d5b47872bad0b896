//! Whether a well-formed slug names something the brand has, asked at the edge so that
//! `/videos/some-valid-looking-slug` answers 404 with the not-found page, as the SPA's loader
//! would, for crawlers and curl too.
//!
//! One catalog call per lookup, as the visitor (the brand's catalog, no user): found or
//! not-found answers are kept for [`TTL`] per brand and lookup, so a crawler walking a
//! listing costs the catalog one call per page and minute, not one per request. A catalog
//! that cannot answer leaves the page at 200: the SPA's own loader still shows not-found for
//! what does not exist, and a hiccup must not turn the whole site into 404s.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use catalog_contract::client::Paging;
use runtime::client::{CallContext, UpstreamError};

use crate::{graphql::Upstreams, routes::Lookup};

/// How long an answer is kept.
pub const TTL: Duration = Duration::from_secs(30);
/// Most answers kept; past it the expired ones go, and if none had, all of them.
pub const CAPACITY: usize = 10_000;

/// The catalog's recent answers, by brand and lookup.
#[derive(Default)]
pub struct SlugCache {
    answers: Mutex<HashMap<(String, Lookup), (bool, Instant)>>,
}

impl SlugCache {
    fn get(&self, key: &(String, Lookup), now: Instant) -> Option<bool> {
        let answers = self.answers.lock().expect("slug cache");
        answers.get(key).filter(|(_, at)| now.duration_since(*at) < TTL).map(|(found, _)| *found)
    }

    fn put(&self, key: (String, Lookup), found: bool, now: Instant) {
        let mut answers = self.answers.lock().expect("slug cache");
        if answers.len() >= CAPACITY {
            answers.retain(|_, (_, at)| now.duration_since(*at) < TTL);
            if answers.len() >= CAPACITY {
                answers.clear();
            }
        }
        answers.insert(key, (found, now));
    }

    /// Whether `tenant` has what `lookup` names: `Some(found)`, or `None` when the catalog could
    /// not say.
    pub async fn exists(&self, upstreams: &Upstreams, tenant: &str, lookup: &Lookup) -> Option<bool> {
        let key = (tenant.to_owned(), lookup.clone());
        if let Some(found) = self.get(&key, Instant::now()) {
            return Some(found);
        }
        let found = ask(upstreams, tenant, lookup).await?;
        self.put(key, found, Instant::now());
        Some(found)
    }
}

/// One catalog call: found, not found, or `None` for anything else (unreachable, failing).
async fn ask(upstreams: &Upstreams, tenant: &str, lookup: &Lookup) -> Option<bool> {
    let catalog = &upstreams.catalog;
    let caller = CallContext::anonymous(tenant);
    let one = Paging { page: Some(1), size: Some(1) };
    let answer: Result<bool, UpstreamError> = match lookup {
        Lookup::Video(slug) => catalog.video(&caller, slug, 0, false).await.map(|_| true),
        Lookup::Performer(slug) => {
            catalog.performers_by(&caller, &[], std::slice::from_ref(slug)).await.map(|found| !found.is_empty())
        }
        Lookup::Channel(slug) => catalog.channel(&caller, slug).await.map(|_| true),
        Lookup::ChannelPack { channel, pack } => catalog.channel_pack(&caller, channel, pack, &one).await.map(|_| true),
        Lookup::ChannelVideo { channel, video } => {
            catalog.video(&caller, video, 0, false).await.map(|d| d.video.channel.is_some_and(|c| c.slug == *channel))
        }
        Lookup::Angel(slug) => catalog.angel(&caller, slug).await.map(|_| true),
        Lookup::Showcase(slug) => catalog.showcase(&caller, slug).await.map(|_| true),
    };
    match answer {
        Ok(found) => Some(found),
        Err(e) if e.status() == Some(404) => Some(false),
        Err(error) => {
            tracing::warn!(%error, ?lookup, "slug lookup failed, page served");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_kept_for_the_ttl_per_brand() {
        let cache = SlugCache::default();
        let now = Instant::now();
        let key = |t: &str| (t.to_owned(), Lookup::Video("a-b".into()));
        cache.put(key("vixen"), true, now);
        assert_eq!(cache.get(&key("vixen"), now + TTL / 2), Some(true));
        assert_eq!(cache.get(&key("tushy"), now), None, "another brand asks for itself");
        assert_eq!(cache.get(&key("vixen"), now + TTL), None, "expired");
    }

    #[test]
    fn a_full_cache_drops_what_expired_first() {
        let cache = SlugCache::default();
        let start = Instant::now();
        for i in 0..CAPACITY {
            cache.put(("vixen".into(), Lookup::Video(format!("v-{i}"))), i % 2 == 0, start);
        }
        let later = start + TTL;
        cache.put(("vixen".into(), Lookup::Video("fresh".into())), true, later);
        assert_eq!(cache.answers.lock().unwrap().len(), 1);
        assert_eq!(cache.get(&("vixen".into(), Lookup::Video("fresh".into())), later), Some(true));
    }
}
