//! The route table of product.md, "Screens and routes" and what the edge answers for a request.
//!
//! The rules are data: config/routes.json, which the browser's loaders read too
//! (frontend `app/routing/table.ts`). Each row's steps run in order and the first that stops
//! decides: not-found (404), a redirect (302) or a permanent move (301); a row whose steps all
//! pass is the page (200), once the catalog finds what its slug names. config/routes-conformance.json
//! holds the two readers to the same answers (gateway/tests/route_conformance.rs, frontend
//! `routing/conformance.test.ts`).
//!
//! Paths are matched the way the SPA's router (react-router) matches them, so curl and the
//! browser agree: percent-decoded segments, static segments case-insensitive, trailing slashes
//! ignored, static segments outranking parameters.

use std::sync::LazyLock;

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::Deserialize;

use tenants::Tenant;

/// config/routes.json, built in.
const TABLE_JSON: &str = include_str!("../../config/routes.json");

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TableFile {
    slug_params: Vec<String>,
    routes: Vec<Row>,
}

/// A row of the table: a path as the SPA registers it, its steps, and what the catalog is asked.
#[derive(Debug, Deserialize)]
pub struct Row {
    pub path: String,
    steps: Vec<Step>,
    #[serde(default)]
    lookup: Option<LookupKind>,
}

/// One rule of a row (config/routes.json's `about` lists them).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
enum Step {
    /// Signed out: the members login in the members area, not-found elsewhere (product.md, "Route errors and the error screen").
    Authenticated,
    /// Signed in: redirected to the target.
    VisitorsOnly(Target),
    /// Any of these (action, subject) abilities, else not-found (product.md, "Screens and routes").
    Ability(Vec<(String, String)>),
    /// A tenant switch, else not-found (product.md, "Screens and routes").
    Feature(Feature),
    /// Every slug parameter passes the slug rule, else not-found.
    Slugs,
    /// /sites/{brand}/{type}: a sister site the tenant lists (not itself), of one of these types.
    SisterSite(Vec<String>),
    /// The `site` parameter names a brand, else not-found.
    KnownBrand,
    /// The page query (and keys that must be absent), else a redirect.
    Page(PageStep),
    /// With faceted search on, a search redirects to /videos?categories={lower-cased search}.
    FacetedVideoSearch,
    /// With faceted search on and no sex in the query, the same query plus sex=F.
    FacetedPerformers,
    /// A pending promotional teaser sends the user to `next` (default /).
    OffersTeaser,
    /// Without memberid and username in the welcome data, home.
    WelcomeRequired,
    /// As WelcomeRequired; then a signed-in user of a non-multisite signup goes home with reactivation=success.
    SignupSuccess,
    /// A declined multisite or VP signup of a signed-in user goes to /offers (the only reader who
    /// can see offers); anyone else reads the denial (docs/decisions/).
    SignupDenial,
    /// To the members host of the `site` brand, with an optional same-site deeplink.
    CrossSite,
    /// A 302 to the target.
    Redirect(Target),
    /// A 301 to the target.
    Move(Target),
    /// Paths outside the table: the join route when they contain /joinnow, else not-found.
    JoinRoute,
}

/// Where a redirect goes: a path template (`:param`, `:param?`), the request's query kept or not,
/// and query pairs whose values may name parameters.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Target {
    to: String,
    #[serde(default)]
    keep_query: bool,
    #[serde(default)]
    query: Vec<(String, String)>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PageStep {
    #[serde(default)]
    max: Option<PageMax>,
    invalid: Invalid,
    #[serde(default)]
    absent: Vec<String>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
enum PageMax {
    /// Max 32-bit integer / the tenant's small list size (product.md, "Screens and routes" /awards).
    Awards,
}

/// The query of the redirect an invalid page gets.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
enum Invalid {
    /// None.
    Clear,
    /// The request's without these keys.
    Drop(Vec<String>),
    /// Only these keys, in this order.
    Keep(Vec<String>),
    /// These keys, in this order, where their value (or its default when empty) is not the default.
    KeepUnlessDefault(Vec<(String, String)>),
}

/// The tenant switches that gate a route (product.md, "Screens and routes").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Feature {
    AwardsLink,
    ShowAngels,
    ShowcasesPage,
    Reels,
    Curator,
}

/// What the catalog is asked before a row with a slug answers 200.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
enum LookupKind {
    Video,
    Performer,
    Channel,
    ChannelPack,
    ChannelVideo,
    Angel,
    Showcase,
}

/// The general slug rule (`^[a-z0-9]+(-[a-z0-9]+)*$`, 1 to 200 characters), the catalog's.
pub use catalog_contract::is_valid_slug;

/// Max 32-bit integer (product.md, "Business constants and limits").
const MAX_INT32: u64 = 2_147_483_647;

/// What the catalog is asked before a row with a slug answers 200: whether the brand has it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lookup {
    Video(String),
    Performer(String),
    Channel(String),
    ChannelPack {
        channel: String,
        pack: String,
    },
    /// The video, in that channel.
    ChannelVideo {
        channel: String,
        video: String,
    },
    Angel(String),
    Showcase(String),
}

/// What the edge answers for a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edge {
    /// The SPA's page, 200.
    Page,
    /// The SPA's page, 200 if the catalog finds the slug for the brand, else 404.
    PageIfFound(Lookup),
    /// 302 to this location.
    Found(String),
    /// 301 to this location.
    MovedPermanently(String),
    /// The SPA's page, 404.
    NotFound,
}

/// Who asks, as the route rules read them (frontend `UserRoutingView`).
#[derive(Clone, Debug, Default)]
pub struct Visitor {
    pub is_authenticated: bool,
    /// The server-computed abilities.
    pub rules: Vec<access::Rule>,
    /// profile.state.modals.teaserViewed (false without a profile).
    pub teaser_viewed: bool,
    /// The signup's welcome data (welcome.rs).
    pub welcome: serde_json::Map<String, serde_json::Value>,
}

/// A request as the route rules read it.
pub struct Request<'a> {
    /// The path as requested (raw).
    pub path: &'a str,
    /// The query as requested (raw, without `?`).
    pub query: Option<&'a str>,
    pub tenant: &'a Tenant,
    pub is_members_area: bool,
    pub visitor: &'a Visitor,
    /// Every brand key (/xsite/{site}).
    pub brands: &'a [String],
}

/// What the edge answers for a request.
pub fn resolve(request: &Request<'_>) -> Edge {
    resolve_at(request, &page_row(request.path))
}

/// What the edge answers for a request whose row is already matched ([`page_row`] of its path).
pub fn resolve_at(request: &Request<'_>, page: &PageRow) -> Edge {
    let row = page.row;
    let visit = Visit { request, row, params: page.params.clone(), query: Query::parse(request.query) };
    for step in &row.steps {
        if let Some(stop) = visit.step(step) {
            return stop;
        }
    }
    match row.lookup {
        Some(kind) => Edge::PageIfFound(visit.lookup(kind)),
        None => Edge::Page,
    }
}

/// The row a path is a page of, for what its head says (crate::head).
#[derive(Clone, Debug)]
pub struct PageRow {
    row: &'static Row,
    /// The row's path as the table writes it (`/videos/:slug`), `*` for a path outside the table.
    pub path: &'static str,
    /// The path's parameters, decoded.
    pub params: Vec<(&'static str, String)>,
    /// The row's page needs a session (an `authenticated` step).
    pub needs_session: bool,
}

/// The row `path` is a page of.
pub fn page_row(path: &str) -> PageRow {
    let (row, params) = match TABLE.find(path) {
        Some(found) => (found.row, found.params),
        None => (*CATCH_ALL, Vec::new()),
    };
    let needs_session = row.steps.iter().any(|step| matches!(step, Step::Authenticated));
    PageRow { row, path: row.path.as_str(), params, needs_session }
}

impl PageRow {
    /// The row's path with its parameters put in: the one path of the page, whatever case or
    /// trailing slash it was asked with.
    pub fn filled(&self) -> String {
        fill_path(self.path, &self.params)
    }
}

/// A path template (`:param`, `:param?`) with the parameters it names put in, each encoded as
/// encodeURIComponent does; a parameter that is absent drops its segment.
pub fn fill_path(template: &str, params: &[(&'static str, String)]) -> String {
    let mut path = String::new();
    for segment in template.split('/').filter(|s| !s.is_empty()) {
        match segment.strip_prefix(':') {
            Some(name) => {
                let name = name.trim_end_matches('?');
                if let Some((_, value)) = params.iter().find(|(n, _)| *n == name) {
                    path.push('/');
                    path.extend(utf8_percent_encode(value, URI_COMPONENT));
                }
            }
            None => {
                path.push('/');
                path.push_str(segment);
            }
        }
    }
    if path.is_empty() {
        path.push('/');
    }
    path
}

/// Whether the tenant has a route table's feature.
pub fn has(tenant: &Tenant, feature: Feature) -> bool {
    match feature {
        Feature::AwardsLink => tenant.header_features.awards_link,
        Feature::ShowAngels => tenant.features.show_angels,
        Feature::ShowcasesPage => tenant.features.showcases_page,
        Feature::Reels => tenant.features.reels,
        Feature::Curator => tenant.features.curator,
    }
}

/// A query as URLSearchParams reads it: form-decoded pairs in order.
struct Query(Vec<(String, String)>);

impl Query {
    fn parse(raw: Option<&str>) -> Query {
        Query(form_urlencoded::parse(raw.unwrap_or_default().as_bytes()).into_owned().collect())
    }

    fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    fn has(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| k == key)
    }
}

/// URLSearchParams' toString of `pairs`.
fn serialize<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    form_urlencoded::Serializer::new(String::new()).extend_pairs(pairs).finish()
}

/// path + '?' + query, or just path when the query is empty (frontend `withQuery`).
fn with_query(path: &str, query: &str) -> String {
    if query.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{query}")
    }
}

/// A same-site path to redirect to, or None when the value could leave the site (frontend `sameSitePath`).
fn same_site_path(value: Option<&str>) -> Option<&str> {
    let value = value?;
    let leaves =
        !value.starts_with('/') || value.starts_with("//") || value.chars().any(|c| c <= '\u{20}' || c == '\\');
    (!leaves).then_some(value)
}

struct Visit<'a> {
    request: &'a Request<'a>,
    row: &'static Row,
    params: Vec<(&'static str, String)>,
    query: Query,
}

impl Visit<'_> {
    fn param(&self, name: &str) -> Option<&str> {
        self.params.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str())
    }

    fn tenant(&self) -> &Tenant {
        self.request.tenant
    }

    /// What a step answers, or None to go on.
    fn step(&self, step: &Step) -> Option<Edge> {
        let visitor = self.request.visitor;
        let found = |location: String| Some(Edge::Found(location));
        match step {
            Step::Authenticated if visitor.is_authenticated => None,
            Step::Authenticated if self.request.is_members_area => found(crate::session::login_url(
                self.tenant(),
                &with_query(self.request.path, &serialize(self.query.pairs())),
            )),
            Step::Authenticated => Some(Edge::NotFound),
            Step::VisitorsOnly(target) => visitor.is_authenticated.then(|| Edge::Found(self.target(target))),
            Step::Ability(any_of) => {
                let can =
                    any_of.iter().any(|(action, subject)| access::evaluate(&visitor.rules, action, subject, None));
                (!can).then_some(Edge::NotFound)
            }
            Step::Feature(feature) => (!has(self.tenant(), *feature)).then_some(Edge::NotFound),
            Step::Slugs => {
                let bad = self.params.iter().any(|(name, value)| SLUG_PARAMS.contains(name) && !is_valid_slug(value));
                bad.then_some(Edge::NotFound)
            }
            Step::SisterSite(types) => {
                let brand = self.param("brand").unwrap_or_default();
                let kind = self.param("type").unwrap_or_default();
                let listed = brand != self.tenant().tenant && self.tenant().standalone_sites.iter().any(|s| s == brand);
                (!(listed && types.iter().any(|t| t == kind))).then_some(Edge::NotFound)
            }
            Step::KnownBrand => {
                let site = self.param("site").unwrap_or_default();
                (!self.request.brands.iter().any(|b| b == site)).then_some(Edge::NotFound)
            }
            Step::Page(page) => self.page(page),
            Step::FacetedVideoSearch => {
                let search = self.query.get("search").filter(|s| !s.is_empty())?;
                self.tenant().features.faceted_search.then(|| {
                    Edge::Found(with_query("/videos", &serialize([("categories", search.to_lowercase().as_str())])))
                })
            }
            Step::FacetedPerformers => (self.tenant().features.faceted_search && !self.query.has("sex")).then(|| {
                let query = serialize(self.query.pairs().chain([("sex", "F")]));
                Edge::Found(with_query("/performers", &query))
            }),
            Step::OffersTeaser => {
                let pending = self.tenant().features.promotional_video_teaser_modal.enabled && !visitor.teaser_viewed;
                pending.then(|| Edge::Found(same_site_path(self.query.get("next")).unwrap_or("/").to_owned()))
            }
            Step::WelcomeRequired => (!self.has_member_and_username()).then(|| Edge::Found("/".to_owned())),
            Step::SignupSuccess => {
                if !self.has_member_and_username() {
                    return found("/".to_owned());
                }
                (visitor.is_authenticated && !self.multisite_signup())
                    .then(|| Edge::Found("/?reactivation=success&fatr=true".to_owned()))
            }
            Step::SignupDenial => (self.request.visitor.is_authenticated && self.multisite_signup())
                .then(|| Edge::Found("/offers".to_owned())),
            Step::CrossSite => {
                let site = self.param("site").unwrap_or_default();
                let deeplink = same_site_path(self.query.get("deeplink"));
                match cross_site_url(&self.tenant().members_url, &self.tenant().tenant, site, deeplink) {
                    Some(location) => found(location),
                    None => Some(Edge::NotFound),
                }
            }
            Step::Redirect(target) => found(self.target(target)),
            Step::Move(target) => Some(Edge::MovedPermanently(self.target(target))),
            Step::JoinRoute => (!self.request.path.contains("/joinnow")).then_some(Edge::NotFound),
        }
    }

    fn page(&self, step: &PageStep) -> Option<Edge> {
        let max = match step.max {
            None => MAX_INT32,
            Some(PageMax::Awards) => {
                let small = self.tenant().pagination_list_sizes.small;
                MAX_INT32 / u64::from(if small > 0 { small } else { 3 })
            }
        };
        let valid = match self.query.get("page") {
            None => true,
            Some(raw) => {
                !raw.is_empty()
                    && raw.bytes().all(|b| b.is_ascii_digit())
                    && raw.parse::<u64>().is_ok_and(|page| (1..=max).contains(&page))
            }
        };
        if valid && !step.absent.iter().any(|key| self.query.has(key)) {
            return None;
        }
        let pairs = self.query.pairs();
        let query = match &step.invalid {
            Invalid::Clear => String::new(),
            Invalid::Drop(keys) => serialize(pairs.filter(|(k, _)| !keys.iter().any(|key| key == k))),
            Invalid::Keep(keys) => {
                let kept = keys.iter().flat_map(|key| self.query.0.iter().filter(move |(k, _)| k == key));
                serialize(kept.map(|(k, v)| (k.as_str(), v.as_str())))
            }
            Invalid::KeepUnlessDefault(defaults) => serialize(defaults.iter().filter_map(|(key, default)| {
                let value = self.query.get(key).filter(|v| !v.is_empty()).unwrap_or(default);
                (value != default).then_some((key.as_str(), value))
            })),
        };
        Some(Edge::Found(with_query(&self.fill(&self.row.path), &query)))
    }

    /// A path template with the request's parameters, each encoded as a URI component; an
    /// absent optional last parameter drops its segment.
    fn fill(&self, template: &str) -> String {
        fill_path(template, &self.params)
    }

    fn target(&self, target: &Target) -> String {
        let path = self.fill(&target.to);
        let mut pairs: Vec<(&str, &str)> = if target.keep_query { self.query.pairs().collect() } else { Vec::new() };
        for (key, value) in &target.query {
            let value = match value.strip_prefix(':') {
                Some(name) => self.param(name).unwrap_or_default(),
                None => value.as_str(),
            };
            pairs.push((key.as_str(), value));
        }
        with_query(&path, &serialize(pairs))
    }

    fn welcome_text(&self, key: &str) -> Option<String> {
        match self.request.visitor.welcome.get(key)? {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Number(n) => Some(n.to_string()),
            _ => None,
        }
    }

    fn has_member_and_username(&self) -> bool {
        ["memberid", "username"].iter().all(|key| self.welcome_text(key).is_some_and(|v| !v.is_empty()))
    }

    /// The welcome data's site id is the multisite package's or vixenplus' (spec README).
    fn multisite_signup(&self) -> bool {
        let Some(site_id) = self.welcome_text("siteId").filter(|s| !s.is_empty()) else { return false };
        self.tenant().multisite_site_ids.iter().any(|id| id.to_string() == site_id)
    }

    fn lookup(&self, kind: LookupKind) -> Lookup {
        let p = |name: &str| self.param(name).unwrap_or_default().to_owned();
        match kind {
            LookupKind::Video => Lookup::Video(p("slug")),
            LookupKind::Performer => Lookup::Performer(p("slug")),
            LookupKind::Channel => Lookup::Channel(p("channelSlug")),
            LookupKind::ChannelPack => Lookup::ChannelPack { channel: p("channelSlug"), pack: p("channelPackSlug") },
            LookupKind::ChannelVideo => Lookup::ChannelVideo { channel: p("channelSlug"), video: p("videoSlug") },
            LookupKind::Angel => Lookup::Angel(p("slug")),
            LookupKind::Showcase => Lookup::Showcase(p("slug")),
        }
    }
}

impl Query {
    fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

/// The members URL with the current brand's host label replaced by `site`, plus an optional
/// same-site deeplink (frontend `crossSiteUrl`).
fn cross_site_url(members_url: &str, brand: &str, site: &str, deeplink: Option<&str>) -> Option<String> {
    let mut url = reqwest::Url::parse(members_url).ok()?;
    let host = url.host_str()?.split('.').map(|label| if label == brand { site } else { label }).collect::<Vec<_>>();
    url.set_host(Some(&host.join("."))).ok()?;
    let base = format!("{}{}", url.origin().ascii_serialization(), url.path().trim_end_matches('/'));
    Some(format!("{base}{}", deeplink.unwrap_or_default()))
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

static FILE: LazyLock<TableFile> =
    LazyLock::new(|| serde_json::from_str(TABLE_JSON).expect("config/routes.json is the route table"));
static CATCH_ALL: LazyLock<&'static Row> =
    LazyLock::new(|| FILE.routes.iter().find(|row| row.path == "*").expect("the table has its catch-all '*'"));
static SLUG_PARAMS: LazyLock<Vec<&'static str>> =
    LazyLock::new(|| FILE.slug_params.iter().map(String::as_str).collect());

/// Every row of the table, in its order.
pub fn rows() -> &'static [Row] {
    &FILE.routes
}

static TABLE: LazyLock<RouteTable> =
    LazyLock::new(|| RouteTable::new(FILE.routes.iter().filter(|row| row.path != "*")));

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Segment {
    Static(&'static str),
    Param(&'static str),
}

#[derive(Debug)]
struct Route {
    row: &'static Row,
    segments: Vec<Segment>,
}

struct RouteTable {
    /// Best-ranked first, as react-router ranks them.
    routes: Vec<Route>,
}

/// A path matched to a route, with its parameters (decoded).
#[derive(Debug)]
struct Found {
    row: &'static Row,
    params: Vec<(&'static str, String)>,
}

impl RouteTable {
    fn new(rows: impl Iterator<Item = &'static Row>) -> Self {
        let mut routes = Vec::new();
        for row in rows {
            let pattern = row.path.as_str();
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
                routes.push(Route { row, segments: segments[..segments.len() - 1].to_vec() });
            }
            routes.push(Route { row, segments });
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
            Some(Found { row: route.row, params })
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
    use super::*;

    fn tenant(brand: &str) -> Tenant {
        let tenants = tenants::global().clone();
        tenants.get(brand).unwrap().clone()
    }

    /// The tushy tenant with every gating feature as given.
    fn with_features(on: bool) -> Tenant {
        let mut t = tenant("tushy");
        t.header_features.awards_link = on;
        t.features.show_angels = on;
        t.features.showcases_page = on;
        t.features.reels = on;
        t.features.curator = on;
        t
    }

    fn brands() -> Vec<String> {
        ["vixen", "tushy", "blacked"].map(String::from).to_vec()
    }

    fn edge(path_and_query: &str, tenant: &Tenant, visitor: &Visitor) -> Edge {
        let (path, query) = match path_and_query.split_once('?') {
            Some((p, q)) => (p, Some(q)),
            None => (path_and_query, None),
        };
        let brands = brands();
        resolve(&Request { path, query, tenant, is_members_area: false, visitor, brands: &brands })
    }

    fn visitor_edge(path: &str, tenant: &Tenant) -> Edge {
        edge(path, tenant, &Visitor::default())
    }

    fn pattern(path: &str) -> Option<&'static str> {
        TABLE.find(path).map(|f| f.row.path.as_str())
    }

    #[test]
    fn every_row_of_the_table_matches_its_own_path() {
        for row in rows().iter().filter(|row| row.path != "*") {
            let path =
                row.path.split('/').map(|s| if s.starts_with(':') { "some-slug" } else { s }).collect::<Vec<_>>();
            let path = path.join("/");
            let path = if path.is_empty() { "/".to_owned() } else { path };
            assert_eq!(pattern(&path), Some(row.path.as_str()), "{path}");
        }
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
        let member = Visitor { is_authenticated: true, ..Visitor::default() };
        for path in [
            "/videos/Bad_Slug",
            "/videos/bad--slug/comment/1",
            "/trailer/-x",
            "/pictureset/a%20b",
            "/performers/UPPER",
            "/models/x_y",
            "/categories/a%2Fb",
            "/angels/x-",
            "/showcase/x--y",
        ] {
            assert_eq!(edge(path, &t, &member), Edge::NotFound, "{path}");
        }
        let video = Edge::PageIfFound(Lookup::Video("good-slug".into()));
        assert_eq!(visitor_edge("/videos/good-slug", &t), video);
        assert_eq!(edge("/videos/good-slug/comment/Any_Id", &t, &member), video);
    }

    #[test]
    fn the_permanent_moves_go_where_the_spa_sends_them() {
        let t = tenant("tushy");
        let moved = |path: &str| visitor_edge(path, &t);
        let to = |location: &str| Edge::MovedPermanently(location.to_owned());
        assert_eq!(moved("/models?order=name&page=2"), to("/performers?order=name&page=2"));
        assert_eq!(moved("/models"), to("/performers"));
        assert_eq!(moved("/models?"), to("/performers"));
        assert_eq!(moved("/models?q=a%20b"), to("/performers?q=a+b"));
        assert_eq!(moved("/models/jane-doe?x=1"), to("/performers/jane-doe"));
        assert_eq!(moved("/categories/big-city"), to("/search?search=big-city"));
        assert_eq!(moved("/reels?x=1"), to("/quickies"));
        assert_eq!(moved("/reels/3f2a-11"), to("/quickies/3f2a-11"));
        assert_eq!(moved("/reels/a%20b"), to("/quickies/a%20b"));
        assert_eq!(moved("/reels/a%2Fb"), to("/quickies/a%2Fb"));
        assert_eq!(moved("/reels/%FF"), to("/quickies/%25FF"));
        assert_eq!(moved("/favorites/models"), to("/favorites/performers"));
    }

    #[test]
    fn a_feature_route_is_not_found_when_the_tenant_has_it_off() {
        let paths =
            ["/awards", "/angels", "/angels/jane", "/showcases", "/showcase/s-1", "/quickies", "/quickies/u", "/wall"];
        for path in paths {
            assert!(matches!(visitor_edge(path, &with_features(true)), Edge::Page | Edge::PageIfFound(_)), "{path}");
            assert_eq!(visitor_edge(path, &with_features(false)), Edge::NotFound, "{path}");
        }
        assert_eq!(visitor_edge("/reels", &with_features(false)), Edge::MovedPermanently("/quickies".into()));
    }

    #[test]
    fn page_queries_are_fixed_with_a_302() {
        let t = with_features(true);
        let found = |location: &str| Edge::Found(location.to_owned());
        assert_eq!(visitor_edge("/awards?page=715827882", &t), Edge::Page);
        assert_eq!(visitor_edge("/awards?page=715827883&year=2024", &t), found("/awards?year=2024"));
        assert_eq!(visitor_edge("/VIDEOS/?page=0&filter=new", &t), found("/videos?filter=new"));
        assert_eq!(visitor_edge("/search?q=abc&page=0&size=24&sort=new", &t), found("/search?q=abc&size=24"));
        assert_eq!(visitor_edge("/performers?page=0&order=name&gender=girls&x=1", &t), found("/performers?order=name"));
        assert_eq!(visitor_edge("/performers/jane?page=-1&tab=videos", &t), found("/performers/jane"));
        assert_eq!(visitor_edge("/favorites/channels?page=abc", &t), found("/favorites/channels"));
    }

    #[test]
    fn a_sister_site_must_be_listed_not_the_tenant_and_of_a_known_type() {
        let t = tenant("wifey");
        assert_eq!(visitor_edge("/sites/vixen/videos", &t), Edge::Page);
        assert_eq!(visitor_edge("/sites/tushy/performers", &t), Edge::Page);
        assert_eq!(visitor_edge("/sites/wifey/videos", &t), Edge::NotFound);
        assert_eq!(visitor_edge("/sites/deeper/videos", &t), Edge::NotFound);
        assert_eq!(visitor_edge("/sites/vixen/channels", &t), Edge::NotFound);
        assert_eq!(visitor_edge("/sites/vixen/videos?page=2&sites=x", &t), Edge::Found("/sites/vixen/videos".into()));
    }

    #[test]
    fn any_path_containing_joinnow_is_the_join_page() {
        let t = tenant("tushy");
        let member = Visitor { is_authenticated: true, ..Visitor::default() };
        assert_eq!(visitor_edge("/joinnow", &t), Edge::Page);
        assert_eq!(visitor_edge("/en/joinnow/step-2", &t), Edge::Page);
        assert_eq!(edge("/en/joinnow/step-2", &t, &member), Edge::Found("/?from=joinnow".into()));
        assert_eq!(visitor_edge("/nowhere", &t), Edge::NotFound);
    }

    #[test]
    fn the_cross_site_url_swaps_the_brand_label() {
        assert_eq!(
            cross_site_url("https://members.tushy.com/", "tushy", "vixen", Some("/videos")).as_deref(),
            Some("https://members.vixen.com/videos")
        );
        assert_eq!(
            cross_site_url("http://members.localhost:8080", "tushy", "vixen", None).as_deref(),
            Some("http://members.localhost:8080")
        );
    }
}
