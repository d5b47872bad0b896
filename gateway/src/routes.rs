//! The route table of screens-routes-access.md §2.1, as data, and what the edge answers for a path.
//!
//! The edge decides what needs no user: the permanent moves (301), invalid slugs, tenant
//! features and paths outside the table (404). Everything else is the SPA's page, whose route
//! loaders apply the rest of each row. Paths are matched the way the SPA's router
//! (react-router) matches them, so curl and the browser agree: percent-decoded segments,
//! static segments case-insensitive, trailing slashes ignored, static segments outranking
//! parameters.

use std::sync::LazyLock;

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use crate::tenants::Tenant;

/// What a row of the table is, as far as the edge is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouteKind {
    /// The SPA's page; its loader applies the row's rules.
    Screen,
    /// The SPA's page when the tenant's feature is on, else not-found.
    Feature(Feature),
    /// /sites/{brand}/{type}: a sister site the tenant lists (not itself), videos or performers.
    SisterSite,
    /// A permanent move, answered with 301.
    Moved(Move),
}

/// The tenant switches that gate a route (§5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    AwardsLink,
    Angels,
    ShowcasesPage,
    Reels,
    Curator,
}

/// The permanent moves (§2.1, spec README; frontend `rules/moves.ts`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// /models -> /performers, keeping the query.
    Models,
    /// /models/{slug} -> /performers/{slug}.
    Model,
    /// /categories/{slug} -> /search?search={slug}.
    Category,
    /// /reels/{uuid?} -> /quickies/{uuid?}.
    Reels,
    /// /favorites/models -> /favorites/performers.
    FavoriteModels,
}

use RouteKind::{Feature as Gated, Moved, Screen, SisterSite};

/// Every path of §2.1, in its order, as the SPA registers it (frontend `app/routes.ts`).
pub const ROUTE_TABLE: &[(&str, RouteKind)] = &[
    ("/", Screen),
    ("/videos", Screen),
    ("/videos/:slug", Screen),
    ("/videos/:slug/comment/:commentId", Screen),
    ("/trailer/:slug", Screen),
    ("/pictureset/:slug", Screen),
    ("/toprated", Screen),
    ("/awards", Gated(Feature::AwardsLink)),
    ("/joinnow", Screen),
    ("/models", Moved(Move::Models)),
    ("/models/:slug", Moved(Move::Model)),
    ("/performers", Screen),
    ("/performers/:slug", Screen),
    ("/categories", Screen),
    ("/categories/:slug", Moved(Move::Category)),
    ("/casting", Screen),
    ("/terms", Screen),
    ("/privacy", Screen),
    ("/safety", Screen),
    ("/removal", Screen),
    ("/2257", Screen),
    ("/support", Screen),
    ("/search", Screen),
    ("/deals", Screen),
    ("/offers", Screen),
    ("/account", Screen),
    ("/xsite/:site", Screen),
    ("/cams", Screen),
    ("/favorites", Screen),
    ("/favorites/videos", Screen),
    ("/favorites/performers", Screen),
    ("/favorites/channels", Screen),
    ("/favorites/models", Moved(Move::FavoriteModels)),
    ("/channels", Screen),
    ("/channels/all-videos", Screen),
    ("/channels/:channelSlug", Screen),
    ("/channels/:channelSlug/videos", Screen),
    ("/channels/:channelSlug/packs/:channelPackSlug", Screen),
    ("/channels/:channelSlug/videos/:videoSlug", Screen),
    ("/channels/:channelSlug/trailers/:videoSlug", Screen),
    ("/channels/:channelSlug/picturesets/:videoSlug", Screen),
    ("/_signupsuccess", Screen),
    ("/_signup-extern/:biller", Screen),
    ("/_signupdenial", Screen),
    ("/_upgrademembership", Screen),
    ("/_upgradesuccess", Screen),
    ("/_upgradedenial", Screen),
    ("/parent-redirect", Screen),
    ("/_upsell_signupsuccess", Screen),
    ("/_upsell_signupdenial", Screen),
    ("/oneclick/outgoing-upsell", Screen),
    ("/tube2", Screen),
    ("/angels", Gated(Feature::Angels)),
    ("/angels/:slug", Gated(Feature::Angels)),
    ("/showcases", Gated(Feature::ShowcasesPage)),
    ("/showcase/:slug", Gated(Feature::ShowcasesPage)),
    ("/reels/:uuid?", Moved(Move::Reels)),
    ("/quickies/:uuid?", Gated(Feature::Reels)),
    ("/sites/:brand/:type", SisterSite),
    ("/wall", Gated(Feature::Curator)),
    ("/recommended-videos", Screen),
];

/// Parameters that are slugs (§5): they must pass the general slug rule (spec README).
const SLUG_PARAMS: [&str; 4] = ["slug", "channelSlug", "channelPackSlug", "videoSlug"];

/// The general slug rule: `^[a-z0-9]+(-[a-z0-9]+)*$`, 1 to 200 characters.
pub fn is_valid_slug(slug: &str) -> bool {
    slug.len() <= 200
        && !slug.is_empty()
        && slug
            .split('-')
            .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()))
}

/// The sister-site types of /sites/{brand}/{type}.
const SITES_ROUTE_TYPES: [&str; 2] = ["videos", "performers"];

/// What the catalog is asked before a row with a slug answers 200: whether the brand has it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lookup {
    /// /videos/{slug}, /videos/{slug}/comment/{commentId}, /trailer/{slug}, /pictureset/{slug}.
    Video(String),
    /// /performers/{slug}.
    Performer(String),
    /// /channels/{channelSlug} and its /videos.
    Channel(String),
    /// /channels/{channelSlug}/packs/{channelPackSlug}.
    ChannelPack { channel: String, pack: String },
    /// /channels/{channelSlug}/videos|trailers|picturesets/{videoSlug}: the video, in that channel.
    ChannelVideo { channel: String, video: String },
    /// /angels/{slug}.
    Angel(String),
    /// /showcase/{slug}.
    Showcase(String),
}

impl Lookup {
    /// The lookup a matched row needs, from its pattern and parameters.
    fn of<'a>(pattern: &str, param: impl Fn(&str) -> Option<&'a str>) -> Option<Lookup> {
        let p = |name: &str| param(name).unwrap_or_default().to_owned();
        Some(match pattern {
            "/videos/:slug" | "/videos/:slug/comment/:commentId" | "/trailer/:slug" | "/pictureset/:slug" => {
                Lookup::Video(p("slug"))
            }
            "/performers/:slug" => Lookup::Performer(p("slug")),
            "/channels/:channelSlug" | "/channels/:channelSlug/videos" => Lookup::Channel(p("channelSlug")),
            "/channels/:channelSlug/packs/:channelPackSlug" => {
                Lookup::ChannelPack { channel: p("channelSlug"), pack: p("channelPackSlug") }
            }
            "/channels/:channelSlug/videos/:videoSlug"
            | "/channels/:channelSlug/trailers/:videoSlug"
            | "/channels/:channelSlug/picturesets/:videoSlug" => {
                Lookup::ChannelVideo { channel: p("channelSlug"), video: p("videoSlug") }
            }
            "/angels/:slug" => Lookup::Angel(p("slug")),
            "/showcase/:slug" => Lookup::Showcase(p("slug")),
            _ => return None,
        })
    }
}

/// What the edge answers for a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edge {
    /// The SPA's page, 200.
    Page,
    /// The SPA's page, 200 if the catalog finds the slug for the brand, else 404.
    PageIfFound(Lookup),
    /// 301 to this location.
    MovedPermanently(String),
    /// The SPA's page, 404.
    NotFound,
}

/// What the edge answers for `path` (raw, as requested) with `query` (raw, without `?`).
pub fn resolve(path: &str, query: Option<&str>, tenant: &Tenant) -> Edge {
    let Some(found) = TABLE.find(path) else {
        // The SPA's catch-all: any path containing /joinnow counts as the join route.
        return if path.contains("/joinnow") { Edge::Page } else { Edge::NotFound };
    };
    let param = |name: &str| found.params.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str());
    if found.params.iter().any(|(name, value)| SLUG_PARAMS.contains(name) && !is_valid_slug(value)) {
        return Edge::NotFound;
    }
    let shown = match found.kind {
        Screen => true,
        Gated(feature) => tenant.has(feature),
        SisterSite => {
            let brand = param("brand").unwrap_or_default();
            brand != tenant.tenant
                && tenant.standalone_sites.iter().any(|s| s == brand)
                && SITES_ROUTE_TYPES.contains(&param("type").unwrap_or_default())
        }
        Moved(to) => return Edge::MovedPermanently(to.location(param, query)),
    };
    if !shown {
        return Edge::NotFound;
    }
    match Lookup::of(found.pattern, param) {
        Some(lookup) => Edge::PageIfFound(lookup),
        None => Edge::Page,
    }
}

impl Tenant {
    pub fn has(&self, feature: Feature) -> bool {
        match feature {
            Feature::AwardsLink => self.header_features.awards_link,
            Feature::Angels => self.features.show_angels,
            Feature::ShowcasesPage => self.features.showcases_page,
            Feature::Reels => self.features.reels,
            Feature::Curator => self.features.curator,
        }
    }
}

/// What JavaScript's encodeURIComponent leaves as it is.
const URI_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

impl Move {
    /// The location of the move; slugs have passed the slug rule, so they need no encoding.
    fn location<'a>(self, param: impl Fn(&str) -> Option<&'a str>, query: Option<&str>) -> String {
        match self {
            Move::Models => match query.filter(|q| !q.is_empty()) {
                Some(query) => format!("/performers?{query}"),
                None => "/performers".to_owned(),
            },
            Move::Model => format!("/performers/{}", param("slug").unwrap_or_default()),
            Move::Category => format!("/search?search={}", param("slug").unwrap_or_default()),
            Move::Reels => match param("uuid") {
                Some(uuid) => format!("/quickies/{}", utf8_percent_encode(uuid, URI_COMPONENT)),
                None => "/quickies".to_owned(),
            },
            Move::FavoriteModels => "/favorites/performers".to_owned(),
        }
    }
}

static TABLE: LazyLock<RouteTable> = LazyLock::new(|| RouteTable::new(ROUTE_TABLE));

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Segment {
    Static(&'static str),
    Param(&'static str),
}

#[derive(Debug)]
struct Route {
    pattern: &'static str,
    segments: Vec<Segment>,
    kind: RouteKind,
}

struct RouteTable {
    /// Best-ranked first, as react-router ranks them.
    routes: Vec<Route>,
}

/// A path matched to a route, with its parameters (decoded).
#[derive(Debug)]
struct Found {
    kind: RouteKind,
    pattern: &'static str,
    params: Vec<(&'static str, String)>,
}

impl RouteTable {
    fn new(rows: &[(&'static str, RouteKind)]) -> Self {
        let mut routes = Vec::new();
        for &(pattern, kind) in rows {
            let mut segments = Vec::new();
            let mut optional = false;
            for part in pattern.split('/').filter(|p| !p.is_empty()) {
                assert!(!optional, "{pattern}: only the last segment may be optional");
                match part.strip_prefix(':') {
                    Some(name) => {
                        optional = name.ends_with('?');
                        segments.push(Segment::Param(name.trim_end_matches('?')));
                    }
                    None => segments.push(Segment::Static(part)),
                }
            }
            // An optional last segment is two routes, with and without it (react-router does the same).
            if optional {
                routes.push(Route { pattern, segments: segments[..segments.len() - 1].to_vec(), kind });
            }
            routes.push(Route { pattern, segments, kind });
        }
        // react-router's score: per segment 10 static, 3 parameter, plus the segment count; ties keep table order.
        let score = |route: &Route| -> usize {
            route.segments.len()
                + route.segments.iter().map(|s| if matches!(s, Segment::Static(_)) { 10 } else { 3 }).sum::<usize>()
        };
        routes.sort_by_key(|route| std::cmp::Reverse(score(route)));
        RouteTable { routes }
    }

    fn find(&self, path: &str) -> Option<Found> {
        let segments = path_segments(path)?;
        self.routes.iter().find_map(|route| {
            if route.segments.len() != segments.len() {
                return None;
            }
            let mut params = Vec::new();
            for (segment, value) in route.segments.iter().zip(&segments) {
                match segment {
                    Segment::Static(s) if s.eq_ignore_ascii_case(value) => {}
                    Segment::Static(_) => return None,
                    Segment::Param(_) if value.is_empty() => return None,
                    // react-router turns the "%2F" it kept back into '/' in a parameter.
                    Segment::Param(name) => params.push((*name, value.replace("%2F", "/"))),
                }
            }
            Some(Found { kind: route.kind, pattern: route.pattern, params })
        })
    }
}

/// The decoded segments of a path, trailing slashes dropped; `None` when it is not a path.
///
/// Like react-router, a segment is percent-decoded, a decoded '/' stays "%2F", and a segment
/// that does not decode to UTF-8 is kept as it came.
fn path_segments(path: &str) -> Option<Vec<String>> {
    let rest = path.strip_prefix('/')?.trim_end_matches('/');
    if rest.is_empty() {
        return Some(Vec::new());
    }
    Some(
        rest.split('/')
            .map(|raw| match percent_decode_str(raw).decode_utf8() {
                Ok(decoded) => decoded.replace('/', "%2F"),
                Err(_) => raw.to_owned(),
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::tenants::Tenants;

    fn tenant(brand: &str) -> Tenant {
        let tenants = Tenants::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../config/tenants")).unwrap();
        tenants.get(brand).unwrap().clone()
    }

    /// The tushy tenant with every feature as given.
    fn with_features(on: bool) -> Tenant {
        let mut t = tenant("tushy");
        t.header_features.awards_link = on;
        t.features.show_angels = on;
        t.features.showcases_page = on;
        t.features.reels = on;
        t.features.curator = on;
        t
    }

    fn pattern(path: &str) -> Option<&'static str> {
        TABLE.find(path).map(|f| f.pattern)
    }

    #[test]
    fn every_row_of_the_table_matches_its_own_path() {
        for &(row, _) in ROUTE_TABLE {
            let path =
                row.split('/').map(|s| if s.starts_with(':') { "some-slug" } else { s }).collect::<Vec<_>>().join("/");
            let path = if path.is_empty() { "/".to_owned() } else { path };
            assert_eq!(pattern(&path), Some(row), "{path}");
        }
    }

    /// The SPA registers the same paths (frontend `app/routes.ts`, plus its catch-all '*'): a path
    /// added on one side only would make the edge and the browser disagree.
    #[test]
    fn the_table_has_the_paths_the_spa_registers() {
        let routes_ts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../frontend/src/app/routes.ts");
        let Ok(source) = std::fs::read_to_string(&routes_ts) else {
            eprintln!("skipped: {} is not there", routes_ts.display());
            return;
        };
        let mut spa: Vec<&str> = source
            .split("path: '")
            .skip(1)
            .filter_map(|rest| rest.split_once('\'').map(|(path, _)| path))
            .filter(|path| *path != "*")
            .collect();
        let mut edge: Vec<&str> = ROUTE_TABLE.iter().map(|(pattern, _)| *pattern).collect();
        spa.sort_unstable();
        edge.sort_unstable();
        assert_eq!(edge, spa);
    }

    #[test]
    fn static_segments_outrank_parameters() {
        assert_eq!(pattern("/channels/all-videos"), Some("/channels/all-videos"));
        assert_eq!(pattern("/channels/all-video"), Some("/channels/:channelSlug"));
    }

    #[test]
    fn an_optional_last_segment_matches_with_and_without_it() {
        assert_eq!(pattern("/quickies"), Some("/quickies/:uuid?"));
        assert_eq!(pattern("/quickies/0b7c"), Some("/quickies/:uuid?"));
        assert_eq!(pattern("/quickies/0b7c/more"), None);
    }

    #[test]
    fn matching_ignores_case_and_trailing_slashes_like_the_spa_router() {
        assert_eq!(pattern("/VIDEOS/"), Some("/videos"));
        assert_eq!(pattern("/videos//"), Some("/videos"));
        assert_eq!(pattern("/"), Some("/"));
        assert_eq!(pattern("//"), Some("/"));
        assert_eq!(pattern("/vid%65os"), Some("/videos"));
    }

    #[test]
    fn paths_outside_the_table_match_nothing() {
        for path in
            ["/nope", "/videos/a/b", "/videos//a", "//videos", "/favorites/models/x", "/sites/vixen", "", "videos"]
        {
            assert_eq!(pattern(path), None, "{path}");
        }
    }

    #[test]
    fn the_slug_rule_is_the_spec_readmes() {
        for good in ["a", "abc-123", "0", "a-b-c", &"a".repeat(200)] {
            assert!(is_valid_slug(good), "{good}");
        }
        for bad in ["", "-a", "a-", "a--b", "A", "a_b", "a b", "é", "a.b", &"a".repeat(201)] {
            assert!(!is_valid_slug(bad), "{bad}");
        }
    }

    #[test]
    fn an_invalid_slug_is_not_found_wherever_a_slug_is_expected() {
        let t = with_features(true);
        for path in [
            "/videos/Bad_Slug",
            "/videos/bad--slug/comment/1",
            "/trailer/-x",
            "/pictureset/a%20b",
            "/performers/UPPER",
            "/models/x_y",
            "/categories/a%2Fb",
            "/channels/ok/packs/NOT-OK",
            "/channels/NOT-OK/videos",
            "/channels/ok/videos/bad.slug",
            "/angels/x-",
            "/showcase/x--y",
        ] {
            assert_eq!(resolve(path, None, &t), Edge::NotFound, "{path}");
        }
        let video = Edge::PageIfFound(Lookup::Video("good-slug".into()));
        assert_eq!(resolve("/videos/good-slug", None, &t), video);
        assert_eq!(resolve("/videos/good-slug/comment/Any_Id", None, &t), video);
    }

    #[test]
    fn every_screen_with_a_slug_asks_the_catalog_and_moves_stay_moves() {
        let t = with_features(true);
        for &(row, kind) in ROUTE_TABLE {
            let has_slug = SLUG_PARAMS.iter().any(|p| row.split('/').any(|s| s == format!(":{p}")));
            let path = row.split('/').map(|s| if s.starts_with(':') { "x-1" } else { s }).collect::<Vec<_>>().join("/");
            let edge = resolve(&path, None, &t);
            match kind {
                Moved(_) => assert!(matches!(edge, Edge::MovedPermanently(_)), "{row}: {edge:?}"),
                _ if has_slug => assert!(matches!(edge, Edge::PageIfFound(_)), "{row}: {edge:?}"),
                _ => assert!(!matches!(edge, Edge::PageIfFound(_)), "{row}: {edge:?}"),
            }
        }
        assert_eq!(
            resolve("/channels/big-studio/trailers/a-scene", None, &t),
            Edge::PageIfFound(Lookup::ChannelVideo { channel: "big-studio".into(), video: "a-scene".into() })
        );
        assert_eq!(
            resolve("/channels/big-studio/packs/pack-1", None, &t),
            Edge::PageIfFound(Lookup::ChannelPack { channel: "big-studio".into(), pack: "pack-1".into() })
        );
    }

    #[test]
    fn the_permanent_moves_go_where_the_spa_sends_them() {
        let t = tenant("tushy");
        let moved = |path: &str, query: Option<&str>| resolve(path, query, &t);
        let to = |location: &str| Edge::MovedPermanently(location.to_owned());
        assert_eq!(moved("/models", Some("order=name&page=2")), to("/performers?order=name&page=2"));
        assert_eq!(moved("/models", None), to("/performers"));
        assert_eq!(moved("/models", Some("")), to("/performers"));
        assert_eq!(moved("/models/jane-doe", Some("x=1")), to("/performers/jane-doe"));
        assert_eq!(moved("/categories/big-city", None), to("/search?search=big-city"));
        assert_eq!(moved("/reels", Some("x=1")), to("/quickies"));
        assert_eq!(moved("/reels/3f2a-11", None), to("/quickies/3f2a-11"));
        assert_eq!(moved("/reels/a%20b", None), to("/quickies/a%20b"));
        assert_eq!(moved("/reels/a%2Fb", None), to("/quickies/a%2Fb"));
        assert_eq!(moved("/reels/%FF", None), to("/quickies/%25FF"));
        assert_eq!(moved("/favorites/models", None), to("/favorites/performers"));
    }

    #[test]
    fn a_feature_route_is_not_found_when_the_tenant_has_it_off() {
        let paths =
            ["/awards", "/angels", "/angels/jane", "/showcases", "/showcase/s-1", "/quickies", "/quickies/u", "/wall"];
        for path in paths {
            assert!(matches!(resolve(path, None, &with_features(true)), Edge::Page | Edge::PageIfFound(_)), "{path}");
            assert_eq!(resolve(path, None, &with_features(false)), Edge::NotFound, "{path}");
        }
        // The move stays a move, whatever the tenant's reels switch says.
        assert_eq!(resolve("/reels", None, &with_features(false)), Edge::MovedPermanently("/quickies".into()));
    }

    #[test]
    fn a_sister_site_must_be_listed_not_the_tenant_and_of_a_known_type() {
        let t = tenant("wifey");
        assert_eq!(resolve("/sites/vixen/videos", None, &t), Edge::Page);
        assert_eq!(resolve("/sites/tushy/performers", None, &t), Edge::Page);
        assert_eq!(resolve("/sites/wifey/videos", None, &t), Edge::NotFound);
        assert_eq!(resolve("/sites/deeper/videos", None, &t), Edge::NotFound);
        assert_eq!(resolve("/sites/vixen/channels", None, &t), Edge::NotFound);
    }

    #[test]
    fn any_path_containing_joinnow_is_the_join_page() {
        let t = tenant("tushy");
        assert_eq!(resolve("/joinnow", None, &t), Edge::Page);
        assert_eq!(resolve("/en/joinnow/step-2", None, &t), Edge::Page);
        assert_eq!(resolve("/nowhere", None, &t), Edge::NotFound);
    }
}
