//! Content: every studio-published entity (videos, performers, categories, channels, packs,
//! picture sets, reels, showcases, angels, wall posts) is published, republished or
//! unpublished through one decider, and validated first.

use super::*;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::tests::{now, run};

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
}
