//! Performers, and the categories and filters of the listings.

use super::*;

/// Performers a list refers to: from the references alone when only `id`, `slug` and `name`
/// are asked, else loaded (with every other reference of the page) in one call.
pub async fn performers(ctx: &Context<'_>, refs: &[api::PerformerRef]) -> async_graphql::Result<Vec<Performer>> {
    if !loaders::selects_beyond(ctx, &loaders::PERFORMER_REF_FIELDS) {
        return Ok(refs.iter().map(Performer::from_ref).collect());
    }
    let ids: Vec<uuid::Uuid> = refs.iter().map(|p| p.id).collect();
    let found = loaders::get(ctx)?.performers.load_many(ids.iter().copied()).await?;
    Ok(ids.iter().filter_map(|i| found.get(i).cloned().map(Performer::full)).collect())
}

/// A performer: the whole card, or (inside a video, when only `id`, `slug` and `name` are
/// asked) the video's reference to them.
pub struct Performer(pub(super) api::Performer);

impl Performer {
    pub fn full(p: api::Performer) -> Self {
        Performer(p)
    }

    /// Only `id`, `slug` and `name` are read from this one (see `Video.performers`).
    fn from_ref(p: &api::PerformerRef) -> Self {
        Performer(api::Performer {
            id: p.id,
            slug: p.slug.clone(),
            name: p.name.clone(),
            gender: String::new(),
            sex: String::new(),
            rating: -1.0,
            video_count: 0,
            sites: vec![],
            image: api::Image {
                src: String::new(),
                placeholder: String::new(),
                width: 0,
                height: 0,
                file_extensions: vec![],
                highdpi: api::HighDpi { double: String::new(), triple: String::new() },
                name: None,
            },
        })
    }
}

#[Object]
impl Performer {
    async fn id(&self) -> ID {
        id(self.0.id)
    }
    async fn slug(&self) -> &str {
        &self.0.slug
    }
    async fn name(&self) -> &str {
        &self.0.name
    }
    /// `girls` or `guys`.
    async fn gender(&self) -> &str {
        &self.0.gender
    }
    /// `F` or `M` (faceted search).
    async fn sex(&self) -> &str {
        &self.0.sex
    }
    async fn rating(&self) -> f64 {
        self.0.rating
    }
    async fn video_count(&self) -> i64 {
        self.0.video_count
    }
    async fn sites(&self) -> Vec<String> {
        self.0.sites.clone()
    }
    async fn image(&self) -> Image {
        self.0.image.clone().into()
    }
    async fn is_favorite(&self, ctx: &Context<'_>) -> async_graphql::Result<bool> {
        loaders::is_favorite(ctx, FavoriteKind::Performer, self.0.id).await
    }
}

#[derive(SimpleObject)]
pub struct PerformerPage {
    pub performers: Vec<Performer>,
    pub total_count: i64,
    pub page: i64,
    pub size: i64,
}

impl From<api::PerformerPage> for PerformerPage {
    fn from(p: api::PerformerPage) -> Self {
        PerformerPage {
            performers: p.performers.into_iter().map(Performer).collect(),
            total_count: p.total_count,
            page: p.page,
            size: p.size,
        }
    }
}

/// A performer's page: the performer and a page of their videos.
#[derive(SimpleObject)]
pub struct PerformerDetail {
    pub performer: Performer,
    pub videos: VideoPage,
}

#[derive(SimpleObject)]
pub struct Category {
    pub slug: String,
    pub name: String,
    /// Published videos of the category on the site.
    pub video_count: i64,
    pub image: Image,
}

impl From<api::Category> for Category {
    fn from(c: api::Category) -> Self {
        Category { slug: c.slug, name: c.name, video_count: c.video_count, image: c.image.into() }
    }
}

#[derive(SimpleObject)]
pub struct FilterItem {
    pub slug: String,
    pub name: String,
    /// Published scenes with it on the site.
    pub scenes: i64,
}

/// getAllFilters: the filter lists of a site (only the asked one when `filter` names one).
#[derive(SimpleObject)]
pub struct Filters {
    pub categories: Vec<FilterItem>,
    pub performers: Vec<FilterItem>,
    pub channels: Vec<FilterItem>,
}

impl From<api::Filters> for Filters {
    fn from(f: api::Filters) -> Self {
        let items = |v: Vec<api::FilterItem>| {
            v.into_iter().map(|i| FilterItem { slug: i.slug, name: i.name, scenes: i.scenes }).collect()
        };
        Filters { categories: items(f.categories), performers: items(f.performers), channels: items(f.channels) }
    }
}
