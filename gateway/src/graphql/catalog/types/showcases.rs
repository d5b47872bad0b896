//! Reels, showcases, angels and the wall.

use super::*;

/// A reel (quickie).
#[derive(SimpleObject)]
pub struct Reel {
    pub uuid: ID,
    pub site: String,
    pub title: String,
    pub video_id: ID,
    pub video_slug: Option<String>,
    pub duration: u32,
    pub published_at: DateTime<Utc>,
    pub views: i64,
    pub bookmarks: i64,
    pub image: Image,
    pub clip: Trailer,
    /// Whether the viewer bookmarked it.
    pub bookmarked: bool,
}

impl From<api::Reel> for Reel {
    fn from(r: api::Reel) -> Self {
        Reel {
            uuid: id(r.uuid),
            site: r.site,
            title: r.title,
            video_id: id(r.video_id),
            video_slug: r.video_slug,
            duration: r.duration,
            published_at: r.published_at,
            views: r.views,
            bookmarks: r.bookmarks,
            image: r.image.into(),
            clip: r.clip.into(),
            bookmarked: r.bookmarked,
        }
    }
}

#[derive(SimpleObject)]
pub struct ReelPage {
    pub reels: Vec<Reel>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
}

impl From<api::ReelPage> for ReelPage {
    fn from(p: api::ReelPage) -> Self {
        ReelPage {
            reels: p.reels.into_iter().map(Into::into).collect(),
            total_count: p.total_count,
            page: p.page,
            size: p.size,
        }
    }
}

#[derive(SimpleObject)]
pub struct Showcase {
    pub slug: String,
    pub title: String,
    pub description: String,
    pub videos: Vec<Video>,
    pub image: Image,
}

impl From<api::Showcase> for Showcase {
    fn from(s: api::Showcase) -> Self {
        Showcase {
            slug: s.slug,
            title: s.title,
            description: s.description,
            videos: videos(s.videos),
            image: s.image.into(),
        }
    }
}

#[derive(SimpleObject)]
#[graphql(complex)]
pub struct Angel {
    pub slug: String,
    pub name: String,
    pub bio: String,
    #[graphql(skip)]
    pub performer_ref: api::PerformerRef,
    pub image: Image,
    pub videos: Vec<Video>,
}

impl From<api::Angel> for Angel {
    fn from(a: api::Angel) -> Self {
        Angel {
            slug: a.slug,
            name: a.name,
            bio: a.bio,
            performer_ref: a.performer,
            image: a.image.into(),
            videos: videos(a.videos),
        }
    }
}

#[ComplexObject]
impl Angel {
    async fn performer(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<Performer>> {
        Ok(performers(ctx, std::slice::from_ref(&self.performer_ref)).await?.pop())
    }
}

/// A post of the curator wall.
#[derive(SimpleObject)]
pub struct CuratorPost {
    pub id: ID,
    pub title: String,
    pub text: String,
    pub published_at: DateTime<Utc>,
    pub video: Option<Video>,
}

impl From<api::CuratorPost> for CuratorPost {
    fn from(p: api::CuratorPost) -> Self {
        CuratorPost {
            id: id(p.id),
            title: p.title,
            text: p.text,
            published_at: p.published_at,
            video: p.video.map(Video),
        }
    }
}
