//! Tenant configuration: the brands as data in `config/tenants/`, checked as they load.
//!
//! One `<brand>.json` per brand, in the shape the SPA reads (frontend `TenantConfig`), plus
//! `members-area.json`. URL fields are templates: `{origin}` is the origin serving the page,
//! `{brandOrigin}` the brand's public origin, `{membersOrigin}` its members area; the deployment
//! (the gateway's configuration) fills them in, so the same files serve laptops and production.
//!
//! This crate is the one owner of the brands: their keys, site ids, offer pages and which one is
//! the combined "plus" brand. Services and the gateway ask it; no brand name or list is written
//! in code. A process loads the directory once ([`global`]) from `PAYSITE_TENANTS_DIR`.

use std::{
    collections::{BTreeMap, HashMap, HashSet},
    path::{Path, PathBuf},
    sync::OnceLock,
};

use anyhow::{bail, ensure, Context};
use serde::{Deserialize, Serialize};

/// The members-area entry's file; every other `*.json` in the directory is a brand.
pub const MEMBERS_AREA_FILE: &str = "members-area.json";

/// Where the tenants live, relative to the working directory: `PAYSITE_TENANTS_DIR` overrides it.
pub const DEFAULT_TENANTS_DIR: &str = "config/tenants";

/// The tenants directory a process reads: `PAYSITE_TENANTS_DIR` when set (through `lookup`),
/// else `config/tenants` under the working directory, else the repository's own (tests and
/// tools run from a crate's directory).
pub fn dir_from(lookup: impl Fn(&str) -> Option<String>) -> PathBuf {
    if let Some(dir) = lookup("PAYSITE_TENANTS_DIR").filter(|v| !v.trim().is_empty()) {
        return PathBuf::from(dir);
    }
    let relative = PathBuf::from(DEFAULT_TENANTS_DIR);
    if relative.is_dir() {
        relative
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/tenants")
    }
}

static GLOBAL: OnceLock<Tenants> = OnceLock::new();

/// Loads this process's tenants (from `PAYSITE_TENANTS_DIR`, see [`dir_from`]) if not yet
/// loaded; a service calls it at start-up so a broken directory stops it there, naming the file.
pub fn init() -> anyhow::Result<&'static Tenants> {
    match GLOBAL.get() {
        Some(loaded) => Ok(loaded),
        None => init_from(&dir_from(|key| std::env::var(key).ok())),
    }
}

/// Loads `dir` as this process's tenants. A process has one set of brands: when another
/// directory with other contents was loaded first, this is an error rather than a second truth.
pub fn init_from(dir: &Path) -> anyhow::Result<&'static Tenants> {
    let loaded = Tenants::load(dir)?;
    let global = GLOBAL.get_or_init(|| loaded.clone());
    ensure!(*global == loaded, "{} holds other tenants than the ones this process already loaded", dir.display());
    Ok(global)
}

/// This process's tenants. Pure rules that need the brands (is this a site, is this the
/// combined brand) read them here.
///
/// # Panics
/// When the directory does not load: every service calls [`init`] at start-up, which reports
/// the problem as an error first.
pub fn global() -> &'static Tenants {
    init().unwrap_or_else(|e| panic!("the tenant configuration does not load: {e:#}"))
}

/// One brand, as stored and (with its URLs filled in) as served to the browser.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Tenant {
    /// Brand key, e.g. `tushy`; also the brand's host label.
    pub tenant: String,
    /// Upper-case brand name, e.g. `TUSHY`.
    pub site: String,
    /// e.g. `tsh` (product.md, "Brands and hosts").
    pub abbreviation: String,
    /// Numeric site id (welcome data, signups).
    pub site_id: u32,
    /// Offer page id (product.md, "Brands and hosts"), the `ref` of join links.
    pub offer_page_id: u32,
    /// Hidden from the porn-portal listing (vixenplus).
    #[serde(default)]
    pub hidden_from_portal: bool,
    /// Sister brands this tenant lists under /sites/{brand}/{type}.
    pub standalone_sites: Vec<String>,
    pub members_url: String,
    pub tour_url: String,
    pub assets_url_v2: String,
    pub public_assets: String,
    pub api: Api,
    /// Public base URL of the payments service ({payments host}).
    pub payments_host: String,
    pub theme: Theme,
    pub pagination_list_sizes: ListSizes,
    pub header_features: HeaderFeatures,
    pub features: Features,
    /// The two site ids that count as multisite: the multisite package's, then vixenplus's.
    pub multisite_site_ids: [u32; 2],
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Api {
    pub host: String,
}

/// Neutral, per brand: colours, wordmark and type.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Theme {
    pub name: String,
    pub wordmark: String,
    pub colors: ThemeColors,
    pub typography: Typography,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ThemeColors {
    pub background: String,
    pub surface: String,
    pub text: String,
    pub muted_text: String,
    pub accent: String,
    pub on_accent: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Typography {
    pub wordmark_font: String,
    pub heading_font: String,
    pub body_font: String,
    pub wordmark_letter_spacing: String,
    pub heading_transform: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ListSizes {
    pub large: u32,
    pub medium: u32,
    pub small: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HeaderFeatures {
    pub awards_link: bool,
}

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Features {
    pub faceted_search: bool,
    pub show_angels: bool,
    pub showcases_page: bool,
    pub reels: bool,
    pub curator: bool,
    /// The channels section (a tandem child never sees it).
    pub channels: bool,
    /// Internal channels, channel trailers, internal channel trailers and the expert-review
    /// modal: shown when on, or to the preview role (product.md, "Roles and abilities").
    pub internal_channels: bool,
    pub channel_trailers: bool,
    pub internal_channel_trailers: bool,
    pub expert_review: bool,
    /// The tenant's upgrade overlay rule (never for admins and active members).
    pub upgrade_overlay: bool,
    pub promotional_video_teaser_modal: Toggle,
    /// The join form's image A/B test (product.md, "Analytics and affiliates": cookie-driven, variants a
    /// and b, one-year cookie); off unless a tenant turns it on.
    #[serde(default)]
    pub join_form_image_test: Toggle,
    /// Keyed by region code (`US-TX`, `US-AL`).
    pub health_warning: BTreeMap<String, HealthWarning>,
    /// Its members see the relationship-status section of the account (the spec's
    /// `hasActiveWifeySubscription`: wifey's).
    #[serde(default)]
    pub relationship_section: bool,
}

/// A tenant with nothing turned on but what every brand has: channels and the upgrade overlay.
/// Configuration always names every feature; this is the baseline the access rules' tests start from.
impl Default for Features {
    fn default() -> Self {
        Features {
            faceted_search: false,
            show_angels: false,
            showcases_page: false,
            reels: false,
            curator: false,
            channels: true,
            internal_channels: false,
            channel_trailers: false,
            internal_channel_trailers: false,
            expert_review: false,
            upgrade_overlay: true,
            promotional_video_teaser_modal: Toggle::default(),
            join_form_image_test: Toggle::default(),
            health_warning: BTreeMap::new(),
            relationship_section: false,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Toggle {
    pub enabled: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HealthWarning {
    pub enabled: bool,
    pub region_name: String,
}

/// `members-area.json`: the members host (login, join) that serves every brand.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MembersArea {
    /// The brand whose configuration a members host shared by all brands serves.
    pub default_tenant: String,
}

/// The public origins a tenant's URL templates are filled with.
#[derive(Clone, Copy, Debug)]
pub struct Origins<'a> {
    /// The origin serving the page (a brand host or a members host).
    pub origin: &'a str,
    pub brand_origin: &'a str,
    pub members_origin: &'a str,
}

const PLACEHOLDERS: [&str; 3] = ["{origin}", "{brandOrigin}", "{membersOrigin}"];

impl Tenant {
    /// Whether this is the combined "plus" brand (see [`Tenants::combined`]).
    pub fn is_combined(&self) -> bool {
        self.site_id == self.multisite_site_ids[1]
    }

    /// This tenant as served on a page of `origins.origin`.
    pub fn with_origins(&self, origins: Origins<'_>) -> Tenant {
        let fill = |template: &str| {
            template
                .replace("{origin}", origins.origin)
                .replace("{brandOrigin}", origins.brand_origin)
                .replace("{membersOrigin}", origins.members_origin)
        };
        let mut served = self.clone();
        for url in served.urls_mut() {
            *url = fill(url);
        }
        served
    }

    fn urls(&self) -> [&String; 6] {
        [
            &self.members_url,
            &self.tour_url,
            &self.assets_url_v2,
            &self.public_assets,
            &self.api.host,
            &self.payments_host,
        ]
    }

    fn urls_mut(&mut self) -> [&mut String; 6] {
        [
            &mut self.members_url,
            &mut self.tour_url,
            &mut self.assets_url_v2,
            &mut self.public_assets,
            &mut self.api.host,
            &mut self.payments_host,
        ]
    }

    fn check(&self) -> anyhow::Result<()> {
        ensure!(is_host_label(&self.tenant), "tenant {:?} must be lower-case letters and digits", self.tenant);
        ensure!(!self.site.trim().is_empty(), "site is empty");
        ensure!(!self.abbreviation.trim().is_empty(), "abbreviation is empty");
        for url in self.urls() {
            let mut rest = url.clone();
            for placeholder in PLACEHOLDERS {
                rest = rest.replace(placeholder, "");
            }
            ensure!(!rest.contains(['{', '}']), "{url:?} names an unknown placeholder (known: {PLACEHOLDERS:?})");
        }
        let ListSizes { large, medium, small } = self.pagination_list_sizes;
        ensure!(large > 0 && medium > 0 && small > 0, "paginationListSizes must be positive");
        let colors = &self.theme.colors;
        for color in
            [&colors.background, &colors.surface, &colors.text, &colors.muted_text, &colors.accent, &colors.on_accent]
        {
            ensure!(is_hex_color(color), "theme colour {color:?} is not #rrggbb");
        }
        for (region, warning) in &self.features.health_warning {
            ensure!(!warning.region_name.trim().is_empty(), "health warning {region} has no regionName");
        }
        Ok(())
    }
}

/// Every brand and the members area, as loaded from the tenants directory.
#[derive(Clone, Debug, PartialEq)]
pub struct Tenants {
    /// Ordered by brand key.
    pub brands: Vec<Tenant>,
    pub members_area: MembersArea,
}

impl Tenants {
    /// Reads and checks the directory; any problem names its file.
    pub fn load(dir: &Path) -> anyhow::Result<Self> {
        let entries = std::fs::read_dir(dir).with_context(|| format!("reading tenants from {}", dir.display()))?;
        let mut brands = Vec::new();
        let mut members_area = None;
        for entry in entries {
            let path = entry?.path();
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
            let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if file_name == MEMBERS_AREA_FILE {
                members_area =
                    Some(serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?);
                continue;
            }
            let tenant: Tenant = serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            ensure!(
                stem == tenant.tenant,
                "{} holds tenant {:?}; name it {}.json",
                path.display(),
                tenant.tenant,
                tenant.tenant
            );
            tenant.check().with_context(|| format!("checking {}", path.display()))?;
            brands.push(tenant);
        }
        brands.sort_by(|a, b| a.tenant.cmp(&b.tenant));
        let members_area = members_area.with_context(|| format!("{} is missing {MEMBERS_AREA_FILE}", dir.display()))?;
        let tenants = Tenants { brands, members_area };
        tenants.check().with_context(|| format!("checking the tenants in {}", dir.display()))?;
        Ok(tenants)
    }

    pub fn get(&self, brand: &str) -> Option<&Tenant> {
        self.brands.iter().find(|t| t.tenant == brand)
    }

    /// Every brand key, in key order.
    pub fn keys(&self) -> impl Iterator<Item = &str> + '_ {
        self.brands.iter().map(|t| t.tenant.as_str())
    }

    /// Whether `key` is a brand.
    pub fn is_brand(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The combined "plus" brand, which shows every brand's videos and whose site id counts as
    /// multisite (spec README): the brand whose `siteId` is the second of `multisiteSiteIds`.
    pub fn combined(&self) -> &Tenant {
        self.brands.iter().find(|t| t.is_combined()).expect("checked on load: multisiteSiteIds names a brand")
    }

    /// Whether `key` is the combined brand.
    pub fn is_combined(&self, key: &str) -> bool {
        self.combined().tenant == key
    }

    /// The brand whose site id is `site_id`.
    pub fn by_site_id(&self, site_id: u32) -> Option<&Tenant> {
        self.brands.iter().find(|t| t.site_id == site_id)
    }

    /// What must hold across brands.
    fn check(&self) -> anyhow::Result<()> {
        ensure!(!self.brands.is_empty(), "no brand configured");
        unique(&self.brands, "abbreviation", |t| t.abbreviation.clone())?;
        unique(&self.brands, "siteId", |t| t.site_id.to_string())?;
        unique(&self.brands, "offerPageId", |t| t.offer_page_id.to_string())?;
        let keys: HashSet<&str> = self.brands.iter().map(|t| t.tenant.as_str()).collect();
        for tenant in &self.brands {
            if let Some(unknown) = tenant.standalone_sites.iter().find(|s| !keys.contains(s.as_str())) {
                bail!("{}: standaloneSites names {unknown:?}, which is not a brand", tenant.tenant);
            }
        }
        let multisite = self.brands[0].multisite_site_ids;
        if let Some(other) = self.brands.iter().find(|t| t.multisite_site_ids != multisite) {
            bail!("{}: multisiteSiteIds {:?} differ from {:?}", other.tenant, other.multisite_site_ids, multisite);
        }
        let [package, plus] = multisite;
        if let Some(brand) = self.brands.iter().find(|t| t.site_id == package) {
            bail!("the multisite package id {package} is also the site id of {}", brand.tenant);
        }
        ensure!(
            self.brands.iter().any(|t| t.site_id == plus),
            "multisiteSiteIds names {plus} for the combined brand, but no brand has that siteId"
        );
        ensure!(
            keys.contains(self.members_area.default_tenant.as_str()),
            "{MEMBERS_AREA_FILE}: defaultTenant {:?} is not a brand",
            self.members_area.default_tenant
        );
        Ok(())
    }
}

fn unique(brands: &[Tenant], field: &str, value: impl Fn(&Tenant) -> String) -> anyhow::Result<()> {
    let mut seen: HashMap<String, &str> = HashMap::new();
    for tenant in brands {
        if let Some(first) = seen.insert(value(tenant), &tenant.tenant) {
            bail!("{} and {first} share the {field} {:?}", tenant.tenant, value(tenant));
        }
    }
    Ok(())
}

fn is_host_label(key: &str) -> bool {
    !key.is_empty() && key.len() <= 63 && key.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

fn is_hex_color(value: &str) -> bool {
    value.len() == 7 && value.starts_with('#') && value[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo_tenants() -> Tenants {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../config/tenants");
        Tenants::load(&dir).expect("config/tenants loads")
    }

    /// The brands, abbreviations and offer page ids of product.md, "Brands and hosts".
    const SPEC_BRANDS: [(&str, &str, u32); 10] = [
        ("blacked", "blk", 1),
        ("blackedraw", "braw", 4),
        ("tushy", "tsh", 2),
        ("tushyraw", "traw", 5),
        ("vixen", "vxn", 3),
        ("deeper", "dpr", 6),
        ("slayed", "sl", 7),
        ("milfy", "ml", 9),
        ("vixenplus", "vxnp", 10),
        ("wifey", "wfy", 11),
    ];

    #[test]
    fn all_ten_brands_load_with_the_abbreviations_and_offer_page_ids_of_the_spec() {
        let tenants = repo_tenants();
        assert_eq!(tenants.brands.len(), 10);
        for (key, abbreviation, offer_page_id) in SPEC_BRANDS {
            let tenant = tenants.get(key).unwrap_or_else(|| panic!("{key} is configured"));
            assert_eq!(tenant.abbreviation, abbreviation, "{key}");
            assert_eq!(tenant.offer_page_id, offer_page_id, "{key}");
            assert_eq!(tenant.site, key.to_uppercase(), "{key}");
            assert_eq!(tenant.pagination_list_sizes, ListSizes { large: 6, medium: 4, small: 3 }, "{key}");
        }
        let abbreviations: HashSet<_> = tenants.brands.iter().map(|t| &t.abbreviation).collect();
        assert_eq!(abbreviations.len(), 10);
    }

    #[test]
    fn only_vixenplus_is_hidden_from_the_portal() {
        let hidden: Vec<_> =
            repo_tenants().brands.into_iter().filter(|t| t.hidden_from_portal).map(|t| t.tenant).collect();
        assert_eq!(hidden, ["vixenplus"]);
    }

    #[test]
    fn the_multisite_ids_are_the_package_and_vixenplus() {
        let tenants = repo_tenants();
        let vixenplus = tenants.get("vixenplus").unwrap().site_id;
        for tenant in &tenants.brands {
            assert_eq!(tenant.multisite_site_ids[1], vixenplus, "{}", tenant.tenant);
        }
        assert_eq!(tenants.combined().tenant, "vixenplus");
        assert!(tenants.is_combined("vixenplus") && !tenants.is_combined("vixen"));
        assert_eq!(tenants.by_site_id(vixenplus).map(|t| t.tenant.as_str()), Some("vixenplus"));
    }

    #[test]
    fn only_wifey_shows_the_relationship_section() {
        let shown: Vec<_> =
            repo_tenants().brands.into_iter().filter(|t| t.features.relationship_section).map(|t| t.tenant).collect();
        assert_eq!(shown, ["wifey"]);
    }

    #[test]
    fn the_keys_are_the_ten_brands_in_order() {
        let tenants = repo_tenants();
        let keys: Vec<&str> = tenants.keys().collect();
        let mut expected: Vec<&str> = SPEC_BRANDS.iter().map(|(key, _, _)| *key).collect();
        expected.sort_unstable();
        assert_eq!(keys, expected);
        assert!(tenants.is_brand("wifey") && !tenants.is_brand("channels") && !tenants.is_brand(""));
    }

    #[test]
    fn the_directory_comes_from_the_environment_first() {
        assert_eq!(dir_from(|_| Some("/etc/paysite/tenants".into())), PathBuf::from("/etc/paysite/tenants"));
        assert!(dir_from(|_| None).join("vixen.json").is_file());
        assert!(global().is_brand("tushy"));
    }

    #[test]
    fn every_feature_is_on_for_some_brands_and_off_for_others() {
        let brands = repo_tenants().brands;
        type Switch = fn(&Tenant) -> bool;
        let switches: [(&str, Switch); 9] = [
            ("facetedSearch", |t| t.features.faceted_search),
            ("showAngels", |t| t.features.show_angels),
            ("showcasesPage", |t| t.features.showcases_page),
            ("reels", |t| t.features.reels),
            ("curator", |t| t.features.curator),
            ("promotionalVideoTeaserModal", |t| t.features.promotional_video_teaser_modal.enabled),
            ("awardsLink", |t| t.header_features.awards_link),
            ("healthWarning US-TX", |t| t.features.health_warning["US-TX"].enabled),
            ("healthWarning US-AL", |t| t.features.health_warning["US-AL"].enabled),
        ];
        for (name, on) in switches {
            assert!(brands.iter().any(on), "{name} is on somewhere");
            assert!(!brands.iter().all(on), "{name} is off somewhere");
        }
    }

    #[test]
    fn themes_are_distinct_per_brand() {
        let brands = repo_tenants().brands;
        let themes: HashSet<_> = brands.iter().map(|t| (&t.theme.colors.background, &t.theme.colors.accent)).collect();
        assert_eq!(themes.len(), brands.len());
    }

    #[test]
    fn url_templates_are_filled_with_the_serving_origins() {
        let tenants = repo_tenants();
        let served = tenants.get("tushy").unwrap().with_origins(Origins {
            origin: "http://members.localhost:8080",
            brand_origin: "http://tushy.localhost:8080",
            members_origin: "http://members.localhost:8080",
        });
        assert_eq!(served.tour_url, "http://tushy.localhost:8080");
        assert_eq!(served.members_url, "http://members.localhost:8080");
        assert_eq!(served.api.host, "http://members.localhost:8080/api");
        assert!(!serde_json::to_string(&served).unwrap().contains("{origin}"));
    }

    fn write(dir: &Path, name: &str, value: &serde_json::Value) {
        std::fs::write(dir.join(name), serde_json::to_string_pretty(value).unwrap()).unwrap();
    }

    /// A copy of the repository's tenants, edited by `edit`, loaded.
    fn load_edited(edit: impl FnOnce(&Path)) -> anyhow::Result<Tenants> {
        let dir = tempfile::tempdir().unwrap();
        let source = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../config/tenants");
        for entry in std::fs::read_dir(source).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
        }
        edit(dir.path());
        Tenants::load(dir.path())
    }

    fn edit_brand(dir: &Path, brand: &str, edit: impl FnOnce(&mut serde_json::Value)) {
        let path = dir.join(format!("{brand}.json"));
        let mut value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        edit(&mut value);
        write(dir, &format!("{brand}.json"), &value);
    }

    #[test]
    fn a_shared_abbreviation_is_refused() {
        let err = load_edited(|dir| edit_brand(dir, "wifey", |v| v["abbreviation"] = "vxn".into())).unwrap_err();
        assert!(format!("{err:#}").contains("abbreviation"), "{err:#}");
    }

    #[test]
    fn a_misspelt_field_is_refused_naming_the_file() {
        let err = load_edited(|dir| edit_brand(dir, "milfy", |v| v["showAngles"] = true.into())).unwrap_err();
        let message = format!("{err:#}");
        assert!(message.contains("milfy.json") && message.contains("showAngles"), "{message}");
    }

    #[test]
    fn an_unknown_sister_site_is_refused() {
        let err = load_edited(|dir| edit_brand(dir, "tushy", |v| v["standaloneSites"] = serde_json::json!(["nope"])))
            .unwrap_err();
        assert!(format!("{err:#}").contains("nope"), "{err:#}");
    }

    #[test]
    fn a_file_named_for_another_brand_is_refused() {
        let err =
            load_edited(|dir| std::fs::rename(dir.join("wifey.json"), dir.join("wife.json")).unwrap()).unwrap_err();
        assert!(format!("{err:#}").contains("wife.json"), "{err:#}");
    }

    #[test]
    fn an_unknown_url_placeholder_is_refused() {
        let err = load_edited(|dir| edit_brand(dir, "deeper", |v| v["tourUrl"] = "{tourOrigin}".into())).unwrap_err();
        assert!(format!("{err:#}").contains("{tourOrigin}"), "{err:#}");
    }

    #[test]
    fn a_members_area_for_an_unknown_brand_is_refused() {
        let err = load_edited(|dir| write(dir, MEMBERS_AREA_FILE, &serde_json::json!({"defaultTenant": "nope"})))
            .unwrap_err();
        assert!(format!("{err:#}").contains("defaultTenant"), "{err:#}");
    }

    #[test]
    fn multisite_ids_that_disagree_with_vixenplus_are_refused() {
        let err = load_edited(|dir| {
            for brand in SPEC_BRANDS.map(|(key, _, _)| key) {
                edit_brand(dir, brand, |v| v["multisiteSiteIds"] = serde_json::json!([900, 1]));
            }
        })
        .unwrap_err();
        assert!(format!("{err:#}").contains("combined brand"), "{err:#}");
    }
}
