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

#[cfg(test)]
mod tests {
    use super::*;

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
