//! The catalog's rules, pure: what may be published, and what members may say and rate.
//!
//! Three deciders: [`Content`] (every studio-published entity: publish, republish,
//! unpublish), [`Viewer`] (one member's ratings, expert reviews and favourites, so "already
//! rated" is decided on one stream) and [`Comment`] (a comment with its votes and
//! moderation). Whatever needs I/O (is this a duplicate comment? is the user a moderator?
//! the banned words) is looked up first and put in the command.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use proto_events::catalog::{CatalogEvent, CommentVote, ExpertReviewCriterion, ExpertReviewItem, FavouriteTarget};
use runtime::Decider;
use uuid::Uuid;

/// The site channel videos are released on (tenantsSubscriptionState has it beside the brands).
pub const CHANNELS_SITE: &str = "channels";

/// Overall rating bounds (spec §9: rating maximum 10).
pub const MAX_RATING: u8 = 10;
/// Property and performer rating bound of an expert review (spec §9: property rating 5).
pub const MAX_PROPERTY_RATING: u8 = 5;
/// A member's rating of a video they have not rated (spec §9).
pub const DEFAULT_USER_RATING: i32 = -1;
/// Longest comment.
pub const MAX_COMMENT_LEN: usize = 2_000;

pub const MSG_ALREADY_RATED: &str = "You have already rated";
pub const MSG_OVERALL_FIRST: &str = "Oops! Please leave your overall rating first to continue";
pub const MSG_DUPLICATE_COMMENT: &str = "You have already made that comment";
pub const MSG_BANNED_WORD: &str = "Found banned word";
pub const MSG_ALREADY_LIKED: &str = "You have already liked this comment";
pub const MSG_ALREADY_DISLIKED: &str = "You have already disliked this comment";

/// The general slug rule (spec README): lower-case letters and digits in hyphen-separated
/// runs, 1 to 200 characters.
pub fn is_valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= 200
        && slug
            .split('-')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

/// Whether `site` is a brand (the tenant configuration owns the list).
pub fn is_brand(site: &str) -> bool {
    tenants::global().is_brand(site)
}

/// Whether `site` is the combined brand, whose lists show every brand's videos.
pub fn is_combined(site: &str) -> bool {
    tenants::global().is_combined(site)
}

/// A site content is released on: a brand or the channels site.
pub fn is_content_site(site: &str) -> bool {
    is_brand(site) || site == CHANNELS_SITE
}

/// The slug of an expert review criterion as the browser sends it (`performer-chemistry`).
pub fn criterion_slug(c: ExpertReviewCriterion) -> &'static str {
    match c {
        ExpertReviewCriterion::PerformerChemistry => "performer-chemistry",
        ExpertReviewCriterion::PhotoSet => "photo-set",
        ExpertReviewCriterion::SexPosition => "sex-position",
        ExpertReviewCriterion::SexScene => "sex-scene",
        ExpertReviewCriterion::Lighting => "lighting",
        ExpertReviewCriterion::Storyline => "storyline",
        ExpertReviewCriterion::Location => "location",
        ExpertReviewCriterion::CameraAngles => "camera-angles",
    }
}

/// Every criterion with its display name and tooltip, in the order the modal shows them.
pub const CRITERIA: [(ExpertReviewCriterion, &str, &str); 8] = [
    (ExpertReviewCriterion::PerformerChemistry, "Performer chemistry", "How natural the performers are together"),
    (ExpertReviewCriterion::PhotoSet, "Photo set", "The pictures that come with the scene"),
    (ExpertReviewCriterion::SexPosition, "Sex position", "Variety and flow of the positions"),
    (ExpertReviewCriterion::SexScene, "Sex scene", "The scene as a whole"),
    (ExpertReviewCriterion::Lighting, "Lighting", "Light and colour"),
    (ExpertReviewCriterion::Storyline, "Storyline", "The story around the scene"),
    (ExpertReviewCriterion::Location, "Location", "Where it was shot"),
    (ExpertReviewCriterion::CameraAngles, "Camera angles", "How it was filmed"),
];

pub fn criterion_from_slug(slug: &str) -> Option<ExpertReviewCriterion> {
    CRITERIA.iter().map(|(c, _, _)| *c).find(|c| criterion_slug(*c) == slug)
}

/// The key an expert review item is stored under: `global`, `property:<slug>`, `model:<uuid>`.
pub fn item_key(item: &ExpertReviewItem) -> String {
    match item {
        ExpertReviewItem::Global {} => "global".into(),
        ExpertReviewItem::Property { criterion } => format!("property:{}", criterion_slug(*criterion)),
        ExpertReviewItem::Model { performer_id, .. } => format!("model:{performer_id}"),
    }
}

// ---------------------------------------------------------------------------------------
// Content
// ---------------------------------------------------------------------------------------

/// Why the studio's content was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContentError {
    #[error("invalid slug {0:?}")]
    InvalidSlug(String),
    #[error("unknown site {0:?}")]
    UnknownSite(String),
    #[error("{0} must not be empty")]
    Empty(&'static str),
    #[error("{0}")]
    Invalid(String),
    #[error("nothing to unpublish")]
    NotPublished,
}

/// An entity stream of studio content: the last `...Published` event (or `None`).
#[derive(Debug, Default, Clone)]
pub struct ContentState {
    pub current: Option<CatalogEvent>,
    pub unpublished: bool,
}

pub enum ContentCommand {
    /// Publish (or republish) the entity as the event says; the same content again changes nothing.
    Publish(Box<CatalogEvent>),
    UnpublishVideo {
        video_id: Uuid,
        at: DateTime<Utc>,
    },
}

pub struct Content;

impl Decider for Content {
    type Event = CatalogEvent;
    type State = ContentState;
    type Command = ContentCommand;
    type Error = ContentError;

    fn decide(state: &ContentState, command: ContentCommand) -> Result<Vec<CatalogEvent>, ContentError> {
        match command {
            ContentCommand::Publish(event) => {
                validate_content(&event)?;
                Ok(publish(state, *event).into_iter().collect())
            }
            ContentCommand::UnpublishVideo { video_id, at } => match &state.current {
                Some(CatalogEvent::VideoPublished { .. } | CatalogEvent::VideoUpdated { .. }) if !state.unpublished => {
                    Ok(vec![CatalogEvent::VideoUnpublished { video_id, unpublished_at: at }])
                }
                _ => Err(ContentError::NotPublished),
            },
        }
    }

    fn evolve(mut state: ContentState, event: &CatalogEvent) -> ContentState {
        match event {
            CatalogEvent::VideoUnpublished { .. } => state.unpublished = true,
            CatalogEvent::VideoPublished { .. } | CatalogEvent::VideoUpdated { .. } => {
                state.unpublished = false;
                state.current = Some(event.clone());
            }
            other => state.current = Some(other.clone()),
        }
        state
    }
}

/// What publishing `event` on a stream in `state` writes: nothing when the content is the same.
pub fn publish(state: &ContentState, event: CatalogEvent) -> Option<CatalogEvent> {
    match (&state.current, event) {
        (Some(current), event) if !state.unpublished && same_content(current, &event) => None,
        (Some(_), CatalogEvent::VideoPublished { video, published_at }) => {
            Some(CatalogEvent::VideoUpdated { video, updated_at: published_at })
        }
        (None, CatalogEvent::VideoUpdated { video, updated_at }) => {
            Some(CatalogEvent::VideoPublished { video, published_at: updated_at })
        }
        (_, event) => Some(event),
    }
}

/// Same entity content, whatever the event's time and whether published or updated.
pub fn same_content(a: &CatalogEvent, b: &CatalogEvent) -> bool {
    fn content(e: &CatalogEvent) -> serde_json::Value {
        let encoded = proto_events::encode(e);
        let mut payload = encoded.payload;
        if let Some(map) = payload.as_object_mut() {
            map.retain(|k, _| !k.ends_with("_at"));
        }
        payload
    }
    let kind = |e: &CatalogEvent| match e {
        CatalogEvent::VideoUpdated { .. } => "VideoPublished".to_owned(),
        other => proto_events::encode(other).event_type,
    };
    kind(a) == kind(b) && content(a) == content(b)
}

fn check_slug(slug: &str) -> Result<(), ContentError> {
    if is_valid_slug(slug) {
        Ok(())
    } else {
        Err(ContentError::InvalidSlug(slug.to_owned()))
    }
}

fn check_sites(sites: &[String]) -> Result<(), ContentError> {
    if sites.is_empty() {
        return Err(ContentError::Empty("sites"));
    }
    match sites.iter().find(|s| !is_content_site(s)) {
        Some(bad) => Err(ContentError::UnknownSite(bad.clone())),
        None => Ok(()),
    }
}

fn non_empty(value: &str, what: &'static str) -> Result<(), ContentError> {
    if value.trim().is_empty() {
        Err(ContentError::Empty(what))
    } else {
        Ok(())
    }
}

/// The rules every published entity keeps, whoever publishes it.
pub fn validate_content(event: &CatalogEvent) -> Result<(), ContentError> {
    match event {
        CatalogEvent::VideoPublished { video, .. } | CatalogEvent::VideoUpdated { video, .. } => {
            check_slug(&video.slug)?;
            check_sites(std::slice::from_ref(&video.site))?;
            non_empty(&video.title, "title")?;
            non_empty(&video.new_id, "newId")?;
            for c in &video.category_slugs {
                check_slug(c)?;
            }
            if video.award > 1 {
                return Err(ContentError::Invalid("award is 0 or 1".into()));
            }
            if let Some(channel) = &video.channel {
                check_slug(&channel.slug)?;
                if video.site != CHANNELS_SITE {
                    return Err(ContentError::Invalid("a channel video is released on the channels site".into()));
                }
            } else if video.is_third_party_channel {
                return Err(ContentError::Invalid("a third-party channel video needs its channel".into()));
            }
            Ok(())
        }
        CatalogEvent::PerformerPublished { slug, name, sex, sites, .. } => {
            check_slug(slug)?;
            non_empty(name, "name")?;
            if sex != "F" && sex != "M" {
                return Err(ContentError::Invalid("sex is F or M".into()));
            }
            check_sites(sites)
        }
        CatalogEvent::CategoryDefined { slug, name, sites, .. } => {
            check_slug(slug)?;
            non_empty(name, "name")?;
            check_sites(sites)
        }
        CatalogEvent::ChannelPublished { slug, name, sites, .. } => {
            check_slug(slug)?;
            non_empty(name, "name")?;
            check_sites(sites)
        }
        CatalogEvent::ChannelPackPublished { slug, name, video_ids, .. } => {
            check_slug(slug)?;
            non_empty(name, "name")?;
            if video_ids.is_empty() {
                return Err(ContentError::Empty("video_ids"));
            }
            Ok(())
        }
        CatalogEvent::PictureSetPublished { site, pictures, .. } => {
            check_sites(std::slice::from_ref(site))?;
            if pictures.is_empty() {
                return Err(ContentError::Empty("pictures"));
            }
            if pictures.iter().any(|p| p.width == 0 || p.height == 0 || !is_valid_slug(&p.name)) {
                return Err(ContentError::Invalid("a picture needs a slug-like name and a size".into()));
            }
            Ok(())
        }
        CatalogEvent::ReelPublished { site, title, duration_seconds, .. } => {
            check_sites(std::slice::from_ref(site))?;
            non_empty(title, "title")?;
            if *duration_seconds == 0 {
                return Err(ContentError::Invalid("a reel lasts at least a second".into()));
            }
            Ok(())
        }
        CatalogEvent::ShowcasePublished { slug, title, sites, .. } => {
            check_slug(slug)?;
            non_empty(title, "title")?;
            check_sites(sites)
        }
        CatalogEvent::AngelPublished { slug, name, sites, .. } => {
            check_slug(slug)?;
            non_empty(name, "name")?;
            check_sites(sites)
        }
        CatalogEvent::CuratorPostPublished { site, title, .. } => {
            check_sites(std::slice::from_ref(site))?;
            non_empty(title, "title")
        }
        other => Err(ContentError::Invalid(format!("{} is not content", proto_events::encode(other).event_type))),
    }
}

// ---------------------------------------------------------------------------------------
// Viewer: ratings, expert reviews, favourites
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewerError {
    #[error("{MSG_ALREADY_RATED}")]
    AlreadyRated,
    #[error("{MSG_OVERALL_FIRST}")]
    OverallRatingFirst,
    #[error("a rating is between 1 and {max}")]
    RatingOutOfRange { max: u8 },
}

/// One member's ratings, expert reviews and favourites.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ViewerState {
    /// The overall rating per video.
    pub overall: HashMap<Uuid, u8>,
    /// Expert review ratings per (video, item key).
    pub expert: HashMap<(Uuid, String), u8>,
    pub favourites: HashSet<FavouriteTarget>,
}

#[derive(Debug, Clone)]
pub enum ViewerCommand {
    RateVideo {
        video_id: Uuid,
        rating: u8,
        recomm_id: Option<String>,
        at: DateTime<Utc>,
    },
    UpdateExpertReview {
        video_id: Uuid,
        item: ExpertReviewItem,
        rating: u8,
        recomm_id: Option<String>,
        at: DateTime<Utc>,
    },
    AddFavourite {
        target: FavouriteTarget,
        at: DateTime<Utc>,
    },
    RemoveFavourite {
        target: FavouriteTarget,
        at: DateTime<Utc>,
    },
}

/// The viewer decider needs the member's id to write it into events.
pub struct ViewerDecider;

#[derive(Debug, Clone)]
pub struct ViewerCommandFor {
    pub user_id: Uuid,
    pub command: ViewerCommand,
}

impl Decider for ViewerDecider {
    type Event = CatalogEvent;
    type State = ViewerState;
    type Command = ViewerCommandFor;
    type Error = ViewerError;

    fn decide(
        state: &ViewerState,
        ViewerCommandFor { user_id, command }: ViewerCommandFor,
    ) -> Result<Vec<CatalogEvent>, ViewerError> {
        match command {
            ViewerCommand::RateVideo { video_id, rating, recomm_id, at } => {
                if !(1..=MAX_RATING).contains(&rating) {
                    return Err(ViewerError::RatingOutOfRange { max: MAX_RATING });
                }
                if state.overall.contains_key(&video_id) {
                    return Err(ViewerError::AlreadyRated);
                }
                Ok(vec![CatalogEvent::VideoRated { video_id, user_id, rating, recomm_id, rated_at: at }])
            }
            ViewerCommand::UpdateExpertReview { video_id, item, rating, recomm_id, at } => {
                let max = match item {
                    ExpertReviewItem::Global {} => MAX_RATING,
                    _ => MAX_PROPERTY_RATING,
                };
                if !(1..=max).contains(&rating) {
                    return Err(ViewerError::RatingOutOfRange { max });
                }
                if !matches!(item, ExpertReviewItem::Global {}) && !state.overall.contains_key(&video_id) {
                    return Err(ViewerError::OverallRatingFirst);
                }
                if state.expert.get(&(video_id, item_key(&item))) == Some(&rating) {
                    return Ok(vec![]);
                }
                Ok(vec![CatalogEvent::ExpertReviewUpdated {
                    video_id,
                    user_id,
                    item,
                    rating,
                    recomm_id,
                    updated_at: at,
                }])
            }
            ViewerCommand::AddFavourite { target, at } => Ok(if state.favourites.contains(&target) {
                vec![]
            } else {
                vec![CatalogEvent::FavouriteAdded { user_id, target, added_at: at }]
            }),
            ViewerCommand::RemoveFavourite { target, at } => Ok(if state.favourites.contains(&target) {
                vec![CatalogEvent::FavouriteRemoved { user_id, target, removed_at: at }]
            } else {
                vec![]
            }),
        }
    }

    fn evolve(mut state: ViewerState, event: &CatalogEvent) -> ViewerState {
        match event {
            CatalogEvent::VideoRated { video_id, rating, .. } => {
                state.overall.insert(*video_id, *rating);
            }
            CatalogEvent::ExpertReviewUpdated { video_id, item, rating, .. } => {
                if matches!(item, ExpertReviewItem::Global {}) {
                    state.overall.insert(*video_id, *rating);
                }
                state.expert.insert((*video_id, item_key(item)), *rating);
            }
            CatalogEvent::FavouriteAdded { target, .. } => {
                state.favourites.insert(target.clone());
            }
            CatalogEvent::FavouriteRemoved { target, .. } => {
                state.favourites.remove(target);
            }
            _ => {}
        }
        state
    }
}

// ---------------------------------------------------------------------------------------
// Comments
// ---------------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommentError {
    #[error("{MSG_DUPLICATE_COMMENT}")]
    Duplicate,
    #[error("{MSG_BANNED_WORD}")]
    BannedWord,
    #[error("{MSG_ALREADY_LIKED}")]
    AlreadyLiked,
    #[error("{MSG_ALREADY_DISLIKED}")]
    AlreadyDisliked,
    #[error("a comment has 1 to {MAX_COMMENT_LEN} characters")]
    BadLength,
    #[error("comment not found")]
    NotFound,
    #[error("only a moderator may do this")]
    NotModerator,
    #[error("a reply cannot be pinned")]
    ReplyNotPinnable,
    #[error("a reply answers a comment, not another reply")]
    ReplyToReply,
    #[error("the comment already exists")]
    AlreadyExists,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CommentFacts {
    pub video_id: Uuid,
    pub user_id: Uuid,
    pub is_reply: bool,
    pub removed: bool,
    pub pinned: bool,
    pub votes: HashMap<Uuid, CommentVote>,
}

/// A comment's stream: `None` until written.
pub type CommentState = Option<CommentFacts>;

/// The parent of a reply, as looked up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parent {
    pub comment_id: Uuid,
    pub video_id: Uuid,
    pub is_reply: bool,
    pub removed: bool,
}

#[derive(Debug, Clone)]
pub enum CommentCommand {
    Add {
        comment_id: Uuid,
        video_id: Uuid,
        user_id: Uuid,
        author_name: Option<String>,
        text: String,
        /// The parent when this is a reply.
        parent: Option<Parent>,
        /// The same member already said the same on this video (looked up).
        duplicate: bool,
        banned_words: Vec<String>,
        at: DateTime<Utc>,
    },
    Vote {
        user_id: Uuid,
        vote: CommentVote,
        at: DateTime<Utc>,
    },
    Pin {
        by: Uuid,
        moderator: bool,
        at: DateTime<Utc>,
    },
    Unpin {
        by: Uuid,
        moderator: bool,
        at: DateTime<Utc>,
    },
    Remove {
        by: Uuid,
        moderator: bool,
        at: DateTime<Utc>,
    },
}

/// A comment's text as compared for duplicates: trimmed, inner whitespace folded, lower-cased.
pub fn normalise_comment(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// Whether `text` holds one of `banned` as a whole word (case-insensitive).
pub fn has_banned_word(text: &str, banned: &[String]) -> bool {
    let lower = text.to_lowercase();
    lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .any(|w| banned.iter().any(|b| b.eq_ignore_ascii_case(w)))
}

pub struct CommentDecider;

impl Decider for CommentDecider {
    type Event = CatalogEvent;
    type State = CommentState;
    type Command = CommentCommand;
    type Error = CommentError;

    fn decide(state: &CommentState, command: CommentCommand) -> Result<Vec<CatalogEvent>, CommentError> {
        match command {
            CommentCommand::Add {
                comment_id,
                video_id,
                user_id,
                author_name,
                text,
                parent,
                duplicate,
                banned_words,
                at,
            } => {
                if state.is_some() {
                    return Err(CommentError::AlreadyExists);
                }
                let text = text.trim().to_owned();
                if text.is_empty() || text.chars().count() > MAX_COMMENT_LEN {
                    return Err(CommentError::BadLength);
                }
                if has_banned_word(&text, &banned_words) {
                    return Err(CommentError::BannedWord);
                }
                if duplicate {
                    return Err(CommentError::Duplicate);
                }
                match parent {
                    None => Ok(vec![CatalogEvent::CommentAdded {
                        comment_id,
                        video_id,
                        user_id,
                        text,
                        added_at: at,
                        author_name,
                    }]),
                    Some(p) if p.removed || p.video_id != video_id => Err(CommentError::NotFound),
                    Some(p) if p.is_reply => Err(CommentError::ReplyToReply),
                    Some(p) => Ok(vec![CatalogEvent::CommentReplied {
                        comment_id,
                        parent_comment_id: p.comment_id,
                        video_id,
                        user_id,
                        text,
                        replied_at: at,
                        author_name,
                    }]),
                }
            }
            CommentCommand::Vote { user_id, vote, at } => {
                let c = live(state)?;
                match c.votes.get(&user_id) {
                    Some(CommentVote::Like) => Err(CommentError::AlreadyLiked),
                    Some(CommentVote::Dislike) => Err(CommentError::AlreadyDisliked),
                    None => Ok(vec![CatalogEvent::CommentVoted {
                        comment_id: Uuid::nil(),
                        video_id: c.video_id,
                        user_id,
                        vote,
                        voted_at: at,
                    }]),
                }
            }
            CommentCommand::Pin { by, moderator, at } => {
                let c = live(state)?;
                moderator_only(moderator)?;
                if c.is_reply {
                    return Err(CommentError::ReplyNotPinnable);
                }
                Ok(if c.pinned {
                    vec![]
                } else {
                    vec![CatalogEvent::CommentPinned {
                        comment_id: Uuid::nil(),
                        video_id: c.video_id,
                        pinned_by: by,
                        pinned_at: at,
                    }]
                })
            }
            CommentCommand::Unpin { by, moderator, at } => {
                let c = live(state)?;
                moderator_only(moderator)?;
                Ok(if c.pinned {
                    vec![CatalogEvent::CommentUnpinned {
                        comment_id: Uuid::nil(),
                        video_id: c.video_id,
                        unpinned_by: by,
                        unpinned_at: at,
                    }]
                } else {
                    vec![]
                })
            }
            CommentCommand::Remove { by, moderator, at } => {
                let c = live(state)?;
                moderator_only(moderator)?;
                Ok(vec![CatalogEvent::CommentRemoved {
                    comment_id: Uuid::nil(),
                    video_id: c.video_id,
                    removed_by: by,
                    removed_at: at,
                }])
            }
        }
    }

    fn evolve(state: CommentState, event: &CatalogEvent) -> CommentState {
        match (state, event) {
            (_, CatalogEvent::CommentAdded { video_id, user_id, .. }) => Some(CommentFacts {
                video_id: *video_id,
                user_id: *user_id,
                is_reply: false,
                removed: false,
                pinned: false,
                votes: HashMap::new(),
            }),
            (_, CatalogEvent::CommentReplied { video_id, user_id, .. }) => Some(CommentFacts {
                video_id: *video_id,
                user_id: *user_id,
                is_reply: true,
                removed: false,
                pinned: false,
                votes: HashMap::new(),
            }),
            (Some(mut c), CatalogEvent::CommentVoted { user_id, vote, .. }) => {
                c.votes.insert(*user_id, *vote);
                Some(c)
            }
            (Some(mut c), CatalogEvent::CommentPinned { .. }) => {
                c.pinned = true;
                Some(c)
            }
            (Some(mut c), CatalogEvent::CommentUnpinned { .. }) => {
                c.pinned = false;
                Some(c)
            }
            (Some(mut c), CatalogEvent::CommentRemoved { .. }) => {
                c.removed = true;
                c.pinned = false;
                Some(c)
            }
            (state, _) => state,
        }
    }
}

/// Sets the comment id the decider leaves nil (it does not know its own stream's id).
pub fn with_comment_id(events: Vec<CatalogEvent>, id: Uuid) -> Vec<CatalogEvent> {
    events
        .into_iter()
        .map(|mut e| {
            match &mut e {
                CatalogEvent::CommentVoted { comment_id, .. }
                | CatalogEvent::CommentPinned { comment_id, .. }
                | CatalogEvent::CommentUnpinned { comment_id, .. }
                | CatalogEvent::CommentRemoved { comment_id, .. } => *comment_id = id,
                _ => {}
            }
            e
        })
        .collect()
}

fn live(state: &CommentState) -> Result<&CommentFacts, CommentError> {
    match state {
        Some(c) if !c.removed => Ok(c),
        _ => Err(CommentError::NotFound),
    }
}

fn moderator_only(moderator: bool) -> Result<(), CommentError> {
    if moderator {
        Ok(())
    } else {
        Err(CommentError::NotModerator)
    }
}

/// Moderators (admin, commenteditor) by their group names, as tokens carry them.
pub fn is_moderator(groups: &[String]) -> bool {
    let groups: Vec<access::Group> = groups.iter().filter_map(|g| access::Group::from_name(g)).collect();
    access::is_moderator(&groups)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn now() -> DateTime<Utc> {
        Utc::now()
    }

    fn run<D: Decider>(events: &[D::Event], command: D::Command) -> Result<Vec<D::Event>, D::Error> {
        let state = events.iter().fold(D::State::default(), D::evolve);
        D::decide(&state, command)
    }

    fn viewer(user_id: Uuid, command: ViewerCommand) -> ViewerCommandFor {
        ViewerCommandFor { user_id, command }
    }

    #[test]
    fn it_accepts_the_general_slug_rule_only() {
        for good in ["a", "golden-hour", "x1-2y", &"a".repeat(200)] {
            assert!(is_valid_slug(good), "{good}");
        }
        for bad in ["", "-a", "a-", "a--b", "A", "a_b", "a b", "é", &"a".repeat(201)] {
            assert!(!is_valid_slug(bad), "{bad}");
        }
    }

    #[test]
    fn it_refuses_a_second_rating_of_the_same_video() {
        let (u, v) = (Uuid::now_v7(), Uuid::now_v7());
        let first = run::<ViewerDecider>(
            &[],
            viewer(u, ViewerCommand::RateVideo { video_id: v, rating: 8, recomm_id: None, at: now() }),
        )
        .unwrap();
        assert_eq!(first.len(), 1);
        let again = run::<ViewerDecider>(
            &first,
            viewer(u, ViewerCommand::RateVideo { video_id: v, rating: 9, recomm_id: None, at: now() }),
        );
        assert_eq!(again, Err(ViewerError::AlreadyRated));
        assert_eq!(ViewerError::AlreadyRated.to_string(), "You have already rated");
    }

    #[test]
    fn it_wants_the_overall_rating_before_properties_and_models() {
        let (u, v) = (Uuid::now_v7(), Uuid::now_v7());
        let property = |rating| {
            viewer(
                u,
                ViewerCommand::UpdateExpertReview {
                    video_id: v,
                    item: ExpertReviewItem::Property { criterion: ExpertReviewCriterion::Lighting },
                    rating,
                    recomm_id: None,
                    at: now(),
                },
            )
        };
        assert_eq!(run::<ViewerDecider>(&[], property(4)), Err(ViewerError::OverallRatingFirst));
        assert_eq!(
            ViewerError::OverallRatingFirst.to_string(),
            "Oops! Please leave your overall rating first to continue"
        );
        let global = run::<ViewerDecider>(
            &[],
            viewer(
                u,
                ViewerCommand::UpdateExpertReview {
                    video_id: v,
                    item: ExpertReviewItem::Global {},
                    rating: 10,
                    recomm_id: None,
                    at: now(),
                },
            ),
        )
        .unwrap();
        assert_eq!(run::<ViewerDecider>(&global, property(5)).unwrap().len(), 1);
        assert_eq!(run::<ViewerDecider>(&global, property(6)), Err(ViewerError::RatingOutOfRange { max: 5 }));
        // A global expert rating is the overall rating: rating again is refused.
        let again = run::<ViewerDecider>(
            &global,
            viewer(u, ViewerCommand::RateVideo { video_id: v, rating: 3, recomm_id: None, at: now() }),
        );
        assert_eq!(again, Err(ViewerError::AlreadyRated));
    }

    #[test]
    fn favourites_are_a_set() {
        let u = Uuid::now_v7();
        let target = FavouriteTarget::Channel { channel_id: Uuid::now_v7() };
        let add = || viewer(u, ViewerCommand::AddFavourite { target: target.clone(), at: now() });
        let added = run::<ViewerDecider>(&[], add()).unwrap();
        assert_eq!(added.len(), 1);
        assert!(run::<ViewerDecider>(&added, add()).unwrap().is_empty());
        let remove = || viewer(u, ViewerCommand::RemoveFavourite { target: target.clone(), at: now() });
        assert!(run::<ViewerDecider>(&[], remove()).unwrap().is_empty());
        assert_eq!(run::<ViewerDecider>(&added, remove()).unwrap().len(), 1);
    }

    fn add(text: &str, duplicate: bool, banned: &[&str]) -> CommentCommand {
        CommentCommand::Add {
            comment_id: Uuid::now_v7(),
            video_id: Uuid::nil(),
            user_id: Uuid::nil(),
            author_name: None,
            text: text.into(),
            parent: None,
            duplicate,
            banned_words: banned.iter().map(|s| s.to_string()).collect(),
            at: now(),
        }
    }

    #[test]
    fn it_refuses_duplicates_banned_words_and_empty_comments() {
        assert_eq!(run::<CommentDecider>(&[], add("Nice light", true, &[])), Err(CommentError::Duplicate));
        assert_eq!(
            run::<CommentDecider>(&[], add("buy CASINO chips", false, &["casino"])),
            Err(CommentError::BannedWord)
        );
        assert!(run::<CommentDecider>(&[], add("casinos nearby", false, &["casino"])).is_ok(), "whole words only");
        assert_eq!(run::<CommentDecider>(&[], add("   ", false, &[])), Err(CommentError::BadLength));
        assert_eq!(CommentError::Duplicate.to_string(), "You have already made that comment");
        assert_eq!(CommentError::BannedWord.to_string(), "Found banned word");
    }

    #[test]
    fn a_member_votes_once_per_comment() {
        let added = run::<CommentDecider>(&[], add("Nice", false, &[])).unwrap();
        let voter = Uuid::now_v7();
        let like =
            run::<CommentDecider>(&added, CommentCommand::Vote { user_id: voter, vote: CommentVote::Like, at: now() })
                .unwrap();
        let history: Vec<_> = added.iter().chain(&like).cloned().collect();
        assert_eq!(
            run::<CommentDecider>(
                &history,
                CommentCommand::Vote { user_id: voter, vote: CommentVote::Like, at: now() }
            ),
            Err(CommentError::AlreadyLiked)
        );
        assert_eq!(
            run::<CommentDecider>(
                &history,
                CommentCommand::Vote { user_id: voter, vote: CommentVote::Dislike, at: now() }
            ),
            Err(CommentError::AlreadyLiked)
        );
    }

    #[test]
    fn only_moderators_pin_unpin_and_remove() {
        let added = run::<CommentDecider>(&[], add("Nice", false, &[])).unwrap();
        let by = Uuid::now_v7();
        for cmd in [
            CommentCommand::Pin { by, moderator: false, at: now() },
            CommentCommand::Unpin { by, moderator: false, at: now() },
            CommentCommand::Remove { by, moderator: false, at: now() },
        ] {
            assert_eq!(run::<CommentDecider>(&added, cmd), Err(CommentError::NotModerator));
        }
        let pinned = run::<CommentDecider>(&added, CommentCommand::Pin { by, moderator: true, at: now() }).unwrap();
        assert_eq!(pinned.len(), 1);
        let history: Vec<_> = added.iter().chain(&pinned).cloned().collect();
        assert!(run::<CommentDecider>(&history, CommentCommand::Pin { by, moderator: true, at: now() })
            .unwrap()
            .is_empty());
        let removed =
            run::<CommentDecider>(&history, CommentCommand::Remove { by, moderator: true, at: now() }).unwrap();
        let history: Vec<_> = history.iter().chain(&removed).cloned().collect();
        assert_eq!(
            run::<CommentDecider>(&history, CommentCommand::Vote { user_id: by, vote: CommentVote::Like, at: now() }),
            Err(CommentError::NotFound)
        );
    }

    #[test]
    fn moderators_are_admins_and_comment_editors() {
        assert!(is_moderator(&["admin".into()]));
        assert!(is_moderator(&["x".into(), "commenteditor".into()]));
        assert!(!is_moderator(&["@paysite/role-video-preview".into()]));
        assert!(!is_moderator(&[]));
    }

    #[test]
    fn republishing_the_same_content_writes_nothing() {
        let event = CatalogEvent::CategoryDefined {
            category_id: Uuid::nil(),
            slug: "city".into(),
            name: "City".into(),
            sites: vec!["vixen".into()],
            defined_at: now(),
        };
        let first = run::<Content>(&[], ContentCommand::Publish(Box::new(event.clone()))).unwrap();
        assert_eq!(first.len(), 1);
        let later = CatalogEvent::CategoryDefined {
            category_id: Uuid::nil(),
            slug: "city".into(),
            name: "City".into(),
            sites: vec!["vixen".into()],
            defined_at: now() + chrono::Duration::days(1),
        };
        assert!(run::<Content>(&first, ContentCommand::Publish(Box::new(later))).unwrap().is_empty());
        let renamed = CatalogEvent::CategoryDefined {
            category_id: Uuid::nil(),
            slug: "city".into(),
            name: "City Lights".into(),
            sites: vec!["vixen".into()],
            defined_at: now(),
        };
        assert_eq!(run::<Content>(&first, ContentCommand::Publish(Box::new(renamed))).unwrap().len(), 1);
        let bad = CatalogEvent::CategoryDefined {
            category_id: Uuid::nil(),
            slug: "City".into(),
            name: "City".into(),
            sites: vec!["vixen".into()],
            defined_at: now(),
        };
        assert!(matches!(
            run::<Content>(&[], ContentCommand::Publish(Box::new(bad))),
            Err(ContentError::InvalidSlug(_))
        ));
    }

    proptest! {
        #[test]
        fn ratings_outside_the_bounds_are_refused_and_inside_accepted(rating in 0u8..=255) {
            let (u, v) = (Uuid::now_v7(), Uuid::now_v7());
            let got = run::<ViewerDecider>(&[], viewer(u, ViewerCommand::RateVideo { video_id: v, rating, recomm_id: None, at: now() }));
            prop_assert_eq!(got.is_ok(), (1..=MAX_RATING).contains(&rating));
        }

        #[test]
        fn a_vote_is_recorded_at_most_once_per_member(votes in proptest::collection::vec((0u8..4, any::<bool>()), 1..40)) {
            let users: Vec<Uuid> = (0..4).map(|_| Uuid::now_v7()).collect();
            let mut history = run::<CommentDecider>(&[], add("Nice", false, &[])).unwrap();
            let mut seen = HashSet::new();
            for (who, like) in votes {
                let vote = if like { CommentVote::Like } else { CommentVote::Dislike };
                let got = run::<CommentDecider>(&history, CommentCommand::Vote { user_id: users[who as usize], vote, at: now() });
                prop_assert_eq!(got.is_ok(), seen.insert(who));
                if let Ok(events) = got { history.extend(events); }
            }
        }

        #[test]
        fn slugs_of_lower_case_words_joined_by_single_hyphens_are_valid(words in proptest::collection::vec("[a-z0-9]{1,8}", 1..6)) {
            let slug = words.join("-");
            prop_assert!(is_valid_slug(&slug));
            let upper = format!("{}X", slug);
            prop_assert!(!is_valid_slug(&upper));
        }
    }
}
