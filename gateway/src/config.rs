//! The gateway's own settings, from the environment with local defaults.

use std::{net::SocketAddr, path::PathBuf};

use anyhow::{bail, Context};

/// Where the gateway listens, what it reads and which public origins it answers for.
#[derive(Clone, Debug)]
pub struct GatewayConfig {
    /// `PAYSITE_GATEWAY_ADDR` (default `127.0.0.1:8080`, loopback: a deployment that wants other
    /// interfaces says so, as `paysite serve gateway` does with `PAYSITE_ADDR`).
    pub addr: SocketAddr,
    /// `PAYSITE_OPS_ADDR` (default loopback, 1000 above the port of `addr`: `127.0.0.1:9080`):
    /// `/healthz`, `/readyz` and `/metrics`, on a listener of their own, never on a brand host.
    pub ops_addr: SocketAddr,
    /// `PAYSITE_TENANTS_DIR` (default `config/tenants`): one JSON file per brand plus `members-area.json`.
    pub tenants_dir: PathBuf,
    /// `PAYSITE_DIST_DIR` (default `frontend/dist`): the built SPA, `index.html` and `assets/`.
    pub dist_dir: PathBuf,
    /// `PAYSITE_BRAND_ORIGIN` (default `http://{brand}.localhost:<port of addr>`); production:
    /// `https://www.{brand}.com`.
    pub brand_origin: OriginTemplate,
    /// `PAYSITE_MEMBERS_ORIGIN` (default `http://members.localhost:<port of addr>`). With `{brand}` in it
    /// (`https://members.{brand}.com`) every brand has its own members host; without, one members host
    /// serves the default tenant of `members-area.json`.
    pub members_origin: OriginTemplate,
    /// `PAYSITE_TRUST_FORWARDED_FOR` (default false): the gateway runs behind a proxy (the
    /// ingress) that appends the client's address to `x-forwarded-for`; without it the peer
    /// address is the client's, and the header is the browser's own invention.
    pub trust_forwarded_for: bool,
    /// `PAYSITE_ERROR_REPORTING` (default true): the pages send their errors to the gateway, which
    /// counts and logs them with the correlation id (`/api/analytics/events`); false, the pages
    /// write them to the browser's console (product.md, "Route errors and the error screen").
    pub error_reporting: bool,
    /// `PAYSITE_GRAPHQL_APQ` (default: on in development, off in production): `/graphql`
    /// executes any document, and registers the automatic persisted-query way; off, it
    /// executes only the documents the front end was built with (`DOCUMENT_NOT_REGISTERED`).
    pub graphql_apq: Option<bool>,
    /// `PAYSITE_FIRST_SCREEN` (default true) and `PAYSITE_FIRST_SCREEN_BUDGET_MS` (default 250):
    /// pages carry their first screen's data, asked for within the budget (crate::first_screen).
    pub first_screen: crate::first_screen::Settings,
}

/// Loopback: a deployment that wants the gateway on another interface says so.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_TENANTS_DIR: &str = "config/tenants";
pub const DEFAULT_DIST_DIR: &str = "frontend/dist";

impl GatewayConfig {
    pub fn from_env() -> anyhow::Result<Self> {
        Self::from_lookup(|key| std::env::var(key).ok())
    }

    /// Reads the settings through `lookup`, so tests need not touch the process environment.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let value = |key: &str| lookup(key).filter(|v| !v.trim().is_empty());
        let addr_text = value("PAYSITE_GATEWAY_ADDR").unwrap_or_else(|| DEFAULT_ADDR.into());
        let addr: SocketAddr =
            addr_text.parse().with_context(|| format!("PAYSITE_GATEWAY_ADDR must be host:port, got {addr_text:?}"))?;
        let ops_addr = runtime::service::ops_addr_from(&lookup, addr.port())?;
        let origin = |key: &str, default: String| -> anyhow::Result<OriginTemplate> {
            let text = value(key).unwrap_or(default);
            OriginTemplate::parse(&text).with_context(|| format!("{key} is not a usable origin: {text:?}"))
        };
        let brand_origin = origin("PAYSITE_BRAND_ORIGIN", format!("http://{{brand}}.localhost:{}", addr.port()))?;
        if !brand_origin.has_brand() {
            bail!("PAYSITE_BRAND_ORIGIN must contain {{brand}}, or every brand would share one host");
        }
        let flag = |key: &str, default: bool| -> anyhow::Result<bool> {
            match value(key).as_deref() {
                None => Ok(default),
                Some("false") | Some("0") => Ok(false),
                Some("true") | Some("1") => Ok(true),
                Some(other) => bail!("{key} must be true or false, got {other:?}"),
            }
        };
        let members_origin = origin("PAYSITE_MEMBERS_ORIGIN", format!("http://members.localhost:{}", addr.port()))?;
        Ok(GatewayConfig {
            addr,
            ops_addr,
            tenants_dir: value("PAYSITE_TENANTS_DIR").unwrap_or_else(|| DEFAULT_TENANTS_DIR.into()).into(),
            dist_dir: value("PAYSITE_DIST_DIR").unwrap_or_else(|| DEFAULT_DIST_DIR.into()).into(),
            brand_origin,
            members_origin,
            trust_forwarded_for: flag("PAYSITE_TRUST_FORWARDED_FOR", false)?,
            error_reporting: flag("PAYSITE_ERROR_REPORTING", true)?,
            graphql_apq: value("PAYSITE_GRAPHQL_APQ").map(|_| flag("PAYSITE_GRAPHQL_APQ", false)).transpose()?,
            first_screen: crate::first_screen::Settings {
                enabled: flag("PAYSITE_FIRST_SCREEN", true)?,
                budget: match value("PAYSITE_FIRST_SCREEN_BUDGET_MS") {
                    None => crate::first_screen::Settings::default().budget,
                    Some(text) => std::time::Duration::from_millis(text.trim().parse().with_context(|| {
                        format!("PAYSITE_FIRST_SCREEN_BUDGET_MS must be a number of milliseconds, got {text:?}")
                    })?),
                },
            },
        })
    }
}

/// A public origin such as `http://{brand}.localhost:8080` or `https://www.{brand}.com`.
///
/// The port only shapes the URLs handed to the browser; a request's Host is matched without it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OriginTemplate {
    scheme: String,
    host: String,
    port: Option<u16>,
}

const BRAND: &str = "{brand}";

impl OriginTemplate {
    pub fn parse(text: &str) -> anyhow::Result<Self> {
        let text = text.trim().trim_end_matches('/');
        let Some((scheme, authority)) = text.split_once("://") else { bail!("expected scheme://host[:port]") };
        if scheme != "http" && scheme != "https" {
            bail!("the scheme must be http or https");
        }
        if authority.contains(['/', '?', '#', '@']) {
            bail!("an origin has no path, query, fragment or user");
        }
        // The last colon starts the port unless it sits inside an IPv6 literal ("[::1]").
        let (host, port) = match authority.rfind(':') {
            Some(i) if !authority[i..].contains(']') => {
                (&authority[..i], Some(authority[i + 1..].parse::<u16>().context("the port must be a number")?))
            }
            _ => (authority, None),
        };
        if host.is_empty() || host.replace(BRAND, "x").is_empty() {
            bail!("the host is empty");
        }
        if host.matches(BRAND).count() > 1 {
            bail!("{{brand}} may appear once");
        }
        Ok(OriginTemplate { scheme: scheme.to_owned(), host: host.to_ascii_lowercase(), port })
    }

    pub fn is_https(&self) -> bool {
        self.scheme == "https"
    }

    pub fn has_brand(&self) -> bool {
        self.host.contains(BRAND)
    }

    /// The host a request names for `brand`, lower-case and without port.
    pub fn host(&self, brand: &str) -> String {
        self.host.replace(BRAND, brand)
    }

    /// `scheme://host[:port]` for `brand`, without a trailing slash.
    pub fn origin(&self, brand: &str) -> String {
        match self.port {
            Some(port) if !self.is_default_port(port) => format!("{}://{}:{port}", self.scheme, self.host(brand)),
            _ => format!("{}://{}", self.scheme, self.host(brand)),
        }
    }

    fn is_default_port(&self, port: u16) -> bool {
        (self.scheme == "http" && port == 80) || (self.scheme == "https" && port == 443)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_put_every_brand_on_localhost_at_the_listening_port() {
        let config = GatewayConfig::from_lookup(|_| None).unwrap();
        assert_eq!(config.addr.port(), 8080);
        assert_eq!(config.ops_addr.to_string(), "127.0.0.1:9080");
        assert_eq!(config.brand_origin.origin("vixen"), "http://vixen.localhost:8080");
        assert_eq!(config.brand_origin.host("vixen"), "vixen.localhost");
        assert_eq!(config.members_origin.origin("vixen"), "http://members.localhost:8080");
        assert_eq!(config.tenants_dir, PathBuf::from("config/tenants"));
        assert_eq!(config.dist_dir, PathBuf::from("frontend/dist"));
        assert!(config.error_reporting && !config.trust_forwarded_for);
    }

    #[test]
    fn error_reporting_is_switched_off_by_its_flag_and_a_bad_flag_is_a_clear_error() {
        let off = GatewayConfig::from_lookup(|k| (k == "PAYSITE_ERROR_REPORTING").then(|| "false".into())).unwrap();
        assert!(!off.error_reporting);
        let err =
            GatewayConfig::from_lookup(|k| (k == "PAYSITE_ERROR_REPORTING").then(|| "sometimes".into())).unwrap_err();
        assert!(err.to_string().contains("PAYSITE_ERROR_REPORTING must be true or false"), "{err}");
    }

    #[test]
    fn the_default_origins_follow_the_listening_port() {
        let config =
            GatewayConfig::from_lookup(|k| (k == "PAYSITE_GATEWAY_ADDR").then(|| "127.0.0.1:9000".into())).unwrap();
        assert_eq!(config.brand_origin.origin("tushy"), "http://tushy.localhost:9000");
    }

    #[test]
    fn production_origins_are_configurable() {
        let config = GatewayConfig::from_lookup(|k| match k {
            "PAYSITE_BRAND_ORIGIN" => Some("https://www.{brand}.com".into()),
            "PAYSITE_MEMBERS_ORIGIN" => Some("https://members.{brand}.com:443/".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(config.brand_origin.origin("blacked"), "https://www.blacked.com");
        assert_eq!(config.brand_origin.host("blacked"), "www.blacked.com");
        assert!(config.members_origin.has_brand());
        assert_eq!(config.members_origin.origin("blacked"), "https://members.blacked.com");
    }

    #[test]
    fn a_brand_origin_without_the_brand_is_refused() {
        let err = GatewayConfig::from_lookup(|k| (k == "PAYSITE_BRAND_ORIGIN").then(|| "https://example.com".into()))
            .unwrap_err();
        assert!(err.to_string().contains("{brand}"), "{err}");
    }

    #[test]
    fn a_malformed_origin_is_a_clear_error() {
        for bad in ["example.com", "ftp://{brand}.com", "https://{brand}.com/path", "https://{brand}.com:port"] {
            let err = GatewayConfig::from_lookup(|k| (k == "PAYSITE_BRAND_ORIGIN").then(|| bad.into())).unwrap_err();
            assert!(err.to_string().contains("PAYSITE_BRAND_ORIGIN"), "{bad}: {err}");
        }
    }
}
