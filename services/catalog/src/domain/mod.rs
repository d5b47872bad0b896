//! The catalog's rules, pure: what may be published, and what members may say and rate.
//!
//! Three deciders: [`Content`] (every studio-published entity: publish, republish,
//! unpublish), [`Viewer`] (one member's ratings, expert reviews and favourites, so "already
//! rated" is decided on one stream) and [`Comment`] (a comment with its votes and
//! moderation). Whatever needs I/O (is this a duplicate comment? is the user a moderator?
//! the banned words) is looked up first and put in the command.
//!
//! This file holds the rules they share (slugs, sites, expert-review criteria); each decider
//! has its own file (`content`, `viewer`, `community`), re-exported here.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use proto_events::catalog::{CatalogEvent, CommentVote, ExpertReviewCriterion, ExpertReviewItem, FavouriteTarget};
use runtime::Decider;
use uuid::Uuid;

mod community;
mod content;
mod viewer;

pub use community::*;
pub use content::*;
pub use viewer::*;

/// The site channel videos are released on (tenantsSubscriptionState has it beside the brands).
pub const CHANNELS_SITE: &str = "channels";

/// Overall rating bounds (product.md, "Comments, ratings and favourites": rating maximum 10).
pub const MAX_RATING: u8 = 10;
/// Property and performer rating bound of an expert review (product.md, "Comments, ratings and favourites": property rating 5).
pub const MAX_PROPERTY_RATING: u8 = 5;
/// A member's rating of a video they have not rated (product.md, "Comments, ratings and favourites").
pub const DEFAULT_USER_RATING: i32 = -1;
/// Longest comment.
pub const MAX_COMMENT_LEN: usize = 2_000;

pub const MSG_ALREADY_RATED: &str = "You have already rated";
pub const MSG_OVERALL_FIRST: &str = "Oops! Please leave your overall rating first to continue";
pub const MSG_DUPLICATE_COMMENT: &str = "You have already made that comment";
pub const MSG_BANNED_WORD: &str = "Found banned word";
pub const MSG_ALREADY_LIKED: &str = "You have already liked this comment";
pub const MSG_ALREADY_DISLIKED: &str = "You have already disliked this comment";

/// The general slug rule, shared with the catalog's client.
pub use catalog_contract::is_valid_slug;

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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    pub(super) fn now() -> DateTime<Utc> {
        Utc::now()
    }

    pub(super) fn run<D: Decider>(events: &[D::Event], command: D::Command) -> Result<Vec<D::Event>, D::Error> {
        let state = events.iter().fold(D::State::default(), D::evolve);
        D::decide(&state, command)
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

    proptest! {
        #[test]
        fn slugs_of_lower_case_words_joined_by_single_hyphens_are_valid(words in proptest::collection::vec("[a-z0-9]{1,8}", 1..6)) {
            let slug = words.join("-");
            prop_assert!(is_valid_slug(&slug));
            let upper = format!("{}X", slug);
            prop_assert!(!is_valid_slug(&upper));
        }
    }
}
