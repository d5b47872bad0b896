//! The request's DataLoaders: performers, channels and videos by id, the signed-in user's
//! favourites among them, and comment authors' badges and types ([`super::authors`]). Every
//! field of a page that needs one of these asks its loader; the loader waits a moment, gathers
//! the keys the whole page asked for and makes one batch call (`performers/batch`,
//! `channels/batch`, `videos/batch`, `favourites/check` per kind, the profile's
//! `users/public`), so a page costs a fixed number of internal calls whatever it holds.
//!
//! Loaders are per operation (they carry the caller's tenant and token, and cache what they
//! loaded for the rest of it): the `/graphql` handler builds them with the operation's data.

use std::{collections::HashMap, sync::Arc};

use async_graphql::{
    dataloader::{DataLoader, HashMapCache, Loader},
    Context, Enum, Lookahead,
};
use catalog_contract::api;
use runtime::client::CallContext;
use uuid::Uuid;

use super::{
    authors::{AuthorLoader, MAX_PUBLIC_PROFILES},
    refused,
};
use crate::graphql::{context::RequestCtx, Upstreams};

/// The catalog's batch endpoints take at most this many ids.
pub const MAX_BATCH_IDS: usize = 200;
/// favourites/check takes at most this many (the spec's favourite batch size).
pub const FAVORITE_BATCH: usize = 100;

/// What a favourite is of.
#[derive(Enum, Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[graphql(rename_items = "lowercase")]
pub enum FavoriteKind {
    Video,
    Performer,
    Channel,
}

impl FavoriteKind {
    /// The catalog's name for it.
    pub fn key(self) -> &'static str {
        match self {
            FavoriteKind::Video => "video",
            FavoriteKind::Performer => "performer",
            FavoriteKind::Channel => "channel",
        }
    }
}

/// One request's loaders.
pub struct CatalogLoaders {
    pub performers: DataLoader<PerformerLoader, HashMapCache>,
    pub channels: DataLoader<ChannelLoader, HashMapCache>,
    pub videos: DataLoader<VideoLoader, HashMapCache>,
    /// None for visitors: they have no favourites.
    pub favorites: Option<DataLoader<FavoriteLoader, HashMapCache>>,
    /// Comment authors' badges and user types, from the profile service.
    pub authors: DataLoader<AuthorLoader, HashMapCache>,
}

impl CatalogLoaders {
    /// The loaders of one operation of `request`.
    pub fn new(upstreams: Arc<Upstreams>, request: &RequestCtx) -> Self {
        let authors = AuthorLoader::new(upstreams.clone(), request);
        let base = Base { upstreams, caller: Arc::new(super::caller_of(request)) };
        let signed_in = base.caller.bearer.is_some();
        CatalogLoaders {
            authors: DataLoader::with_cache(authors, tokio::spawn, HashMapCache::default())
                .max_batch_size(MAX_PUBLIC_PROFILES),
            performers: DataLoader::with_cache(PerformerLoader(base.clone()), tokio::spawn, HashMapCache::default())
                .max_batch_size(MAX_BATCH_IDS),
            channels: DataLoader::with_cache(ChannelLoader(base.clone()), tokio::spawn, HashMapCache::default())
                .max_batch_size(MAX_BATCH_IDS),
            videos: DataLoader::with_cache(VideoLoader(base.clone()), tokio::spawn, HashMapCache::default())
                .max_batch_size(MAX_BATCH_IDS),
            favorites: signed_in.then(|| {
                DataLoader::with_cache(FavoriteLoader(base), tokio::spawn, HashMapCache::default())
                    .max_batch_size(FAVORITE_BATCH)
            }),
        }
    }
}

#[derive(Clone)]
pub struct Base {
    upstreams: Arc<Upstreams>,
    caller: Arc<CallContext>,
}

pub struct PerformerLoader(Base);
pub struct ChannelLoader(Base);
pub struct VideoLoader(Base);
pub struct FavoriteLoader(Base);

impl Loader<Uuid> for PerformerLoader {
    type Value = api::Performer;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[Uuid]) -> Result<HashMap<Uuid, api::Performer>, Self::Error> {
        let found = self.0.upstreams.catalog.performers_by(&self.0.caller, keys, &[]).await.map_err(refused)?;
        Ok(found.into_iter().map(|p| (p.id, p)).collect())
    }
}

impl Loader<Uuid> for ChannelLoader {
    type Value = api::Channel;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[Uuid]) -> Result<HashMap<Uuid, api::Channel>, Self::Error> {
        let found = self.0.upstreams.catalog.channels_by(&self.0.caller, keys, &[]).await.map_err(refused)?;
        Ok(found.into_iter().map(|c| (c.channel_id, c)).collect())
    }
}

impl Loader<Uuid> for VideoLoader {
    type Value = api::Video;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[Uuid]) -> Result<HashMap<Uuid, api::Video>, Self::Error> {
        let found = self.0.upstreams.catalog.videos_by_ids(&self.0.caller, keys).await.map_err(refused)?;
        Ok(found.into_iter().filter(|v| v.published).map(|v| (v.uuid, v)).collect())
    }
}

impl Loader<(FavoriteKind, Uuid)> for FavoriteLoader {
    type Value = bool;
    type Error = async_graphql::Error;

    /// One favourites/check per kind asked for (a page of videos with their performers and
    /// channels asks three).
    async fn load(&self, keys: &[(FavoriteKind, Uuid)]) -> Result<HashMap<(FavoriteKind, Uuid), bool>, Self::Error> {
        let mut by_kind: HashMap<FavoriteKind, Vec<Uuid>> = HashMap::new();
        for (kind, id) in keys {
            by_kind.entry(*kind).or_default().push(*id);
        }
        let catalog = &self.0.upstreams.catalog;
        let answers = futures::future::try_join_all(by_kind.iter().map(|(kind, ids)| async move {
            let answer = catalog.favourites_among(&self.0.caller, kind.key(), ids).await.map_err(refused)?;
            Ok::<_, async_graphql::Error>((*kind, ids, answer.ids))
        }))
        .await?;
        let mut out = HashMap::new();
        for (kind, asked, favourites) in answers {
            for id in asked {
                out.insert((kind, *id), favourites.contains(id));
            }
        }
        Ok(out)
    }
}

/// The request's loaders.
pub fn get<'a>(ctx: &'a Context<'_>) -> async_graphql::Result<&'a CatalogLoaders> {
    ctx.data::<CatalogLoaders>()
}

/// Whether the signed-in user favourited an item; false for visitors (no call made).
pub async fn is_favorite(ctx: &Context<'_>, kind: FavoriteKind, id: Uuid) -> async_graphql::Result<bool> {
    match &get(ctx)?.favorites {
        None => Ok(false),
        Some(loader) => Ok(loader.load_one((kind, id)).await?.unwrap_or(false)),
    }
}

/// What a video's performer reference answers without loading the performer.
pub const PERFORMER_REF_FIELDS: [&str; 5] = ["id", "slug", "name", "isFavorite", "__typename"];
/// What a video's channel reference answers without loading the channel.
pub const CHANNEL_REF_FIELDS: [&str; 6] =
    ["channelId", "slug", "channelPackId", "category", "isFavorite", "__typename"];

/// Whether the current field's selection asks for anything beyond `fields`.
pub fn selects_beyond(ctx: &Context<'_>, fields: &[&str]) -> bool {
    ctx.field().selection_set().any(|f| !fields.contains(&f.name()))
}

fn asks_beyond(look: &Lookahead<'_>, fields: &[&str]) -> bool {
    look.selection_fields().iter().any(|f| f.selection_set().any(|s| !fields.contains(&s.name())))
}

/// Whether a selection of videos' `performers` asks for more than a video's performer
/// reference answers: then the performers' whole cards are needed.
pub fn asks_performer_cards(performers: &Lookahead<'_>) -> bool {
    performers.exists() && asks_beyond(performers, &PERFORMER_REF_FIELDS)
}

/// Performers' whole cards a service answered along with a page (`VideoPage::performers`),
/// kept for the rest of the operation: the page's `performers` fields then make no call.
pub async fn keep_performers(ctx: &Context<'_>, performers: Vec<api::Performer>) -> async_graphql::Result<()> {
    if !performers.is_empty() {
        get(ctx)?.performers.feed_many(performers.into_iter().map(|p| (p.id, p))).await;
    }
    Ok(())
}

/// Loads, in one batch each, what the current field's videos will ask for (their
/// performers, their channels, the user's favourites among them all), so that the page's
/// cost does not depend on how the executor happens to interleave the fields; the fields
/// then read the request's cache.
pub async fn prefetch_videos(ctx: &Context<'_>, videos: &[api::Video]) -> async_graphql::Result<()> {
    if videos.is_empty() {
        return Ok(());
    }
    let loaders = get(ctx)?;
    let look = ctx.look_ahead();
    let mut favorites = Vec::new();
    if look.field("isFavorite").exists() {
        favorites.extend(videos.iter().map(|v| (FavoriteKind::Video, v.uuid)));
    }
    let performers = look.field("performers");
    let mut performer_ids: Vec<Uuid> = videos.iter().flat_map(|v| v.performers.iter().map(|p| p.id)).collect();
    performer_ids.sort_unstable();
    performer_ids.dedup();
    if performers.field("isFavorite").exists() {
        favorites.extend(performer_ids.iter().map(|id| (FavoriteKind::Performer, *id)));
    }
    if !asks_performer_cards(&performers) {
        performer_ids.clear();
    }
    let channel = look.field("channel");
    let mut channel_ids: Vec<Uuid> = videos.iter().filter_map(|v| v.channel.as_ref().map(|c| c.channel_id)).collect();
    channel_ids.sort_unstable();
    channel_ids.dedup();
    if channel.field("isFavorite").exists() {
        favorites.extend(channel_ids.iter().map(|id| (FavoriteKind::Channel, *id)));
    }
    if !(channel.exists() && asks_beyond(&channel, &CHANNEL_REF_FIELDS)) {
        channel_ids.clear();
    }
    let performers = async {
        if !performer_ids.is_empty() {
            loaders.performers.load_many(performer_ids).await?;
        }
        Ok::<_, async_graphql::Error>(())
    };
    let channels = async {
        if !channel_ids.is_empty() {
            loaders.channels.load_many(channel_ids).await?;
        }
        Ok(())
    };
    let favorites = async {
        if let (Some(loader), false) = (&loaders.favorites, favorites.is_empty()) {
            loader.load_many(favorites).await?;
        }
        Ok(())
    };
    futures::try_join!(performers, channels, favorites)?;
    Ok(())
}
