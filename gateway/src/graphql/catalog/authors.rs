//! Comment authors: `Comment.author { displayName badges userType }`, what anyone
//! may see of who wrote a comment. The profile service computes both (badges by
//! membership length with the 7-day grace, by role and attributes, and the founder badge; the
//! user type by role, else membership); the catalog knows only the author's id.
//!
//! A page of comments costs one profile call (`GET /internal/users/public?ids=…`) whatever it
//! holds: the page's resolver hands every author id to the request's loader before the
//! comments resolve, and each `author` then reads the loader's cache.

use std::{collections::HashMap, sync::Arc};

use async_graphql::{dataloader::Loader, ComplexObject, Context, SimpleObject};
use catalog_contract::api;
use profile_contract::api::PublicProfile;
use runtime::client::CallContext;
use uuid::Uuid;

use super::{loaders, types::Comment};
use crate::graphql::profile_types::{Badge, UserType};
use crate::graphql::{context::RequestCtx, errors, Upstreams};

/// The profile service answers at most this many users in one call.
pub const MAX_PUBLIC_PROFILES: usize = profile_contract::api::MAX_PUBLIC_PROFILES;

/// Who wrote a comment, as others see them.
#[derive(SimpleObject, Clone, Debug, PartialEq, Eq)]
pub struct CommentAuthor {
    /// The name they chose to show beside their comments (product.md, "Account and
    /// profile"); null when not set, and the comment's `authorName` stands.
    pub display_name: Option<String>,
    /// Their badges, in the profile's order: the membership-length badge (bronze, silver, gold,
    /// boss), then moderator, king, director, model, founder.
    pub badges: Vec<Badge>,
    /// Their user type: admin, moderator, member, trial, pornPortal or expired.
    pub user_type: UserType,
}

impl From<PublicProfile> for CommentAuthor {
    fn from(p: PublicProfile) -> Self {
        CommentAuthor {
            display_name: p.display_name,
            badges: p.badges.into_iter().map(Badge::from).collect(),
            user_type: p.user_type.into(),
        }
    }
}

#[ComplexObject]
impl Comment {
    /// The author's badges and user type; null when the profile service knows no such user.
    async fn author(&self, ctx: &Context<'_>) -> async_graphql::Result<Option<CommentAuthor>> {
        Ok(loaders::get(ctx)?.authors.load_one(self.author_id).await?.map(CommentAuthor::from))
    }
}

/// Loads comment authors' public profiles, many per call.
pub struct AuthorLoader {
    upstreams: Arc<Upstreams>,
    /// The tenant and correlation id; not the user's token (the answer is the same for anyone).
    call: CallContext,
}

impl AuthorLoader {
    pub fn new(upstreams: Arc<Upstreams>, request: &RequestCtx) -> Self {
        AuthorLoader { upstreams, call: CallContext { bearer: None, ..request.call() } }
    }
}

impl Loader<Uuid> for AuthorLoader {
    type Value = PublicProfile;
    type Error = async_graphql::Error;

    async fn load(&self, keys: &[Uuid]) -> Result<HashMap<Uuid, PublicProfile>, Self::Error> {
        let found = self.upstreams.profile.public_profiles(&self.call, keys).await.map_err(errors::upstream)?;
        Ok(found.into_iter().map(|p| (p.user_id, p)).collect())
    }
}

/// When the current field's comments ask for their `author`, loads every author of `comments`
/// in one batch, so the page's cost does not depend on how the executor interleaves the
/// comments' fields. A failure is not the page's: the comments still answer, and each `author`
/// answers the error (its loader asks once more, again in one batch).
pub async fn prefetch(ctx: &Context<'_>, comments: &[api::Comment]) {
    if comments.is_empty() || !ctx.look_ahead().field("comments").field("author").exists() {
        return;
    }
    let Ok(loaders) = loaders::get(ctx) else { return };
    let mut ids: Vec<Uuid> = comments.iter().map(|c| c.user_id).collect();
    ids.sort_unstable();
    ids.dedup();
    if let Err(e) = loaders.authors.load_many(ids).await {
        tracing::debug!(error = %e.message, "comment authors not prefetched");
    }
}
