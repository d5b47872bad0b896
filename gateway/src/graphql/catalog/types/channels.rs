//! Channels and their packs.

use super::*;

#[derive(SimpleObject)]
#[graphql(complex)]
pub struct ChannelPack {
    pub channel_pack_id: ID,
    pub channel_id: ID,
    pub slug: String,
    pub name: String,
    pub video_ids: Vec<ID>,
}

#[ComplexObject]
impl ChannelPack {
    /// The pack's videos (all at once for every pack of the page).
    async fn videos(&self, ctx: &Context<'_>) -> async_graphql::Result<Vec<Video>> {
        let ids: Vec<uuid::Uuid> = self.video_ids.iter().filter_map(|v| uuid::Uuid::parse_str(v).ok()).collect();
        let found = loaders::get(ctx)?.videos.load_many(ids.iter().copied()).await?;
        Ok(ids.iter().filter_map(|i| found.get(i).cloned().map(Video)).collect())
    }
}

impl From<api::ChannelPack> for ChannelPack {
    fn from(p: api::ChannelPack) -> Self {
        ChannelPack {
            channel_pack_id: id(p.channel_pack_id),
            channel_id: id(p.channel_id),
            slug: p.slug,
            name: p.name,
            video_ids: p.video_ids.into_iter().map(id).collect(),
        }
    }
}

pub struct Channel(pub api::Channel);

#[Object]
impl Channel {
    async fn channel_id(&self) -> ID {
        id(self.0.channel_id)
    }
    async fn slug(&self) -> &str {
        &self.0.slug
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    async fn is_third_party(&self) -> bool {
        self.0.is_third_party
    }
    /// `Compilations`, `Behind The Scenes`, `Intimates`, or none.
    async fn category(&self) -> Option<&str> {
        self.0.category.as_deref()
    }
    async fn sites(&self) -> Vec<String> {
        self.0.sites.clone()
    }
    async fn video_count(&self) -> i64 {
        self.0.video_count
    }
    async fn packs(&self) -> Vec<ChannelPack> {
        self.0.packs.iter().cloned().map(Into::into).collect()
    }
    async fn image(&self) -> Image {
        self.0.image.clone().into()
    }
    async fn is_favorite(&self, ctx: &Context<'_>) -> async_graphql::Result<bool> {
        loaders::is_favorite(ctx, FavoriteKind::Channel, self.0.channel_id).await
    }
}

#[derive(SimpleObject)]
pub struct ChannelPage {
    pub channels: Vec<Channel>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
}

impl From<api::ChannelPage> for ChannelPage {
    fn from(p: api::ChannelPage) -> Self {
        ChannelPage {
            channels: p.channels.into_iter().map(Channel).collect(),
            total_count: p.total_count,
            page: p.page,
            size: p.size,
        }
    }
}

/// A channel pack's page: the pack, its channel and a page of its videos.
#[derive(SimpleObject)]
pub struct ChannelPackDetail {
    pub channel: Channel,
    pub pack: ChannelPack,
    pub videos: VideoPage,
}
