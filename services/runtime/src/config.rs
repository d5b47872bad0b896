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
    /// The connection strings a production process was not given (`DATABASE_URL`,
    /// `AMQP_URL`): their fields hold the local defaults, which a production process never
    /// uses: [`Settings::require`] refuses them, naming the variable, in the command that
    /// needs them (the gateway needs no database, `paysite dlq` no database either).
    unset: Vec<&'static str>,
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
        // The local servers are a development default only: in production an unset connection
        // string is remembered, and refused by the command that needs it.
        let mut unset = Vec::new();
        let mut connection = |key: &'static str, default: &str| match lookup(key).filter(|v| !v.trim().is_empty()) {
            Some(v) => Secret::new(v),
            None => {
                if environment == Environment::Production {
                    unset.push(key);
                }
                Secret::new(default)
            }
        };
        let (database_url, amqp_url) =
            (connection("DATABASE_URL", DEFAULT_DATABASE_URL), connection("AMQP_URL", DEFAULT_AMQP_URL));
        Ok(Settings {
            unset,
            database_url,
            amqp_url,
            exchange: lookup("PAYSITE_EXCHANGE").unwrap_or_else(|| proto_events::EXCHANGE.into()),
            otlp_endpoint: lookup("OTEL_EXPORTER_OTLP_ENDPOINT").filter(|s| !s.is_empty()),
            environment,
            max_delivery_attempts: number("PAYSITE_MAX_DELIVERY_ATTEMPTS", 5)? as u32,
            relay_poll: Duration::from_millis(number("PAYSITE_RELAY_POLL_MS", 1000)?),
        })
    }
}

/// Whether `key` holds a secret, which a deployment may hand over as a file instead: the
/// connection strings, the service keys, the token signing keys and the billers' shared
/// secrets. [`load_secret_files`] reads `<key>_FILE` for each.
pub fn is_secret_variable(key: &str) -> bool {
    matches!(
        key,
        "DATABASE_URL"
            | "AMQP_URL"
            | "PAYSITE_SERVICE_KEY"
            | "PAYSITE_SERVICE_KEY_NEXT"
            | "PROFILE_SIGNING_KEY"
            | "UNLOCKS_MEDIA_SECRET"
    ) || (key.starts_with("PAYSITE_BILLER_") && (key.ends_with("_SECRET") || key.ends_with("_SECRET_NEXT")))
        || database_role_variable(key)
}

/// `DATABASE_URL_<SERVICE>` (`DATABASE_URL_CATALOG`, ...): the connection string of a service's
/// own database role, which the migration Job migrates that service's schema as.
pub fn database_role_variable(key: &str) -> bool {
    key.strip_prefix("DATABASE_URL_").is_some_and(|service| {
        !service.is_empty()
            && service != "FILE"
            && !service.ends_with("_FILE")
            && service.chars().all(|c| c.is_ascii_uppercase() || c == '_')
    })
}

/// The secrets given as files: for every `<KEY>_FILE` in `vars` whose `<KEY>` is a secret
/// ([`is_secret_variable`]), `<KEY>` and the file's text (one trailing newline dropped, as
/// `kubectl create secret --from-file` and `echo` leave one). Both forms of one secret, or a
/// file that cannot be read, is an error naming the variable.
pub fn secret_files(
    vars: impl IntoIterator<Item = (String, String)>,
    read: impl Fn(&str) -> std::io::Result<String>,
) -> anyhow::Result<Vec<(String, String)>> {
    let vars: std::collections::BTreeMap<String, String> = vars.into_iter().collect();
    let mut found = Vec::new();
    for (name, path) in &vars {
        let Some(key) = name.strip_suffix("_FILE") else { continue };
        if !is_secret_variable(key) || path.trim().is_empty() {
            continue;
        }
        if vars.get(key).is_some_and(|v| !v.is_empty()) {
            anyhow::bail!("{key} and {name} are both set: give the secret one way");
        }
        let text = read(path.trim()).map_err(|e| anyhow::anyhow!("{name} {path:?} cannot be read: {e}"))?;
        let text = without_final_newline(&text);
        anyhow::ensure!(!text.trim().is_empty(), "{name} {path:?} is empty");
        found.push((key.to_owned(), text.to_owned()));
    }
    Ok(found)
}

/// A secret file's text without the one newline `echo` and `kubectl create secret --from-file`
/// leave at its end.
fn without_final_newline(text: &str) -> &str {
    text.strip_suffix('\n').map(|t| t.strip_suffix('\r').unwrap_or(t)).unwrap_or(text)
}

/// `PAYSITE_SECRETS_DIR`: directories (`:`-separated) of mounted Secrets whose files are named
/// after the secrets they hold (`PAYSITE_BILLER_EPOCH_SECRET`, ...): for a Secret whose keys
/// vary (the billers', a rotation's `_NEXT`) or may be absent (an optional key), where a
/// `<NAME>_FILE` per key cannot be written in advance.
pub const SECRETS_DIR: &str = "PAYSITE_SECRETS_DIR";

/// The secrets in the directories of [`SECRETS_DIR`]: `(variable, value)` for each file
/// (Kubernetes' own `..data` entries and other dot-files skipped). A file named after no
/// secret, or a secret also given by its variable, is an error naming it.
pub fn secret_dir_files(
    dirs: &str,
    set_already: impl Fn(&str) -> bool,
    list: impl Fn(&str) -> std::io::Result<Vec<String>>,
    read: impl Fn(&str) -> std::io::Result<String>,
) -> anyhow::Result<Vec<(String, String)>> {
    let mut found = Vec::new();
    for dir in dirs.split(':').map(str::trim).filter(|d| !d.is_empty()) {
        let mut names = list(dir).map_err(|e| anyhow::anyhow!("{SECRETS_DIR}: {dir:?} cannot be read: {e}"))?;
        names.sort();
        for name in names.into_iter().filter(|n| !n.starts_with('.')) {
            anyhow::ensure!(
                is_secret_variable(&name),
                "{SECRETS_DIR}: {dir}/{name} is not a secret paysite reads (the file names are the variables)"
            );
            anyhow::ensure!(!set_already(&name), "{name} is set and also in {dir}: give the secret one way");
            let path = format!("{}/{name}", dir.trim_end_matches('/'));
            let text = read(&path).map_err(|e| anyhow::anyhow!("{SECRETS_DIR}: {path} cannot be read: {e}"))?;
            let text = without_final_newline(&text);
            anyhow::ensure!(!text.trim().is_empty(), "{SECRETS_DIR}: {path} is empty");
            found.push((name, text.to_owned()));
        }
    }
    Ok(found)
}

/// Reads every secret this process was given as a file (`DATABASE_URL_FILE`, ..., and the
/// directories of `PAYSITE_SECRETS_DIR`) into its variable, so every setting is read one way.
/// Called first thing, before any other thread reads the environment.
pub fn load_secret_files() -> anyhow::Result<()> {
    let mut found = secret_files(std::env::vars(), |path| std::fs::read_to_string(path))?;
    if let Ok(dirs) = std::env::var(SECRETS_DIR) {
        let given: Vec<String> = found.iter().map(|(k, _)| k.clone()).collect();
        let set_already =
            |name: &str| given.iter().any(|k| k == name) || std::env::var(name).is_ok_and(|v| !v.is_empty());
        let list = |dir: &str| -> std::io::Result<Vec<String>> {
            let mut names = Vec::new();
            for entry in std::fs::read_dir(dir)? {
                let entry = entry?;
                // Kubernetes mounts each key as a symlink into `..data`: follow it.
                if std::fs::metadata(entry.path())?.is_file() {
                    names.push(entry.file_name().to_string_lossy().into_owned());
                }
            }
            Ok(names)
        };
        found.extend(secret_dir_files(&dirs, set_already, list, |path| std::fs::read_to_string(path))?);
    }
    for (key, value) in found {
        std::env::set_var(key, value);
    }
    Ok(())
}

impl Settings {
    /// Refuses, naming it, a connection string among `keys` (`DATABASE_URL`, `AMQP_URL`) that a
    /// production process was not given: the local default is for development only.
    pub fn require(&self, keys: &[&str]) -> anyhow::Result<()> {
        let missing: Vec<&str> = keys.iter().copied().filter(|k| self.unset.contains(k)).collect();
        anyhow::ensure!(
            missing.is_empty(),
            "{} must be set when PAYSITE_ENV=production (or given as a file: {})",
            missing.join(" and "),
            missing.iter().map(|k| format!("{k}_FILE")).collect::<Vec<_>>().join(", ")
        );
        Ok(())
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
    fn production_needs_its_connection_strings_and_names_the_missing_one() {
        let none = Settings::from_lookup(|k| (k == "PAYSITE_ENV").then(|| "production".into())).unwrap();
        let err = none.require(&["DATABASE_URL", "AMQP_URL"]).unwrap_err();
        assert!(err.to_string().starts_with("DATABASE_URL and AMQP_URL must be set"), "{err}");
        let database = Settings::from_lookup(|k| match k {
            "PAYSITE_ENV" => Some("production".into()),
            "DATABASE_URL" => Some("postgres://db/paysite".into()),
            _ => None,
        })
        .unwrap();
        assert!(database.require(&["DATABASE_URL"]).is_ok());
        let err = database.require(&["DATABASE_URL", "AMQP_URL"]).unwrap_err();
        assert!(err.to_string().starts_with("AMQP_URL must be set"), "{err}");
        // Development falls back to the local servers.
        assert!(Settings::from_lookup(|_| None).unwrap().require(&["DATABASE_URL", "AMQP_URL"]).is_ok());
    }

    #[test]
    fn a_secret_file_fills_its_variable_and_other_files_are_left_alone() {
        let files = |path: &str| match path {
            "/s/db" => Ok("postgres://u:p@db/paysite\n".to_owned()),
            "/s/biller" => Ok("s3cret".to_owned()),
            "/s/empty" => Ok("\n".to_owned()),
            _ => Err(std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")),
        };
        let found = secret_files(
            vars(&[
                ("DATABASE_URL_FILE", "/s/db"),
                ("PAYSITE_BILLER_EPOCH_SECRET_FILE", "/s/biller"),
                ("PAYSITE_TLS_CA_FILE", "/etc/ca.crt"),
                ("PAYSITE_SERVICE_KEY_FILE", ""),
            ]),
            files,
        )
        .unwrap();
        assert_eq!(
            found,
            vec![
                ("DATABASE_URL".to_owned(), "postgres://u:p@db/paysite".to_owned()),
                ("PAYSITE_BILLER_EPOCH_SECRET".to_owned(), "s3cret".to_owned()),
            ]
        );
        let both = secret_files(vars(&[("AMQP_URL", "amqp://x"), ("AMQP_URL_FILE", "/s/db")]), files).unwrap_err();
        assert!(both.to_string().contains("both set"), "{both}");
        let missing = secret_files(vars(&[("UNLOCKS_MEDIA_SECRET_FILE", "/s/none")]), files).unwrap_err();
        assert!(missing.to_string().contains("UNLOCKS_MEDIA_SECRET_FILE"), "{missing}");
        let empty = secret_files(vars(&[("PROFILE_SIGNING_KEY_FILE", "/s/empty")]), files).unwrap_err();
        assert!(empty.to_string().contains("empty"), "{empty}");
    }

    #[test]
    fn a_secrets_directory_fills_the_variables_its_files_are_named_after() {
        let list = |dir: &str| match dir {
            "/s/billers" => Ok(vec![
                "PAYSITE_BILLER_EPOCH_SECRET".to_owned(),
                "..data".to_owned(),
                "PAYSITE_BILLER_EPOCH_SECRET_NEXT".to_owned(),
            ]),
            "/s/odd" => Ok(vec!["HOME".to_owned()]),
            _ => Err(std::io::Error::new(std::io::ErrorKind::NotFound, "no such directory")),
        };
        let read = |path: &str| Ok(format!("secret of {path}\n"));
        let found = secret_dir_files("/s/billers", |_| false, list, read).unwrap();
        assert_eq!(
            found,
            vec![
                (
                    "PAYSITE_BILLER_EPOCH_SECRET".to_owned(),
                    "secret of /s/billers/PAYSITE_BILLER_EPOCH_SECRET".to_owned()
                ),
                (
                    "PAYSITE_BILLER_EPOCH_SECRET_NEXT".to_owned(),
                    "secret of /s/billers/PAYSITE_BILLER_EPOCH_SECRET_NEXT".to_owned()
                ),
            ]
        );
        let odd = secret_dir_files("/s/odd", |_| false, list, read).unwrap_err();
        assert!(odd.to_string().contains("HOME is not a secret"), "{odd}");
        let twice = secret_dir_files("/s/billers", |k| k == "PAYSITE_BILLER_EPOCH_SECRET", list, read).unwrap_err();
        assert!(twice.to_string().contains("one way"), "{twice}");
        let missing = secret_dir_files("/s/none", |_| false, list, read).unwrap_err();
        assert!(missing.to_string().contains("/s/none"), "{missing}");
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
