//! TLS as configuration. The same code runs with and without it; the environment
//! decides, so a laptop runs plain and the production overlay turns TLS on with certificates
//! mounted from Secrets:
//!
//! - `PAYSITE_TLS_CA_FILE`: PEM bundle of the certificate authorities this process trusts
//!   besides the public ones: the cluster's internal CA, which signs PostgreSQL's, RabbitMQ's,
//!   the collector's and the services' own certificates.
//! - `PAYSITE_TLS_CERT_FILE` and `PAYSITE_TLS_KEY_FILE` (both or neither): this process's own
//!   certificate chain and key; when set, its internal API listens with TLS only.
//!
//! Each client turns TLS on the way its own URL says, so there is one switch per connection
//! and nothing to keep in step:
//! - PostgreSQL: `sslmode` in `DATABASE_URL` (`verify-full` in production); the CA file is
//!   its `sslrootcert` unless the URL names one.
//! - RabbitMQ: an `amqps://` `AMQP_URL`; the CA file joins the trusted roots.
//! - Internal HTTP: `https://` service URLs (`PAYSITE_<NAME>_URL`); the CA file joins the
//!   trusted roots of every client this process builds ([`http_client`]).
//! - OTLP: an `https://` `OTEL_EXPORTER_OTLP_ENDPOINT`, with the same roots ([`blocking_http_client`]).
//!
//! One crypto provider (ring) for every client and the listener: [`install_crypto_provider`].

use std::{
    path::{Path, PathBuf},
    sync::{Arc, OnceLock},
};

use anyhow::Context as _;
use rustls::pki_types::{pem::PemObject, CertificateDer, PrivateKeyDer};
#[cfg(feature = "store")]
use sqlx::postgres::PgConnectOptions;

/// Where this process finds its TLS material; paths only, read when a client or listener is built.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TlsSettings {
    /// `PAYSITE_TLS_CA_FILE`.
    pub ca_file: Option<PathBuf>,
    /// `PAYSITE_TLS_CERT_FILE` with `PAYSITE_TLS_KEY_FILE`.
    pub identity: Option<Identity>,
}

/// A certificate chain and its private key, as PEM files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub cert_file: PathBuf,
    pub key_file: PathBuf,
}

pub const CA_FILE: &str = "PAYSITE_TLS_CA_FILE";
pub const CERT_FILE: &str = "PAYSITE_TLS_CERT_FILE";
pub const KEY_FILE: &str = "PAYSITE_TLS_KEY_FILE";

impl TlsSettings {
    pub fn from_env() -> anyhow::Result<Self> {
        Self::from_lookup(|key| std::env::var(key).ok())
    }

    /// Reads the three variables through `lookup`; empty values count as unset. A certificate
    /// without its key (or the reverse) is refused: half an identity would silently serve plain.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let path = |key: &str| lookup(key).filter(|v| !v.trim().is_empty()).map(PathBuf::from);
        let identity = match (path(CERT_FILE), path(KEY_FILE)) {
            (Some(cert_file), Some(key_file)) => Some(Identity { cert_file, key_file }),
            (None, None) => None,
            (Some(_), None) => anyhow::bail!("{CERT_FILE} is set but {KEY_FILE} is not: set both or neither"),
            (None, Some(_)) => anyhow::bail!("{KEY_FILE} is set but {CERT_FILE} is not: set both or neither"),
        };
        Ok(TlsSettings { ca_file: path(CA_FILE), identity })
    }

    /// Reads every file named, so a missing or malformed Secret stops the process at start
    /// with the file's name, not at its first connection.
    pub fn check(&self) -> anyhow::Result<()> {
        if let Some(ca) = &self.ca_file {
            read_roots(ca)?;
        }
        if let Some(identity) = &self.identity {
            server_config(identity)?;
        }
        Ok(())
    }

    /// The CA bundle as PEM text, when one is configured.
    pub fn ca_pem(&self) -> anyhow::Result<Option<String>> {
        self.ca_file
            .as_deref()
            .map(|p| std::fs::read_to_string(p).with_context(|| format!("reading {CA_FILE} {}", p.display())))
            .transpose()
    }
}

/// The process's settings, read once from the environment.
pub fn settings() -> &'static TlsSettings {
    static SETTINGS: OnceLock<TlsSettings> = OnceLock::new();
    SETTINGS.get_or_init(|| match TlsSettings::from_env() {
        Ok(s) => s,
        Err(e) => panic!("TLS settings: {e:#}"),
    })
}

/// Makes ring the process's one rustls provider (idempotent).
pub fn install_crypto_provider() {
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// `DATABASE_URL` as connect options: its `sslmode` decides TLS; the CA file becomes the root
/// certificate unless the URL names its own `sslrootcert`.
#[cfg(feature = "store")]
pub fn pg_options(database_url: &str, tls: &TlsSettings) -> anyhow::Result<PgConnectOptions> {
    let mut options = <PgConnectOptions as std::str::FromStr>::from_str(database_url)?;
    // The URL turns TLS on. Without an `sslmode` sqlx would `prefer` it, which (now that TLS is
    // compiled in) quietly wraps every local connection in an unverified TLS session: no
    // protection, and a fifth of the wallet's and unlocks' throughput (docs/benchmarks.md).
    if url_param(database_url, "sslmode").is_none() {
        options = options.ssl_mode(sqlx::postgres::PgSslMode::Disable);
    }
    let names_root = url_param(database_url, "sslrootcert").is_some();
    Ok(match (&tls.ca_file, names_root) {
        (Some(ca), false) => options.ssl_root_cert(ca),
        _ => options,
    })
}

#[cfg(feature = "store")]
fn url_param<'a>(url: &'a str, key: &str) -> Option<&'a str> {
    let query = url.split_once('?')?.1;
    query.split('&').find_map(|pair| pair.strip_prefix(key)?.strip_prefix('='))
}

/// The TLS configuration of an AMQP connection: the CA file's roots join the public ones.
#[cfg(feature = "store")]
pub fn amqp_tls(tls: &TlsSettings) -> anyhow::Result<lapin::tcp::OwnedTLSConfig> {
    Ok(lapin::tcp::OwnedTLSConfig { identity: None, cert_chain: tls.ca_pem()? })
}

/// Every HTTP client of the workspace starts here (clippy's `disallowed-methods` refuses
/// `reqwest::Client::builder` elsewhere): reqwest is built without a crypto provider of its own,
/// so the process's one provider is installed first; building a client without it panics.
#[allow(clippy::disallowed_methods)]
pub fn client_builder() -> reqwest::ClientBuilder {
    install_crypto_provider();
    reqwest::Client::builder()
}

/// A client with reqwest's defaults, from [`client_builder`].
pub fn client() -> reqwest::Client {
    client_builder().build().expect("an HTTP client")
}

/// The blocking builder (the OTLP exporter's thread), from the same provider.
#[allow(clippy::disallowed_methods)]
pub fn blocking_client_builder() -> reqwest::blocking::ClientBuilder {
    install_crypto_provider();
    reqwest::blocking::Client::builder()
}

/// Adds the CA file's roots to an HTTP client: every internal client goes through here.
pub fn http_client(builder: reqwest::ClientBuilder, tls: &TlsSettings) -> anyhow::Result<reqwest::ClientBuilder> {
    install_crypto_provider();
    let mut builder = builder;
    for cert in reqwest_roots(tls)? {
        builder = builder.add_root_certificate(cert);
    }
    Ok(builder)
}

/// The same for the blocking client the OTLP exporter runs on its own thread.
pub fn blocking_http_client(
    builder: reqwest::blocking::ClientBuilder,
    tls: &TlsSettings,
) -> anyhow::Result<reqwest::blocking::ClientBuilder> {
    install_crypto_provider();
    let mut builder = builder;
    for cert in reqwest_roots(tls)? {
        builder = builder.add_root_certificate(cert);
    }
    Ok(builder)
}

fn reqwest_roots(tls: &TlsSettings) -> anyhow::Result<Vec<reqwest::Certificate>> {
    match tls.ca_pem()? {
        None => Ok(Vec::new()),
        Some(pem) => reqwest::Certificate::from_pem_bundle(pem.as_bytes()).context("parsing the CA bundle"),
    }
}

fn read_roots(path: &Path) -> anyhow::Result<Vec<CertificateDer<'static>>> {
    let certs = CertificateDer::pem_file_iter(path)
        .with_context(|| format!("reading {CA_FILE} {}", path.display()))?
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("parsing {CA_FILE} {}", path.display()))?;
    anyhow::ensure!(!certs.is_empty(), "{CA_FILE} {} holds no certificate", path.display());
    Ok(certs)
}

/// The listener's rustls configuration from this process's identity (HTTP/1.1, as the services
/// speak): its certificate as the files hold it now.
pub fn server_config(identity: &Identity) -> anyhow::Result<Arc<rustls::ServerConfig>> {
    Ok(server_config_with(Arc::new(ReloadingIdentity::load(identity)?)))
}

fn server_config_with(resolver: Arc<ReloadingIdentity>) -> Arc<rustls::ServerConfig> {
    install_crypto_provider();
    let mut config = rustls::ServerConfig::builder().with_no_client_auth().with_cert_resolver(resolver);
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Arc::new(config)
}

/// How often a TLS listener looks at its certificate files for a renewed certificate.
pub const RELOAD_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

/// A listener's certificate, read again when its files change: cert-manager renews a
/// certificate into its Secret, the kubelet updates the mounted files within a minute or
/// so, and new connections get the renewed certificate without a restart. A renewal that
/// cannot be read (half-written, a key that does not match) keeps the certificate in use and
/// says so, once per change.
pub struct ReloadingIdentity {
    identity: Identity,
    current: std::sync::RwLock<Arc<rustls::sign::CertifiedKey>>,
    /// The files' bytes the current certificate was made from (or last refused).
    seen: std::sync::Mutex<(Vec<u8>, Vec<u8>)>,
}

impl std::fmt::Debug for ReloadingIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReloadingIdentity").field("identity", &self.identity).finish_non_exhaustive()
    }
}

impl ReloadingIdentity {
    /// The identity as its files hold it now; an error names the file.
    pub fn load(identity: &Identity) -> anyhow::Result<Self> {
        let (cert, key) = read_identity_files(identity)?;
        let certified = certified_key(identity, &cert, &key)?;
        Ok(ReloadingIdentity {
            identity: identity.clone(),
            current: std::sync::RwLock::new(Arc::new(certified)),
            seen: std::sync::Mutex::new((cert, key)),
        })
    }

    /// Reads the files again; answers whether a new certificate is now in use.
    pub fn reload(&self) -> bool {
        let Ok((cert, key)) = read_identity_files(&self.identity) else { return false };
        {
            let seen = self.seen.lock().expect("seen lock");
            if seen.0 == cert && seen.1 == key {
                return false;
            }
        }
        let outcome = certified_key(&self.identity, &cert, &key);
        *self.seen.lock().expect("seen lock") = (cert, key);
        match outcome {
            Ok(certified) => {
                *self.current.write().expect("certificate lock") = Arc::new(certified);
                tracing::info!(cert = %self.identity.cert_file.display(), "TLS certificate reloaded");
                true
            }
            Err(e) => {
                tracing::warn!(error = %format!("{e:#}"), "the changed TLS certificate files are refused; the current certificate stays");
                false
            }
        }
    }

    /// The certificate in use (its chain's first certificate, DER).
    pub fn end_entity(&self) -> CertificateDer<'static> {
        self.current.read().expect("certificate lock").cert[0].clone()
    }
}

impl rustls::server::ResolvesServerCert for ReloadingIdentity {
    fn resolve(&self, _hello: rustls::server::ClientHello<'_>) -> Option<Arc<rustls::sign::CertifiedKey>> {
        Some(self.current.read().expect("certificate lock").clone())
    }
}

fn read_identity_files(identity: &Identity) -> anyhow::Result<(Vec<u8>, Vec<u8>)> {
    let cert = std::fs::read(&identity.cert_file)
        .with_context(|| format!("reading {CERT_FILE} {}", identity.cert_file.display()))?;
    let key = std::fs::read(&identity.key_file)
        .with_context(|| format!("reading {KEY_FILE} {}", identity.key_file.display()))?;
    Ok((cert, key))
}

fn certified_key(identity: &Identity, cert: &[u8], key: &[u8]) -> anyhow::Result<rustls::sign::CertifiedKey> {
    install_crypto_provider();
    let chain = CertificateDer::pem_slice_iter(cert)
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("parsing {CERT_FILE} {}", identity.cert_file.display()))?;
    anyhow::ensure!(!chain.is_empty(), "{CERT_FILE} {} holds no certificate", identity.cert_file.display());
    let key = PrivateKeyDer::from_pem_slice(key)
        .with_context(|| format!("parsing {KEY_FILE} {}", identity.key_file.display()))?;
    let provider = rustls::crypto::CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::ring::default_provider()));
    rustls::sign::CertifiedKey::from_der(chain, key, &provider)
        .context("the certificate and key do not make a TLS identity")
}

/// Serves `app` on `listener` until `cancel`: with TLS when `tls` names an identity, else plain.
/// Connections in flight finish their current request when `cancel` fires. A renewed
/// certificate in the identity's files is served within [`RELOAD_EVERY`], with no restart.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    tls: &TlsSettings,
    cancel: tokio_util::sync::CancellationToken,
) -> anyhow::Result<()> {
    serve_reloading_every(listener, app, tls, RELOAD_EVERY, cancel).await
}

/// [`serve`], looking at the certificate files every `reload_every`.
pub async fn serve_reloading_every(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    tls: &TlsSettings,
    reload_every: std::time::Duration,
    cancel: tokio_util::sync::CancellationToken,
) -> anyhow::Result<()> {
    let Some(identity) = &tls.identity else {
        axum::serve(listener, app).with_graceful_shutdown(cancel.cancelled_owned()).await?;
        return Ok(());
    };
    let identity = Arc::new(ReloadingIdentity::load(identity)?);
    let acceptor = tokio_rustls::TlsAcceptor::from(server_config_with(identity.clone()));
    // A renewed certificate is picked up from the files while the listener runs.
    let watching = cancel.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(reload_every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = watching.cancelled() => break,
                _ = tick.tick() => {
                    let identity = identity.clone();
                    let _ = tokio::task::spawn_blocking(move || identity.reload()).await;
                }
            }
        }
    });
    let mut connections = tokio::task::JoinSet::new();
    loop {
        let (stream, peer) = tokio::select! {
            _ = cancel.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors and the like: wait, as axum::serve does, rather than spin.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let acceptor = acceptor.clone();
        let app = app.clone();
        let cancel = cancel.clone();
        connections.spawn(async move {
            let stream = match acceptor.accept(stream).await {
                Ok(s) => s,
                Err(e) => {
                    tracing::debug!(%peer, error = %e, "TLS handshake failed");
                    return;
                }
            };
            let service = hyper_util::service::TowerToHyperService::new(app);
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
            tokio::pin!(connection);
            tokio::select! {
                result = connection.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!(%peer, error = %e, "connection ended with an error");
                    }
                }
                _ = cancel.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
        // Reap finished connections so the set does not grow without bound.
        while connections.try_join_next().is_some() {}
    }
    while connections.join_next().await.is_some() {}
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |key| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| (*v).to_owned())
    }

    #[test]
    fn nothing_set_is_plain() {
        assert_eq!(TlsSettings::from_lookup(lookup(&[])).unwrap(), TlsSettings::default());
        let empty = TlsSettings::from_lookup(lookup(&[(CA_FILE, " "), (CERT_FILE, ""), (KEY_FILE, "")])).unwrap();
        assert_eq!(empty, TlsSettings::default());
    }

    #[test]
    fn half_an_identity_is_refused() {
        let e = TlsSettings::from_lookup(lookup(&[(CERT_FILE, "/c.pem")])).unwrap_err().to_string();
        assert!(e.contains(KEY_FILE), "{e}");
        let e = TlsSettings::from_lookup(lookup(&[(KEY_FILE, "/k.pem")])).unwrap_err().to_string();
        assert!(e.contains(CERT_FILE), "{e}");
    }

    #[test]
    fn a_missing_ca_file_is_named_at_start() {
        let s = TlsSettings::from_lookup(lookup(&[(CA_FILE, "/nonexistent/ca.pem")])).unwrap();
        let e = format!("{:#}", s.check().unwrap_err());
        assert!(e.contains("/nonexistent/ca.pem") && e.contains(CA_FILE), "{e}");
    }

    #[test]
    #[cfg(feature = "store")]
    fn the_ca_file_is_the_database_root_unless_the_url_names_one() {
        let tls = TlsSettings { ca_file: Some("/etc/paysite/tls/ca.crt".into()), identity: None };
        let plain = pg_options("postgres://u@db:5432/paysite?sslmode=verify-full", &tls).unwrap();
        assert!(format!("{plain:?}").contains("/etc/paysite/tls/ca.crt"), "{plain:?}");
        let own = pg_options("postgres://u@db/paysite?sslmode=verify-full&sslrootcert=/own/ca.pem", &tls).unwrap();
        let own = format!("{own:?}");
        assert!(own.contains("/own/ca.pem") && !own.contains("/etc/paysite/tls/ca.crt"), "{own}");
    }

    #[test]
    #[cfg(feature = "store")]
    fn a_url_without_sslmode_is_plain_and_one_with_it_keeps_it() {
        use sqlx::postgres::PgSslMode;
        let none = TlsSettings { ca_file: None, identity: None };
        let mode = |url: &str| pg_options(url, &none).unwrap().get_ssl_mode();
        assert!(matches!(mode("postgres://u@db/paysite"), PgSslMode::Disable));
        assert!(matches!(mode("postgres://u@db/paysite?sslmode=prefer"), PgSslMode::Prefer));
        assert!(matches!(mode("postgres://u@db/paysite?sslmode=verify-full"), PgSslMode::VerifyFull));
    }

    #[test]
    #[cfg(feature = "store")]
    fn url_params_are_read_exactly() {
        let url = "postgres://h/d?sslmode=require&sslrootcert=/a.pem";
        assert_eq!(url_param(url, "sslrootcert"), Some("/a.pem"));
        assert_eq!(url_param(url, "sslmode"), Some("require"));
        assert_eq!(url_param("postgres://h/d?xsslrootcert=/b", "sslrootcert"), None);
        assert_eq!(url_param("postgres://h/d", "sslmode"), None);
    }
}
