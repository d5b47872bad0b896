//! A service's router served on a free port, and the calls tests make to it.

use std::{net::SocketAddr, time::Duration};

use serde_json::Value;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use crate::auth::Claims;

/// A router served on a port of its own until `stop` is cancelled (or the test ends).
pub struct Served {
    pub addr: SocketAddr,
    /// `http://<addr>`.
    pub base: String,
    /// Stops serving (gracefully: calls under way are answered).
    pub stop: CancellationToken,
}

impl Served {
    /// The address of `path` (`/internal/...`) on the served router.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

/// Serves `app` on a free port of 127.0.0.1, behind the correlation-id layer a service
/// puts in front of its router.
pub async fn serve(app: axum::Router) -> Served {
    serve_on(TcpListener::bind("127.0.0.1:0").await.unwrap(), app)
}

/// [`serve`] on a listener bound already (for a service whose configuration names its own
/// address).
pub fn serve_on(listener: TcpListener, app: axum::Router) -> Served {
    let app = app.layer(axum::middleware::from_fn(crate::http::correlate));
    let addr = listener.local_addr().unwrap();
    let stop = CancellationToken::new();
    let stopped = stop.clone();
    tokio::spawn(async move {
        axum::serve(listener, app).with_graceful_shutdown(stopped.cancelled_owned()).await.unwrap();
    });
    Served { addr, base: format!("http://{addr}"), stop }
}

/// Sends `request` with the user's access token, or without one with a service token for
/// `audience` (the call a service, the gateway for a visitor, makes); answers the status and
/// the JSON body (null when the body is not JSON).
pub async fn call(request: reqwest::RequestBuilder, token: Option<&str>, audience: &str) -> (u16, Value) {
    let response = crate::client::with_caller(request, token, audience).send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

/// The claims of `user` signed in on `tenant`'s site (`<tenant>.localhost:8080`) in
/// `groups`, for ten minutes: sign them with the test's signer for an access token.
pub fn member_claims(user: Uuid, tenant: &str, groups: &[&str]) -> Claims {
    Claims::new(
        user,
        &format!("{tenant}.localhost:8080"),
        tenant,
        Uuid::now_v7(),
        groups.iter().map(|g| (*g).to_owned()).collect(),
        Duration::from_secs(600),
    )
}
