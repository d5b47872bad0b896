//! Per-address rate limits at the edge: `/graphql` and the sign-in form. The billers'
//! postbacks are limited by the subscription service, which alone can tell a well-signed
//! delivery (never refused) from a forged one (counted per address and per biller).
//!
//! Rates come from the environment (`PAYSITE_RATE_GRAPHQL_PER_MINUTE` / `_BURST`,
//! `PAYSITE_RATE_LOGIN_PER_MINUTE` / `_BURST`; a per-minute of 0 turns a limit off).

use axum::{
    extract::{ConnectInfo, Request, State},
    http::HeaderMap,
    middleware::Next,
    response::Response,
};
use runtime::throttle::{too_many_requests, Rate, Throttle};

use crate::GatewayState;

/// A page load makes a handful of queries; 20 a second, with room for a burst of 300, is far
/// above a person browsing and far below a scraper or a flood.
pub const GRAPHQL: Rate = Rate { per_minute: 1_200, burst: 300 };
/// Sign-in forms sent from one address: a household or an office signs in a few times a minute;
/// credential stuffing sends thousands. The per-account throttle of the profile service comes on
/// top of this.
pub const LOGIN: Rate = Rate { per_minute: 60, burst: 30 };

pub struct RateLimits {
    pub graphql: Throttle,
    pub login: Throttle,
}

impl RateLimits {
    pub fn from_env() -> anyhow::Result<Self> {
        Ok(RateLimits {
            graphql: Throttle::new(Rate::from_env("PAYSITE_RATE_GRAPHQL", GRAPHQL)?),
            login: Throttle::new(Rate::from_env("PAYSITE_RATE_LOGIN", LOGIN)?),
        })
    }

    pub fn off() -> Self {
        RateLimits { graphql: Throttle::off(), login: Throttle::off() }
    }
}

/// The client's address: the peer, unless the gateway runs behind a proxy it trusts
/// (`PAYSITE_TRUST_FORWARDED_FOR`), whose own entry is the last of `x-forwarded-for`; anything
/// before it is the browser's to invent.
pub fn client_address(
    trust_forwarded_for: bool,
    headers: &HeaderMap,
    peer: Option<std::net::IpAddr>,
) -> Option<String> {
    let forwarded = trust_forwarded_for
        .then(|| headers.get("x-forwarded-for").and_then(|v| v.to_str().ok()))
        .flatten()
        .and_then(|v| v.rsplit(',').next())
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty());
    forwarded.or_else(|| peer.map(|ip| ip.to_string()))
}

/// The address of a request, as [`client_address`] reads it.
pub fn request_address(state: &GatewayState, request: &Request) -> Option<String> {
    let peer = request.extensions().get::<ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip());
    client_address(state.trust_forwarded_for, request.headers(), peer)
}

/// Middleware on `/graphql`: one cell per request from the client's address.
pub async fn limit_graphql(State(state): State<GatewayState>, request: Request, next: Next) -> Response {
    if let Some(address) = request_address(&state, &request) {
        if let Err(wait) = state.rate_limits.graphql.check(&address) {
            metrics::counter!("paysite_rate_limited_total", "route" => "graphql").increment(1);
            tracing::warn!(address, "graphql rate limit");
            return too_many_requests(wait);
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(forwarded: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", forwarded.parse().unwrap());
        headers
    }

    #[test]
    fn the_forwarded_address_counts_only_behind_a_trusted_proxy() {
        let peer = Some("10.1.2.3".parse().unwrap());
        let h = headers("1.1.1.1, 203.0.113.9");
        assert_eq!(client_address(false, &h, peer).as_deref(), Some("10.1.2.3"));
        assert_eq!(client_address(true, &h, peer).as_deref(), Some("203.0.113.9"));
        assert_eq!(client_address(true, &HeaderMap::new(), peer).as_deref(), Some("10.1.2.3"));
        assert_eq!(client_address(false, &HeaderMap::new(), None), None);
    }
}
