//! One member's ratings, expert reviews and favourites, decided on one stream per member so
//! "already rated" is decided in one place (the community and favourites subjects meet here).

use super::*;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::tests::{now, run};
    use proptest::prelude::*;

    fn viewer(user_id: Uuid, command: ViewerCommand) -> ViewerCommandFor {
        ViewerCommandFor { user_id, command }
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

    proptest! {
        #[test]
        fn ratings_outside_the_bounds_are_refused_and_inside_accepted(rating in 0u8..=255) {
            let (u, v) = (Uuid::now_v7(), Uuid::now_v7());
            let got = run::<ViewerDecider>(&[], viewer(u, ViewerCommand::RateVideo { video_id: v, rating, recomm_id: None, at: now() }));
            prop_assert_eq!(got.is_ok(), (1..=MAX_RATING).contains(&rating));
        }
    }
}
