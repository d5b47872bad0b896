//! Whether a well-formed slug names something the brand has, asked at the edge so that
//! `/videos/some-valid-looking-slug` answers 404 with the not-found page, as the SPA's loader
//! would, for crawlers and curl too; and, when it does, what the page's head says of it
//! (crate::head: its name, description and picture).
//!
//! One catalog call per lookup, as the visitor (the brand's catalog, no user): found or
//! not-found answers are kept for [`TTL`] per brand and lookup, so a crawler walking a
//! listing costs the catalog one call per page and minute, not one per request. A catalog
//! that cannot answer leaves the page at 200: the SPA's own loader still shows not-found for
//! what does not exist, and a hiccup must not turn the whole site into 404s.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use catalog_contract::client::Paging;
use runtime::client::{CallContext, UpstreamError};

use crate::{graphql::Upstreams, head::Facts, routes::Lookup};

/// What the catalog answered for a lookup: what it found, or `None` for not found.
pub type Found = Option<Arc<Facts>>;

/// How long an answer is kept.
pub const TTL: Duration = Duration::from_secs(30);
/// Most answers kept; past it the expired ones go, and if none had, all of them.
pub const CAPACITY: usize = 10_000;

/// The catalog's recent answers, by brand and lookup.
#[derive(Default)]
pub struct SlugCache {
    answers: Mutex<HashMap<(String, Lookup), (Found, Instant)>>,
}

impl SlugCache {
    fn get(&self, key: &(String, Lookup), now: Instant) -> Option<Found> {
        let answers = self.answers.lock().expect("slug cache");
        answers.get(key).filter(|(_, at)| now.duration_since(*at) < TTL).map(|(found, _)| found.clone())
    }

    fn put(&self, key: (String, Lookup), found: Found, now: Instant) {
        let mut answers = self.answers.lock().expect("slug cache");
        if answers.len() >= CAPACITY {
            answers.retain(|_, (_, at)| now.duration_since(*at) < TTL);
            if answers.len() >= CAPACITY {
                answers.clear();
            }
        }
        answers.insert(key, (found, now));
    }

    /// Whether `tenant` has what `lookup` names: `Some(Some(facts))` found, `Some(None)` not
    /// found, or `None` when the catalog could not say.
    pub async fn find(&self, upstreams: &Upstreams, tenant: &str, lookup: &Lookup) -> Option<Found> {
        let key = (tenant.to_owned(), lookup.clone());
        if let Some(found) = self.get(&key, Instant::now()) {
            return Some(found);
        }
        let found = ask(upstreams, tenant, lookup).await?;
        self.put(key, found.clone(), Instant::now());
        Some(found)
    }
}

/// One catalog call: found (with what the head says of it), not found, or `None` for anything
/// else (unreachable, failing).
async fn ask(upstreams: &Upstreams, tenant: &str, lookup: &Lookup) -> Option<Found> {
    let catalog = &upstreams.catalog;
    let caller = CallContext::anonymous(tenant);
    let one = Paging { page: Some(1), size: Some(1) };
    let answer: Result<Option<Facts>, UpstreamError> = match lookup {
        Lookup::Video(slug) => catalog.video(&caller, slug, 0, false).await.map(|d| Some(Facts::of_video(&d.video))),
        Lookup::Performer(slug) => catalog
            .performers_by(&caller, &[], std::slice::from_ref(slug))
            .await
            .map(|found| found.first().map(|p| Facts::named(&p.name, "", &p.image))),
        Lookup::Channel(slug) => {
            catalog.channel(&caller, slug).await.map(|c| Some(Facts::named(&c.name, "", &c.image)))
        }
        Lookup::ChannelPack { channel, pack } => catalog
            .channel_pack(&caller, channel, pack, &one)
            .await
            .map(|d| Some(Facts::named(&d.pack.name, "", &d.channel.image))),
        Lookup::ChannelVideo { channel, video } => catalog
            .video(&caller, video, 0, false)
            .await
            .map(|d| d.video.channel.as_ref().is_some_and(|c| c.slug == *channel).then(|| Facts::of_video(&d.video))),
        Lookup::Angel(slug) => {
            catalog.angel(&caller, slug).await.map(|a| Some(Facts::named(&a.name, &a.bio, &a.image)))
        }
        Lookup::Showcase(slug) => {
            catalog.showcase(&caller, slug).await.map(|s| Some(Facts::named(&s.title, &s.description, &s.image)))
        }
    };
    match answer {
        Ok(found) => Some(found.map(Arc::new)),
        Err(e) if e.status() == Some(404) => Some(None),
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
        let found: Found = Some(Arc::new(Facts { name: "A B".into(), ..Facts::default() }));
        cache.put(key("vixen"), found.clone(), now);
        assert_eq!(cache.get(&key("vixen"), now + TTL / 2), Some(found));
        assert_eq!(cache.get(&key("tushy"), now), None, "another brand asks for itself");
        assert_eq!(cache.get(&key("vixen"), now + TTL), None, "expired");
    }

    #[test]
    fn a_full_cache_drops_what_expired_first() {
        let cache = SlugCache::default();
        let start = Instant::now();
        for i in 0..CAPACITY {
            let found = (i % 2 == 0).then(|| Arc::new(Facts::default()));
            cache.put(("vixen".into(), Lookup::Video(format!("v-{i}"))), found, start);
        }
        let later = start + TTL;
        cache.put(("vixen".into(), Lookup::Video("fresh".into())), None, later);
        assert_eq!(cache.answers.lock().unwrap().len(), 1);
        assert_eq!(cache.get(&("vixen".into(), Lookup::Video("fresh".into())), later), Some(None));
    }
}
