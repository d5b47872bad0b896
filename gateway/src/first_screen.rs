//! The first screen's data in the page: for the route the edge resolved, the query the page's
//! screen asks first, answered in-process by the same schema for the same session (or from the
//! kept visitors' answers) while the page is built, and written into the page as
//! `<script type="application/json" id="paysite-first-screen">`, with a preload of the image the
//! screen leads with. The front end's cache starts from it (frontend `app/api/firstScreen.ts`),
//! so the first render asks the network for nothing it already has.
//!
//! Which query, with which variables, is the screen's own choice (its `screenQuery`); [`plan`]
//! makes the same choice from what the edge knows, and config/first-screen-conformance.json
//! holds the two to the same answers (this module's tests, frontend
//! `app/routing/conformance.test.ts`). Where they could still differ (a window wider than the
//! request suggested), the page's variables do not match the embedded ones and the page asks
//! for itself: the embedded answer is only ever used for exactly the query it answers.
//!
//! A prefetch that fails, errs or takes longer than its budget leaves the page as it was
//! without one (docs/decisions/caching-and-first-screen/first-screen-comes-page.md).

use std::time::Duration;

use axum::http::HeaderMap;
use serde::Serialize;
use serde_json::{json, Value};

use tenants::Tenant;

use crate::routes::PageRow;

/// The id of the script element the front end reads the first screen from.
pub const ELEMENT_ID: &str = "paysite-first-screen";

/// Items of a listing page (frontend `PAGE_SIZE`).
pub const PAGE_SIZE: u32 = 12;
/// Related videos on a video page (frontend `RELATED_COUNT`).
pub const RELATED_COUNT: u32 = 6;
/// The widest viewport of each size class (frontend `BREAKPOINTS`: small to 480 px, medium
/// (the medium and large types) to 1024 px).
const SMALL_MAX: u32 = 480;
const MEDIUM_MAX: u32 = 1024;

/// The client hint a browser sends, once the page asked for it, with its viewport's width.
pub const VIEWPORT_WIDTH_HINT: &str = "sec-ch-viewport-width";
/// The hints a page asks for (`Accept-CH`), and what its answer varies with besides the cookie.
pub const ACCEPT_CH: &str = "Sec-CH-Viewport-Width";
pub const VARY: &str = "Cookie, Sec-CH-Viewport-Width, Sec-CH-UA-Mobile, User-Agent";

/// The settings (crate::config): `PAYSITE_FIRST_SCREEN` (default true) and
/// `PAYSITE_FIRST_SCREEN_BUDGET_MS` (default 250), the longest a page waits for its answers.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub enabled: bool,
    pub budget: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { enabled: true, budget: Duration::from_millis(250) }
    }
}

/// Which of the spec's list sizes the viewport shows (frontend `shelfSizeClass`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SizeClass {
    Small,
    Medium,
    Large,
}

impl SizeClass {
    /// The class of a viewport this wide.
    pub fn of_width(width: u32) -> SizeClass {
        if width <= SMALL_MAX {
            SizeClass::Small
        } else if width <= MEDIUM_MAX {
            SizeClass::Medium
        } else {
            SizeClass::Large
        }
    }

    /// The request's best guess: the viewport width hint when the browser sends it (it does
    /// once a page asked, with `Accept-CH`), else a phone when the browser says it is mobile,
    /// a tablet when it runs Android without saying so, else a wide screen.
    pub fn of_request(headers: &HeaderMap) -> SizeClass {
        let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default();
        if let Ok(width) = text(VIEWPORT_WIDTH_HINT).trim().parse::<u32>() {
            return SizeClass::of_width(width);
        }
        if text("sec-ch-ua-mobile").trim() == "?1" {
            return SizeClass::Small;
        }
        let agent = text("user-agent");
        if agent.contains("Mobi") || agent.contains("iPhone") {
            SizeClass::Small
        } else if agent.contains("Android") || agent.contains("iPad") {
            SizeClass::Medium
        } else {
            SizeClass::Large
        }
    }

    fn list_size(self, tenant: &Tenant) -> u32 {
        let sizes = &tenant.pagination_list_sizes;
        match self {
            SizeClass::Small => sizes.small,
            SizeClass::Medium => sizes.medium,
            SizeClass::Large => sizes.large,
        }
    }

    /// A recommendation shelf's size (frontend `RECOMMENDED_LIST_SIZES`, product.md, "Business constants and limits").
    fn recommended_size(self) -> u32 {
        match self {
            SizeClass::Small => 3,
            SizeClass::Medium => 6,
            SizeClass::Large => 9,
        }
    }

    /// How many cards of the first shelf or grid load at once (frontend `priorityCards`):
    /// one on a phone, the first row wider.
    fn priority_cards(self) -> usize {
        match self {
            SizeClass::Small => 1,
            SizeClass::Medium => 2,
            SizeClass::Large => 3,
        }
    }
}

/// What the page's first query is: the front end's operation and its variables, and where in
/// its answer the images it leads with are.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    pub operation: &'static str,
    pub variables: Value,
    #[serde(skip)]
    pub lead: Lead,
}

/// The images a screen leads with (its largest paint), as pointers into the answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Lead {
    /// None: an answer the shell shows (the header's gems balance).
    Nothing,
    /// The first `count` items of the list at `list`, each's image at `image`.
    Cards { list: &'static str, image: &'static str, count: usize },
    /// One image URL at this pointer.
    Url(&'static str),
}

/// Who the page is for, as the screens' queries read them.
pub struct Viewer<'a> {
    pub is_authenticated: bool,
    pub rules: &'a [access::Rule],
}

/// The first query of the page at `row` (a 200 the route table let through), or None for a
/// page whose screen has no query the edge makes for it.
pub fn plan(row: &PageRow, query: Option<&str>, tenant: &Tenant, viewer: &Viewer<'_>, size: SizeClass) -> Option<Plan> {
    let param = |name: &str| row.params.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone());
    let pairs: Vec<(String, String)> =
        form_urlencoded::parse(query.unwrap_or_default().as_bytes()).into_owned().collect();
    let get = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    match row.path {
        // features/home/routes/screens.tsx `homeQuery`.
        "/" => {
            let free_trial =
                viewer.is_authenticated && access::evaluate(viewer.rules, "see", "FreeLimitedTrialVideos", None);
            let latest = size.list_size(tenant);
            Some(Plan {
                operation: "HomePage",
                variables: json!({
                    "shelfSize": size.recommended_size().max(latest),
                    "latestSize": latest,
                    "freeTrial": free_trial,
                }),
                lead: Lead::Cards {
                    list: "/data/latest/videos",
                    image: "/images/listing",
                    count: size.priority_cards(),
                },
            })
        }
        // features/videos/routes/rules.ts `videosRule`, screens.tsx `listingQuery`.
        "/videos" => {
            let page = get("page").and_then(|p| p.parse::<u32>().ok()).unwrap_or(1);
            let filter = get("filter");
            let search = get("search").filter(|s| !s.is_empty());
            let search = match (&search, &filter) {
                (Some(search), None) => Some(search.to_lowercase()),
                _ => search,
            };
            Some(Plan {
                operation: "VideoListing",
                variables: json!({
                    "page": page,
                    "size": PAGE_SIZE,
                    "filter": filter,
                    "categories": get("categories"),
                    "search": search,
                }),
                lead: Lead::Cards {
                    list: "/data/videos/videos",
                    image: "/images/listing",
                    count: size.priority_cards(),
                },
            })
        }
        // features/videos/components/VideoPageView.tsx `videoPageQuery`.
        "/videos/:slug" => Some(Plan {
            operation: "VideoPage",
            variables: json!({ "videoSlug": param("slug")?, "relatedCount": RELATED_COUNT }),
            lead: Lead::Url("/data/getVideo/video/trailer/poster"),
        }),
        _ => None,
    }
}

/// What the shell around every screen asks at once for a signed-in user: the header's gems
/// balance (features/gems/components/GemsEntry.tsx, which main.tsx's gems-modal check reads too).
pub fn shell_plans(viewer: &Viewer<'_>) -> Vec<Plan> {
    if !viewer.is_authenticated {
        return Vec::new();
    }
    vec![Plan { operation: "GemsBalance", variables: json!({}), lead: Lead::Nothing }]
}

/// What the screen's parts ask as soon as its answer is there, with what they take from it: on a
/// signed-in user's video page, the player's media tokens for the video's id
/// (features/videos/components/VideoPlayer.tsx `MemberPlayer`) and the favourite button's state for
/// its slug (FavoriteButton.tsx). `answer` is the screen's whole answer (`{"data": …}`); a plan
/// whose input the answer lacks is left out. The screen declares the same documents as its
/// `pageAnswers`, and the front end seeds them with the screen's own.
pub fn follow_ups(screen: &Plan, answer: &Value, viewer: &Viewer<'_>) -> Vec<Plan> {
    if screen.operation != "VideoPage" || !viewer.is_authenticated {
        return Vec::new();
    }
    let field = |name: &str| {
        answer.pointer(&format!("/data/getVideo/video/{name}")).and_then(Value::as_str).filter(|v| !v.is_empty())
    };
    let mut plans = Vec::new();
    if let Some(uuid) = field("uuid") {
        plans.push(Plan { operation: "VideoTokens", variables: json!({ "videoId": uuid }), lead: Lead::Nothing });
    }
    if let Some(slug) = field("slug") {
        plans.push(Plan { operation: "VideoFavorite", variables: json!({ "videoSlug": slug }), lead: Lead::Nothing });
    }
    plans
}

/// An image to preload, as the page's `<img>` asks for it (frontend components/Picture).
#[derive(Debug, PartialEq, Eq)]
pub struct Preload {
    pub href: String,
    pub srcset: Option<String>,
}

/// The images the answer leads with.
pub fn preloads(lead: &Lead, answer: &Value) -> Vec<Preload> {
    match lead {
        Lead::Nothing => Vec::new(),
        Lead::Url(pointer) => answer
            .pointer(pointer)
            .and_then(Value::as_str)
            .filter(|href| !href.is_empty())
            .map(|href| vec![Preload { href: href.to_owned(), srcset: None }])
            .unwrap_or_default(),
        Lead::Cards { list, image, count } => {
            let items = answer.pointer(list).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            items
                .iter()
                .take(*count)
                .filter_map(|item| item.pointer(image))
                .filter_map(|image| {
                    let href = image.get("src")?.as_str()?.to_owned();
                    let highdpi = image.get("highdpi").filter(|h| !h.is_null());
                    let srcset = highdpi.and_then(|h| {
                        Some(format!("{href} 1x, {} 2x, {} 3x", h.get("double")?.as_str()?, h.get("triple")?.as_str()?))
                    });
                    Some(Preload { href, srcset })
                })
                .collect()
        }
    }
}

/// The page's head additions: the preloads of the screen's images, then the embedded answers
/// (`{"answers": [{operation, variables, data}, …]}`, the screen's first, then the shell's and the
/// screen's follow-ups), from each plan's whole answer. None without the screen's own answer: the
/// shell's alone save too little to be worth the page's bytes.
pub fn head_html(answered: &[(Plan, Value)]) -> Option<String> {
    let mut html = String::new();
    let mut answers = Vec::new();
    for (plan, answer) in answered {
        let Some(data) = answer.get("data").filter(|d| d.is_object()) else { continue };
        for preload in preloads(&plan.lead, answer) {
            html.push_str("<link rel=\"preload\" as=\"image\" href=\"");
            html.push_str(&attribute(&preload.href));
            html.push('"');
            if let Some(srcset) = &preload.srcset {
                html.push_str(" imagesrcset=\"");
                html.push_str(&attribute(srcset));
                html.push('"');
            }
            html.push_str(" fetchpriority=\"high\">");
        }
        answers.push(json!({ "operation": plan.operation, "variables": plan.variables, "data": data }));
    }
    let screen = answered.first()?;
    if answers.first().and_then(|a| a.get("operation")) != Some(&json!(screen.0.operation)) {
        return None;
    }
    html.push_str(&format!(
        "<script id=\"{ELEMENT_ID}\" type=\"application/json\">{}</script>",
        crate::spa::script_json(&json!({ "answers": answers }))
    ));
    Some(html)
}

/// An attribute value, quoted with `"`.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;")
}

/// Whether the row is one [`plan`] answers for, before anything is asked (the edge's cheap test).
pub fn has_plan(row: &PageRow) -> bool {
    matches!(row.path, "/" | "/videos" | "/videos/:slug")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct File {
        users: std::collections::HashMap<String, User>,
        cases: Vec<Case>,
    }

    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct User {
        signed_in: bool,
        #[serde(default)]
        abilities: Vec<String>,
    }

    #[derive(serde::Deserialize)]
    struct Case {
        brand: String,
        user: String,
        viewport: SizeClass,
        path: String,
        expect: Option<Expect>,
    }

    #[derive(serde::Deserialize)]
    struct Expect {
        operation: String,
        variables: Value,
    }

    fn rules_of(user: &User) -> Vec<access::Rule> {
        user.abilities
            .iter()
            .map(|ability| {
                let (action, subject) = ability.split_once(' ').expect("an ability is 'action Subject'");
                let action: &'static str = Box::leak(action.to_owned().into_boxed_str());
                let subject: &'static str = Box::leak(subject.to_owned().into_boxed_str());
                access::Rule::can(action, subject)
            })
            .collect()
    }

    #[test]
    fn the_edge_plans_what_each_screen_asks_first() {
        let file: File = serde_json::from_str(include_str!("../../config/first-screen-conformance.json")).unwrap();
        assert!(file.cases.len() >= 6, "the cases cover home, the listing and the video page");
        for case in &file.cases {
            let tenant = tenants::global().get(&case.brand).unwrap().clone();
            let user = &file.users[&case.user];
            let rules = rules_of(user);
            let viewer = Viewer { is_authenticated: user.signed_in, rules: &rules };
            let (path, query) = case.path.split_once('?').map_or((case.path.as_str(), None), |(p, q)| (p, Some(q)));
            let row = crate::routes::page_row(path);
            let planned = plan(&row, query, &tenant, &viewer, case.viewport);
            match (&case.expect, planned) {
                (None, None) => {}
                (Some(expect), Some(planned)) => {
                    assert_eq!(planned.operation, expect.operation, "{}", case.path);
                    assert_eq!(planned.variables, expect.variables, "{} ({:?})", case.path, case.viewport);
                    assert!(has_plan(&row), "{}", case.path);
                }
                (expect, planned) => panic!("{}: expected {:?}, planned {planned:?}", case.path, expect.is_some()),
            }
        }
    }

    #[test]
    fn the_rows_said_to_have_a_plan_are_exactly_those_planned() {
        let tenant = tenants::global().get("tushy").unwrap().clone();
        let viewer = Viewer { is_authenticated: false, rules: &[] };
        let mut planned = 0;
        for row in crate::routes::rows().iter().filter(|row| row.path != "*") {
            let path: String = row
                .path
                .split('/')
                .map(|segment| if segment.starts_with(':') { "some-slug" } else { segment })
                .collect::<Vec<_>>()
                .join("/");
            let page = crate::routes::page_row(&path);
            assert_eq!(page.path, row.path, "{path}");
            let plans = plan(&page, None, &tenant, &viewer, SizeClass::Large).is_some();
            assert_eq!(has_plan(&page), plans, "{}", row.path);
            planned += usize::from(plans);
        }
        assert_eq!(planned, 3, "home, the listing and a video");
    }

    #[test]
    fn the_size_class_comes_from_the_hint_then_the_browser() {
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.insert(*k, v.parse().unwrap());
            }
            h
        };
        let moto = "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36";
        assert_eq!(SizeClass::of_request(&headers(&[("user-agent", moto)])), SizeClass::Small);
        assert_eq!(SizeClass::of_request(&headers(&[("sec-ch-ua-mobile", "?1")])), SizeClass::Small);
        assert_eq!(
            SizeClass::of_request(&headers(&[("user-agent", "Mozilla/5.0 (X11; Linux x86_64)")])),
            SizeClass::Large
        );
        assert_eq!(
            SizeClass::of_request(&headers(&[("user-agent", moto), (VIEWPORT_WIDTH_HINT, "900")])),
            SizeClass::Medium
        );
        assert_eq!(SizeClass::of_request(&headers(&[(VIEWPORT_WIDTH_HINT, "1280")])), SizeClass::Large);
        assert_eq!(SizeClass::of_request(&headers(&[(VIEWPORT_WIDTH_HINT, "480")])), SizeClass::Small);
        assert_eq!(SizeClass::of_request(&HeaderMap::new()), SizeClass::Large);
    }

    #[test]
    fn the_lead_images_are_the_first_cards_with_their_srcset() {
        let answer = json!({"data": {"latest": {"videos": [
            {"images": {"listing": {"src": "/a.jpg", "highdpi": {"double": "/a2.jpg", "triple": "/a3.jpg"}}}},
            {"images": {"listing": {"src": "/b.jpg", "highdpi": null}}},
            {"images": {"listing": {"src": "/c.jpg"}}},
        ]}}});
        let lead = Lead::Cards { list: "/data/latest/videos", image: "/images/listing", count: 2 };
        assert_eq!(
            preloads(&lead, &answer),
            vec![
                Preload { href: "/a.jpg".into(), srcset: Some("/a.jpg 1x, /a2.jpg 2x, /a3.jpg 3x".into()) },
                Preload { href: "/b.jpg".into(), srcset: None },
            ]
        );
        assert_eq!(preloads(&Lead::Url("/data/none"), &answer), vec![]);
    }

    #[test]
    fn a_members_video_page_follows_with_its_tokens_and_favourite_from_the_answer() {
        let tenant = tenants::global().get("vixen").unwrap().clone();
        let row = crate::routes::page_row("/videos/asked-slug");
        let answer = json!({"data": {"getVideo": {"video": {"uuid": "v-1", "slug": "canonical-slug"}}}});
        let member = Viewer { is_authenticated: true, rules: &[] };
        let screen = plan(&row, None, &tenant, &member, SizeClass::Small).unwrap();
        let follow = follow_ups(&screen, &answer, &member);
        let asked: Vec<(&str, &Value)> = follow.iter().map(|p| (p.operation, &p.variables)).collect();
        assert_eq!(
            asked,
            vec![
                ("VideoTokens", &json!({"videoId": "v-1"})),
                ("VideoFavorite", &json!({"videoSlug": "canonical-slug"})),
            ]
        );
        // A visitor's player shows the trailer and has no favourite button; other screens follow with nothing;
        // an answer without the video's id or slug gives no plan that needs it.
        let visitor = Viewer { is_authenticated: false, rules: &[] };
        assert!(follow_ups(&screen, &answer, &visitor).is_empty());
        let home = plan(&crate::routes::page_row("/"), None, &tenant, &member, SizeClass::Small).unwrap();
        assert!(follow_ups(&home, &answer, &member).is_empty());
        let partial = json!({"data": {"getVideo": {"video": {"slug": "s", "uuid": ""}}}});
        let only: Vec<&str> = follow_ups(&screen, &partial, &member).iter().map(|p| p.operation).collect();
        assert_eq!(only, vec!["VideoFavorite"]);
    }

    #[test]
    fn the_embedded_answer_cannot_end_its_script_and_an_error_embeds_nothing() {
        let plan = Plan {
            operation: "VideoPage",
            variables: json!({"videoSlug": "x"}),
            lead: Lead::Url("/data/getVideo/video/trailer/poster"),
        };
        let answer = json!({"data": {"getVideo": {"video": {
            "title": "</script><script>alert(1)</script>",
            "trailer": {"poster": "/p.jpg?a=1&b=\"2"},
        }}}});
        let gems = Plan { operation: "GemsBalance", variables: json!({}), lead: Lead::Nothing };
        let answered = [(plan.clone(), answer), (gems.clone(), json!({"data": {"getGemsBalance": {}}}))];
        let html = head_html(&answered).unwrap();
        assert_eq!(html.matches("</script>").count(), 1, "{html}");
        assert!(
            html.starts_with(r#"<link rel="preload" as="image" href="/p.jpg?a=1&amp;b=&quot;2" fetchpriority="high">"#),
            "{html}"
        );
        let script = &html[html.find("application/json\">").unwrap() + 18..html.rfind("</script>").unwrap()];
        let embedded: Value = serde_json::from_str(script).unwrap();
        assert_eq!(embedded["answers"][0]["operation"], "VideoPage");
        assert_eq!(embedded["answers"][0]["data"]["getVideo"]["video"]["title"], "</script><script>alert(1)</script>");
        assert_eq!(embedded["answers"][1]["operation"], "GemsBalance");
        // Without the screen's own answer, nothing is embedded.
        let failed = [(plan, json!({"errors": []})), (gems, json!({"data": {}}))];
        assert_eq!(head_html(&failed), None);
    }
}
