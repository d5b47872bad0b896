//! Typed configuration from the environment, with local defaults.

use std::{fmt, time::Duration};

/// A value that must never reach a log line.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(****)")
    }
}

/// Connection settings shared by every service.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `DATABASE_URL`; may carry a password, hence secret.
    pub database_url: Secret,
    /// `AMQP_URL`.
    pub amqp_url: Secret,
    /// `PAYSITE_EXCHANGE`: the topic exchange events are published to.
    pub exchange: String,
    /// `OTEL_EXPORTER_OTLP_ENDPOINT`: traces are exported only when set.
    pub otlp_endpoint: Option<String>,
    /// `PAYSITE_ENV`: `development` (default) or `production`.
    pub environment: Environment,
    /// `PAYSITE_MAX_DELIVERY_ATTEMPTS`: failures before a message is dead-lettered.
    pub max_delivery_attempts: u32,
    /// `PAYSITE_RELAY_POLL_MS`: the relay's safety-net poll when no notification arrives.
    pub relay_poll: Duration,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Environment {
    Development,
    Production,
}

pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/paysite";
pub const DEFAULT_AMQP_URL: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";

impl Settings {
    pub fn from_env() -> anyhow::Result<Self> {
        Self::from_lookup(|key| std::env::var(key).ok())
    }

    /// Reads settings through `lookup`, so tests need not touch the process environment.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let number = |key: &str, default: u64| -> anyhow::Result<u64> {
            match lookup(key) {
                None => Ok(default),
                Some(v) => v.parse().map_err(|_| anyhow::anyhow!("{key} must be a whole number, got {v:?}")),
            }
        };
        let environment = match lookup("PAYSITE_ENV").as_deref() {
            None | Some("development") => Environment::Development,
            Some("production") => Environment::Production,
            Some(other) => anyhow::bail!("PAYSITE_ENV must be development or production, got {other:?}"),
        };
        Ok(Settings {
            database_url: Secret::new(lookup("DATABASE_URL").unwrap_or_else(|| DEFAULT_DATABASE_URL.into())),
            amqp_url: Secret::new(lookup("AMQP_URL").unwrap_or_else(|| DEFAULT_AMQP_URL.into())),
            exchange: lookup("PAYSITE_EXCHANGE").unwrap_or_else(|| proto_events::EXCHANGE.into()),
            otlp_endpoint: lookup("OTEL_EXPORTER_OTLP_ENDPOINT").filter(|s| !s.is_empty()),
            environment,
            max_delivery_attempts: number("PAYSITE_MAX_DELIVERY_ATTEMPTS", 5)? as u32,
            relay_poll: Duration::from_millis(number("PAYSITE_RELAY_POLL_MS", 1000)?),
        })
    }
}

/// The base URL of another service's internal API: `PAYSITE_<NAME>_URL` (for example
/// `PAYSITE_WALLET_URL`), else the service's default port on this machine.
pub fn service_url(name: &str, default_port: u16) -> String {
    service_url_from(|key| std::env::var(key).ok(), name, default_port)
}

pub fn service_url_from(lookup: impl Fn(&str) -> Option<String>, name: &str, default_port: u16) -> String {
    let key = format!("PAYSITE_{}_URL", name.to_ascii_uppercase().replace('-', "_"));
    lookup(&key)
        .filter(|v| !v.is_empty())
        .map(|v| v.trim_end_matches('/').to_owned())
        .unwrap_or_else(|| format!("http://127.0.0.1:{default_port}"))
}

/// The configured URLs (`PAYSITE_*_URL`, `PAYSITE_*_ORIGIN`, `OTEL_EXPORTER_OTLP_ENDPOINT`)
/// that name a reserved example domain (RFC 2606 and 6761: `example.com`, `.net`, `.org`,
/// and the `.example`, `.invalid` and `.test` names), which only a placeholder does: a
/// release that still carries one (the prod overlay's `https://payments.example.com`) would
/// start and fail at the first payment. In production a process refuses to start with any;
/// each problem names the variable and its value.
pub fn placeholder_urls(vars: impl IntoIterator<Item = (String, String)>) -> Vec<String> {
    let mut found: Vec<String> = vars
        .into_iter()
        .filter(|(key, _)| {
            key == "OTEL_EXPORTER_OTLP_ENDPOINT"
                || (key.starts_with("PAYSITE_") && (key.ends_with("_URL") || key.ends_with("_ORIGIN")))
        })
        .filter(|(_, value)| is_placeholder(value))
        .map(|(key, value)| format!("{key}={value} names a placeholder domain: set the real address before a release"))
        .collect();
    found.sort();
    found
}

fn is_placeholder(url: &str) -> bool {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = after_scheme.split(['/', '?', '#']).next().unwrap_or_default();
    let host_port = authority.rsplit('@').next().unwrap_or_default();
    let host = host_port.split(':').next().unwrap_or_default().trim_end_matches('.').to_ascii_lowercase();
    ["example.com", "example.net", "example.org", "example", "invalid", "test"]
        .iter()
        .any(|reserved| host == *reserved || host.ends_with(&format!(".{reserved}")))
}

/// In production, refuses the process's environment if a URL in it is a placeholder
/// ([`placeholder_urls`]); in development anything goes (`*.test` e-mail domains and the
/// like are local data, not addresses).
pub fn check_production_urls(environment: Environment) -> anyhow::Result<()> {
    if environment != Environment::Production {
        return Ok(());
    }
    let problems = placeholder_urls(std::env::vars());
    anyhow::ensure!(problems.is_empty(), "not starting in production:\n  {}", problems.join("\n  "));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn a_placeholder_url_is_found_by_its_variable_and_a_real_one_is_not() {
        let found = placeholder_urls(vars(&[
            ("PAYSITE_PAYMENTS_URL", "https://payments.example.com"),
            ("PAYSITE_SANDBOX_URL", "https://user@pay.example.org:8443/path"),
            ("PAYSITE_MEMBERS_ORIGIN", "https://members.{brand}.com"),
            ("PAYSITE_WALLET_URL", "https://wallet:8103"),
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "https://collector.invalid:4318"),
            ("PAYSITE_BRAND_ORIGIN", "https://www.examples.com"),
            ("HOME_URL", "https://x.example.com"),
        ]));
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].starts_with("OTEL_EXPORTER_OTLP_ENDPOINT=https://collector.invalid:4318"), "{found:?}");
        assert!(found[1].starts_with("PAYSITE_PAYMENTS_URL="), "{found:?}");
        assert!(found[2].starts_with("PAYSITE_SANDBOX_URL="), "{found:?}");
        assert!(found[1].contains("set the real address"), "{found:?}");
    }

    #[test]
    fn reserved_names_are_placeholders_and_their_lookalikes_are_not() {
        for url in [
            "http://example.com",
            "https://a.b.example.net/",
            "http://pay.test",
            "https://x.example.:1",
            "HTTPS://PAY.EXAMPLE.COM",
        ] {
            assert!(is_placeholder(url), "{url}");
        }
        for url in ["https://payments.vixen.com", "https://example.com.evil.io", "https://mytest", "https://latest.io"]
        {
            assert!(!is_placeholder(url), "{url}");
        }
    }

    #[test]
    fn defaults_point_at_the_local_servers() {
        let s = Settings::from_lookup(|_| None).unwrap();
        assert_eq!(s.database_url.expose(), DEFAULT_DATABASE_URL);
        assert_eq!(s.exchange, "paysite.events");
        assert_eq!(s.environment, Environment::Development);
        assert_eq!(s.otlp_endpoint, None);
    }

    #[test]
    fn a_secret_never_prints() {
        let s = Settings::from_lookup(|k| (k == "DATABASE_URL").then(|| "postgres://u:hunter2@db/x".into())).unwrap();
        assert!(!format!("{s:?}").contains("hunter2"));
    }

    #[test]
    fn a_malformed_number_is_a_clear_error() {
        let err = Settings::from_lookup(|k| (k == "PAYSITE_RELAY_POLL_MS").then(|| "soon".into())).unwrap_err();
        assert!(err.to_string().contains("PAYSITE_RELAY_POLL_MS"), "{err}");
    }
}
