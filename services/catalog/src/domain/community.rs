//! Comments: a comment with its replies, votes and moderation.

use super::*;

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
    use crate::domain::tests::{now, run};
    use proptest::prelude::*;

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

    proptest! {
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
    }
}
