//! The subscription service's settings: billers and their secrets, multisite packages, join
//! options with their example prices, trial upgrade pricing, credit packs and retention offers
//! (`config/billing/billing.json`: data, never code), and the brands' site ids (`config/tenants`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use runtime::Secret;
use serde::{Deserialize, Serialize};

pub use subscription_contract::api::{DisplayRules, JoinOption, PriceRange, RetentionDeal, TrialUpgrade, UpsellPrice};

/// The queue profile events arrive on (account e-mails and tandem links).
pub const PROFILES_QUEUE: &str = "subscription.profiles";
/// Where the billing data lives, relative to the working directory.
pub const DEFAULT_BILLING_DIR: &str = "config/billing";
/// The biller sandbox's default address (services/biller-sandbox, service `sandbox`).
pub const DEFAULT_SANDBOX_URL: &str = "http://127.0.0.1:8090";
/// A postback timestamp may be this far from now, either way.
pub const TIMESTAMP_WINDOW_SECS: i64 = 300;

/// How a biller's postbacks look and are signed (see [`crate::billers`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    /// Form fields, `ans`/`trans_type` codes, `epoch_digest` = HMAC over the sorted fields.
    Epoch,
    /// JSON event (`eventType`), header `x-biller-signature: t=<unix>,v1=<hmac>`.
    Ccbill,
    /// Form fields `stage`/`action`, header `x-biller-signature`; answered with the OK text.
    Segpay,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct BillerFile {
    scheme: Scheme,
    external: bool,
    native: bool,
    ok_text: String,
    dev_secret: String,
    payment_page: String,
    #[serde(default)]
    card_update_url: Option<String>,
}

/// One biller as the service uses it.
#[derive(Clone, Debug)]
pub struct Biller {
    pub name: String,
    pub scheme: Scheme,
    pub external: bool,
    pub native: bool,
    /// What a Segpay-style postback is answered with.
    pub ok_text: String,
    /// What its postbacks are signed with, and what paysite signs for it.
    pub secret: Secret,
    /// During a rotation, the secret the biller moves to (`PAYSITE_BILLER_<NAME>_SECRET_NEXT`):
    /// a postback signed with either verifies (docs/operations.md, "Rotating a biller's secret").
    pub next_secret: Option<Secret>,
    /// The payment page a join is sent to.
    pub payment_page: String,
    pub card_update_url: Option<String>,
}

impl Biller {
    /// The biller's path as the profile names it (`/vxnbill`).
    pub fn path(&self) -> String {
        format!("/{}", self.name.to_ascii_lowercase())
    }

    /// The secrets a postback may be signed with: the current one, then the next during a rotation.
    pub fn accepted_secrets(&self) -> impl Iterator<Item = &Secret> {
        std::iter::once(&self.secret).chain(self.next_secret.as_ref())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Package {
    pub name: String,
    pub sites: Vec<String>,
    pub join_option_ids: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Packages {
    /// The default multisite package (the VP one).
    pub default: String,
    pub packages: Vec<Package>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreditPack {
    pub id: String,
    pub credits: u32,
    pub price: String,
    pub currency: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetentionOffer {
    pub name: String,
    pub currencies: Vec<String>,
    pub display_rules: DisplayRules,
    pub deal: RetentionDeal,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Experiment {
    pub enabled: bool,
    pub variants: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct BillingFile {
    billers: BTreeMap<String, BillerFile>,
    multisite_packages: Packages,
    join_options: Vec<JoinOption>,
    trial_upgrade: TrialUpgrade,
    vixen_plus_yearly_join_option_id: u32,
    multisite_upsell_join_option_id: u32,
    credit_packs: Vec<CreditPack>,
    retention_offers: Vec<RetentionOffer>,
    retention_price_experiment: Experiment,
    #[serde(default)]
    outgoing_upsells: Vec<OutgoingUpsell>,
    #[serde(default)]
    cams_oneclick_url: Option<String>,
}

/// A partner's membership sold in one click to a member (outgoingUpsellOneclick), charged by
/// the member's own biller under that biller's upsell id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OutgoingUpsell {
    pub name: String,
    pub partner_name: String,
    /// Biller name → its upsell id (`epoch_upsellid`, `segpay_upsellid`, `rg_upsellid`).
    pub upsell_ids: BTreeMap<String, String>,
    pub title: String,
    pub description: String,
    /// The confirmation modal's component.
    pub component: String,
    pub price: UpsellPrice,
    pub currency: String,
    /// Hosts the member link and the fallback may point at (besides this site's paths).
    pub partner_hosts: Vec<String>,
}

/// Everything the service is configured with.
#[derive(Clone, Debug)]
pub struct BillingConfig {
    pub billers: BTreeMap<String, Biller>,
    pub packages: Packages,
    pub join_options: Vec<JoinOption>,
    pub trial_upgrade: TrialUpgrade,
    pub vixen_plus_yearly_join_option_id: u32,
    /// The multisite package the purchase modal sells a member in one click
    /// (internalUpsellOneclickMultisite): a join option of a multisite package.
    pub multisite_upsell_join_option_id: u32,
    pub credit_packs: Vec<CreditPack>,
    pub retention_offers: Vec<RetentionOffer>,
    pub retention_price_experiment: Experiment,
    /// Brand key → numeric site id.
    pub site_ids: BTreeMap<String, u32>,
    /// The two ids that count as multisite (the package's and vixenplus's).
    pub multisite_site_ids: Vec<u32>,
    /// The biller sandbox (`PAYSITE_SANDBOX_URL`, as `paysite up` sets it): payment pages of
    /// the local billers.
    pub sandbox_url: String,
    /// The profile-events queue; tests use their own.
    pub profiles_queue: String,
    pub outgoing_upsells: Vec<OutgoingUpsell>,
    /// The cams partner's one-click landing (`{sandbox}` is the sandbox's URL): where the
    /// payments host's `/v1/outgoing-upsells-oneclick/cams` sends a member.
    pub cams_oneclick_url: String,
    /// The cost a join form's password is hashed at while the biller decides: the profile
    /// service's (`PROFILE_ARGON2_*`), whose account it becomes.
    pub argon2: profile_contract::passwords::Argon2Cost,
}

/// `PROFILE_ARGON2_MEMORY_KIB`, `_ITERATIONS`, `_PARALLELISM`, else the profile's defaults.
fn argon2_cost(lookup: &impl Fn(&str) -> Option<String>) -> anyhow::Result<profile_contract::passwords::Argon2Cost> {
    let d = profile_contract::passwords::Argon2Cost::default();
    let number = |key: &str, default: u32| -> anyhow::Result<u32> {
        match lookup(key).filter(|v| !v.is_empty()) {
            Some(v) => v.trim().parse().with_context(|| format!("{key} must be a number")),
            None => Ok(default),
        }
    };
    Ok(profile_contract::passwords::Argon2Cost {
        memory_kib: number("PROFILE_ARGON2_MEMORY_KIB", d.memory_kib)?,
        iterations: number("PROFILE_ARGON2_ITERATIONS", d.iterations)?,
        parallelism: number("PROFILE_ARGON2_PARALLELISM", d.parallelism)?,
    })
}

fn default_dir(relative: &str) -> PathBuf {
    let path = PathBuf::from(relative);
    if path.is_dir() {
        path
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(relative)
    }
}

impl BillingConfig {
    pub fn from_env(production: bool) -> anyhow::Result<Self> {
        Self::from_lookup(|key| std::env::var(key).ok(), production)
    }

    /// Reads `PAYSITE_BILLING_DIR`, `PAYSITE_TENANTS_DIR`, `PAYSITE_BILLER_<NAME>_SECRET`
    /// (required in production; the file's development secret otherwise), during a rotation
    /// `PAYSITE_BILLER_<NAME>_SECRET_NEXT`, and the rest.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>, production: bool) -> anyhow::Result<Self> {
        let dir = |key: &str, default: &str| {
            lookup(key).filter(|v| !v.is_empty()).map(PathBuf::from).unwrap_or_else(|| default_dir(default))
        };
        let billing_dir = dir("PAYSITE_BILLING_DIR", DEFAULT_BILLING_DIR);
        let path = billing_dir.join("billing.json");
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        let file: BillingFile = serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
        let mut billers = BTreeMap::new();
        for (name, b) in file.billers {
            let key = format!("PAYSITE_BILLER_{name}_SECRET");
            let secret = match lookup(&key).filter(|v| !v.is_empty()) {
                Some(s) => s,
                None if production => anyhow::bail!("{key} must be set in production"),
                None => b.dev_secret.clone(),
            };
            let next_secret = lookup(&format!("{key}_NEXT")).filter(|v| !v.is_empty()).map(Secret::new);
            billers.insert(
                name.clone(),
                Biller {
                    name,
                    scheme: b.scheme,
                    external: b.external,
                    native: b.native,
                    ok_text: b.ok_text,
                    secret: Secret::new(secret),
                    next_secret,
                    payment_page: b.payment_page,
                    card_update_url: b.card_update_url,
                },
            );
        }
        let tenants = tenants::init_from(&tenants::dir_from(&lookup))?;
        let site_ids: BTreeMap<String, u32> = tenants.brands.iter().map(|t| (t.tenant.clone(), t.site_id)).collect();
        let multisite_site_ids = tenants.brands[0].multisite_site_ids.to_vec();
        let config = BillingConfig {
            billers,
            packages: file.multisite_packages,
            join_options: file.join_options,
            trial_upgrade: file.trial_upgrade,
            vixen_plus_yearly_join_option_id: file.vixen_plus_yearly_join_option_id,
            multisite_upsell_join_option_id: file.multisite_upsell_join_option_id,
            credit_packs: file.credit_packs,
            retention_offers: file.retention_offers,
            retention_price_experiment: file.retention_price_experiment,
            site_ids,
            multisite_site_ids,
            sandbox_url: lookup("PAYSITE_SANDBOX_URL")
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| DEFAULT_SANDBOX_URL.to_owned())
                .trim_end_matches('/')
                .to_owned(),
            profiles_queue: PROFILES_QUEUE.to_owned(),
            argon2: argon2_cost(&lookup)?,
            outgoing_upsells: file.outgoing_upsells,
            cams_oneclick_url: file.cams_oneclick_url.unwrap_or_else(|| "{sandbox}/partners/cams".to_owned()),
        };
        config.check()?;
        Ok(config)
    }

    /// The data is consistent: every package's options exist and name it, every option's
    /// payment options are billers, the default package exists, the purchase modal's multisite
    /// upsell is a package's option, and the VP yearly upgrade is a yearly membership of the
    /// default package.
    fn check(&self) -> anyhow::Result<()> {
        for p in &self.packages.packages {
            for id in &p.join_option_ids {
                let option = self.join_option(*id).with_context(|| format!("package {} names option {id}", p.name))?;
                anyhow::ensure!(option.site == p.name, "option {id} is not {}'s", p.name);
            }
            for site in &p.sites {
                anyhow::ensure!(self.site_ids.contains_key(site), "package {} names unknown site {site}", p.name);
            }
        }
        anyhow::ensure!(self.package(&self.packages.default).is_some(), "no default package");
        let upsell = self.multisite_upsell_join_option_id;
        anyhow::ensure!(
            self.packages.packages.iter().any(|p| p.join_option_ids.contains(&upsell)),
            "multisiteUpsellJoinOptionId {upsell} is no join option of a multisite package"
        );
        let yearly = self.vixen_plus_yearly_join_option_id;
        let default = &self.packages.default;
        anyhow::ensure!(
            self.join_option(yearly).is_some_and(|o| o.site == *default
                && o.kind == "member"
                && (365..=366).contains(&o.rebill_period_days)
                && self.package(default).is_some_and(|p| p.join_option_ids.contains(&yearly))),
            "vixenPlusYearlyJoinOptionId {yearly} is no yearly membership option of the {default} package"
        );
        for o in &self.join_options {
            anyhow::ensure!(
                self.site_ids.contains_key(&o.site) || self.package(&o.site).is_some(),
                "option {} names unknown site {}",
                o.id,
                o.site
            );
            for b in &o.payment_options {
                anyhow::ensure!(self.billers.contains_key(b), "option {} names unknown biller {b}", o.id);
            }
        }
        Ok(())
    }

    pub fn biller(&self, name: &str) -> Option<&Biller> {
        self.billers.get(name)
    }

    pub fn join_option(&self, id: u32) -> Option<&JoinOption> {
        self.join_options.iter().find(|o| o.id == id)
    }

    pub fn package(&self, name: &str) -> Option<&Package> {
        self.packages.packages.iter().find(|p| p.name == name)
    }

    /// The brands a site key opens: a package's list, or the brand itself.
    pub fn sites_of(&self, site: &str) -> Vec<String> {
        match self.package(site) {
            Some(p) => p.sites.clone(),
            None => vec![site.to_owned()],
        }
    }

    /// Join options of a brand: its own, then the default package's.
    pub fn join_options_for(&self, site: &str) -> Vec<&JoinOption> {
        let default = &self.packages.default;
        self.join_options
            .iter()
            .filter(|o| o.site == site)
            .chain(self.join_options.iter().filter(|o| &o.site == default))
            .collect()
    }

    /// The welcome data's site id of a site key (a package counts as the multisite id).
    pub fn site_id_of(&self, site: &str) -> Option<u32> {
        match self.package(site) {
            Some(_) => self.multisite_site_ids.first().copied(),
            None => self.site_ids.get(site).copied(),
        }
    }

    /// The multisite package id and the vixenplus id count as multisite (spec README).
    pub fn counts_as_multisite(&self, site_id: u32) -> bool {
        self.multisite_site_ids.contains(&site_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> BillingConfig {
        BillingConfig::from_lookup(|_| None, false).unwrap()
    }

    #[test]
    fn the_repository_configuration_loads_with_every_biller() {
        let c = config();
        let names: Vec<_> = c.billers.keys().cloned().collect();
        assert_eq!(names, ["CENTROBILL", "ECHST", "EPOCH", "RGNATIVE", "SEGPAY", "SPIZOO", "SUPPORTSK", "VXNBILL"]);
        assert!(c.billers["SPIZOO"].external && c.billers["SUPPORTSK"].external && c.billers["RGNATIVE"].native);
    }

    #[test]
    fn multisite2025_has_the_specs_join_options_and_vp_is_the_default() {
        let c = config();
        assert_eq!(c.package("multisite2025").unwrap().join_option_ids, [3045, 3046, 3047, 2566, 2567, 2568]);
        assert_eq!(c.packages.default, "multisiteVP");
        assert!(c.package("multisiteVP").unwrap().sites.contains(&"vixenplus".to_owned()));
        assert!(c.package("multisite2020").is_some());
    }

    #[test]
    fn the_multisite_upsell_must_be_a_join_option_of_a_multisite_package() {
        let mut c = config();
        assert!(c.package("multisite2025").unwrap().join_option_ids.contains(&c.multisite_upsell_join_option_id));
        // A brand's own option (vixen's month) and an id no option has are both refused.
        for id in [10301, 999_999] {
            c.multisite_upsell_join_option_id = id;
            let refused = c.check().unwrap_err().to_string();
            assert_eq!(refused, format!("multisiteUpsellJoinOptionId {id} is no join option of a multisite package"));
        }
        c.multisite_upsell_join_option_id = 2566;
        c.check().unwrap();
    }

    #[test]
    fn the_vixenplus_yearly_upgrade_must_be_a_yearly_membership_of_the_default_package() {
        let mut c = config();
        c.check().unwrap();
        let yearly = c.vixen_plus_yearly_join_option_id;
        assert_eq!(c.join_option(yearly).map(|o| (o.site.as_str(), o.rebill_period_days)), Some(("multisiteVP", 365)));
        // The multisite package's month, a brand's own month and an id no option has are refused.
        for id in [3045, 10301, 999_999] {
            c.vixen_plus_yearly_join_option_id = id;
            let refused = c.check().unwrap_err().to_string();
            assert_eq!(
                refused,
                format!("vixenPlusYearlyJoinOptionId {id} is no yearly membership option of the multisiteVP package")
            );
        }
    }

    #[test]
    fn the_package_and_vixenplus_ids_count_as_multisite() {
        let c = config();
        assert!(c.counts_as_multisite(c.site_id_of("multisiteVP").unwrap()));
        assert!(c.counts_as_multisite(c.site_id_of("vixenplus").unwrap()));
        assert!(!c.counts_as_multisite(c.site_id_of("vixen").unwrap()));
    }

    #[test]
    fn production_refuses_to_run_without_biller_secrets() {
        assert!(BillingConfig::from_lookup(|_| None, true).is_err());
        let c = BillingConfig::from_lookup(|k| (k == "PAYSITE_BILLER_EPOCH_SECRET").then(|| "s3".to_owned()), false)
            .unwrap();
        assert_eq!(c.billers["EPOCH"].secret.expose(), "s3");
    }
}
