//! Comments, ratings, the expert review and favourites. Reading comments is open; every write
//! is the signed-in user's, counts one against their `Write` rate limit, and is decided by
//! the catalog (duplicates, banned words, repeat votes, overall rating first, moderators by
//! the token's groups), whose refusals keep the spec's messages.

use async_graphql::{Context, Object, ID};
use catalog_contract::api;

use access::abilities::{action, subject};

use super::{authors, brand, caller, loaders::FavoriteKind, paging, refused, types::*, uuid};
use crate::graphql::{
    abilities,
    context::{limit, request, upstreams},
    errors,
    limits::Bucket,
};

#[derive(Default)]
pub struct CommunityQuery;

#[derive(Default)]
pub struct CommunityMutation;

/// Comments per page unless asked (load more asks for the next page with `after`).
pub const DEFAULT_COMMENT_PAGE: i32 = 10;
/// Largest page of comments.
pub const MAX_COMMENT_PAGE: i32 = 100;

fn viewer_id(ctx: &Context<'_>) -> Option<uuid::Uuid> {
    request(ctx).viewer.as_ref().map(|v| v.id())
}

fn comment_size(size: i32) -> async_graphql::Result<i64> {
    if (1..=MAX_COMMENT_PAGE).contains(&size) {
        Ok(i64::from(size))
    } else {
        Err(errors::bad_input(format!("size must be between 1 and {MAX_COMMENT_PAGE}")))
    }
}

/// The signed-in user, after counting one write against their limit.
fn writing(ctx: &Context<'_>) -> async_graphql::Result<()> {
    request(ctx).viewer()?;
    limit(ctx, Bucket::Write)
}

/// Pin, unpin and remove are the moderators' (admin, commenteditor): refused at the door to
/// anyone else, and checked again by the catalog.
fn moderating(ctx: &Context<'_>) -> async_graphql::Result<()> {
    let viewer = request(ctx).viewer()?;
    let groups: Vec<access::Group> = viewer.claims.groups.iter().filter_map(|g| access::Group::from_name(g)).collect();
    if !access::is_moderator(&groups) {
        return Err(errors::forbidden());
    }
    limit(ctx, Bucket::Write)
}

/// Writing about a video (a comment, a reply, a rating, a review) is for who may comment on it:
/// where they may play it (members of its site outside a locked pack, unlocks, the active free
/// limited trial's videos). The video must be the host's brand's.
async fn may_comment_on(ctx: &Context<'_>, video: uuid::Uuid) -> async_graphql::Result<()> {
    let video = brand::video(ctx, video).await?;
    abilities::require(ctx, action::COMMENT_ON, subject::VIDEO, Some(&abilities::video_facts(&video))).await
}

/// The expert review (its modal, its answers) needs "see ExpertReviewModal": the tenant's flag or
/// the preview role, signed in, and the free limited trial only while active.
async fn reviewing(ctx: &Context<'_>) -> async_graphql::Result<()> {
    request(ctx).viewer()?;
    abilities::require(ctx, action::SEE, subject::EXPERT_REVIEW_MODAL, None).await
}

#[Object]
impl CommunityQuery {
    /// A video's comments (replies are under each comment): sort (newest default, oldest,
    /// top), `size` per page, and `after` the previous page's nextCursor to load more.
    async fn comments(
        &self,
        ctx: &Context<'_>,
        video_id: ID,
        #[graphql(default_with = "Some(CommentSort::Newest)")] sort: Option<CommentSort>,
        after: Option<String>,
        #[graphql(default_with = "Some(10)")] size: Option<i32>,
    ) -> async_graphql::Result<CommentPage> {
        let (sort, size) = (sort.unwrap_or_default(), size.unwrap_or(DEFAULT_COMMENT_PAGE));
        let video = uuid(&video_id, "video")?;
        brand::video(ctx, video).await?;
        let p = upstreams(ctx)
            .catalog
            .comments(&caller(ctx), video, sort.key(), after.as_deref(), comment_size(size)?)
            .await
            .map_err(refused)?;
        authors::prefetch(ctx, &p.comments).await;
        Ok(CommentPage::of(p, viewer_id(ctx)))
    }

    /// A comment's replies, oldest first, a page at a time (`after` to load more).
    async fn comment_replies(
        &self,
        ctx: &Context<'_>,
        comment_id: ID,
        after: Option<String>,
        #[graphql(default_with = "Some(10)")] size: Option<i32>,
    ) -> async_graphql::Result<CommentPage> {
        let size = size.unwrap_or(DEFAULT_COMMENT_PAGE);
        let comment = uuid(&comment_id, "comment")?;
        brand::comment(ctx, comment).await?;
        let p = upstreams(ctx)
            .catalog
            .replies(&caller(ctx), comment, after.as_deref(), comment_size(size)?)
            .await
            .map_err(refused)?;
        authors::prefetch(ctx, &p.comments).await;
        Ok(CommentPage::of(p, viewer_id(ctx)))
    }

    /// The signed-in user's expert review and rating of a video.
    async fn expert_review(&self, ctx: &Context<'_>, video_id: ID) -> async_graphql::Result<ExpertReviewAnswer> {
        request(ctx).viewer()?;
        let video = uuid(&video_id, "video")?;
        brand::video(ctx, video).await?;
        reviewing(ctx).await?;
        Ok(upstreams(ctx).catalog.expert_review(&caller(ctx), video).await.map_err(refused)?.into())
    }

    /// A page of the signed-in user's favourite videos, performers or channels (most recent
    /// first).
    async fn favorites(
        &self,
        ctx: &Context<'_>,
        kind: FavoriteKind,
        page: Option<i32>,
        size: Option<i32>,
    ) -> async_graphql::Result<FavoritePage> {
        request(ctx).viewer()?;
        let p =
            upstreams(ctx).catalog.favourites(&caller(ctx), kind.key(), &paging(page, size)).await.map_err(refused)?;
        Ok(FavoritePage {
            kind,
            total_count: p.total_count,
            page: p.page,
            size: p.size,
            videos: videos(p.videos),
            performers: p.performers.into_iter().map(Performer::full).collect(),
            channels: p.channels.into_iter().map(Channel).collect(),
        })
    }

    /// The ids of the signed-in user's favourites of a kind, in batches of 100 (`page` from 1).
    async fn favorite_ids(
        &self,
        ctx: &Context<'_>,
        kind: FavoriteKind,
        #[graphql(default_with = "Some(1)")] page: Option<i32>,
    ) -> async_graphql::Result<FavoriteIds> {
        let page = page.unwrap_or(1);
        request(ctx).viewer()?;
        let f =
            upstreams(ctx).catalog.favourite_ids(&caller(ctx), kind.key(), i64::from(page)).await.map_err(refused)?;
        Ok(FavoriteIds { kind, ids: ids(f.ids), total_count: f.total_count })
    }
}

#[Object]
impl CommunityMutation {
    /// A comment on a video: 'You have already made that comment' (DUPLICATE_COMMENT),
    /// 'Found banned word' (BANNED_WORD).
    async fn add_comment(&self, ctx: &Context<'_>, video_id: ID, text: String) -> async_graphql::Result<Comment> {
        writing(ctx)?;
        let video = uuid(&video_id, "video")?;
        may_comment_on(ctx, video).await?;
        let c = upstreams(ctx).catalog.add_comment(&caller(ctx), video, &text).await.map_err(refused)?;
        Ok(Comment::of(c, viewer_id(ctx)))
    }

    /// A reply to a comment (not to a reply), under the same rules.
    async fn reply_to_comment(
        &self,
        ctx: &Context<'_>,
        comment_id: ID,
        text: String,
    ) -> async_graphql::Result<Comment> {
        writing(ctx)?;
        let comment = uuid(&comment_id, "comment")?;
        let parent = brand::comment(ctx, comment).await?;
        may_comment_on(ctx, parent.video_id).await?;
        let c = upstreams(ctx).catalog.reply(&caller(ctx), comment, &text).await.map_err(refused)?;
        Ok(Comment::of(c, viewer_id(ctx)))
    }

    /// Like or dislike a comment, once (ALREADY_LIKED, ALREADY_DISLIKED).
    async fn vote_comment(
        &self,
        ctx: &Context<'_>,
        comment_id: ID,
        vote: CommentVote,
    ) -> async_graphql::Result<Comment> {
        writing(ctx)?;
        let comment = uuid(&comment_id, "comment")?;
        brand::comment(ctx, comment).await?;
        let c = upstreams(ctx).catalog.vote(&caller(ctx), comment, vote.key()).await.map_err(refused)?;
        Ok(Comment::of(c, viewer_id(ctx)))
    }

    /// Moderators: pin a comment on top of its video's comments.
    async fn pin_comment(&self, ctx: &Context<'_>, comment_id: ID) -> async_graphql::Result<Comment> {
        moderating(ctx)?;
        let comment = uuid(&comment_id, "comment")?;
        brand::comment(ctx, comment).await?;
        let c = upstreams(ctx).catalog.pin(&caller(ctx), comment).await.map_err(refused)?;
        Ok(Comment::of(c, viewer_id(ctx)))
    }

    /// Moderators: unpin a comment.
    async fn unpin_comment(&self, ctx: &Context<'_>, comment_id: ID) -> async_graphql::Result<Comment> {
        moderating(ctx)?;
        let comment = uuid(&comment_id, "comment")?;
        brand::comment(ctx, comment).await?;
        let c = upstreams(ctx).catalog.unpin(&caller(ctx), comment).await.map_err(refused)?;
        Ok(Comment::of(c, viewer_id(ctx)))
    }

    /// Moderators (admin, commenteditor): remove a comment.
    async fn remove_comment(&self, ctx: &Context<'_>, comment_id: ID) -> async_graphql::Result<RemovedComment> {
        moderating(ctx)?;
        let comment = uuid(&comment_id, "comment")?;
        brand::comment(ctx, comment).await?;
        upstreams(ctx).catalog.remove_comment(&caller(ctx), comment).await.map_err(refused)?;
        Ok(RemovedComment { id: comment_id, removed: true })
    }

    /// The overall rating of a video, 1 to 10, once ('You have already rated').
    async fn rate_video(
        &self,
        ctx: &Context<'_>,
        video_id: ID,
        rating: i32,
        recomm_id: Option<String>,
    ) -> async_graphql::Result<ExpertReviewAnswer> {
        writing(ctx)?;
        let video = uuid(&video_id, "video")?;
        may_comment_on(ctx, video).await?;
        let a =
            upstreams(ctx).catalog.rate(&caller(ctx), video, i64::from(rating), recomm_id).await.map_err(refused)?;
        Ok(a.into())
    }

    /// updateExpertReview(videoId, slug, type, rating, recommId): the overall rating (`global`,
    /// 1 to 10) first ('Oops! Please leave your overall rating first to continue'), then
    /// criteria (`property`, by slug) and performers (`model`, by slug), 1 to 5 each.
    async fn update_expert_review(
        &self,
        ctx: &Context<'_>,
        video_id: ID,
        slug: Option<String>,
        #[graphql(name = "type")] kind: ExpertReviewType,
        rating: i32,
        recomm_id: Option<String>,
    ) -> async_graphql::Result<ExpertReviewAnswer> {
        let video = uuid(&video_id, "video")?;
        may_comment_on(ctx, video).await?;
        reviewing(ctx).await?;
        writing(ctx)?;
        let request = api::ExpertReviewRequest {
            video_id: video,
            slug,
            kind: kind.key().to_owned(),
            rating: i64::from(rating),
            recomm_id,
        };
        Ok(upstreams(ctx).catalog.update_expert_review(&caller(ctx), &request).await.map_err(refused)?.into())
    }

    /// Favourite a video, performer or channel.
    async fn add_favorite(
        &self,
        ctx: &Context<'_>,
        kind: FavoriteKind,
        id: ID,
    ) -> async_graphql::Result<FavoriteAnswer> {
        writing(ctx)?;
        let target = uuid(&id, kind.key())?;
        of_brand(ctx, kind, target).await?;
        let a = upstreams(ctx).catalog.add_favourite(&caller(ctx), kind.key(), target).await.map_err(refused)?;
        Ok(FavoriteAnswer { kind: favorite_kind(&a.kind), id, favorite: a.favourite })
    }

    /// Unfavourite a video, performer or channel.
    async fn remove_favorite(
        &self,
        ctx: &Context<'_>,
        kind: FavoriteKind,
        id: ID,
    ) -> async_graphql::Result<FavoriteAnswer> {
        writing(ctx)?;
        let target = uuid(&id, kind.key())?;
        of_brand(ctx, kind, target).await?;
        let a = upstreams(ctx).catalog.remove_favourite(&caller(ctx), kind.key(), target).await.map_err(refused)?;
        Ok(FavoriteAnswer { kind: favorite_kind(&a.kind), id, favorite: a.favourite })
    }
}

/// A favourite is of the host's brand's video, performer or channel.
async fn of_brand(ctx: &Context<'_>, kind: FavoriteKind, id: uuid::Uuid) -> async_graphql::Result<()> {
    match kind {
        FavoriteKind::Video => brand::video(ctx, id).await.map(|_| ()),
        FavoriteKind::Performer => brand::performer(ctx, id).await.map(|_| ()),
        FavoriteKind::Channel => brand::channel(ctx, id).await.map(|_| ()),
    }
}
