//! Which site a request is for, from its Host: a brand host or a members host.

use std::{collections::HashMap, sync::Arc};

use anyhow::bail;

use tenants::{Origins, Tenant, Tenants};

use crate::config::OriginTemplate;

/// The error of a Host that names no site (product.md, "Brands and hosts").
pub const UNEXPECTED_HOST: &str = "Received unexpected host string";

/// What a host serves: a tenant's configuration (URLs filled in for this host) and whether it
/// is the members area.
#[derive(Debug)]
pub struct Site {
    /// The host as requests name it, without port and lower-cased (`vixen.localhost`): the
    /// audience of the access tokens this host's cookies carry.
    pub host: String,
    pub tenant: Tenant,
    pub is_members_area: bool,
}

/// The query parameter that tells a members host shared by every brand which brand the visitor
/// came from (`members.localhost/joinnow?brand=tushy`); a cookie keeps it for the visit.
pub const BRAND_PARAM: &str = "brand";
/// The cookie that keeps [`BRAND_PARAM`] on a shared members host.
pub const BRAND_COOKIE: &str = "paysite_members_brand";

/// Every host the gateway answers for.
#[derive(Debug)]
pub struct Sites {
    by_host: HashMap<String, Arc<Site>>,
    /// A members host shared by every brand serves the brand the visitor came from: its site
    /// per brand (the members area's default tenant when none is named).
    shared_members: HashMap<String, HashMap<String, Arc<Site>>>,
    /// Every brand key, in the tenants' order.
    brands: Vec<String>,
}

impl Sites {
    /// A host per brand from `brand_origin`; members hosts from `members_origin`: one per brand when
    /// it names `{brand}`, else one serving the members area's default tenant.
    pub fn new(
        tenants: &Tenants,
        brand_origin: &OriginTemplate,
        members_origin: &OriginTemplate,
    ) -> anyhow::Result<Self> {
        let brands = tenants.brands.iter().map(|t| t.tenant.clone()).collect();
        let mut sites = Sites { by_host: HashMap::new(), shared_members: HashMap::new(), brands };
        for tenant in &tenants.brands {
            let brand = tenant.tenant.as_str();
            let origins = Origins {
                origin: &brand_origin.origin(brand),
                brand_origin: &brand_origin.origin(brand),
                members_origin: &members_origin.origin(brand),
            };
            sites.add(brand_origin.host(brand), tenant.with_origins(origins), false)?;
        }
        let shared = !members_origin.has_brand();
        for tenant in &tenants.brands {
            let brand = tenant.tenant.as_str();
            let origins = Origins {
                origin: &members_origin.origin(brand),
                brand_origin: &brand_origin.origin(brand),
                members_origin: &members_origin.origin(brand),
            };
            let served = tenant.with_origins(origins);
            if !shared {
                sites.add(members_origin.host(brand), served, true)?;
                continue;
            }
            let host = members_origin.host(brand);
            if brand == tenants.members_area.default_tenant {
                sites.add(host.clone(), served.clone(), true)?;
            }
            let site = Arc::new(Site { host: host.clone(), tenant: served, is_members_area: true });
            sites.shared_members.entry(host).or_default().insert(brand.to_owned(), site);
        }
        Ok(sites)
    }

    fn add(&mut self, host: String, tenant: Tenant, is_members_area: bool) -> anyhow::Result<()> {
        if let Some(taken) = self.by_host.get(&host) {
            bail!("host {host} would serve both {} and {}", taken.tenant.tenant, tenant.tenant);
        }
        self.by_host.insert(host.clone(), Arc::new(Site { host, tenant, is_members_area }));
        Ok(())
    }

    /// The site a Host header value names; the port is ignored, and so is case.
    pub fn resolve(&self, host: &str) -> Option<Arc<Site>> {
        self.by_host.get(&normalize_host(host)?).cloned()
    }

    /// The same, where a members host shared by every brand serves `brand` when it names one
    /// (the visitor's brand, from [`BRAND_PARAM`] or [`BRAND_COOKIE`]); any other host ignores it.
    pub fn resolve_for(&self, host: &str, brand: Option<&str>) -> Option<Arc<Site>> {
        let site = self.resolve(host)?;
        let chosen = brand.and_then(|b| self.shared_members.get(&site.host)?.get(b)).cloned();
        Some(chosen.unwrap_or(site))
    }

    /// Whether `host` is a members host shared by every brand.
    pub fn is_shared_members_host(&self, host: &str) -> bool {
        self.shared_members.contains_key(host)
    }

    /// Every brand key.
    pub fn brands(&self) -> &[String] {
        &self.brands
    }

    /// Every host answered for, sorted.
    pub fn hosts(&self) -> Vec<&str> {
        let mut hosts: Vec<&str> = self.by_host.keys().map(String::as_str).collect();
        hosts.sort_unstable();
        hosts
    }
}

/// `Vixen.LOCALHOST:8080` -> `vixen.localhost`; a fully qualified `vixen.localhost.` too.
fn normalize_host(value: &str) -> Option<String> {
    let value = value.trim();
    let host = if value.starts_with('[') {
        // An IPv6 literal never names a site, but must not be cut at its colons.
        &value[..=value.find(']')?]
    } else {
        value.split_once(':').map_or(value, |(host, _port)| host)
    };
    let host = host.strip_suffix('.').unwrap_or(host);
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tenants() -> Tenants {
        tenants::global().clone()
    }

    fn local() -> Sites {
        let brand = OriginTemplate::parse("http://{brand}.localhost:8080").unwrap();
        let members = OriginTemplate::parse("http://members.localhost:8080").unwrap();
        Sites::new(&tenants(), &brand, &members).unwrap()
    }

    #[test]
    fn every_brand_has_its_host_and_the_members_area_one() {
        let sites = local();
        assert_eq!(sites.hosts().len(), 11);
        for tenant in tenants().brands {
            let site = sites.resolve(&format!("{}.localhost:8080", tenant.tenant)).unwrap();
            assert_eq!(site.tenant.tenant, tenant.tenant);
            assert!(!site.is_members_area);
            assert_eq!(site.tenant.tour_url, format!("http://{}.localhost:8080", tenant.tenant));
            assert_eq!(site.tenant.members_url, "http://members.localhost:8080");
        }
        let members = sites.resolve("members.localhost:8080").unwrap();
        assert!(members.is_members_area);
        assert_eq!(members.tenant.tenant, tenants().members_area.default_tenant);
        assert_eq!(members.tenant.api.host, "http://members.localhost:8080/api");
    }

    #[test]
    fn the_port_and_case_of_the_host_do_not_matter() {
        let sites = local();
        for host in ["VIXEN.localhost", "vixen.LocalHost:1234", "vixen.localhost.", " vixen.localhost:8080 "] {
            assert_eq!(sites.resolve(host).map(|s| s.tenant.tenant.clone()).as_deref(), Some("vixen"), "{host}");
        }
    }

    #[test]
    fn other_hosts_name_no_site() {
        let sites = local();
        for host in ["", "localhost", "vixen.localhost.evil.test", "nope.localhost", "[::1]:8080", "127.0.0.1:8080"] {
            assert!(sites.resolve(host).is_none(), "{host}");
        }
    }

    #[test]
    fn a_shared_members_host_serves_the_brand_it_is_told_and_its_default_otherwise() {
        let sites = local();
        let default = tenants().members_area.default_tenant;
        assert!(sites.is_shared_members_host("members.localhost"));
        assert!(!sites.is_shared_members_host("tushy.localhost"));
        for (brand, served) in
            [(Some("tushy"), "tushy"), (Some("wifey"), "wifey"), (None, &*default), (Some("nope"), &*default)]
        {
            let site = sites.resolve_for("members.localhost:8080", brand).unwrap();
            assert!(site.is_members_area);
            assert_eq!(site.tenant.tenant, served, "{brand:?}");
            assert_eq!(site.tenant.members_url, "http://members.localhost:8080");
            assert_eq!(site.tenant.tour_url, format!("http://{served}.localhost:8080"));
            assert_eq!(site.tenant.api.host, "http://members.localhost:8080/api");
        }
        // A brand host is its own brand, whatever it is told.
        assert_eq!(sites.resolve_for("vixen.localhost", Some("tushy")).unwrap().tenant.tenant, "vixen");
    }

    #[test]
    fn a_members_host_per_brand_serves_that_brand() {
        let brand = OriginTemplate::parse("https://www.{brand}.com").unwrap();
        let members = OriginTemplate::parse("https://members.{brand}.com").unwrap();
        let sites = Sites::new(&tenants(), &brand, &members).unwrap();
        assert_eq!(sites.hosts().len(), 20);
        let site = sites.resolve("members.tushy.com").unwrap();
        assert!(site.is_members_area);
        assert_eq!(site.tenant.tenant, "tushy");
        assert_eq!(site.tenant.members_url, "https://members.tushy.com");
        assert_eq!(sites.resolve("www.tushy.com").unwrap().tenant.tour_url, "https://www.tushy.com");
        assert_eq!(sites.resolve_for("members.tushy.com", Some("vixen")).unwrap().tenant.tenant, "tushy");
        assert!(!sites.is_shared_members_host("members.tushy.com"));
    }

    #[test]
    fn a_members_host_that_is_also_a_brand_host_is_refused() {
        let brand = OriginTemplate::parse("http://{brand}.localhost").unwrap();
        let members = OriginTemplate::parse("http://vixen.localhost").unwrap();
        let err = Sites::new(&tenants(), &brand, &members).unwrap_err();
        assert!(err.to_string().contains("vixen.localhost"), "{err}");
    }
}
