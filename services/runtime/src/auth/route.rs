//! One internal route: its method, its path as the router has it, and who may call it
//! (docs/decisions/identity-and-trust/trust-model-who-may-call-which.md).
//!
//! A service declares each of its routes once, in its contract's `routes` module, and three
//! readers take it from there (docs/decisions/code-structure/each-internal-route-declared-once-contract.md):
//! the service's router mounts the handler at it ([`ServeRoute::serve`], with the route's own
//! method), its [`Gate`] reads the list of them as the trust table, and the typed client fills
//! its path's parameters ([`Route::path_with`]) and calls it with its method
//! ([`crate::client::Target`]).

use std::fmt::Display;

use super::*;

/// Who may call an internal route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// A signed-in user, for themself (the user comes from the token). A service token is no
    /// user: 401, as if the gateway had called for a visitor.
    User,
    /// The user the path parameter names (their own token), or a service.
    OwnUser(&'static str),
    /// Any verified caller: a user, or a service (the gateway for an anonymous visitor).
    Any,
    /// A service only.
    Service,
    /// A service, or a user of the `admin` group.
    ServiceOrAdmin,
}

/// One internal route and who may call it: a service's trust table is a list of these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub method: Method,
    /// The route as the router has it (`/internal/wallets/{user_id}/debits`).
    pub path: &'static str,
    pub access: Access,
}

impl Route {
    pub const fn get(path: &'static str, access: Access) -> Route {
        Route { method: Method::GET, path, access }
    }
    pub const fn post(path: &'static str, access: Access) -> Route {
        Route { method: Method::POST, path, access }
    }
    pub const fn put(path: &'static str, access: Access) -> Route {
        Route { method: Method::PUT, path, access }
    }
    pub const fn delete(path: &'static str, access: Access) -> Route {
        Route { method: Method::DELETE, path, access }
    }

    /// The names of the path's parameters (its `{name}` segments), in order.
    pub fn params(&self) -> impl Iterator<Item = &'static str> {
        self.path.split('/').filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'))
    }

    /// The path a call goes to: each `{name}` segment filled, in order, with the next of
    /// `args` as it displays (`Sync`, so a call's future that holds them stays `Send`) (nothing escaped: a caller puts only what a segment may hold,
    /// such as an id or a checked slug). With the route's method, so the client calls it with
    /// that one ([`crate::client::Target`]).
    ///
    /// Panics when `args` are more or fewer than the parameters: a client that disagrees with
    /// its own contract is a bug, found by the first call.
    pub fn path_with(&self, args: &[&(dyn Display + Sync)]) -> RoutePath {
        let wanted = self.params().count();
        assert_eq!(
            args.len(),
            wanted,
            "{} {} has {wanted} parameters, given {} values",
            self.method,
            self.path,
            args.len()
        );
        let mut args = args.iter();
        let segments: Vec<String> = self
            .path
            .split('/')
            .map(|segment| match segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(_) => args.next().expect("counted above").to_string(),
                None => segment.to_owned(),
            })
            .collect();
        RoutePath { method: self.method.clone(), path: segments.join("/") }
    }
}

/// An internal route's path with its parameters filled ([`Route::path_with`]), and the method
/// the route is called with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoutePath {
    pub method: Method,
    pub path: String,
}

impl RoutePath {
    pub fn as_str(&self) -> &str {
        &self.path
    }
}

impl std::fmt::Display for RoutePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.path)
    }
}

/// Mounting a handler at an internal [`Route`] with the route's own method, so a router names
/// the route and never writes its path or method again:
/// `Router::new().serve(&routes::DEBIT, debit)`. Two routes of one path (a `GET` and a `POST`)
/// each mount with their own method: axum merges the method routers of one path.
pub trait ServeRoute<S> {
    /// Panics, as `Router::route` does for a path it cannot take, when the route is not under
    /// `/internal/` (the gate would not stand in front of it) or has been mounted with its
    /// method already.
    fn serve<H, T>(self, route: &Route, handler: H) -> Self
    where
        H: axum::handler::Handler<T, S>,
        T: 'static;
}

impl<S: Clone + Send + Sync + 'static> ServeRoute<S> for axum::Router<S> {
    fn serve<H, T>(self, route: &Route, handler: H) -> Self
    where
        H: axum::handler::Handler<T, S>,
        T: 'static,
    {
        assert!(
            route.path.starts_with(INTERNAL_PREFIX),
            "{} {} is no internal route: the gate does not guard it",
            route.method,
            route.path
        );
        let filter = axum::routing::MethodFilter::try_from(route.method.clone())
            .unwrap_or_else(|_| panic!("{} {}: no method filter for {}", route.method, route.path, route.method));
        self.route(route.path, axum::routing::on(filter, handler))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use tower::ServiceExt;

    const PACK: Route = Route::post("/internal/unlocks/channel-packs/{channel_pack_id}", Access::User);
    const PACK_OF: Route = Route::get("/internal/channels/{slug}/packs/{pack_slug}", Access::Any);
    const COMMENTS: Route = Route::get("/internal/videos/{video_id}/comments", Access::Any);
    const ADD_COMMENT: Route = Route::post("/internal/videos/{video_id}/comments", Access::User);
    const VIDEOS: Route = Route::get("/internal/videos", Access::Any);

    #[test]
    fn a_path_is_filled_in_order_and_keeps_its_method() {
        let id = Uuid::from_u128(7);
        let filled = PACK.path_with(&[&id]);
        assert_eq!(filled.path, format!("/internal/unlocks/channel-packs/{id}"));
        assert_eq!(filled.method, Method::POST);
        assert_eq!(PACK_OF.path_with(&[&"alpha", &"beta"]).as_str(), "/internal/channels/alpha/packs/beta");
        assert_eq!(VIDEOS.path_with(&[]).to_string(), "/internal/videos");
        assert_eq!(PACK_OF.params().collect::<Vec<_>>(), ["slug", "pack_slug"]);
        assert_eq!(VIDEOS.params().count(), 0);
    }

    #[test]
    #[should_panic(expected = "has 2 parameters, given 1 values")]
    fn too_few_values_panic() {
        PACK_OF.path_with(&[&"alpha"]);
    }

    #[test]
    #[should_panic(expected = "has 0 parameters, given 1 values")]
    fn too_many_values_panic() {
        VIDEOS.path_with(&[&"alpha"]);
    }

    /// A route path of literal segments and `{name}` parameters, and the parameters' count.
    fn a_route() -> impl Strategy<Value = (&'static str, usize)> {
        prop::collection::vec(prop_oneof!["[a-z][a-z-]{0,8}", "\\{[a-z_]{1,8}\\}"], 1..6).prop_map(|segments| {
            let params = segments.iter().filter(|s| s.starts_with('{')).count();
            let path = format!("/internal/{}", segments.join("/"));
            (&*Box::leak(path.into_boxed_str()), params)
        })
    }

    proptest! {
        #[test]
        fn each_parameter_takes_one_value_in_its_place_and_nothing_else_changes(
            (path, params) in a_route(),
            values in prop::collection::vec("[A-Za-z0-9_.-]{1,12}", 0..6),
        ) {
            let route = Route::get(path, Access::Any);
            prop_assert_eq!(route.params().count(), params);
            let args: Vec<&(dyn Display + Sync)> = values.iter().map(|v| v as &(dyn Display + Sync)).collect();
            let filled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| route.path_with(&args)));
            if values.len() != params {
                prop_assert!(filled.is_err(), "{} values filled {} parameters", values.len(), params);
                return Ok(());
            }
            let filled = filled.unwrap();
            let mut values = values.iter();
            for (declared, sent) in path.split('/').zip(filled.path.split('/')) {
                if declared.starts_with('{') {
                    prop_assert_eq!(sent, values.next().unwrap().as_str());
                } else {
                    prop_assert_eq!(sent, declared);
                }
            }
            prop_assert_eq!(filled.path.split('/').count(), path.split('/').count());
            // Filled with their own names, the parameters give the route back.
            let names: Vec<String> = route.params().map(|p| format!("{{{p}}}")).collect();
            let names: Vec<&(dyn Display + Sync)> = names.iter().map(|n| n as &(dyn Display + Sync)).collect();
            prop_assert_eq!(route.path_with(&names).path, path);
        }
    }

    async fn answer(app: &axum::Router, method: Method, path: &str) -> (StatusCode, String) {
        let request = axum::http::Request::builder().method(method).uri(path).body(axum::body::Body::empty()).unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
        (status, String::from_utf8_lossy(&body).into_owned())
    }

    #[tokio::test]
    async fn two_routes_of_one_path_mount_each_with_its_own_method() {
        let app = axum::Router::new()
            .serve(&COMMENTS, || async { "list" })
            .serve(&ADD_COMMENT, || async { "add" })
            .serve(&VIDEOS, || async { "videos" });
        let path = COMMENTS.path_with(&[&Uuid::from_u128(1)]).path;
        assert_eq!(answer(&app, Method::GET, &path).await, (StatusCode::OK, "list".into()));
        assert_eq!(answer(&app, Method::POST, &path).await, (StatusCode::OK, "add".into()));
        // HEAD is served as GET is, as by `axum::routing::get`.
        assert_eq!(answer(&app, Method::HEAD, &path).await.0, StatusCode::OK);
        assert_eq!(answer(&app, Method::DELETE, &path).await.0, StatusCode::METHOD_NOT_ALLOWED);
        assert_eq!(answer(&app, Method::GET, "/internal/videos").await, (StatusCode::OK, "videos".into()));
        assert_eq!(answer(&app, Method::POST, "/internal/videos").await.0, StatusCode::METHOD_NOT_ALLOWED);
    }

    #[tokio::test]
    async fn the_gate_tells_two_routes_of_one_path_apart_by_method() {
        let signer = Signer::generate("k1");
        let key = ServiceKey::generate();
        const TABLE: &[Route] = &[COMMENTS, ADD_COMMENT];
        let router = axum::Router::new()
            .serve(&COMMENTS, || async { "list" })
            .serve(&ADD_COMMENT, || async { "add" })
            .with_state(signer.verifier());
        let app = Gate::new("catalog", signer.verifier(), TABLE).with_key(key.clone()).guard(router);
        let path = COMMENTS.path_with(&[&Uuid::from_u128(1)]).path;
        let service = ServiceTokens::new(key, "gateway").token("catalog");
        let call = |method: Method| {
            let request = axum::http::Request::builder()
                .method(method)
                .uri(&path)
                .header(AUTHORIZATION, format!("Bearer {service}"))
                .body(axum::body::Body::empty())
                .unwrap();
            app.clone().oneshot(request)
        };
        // The gateway for a visitor: it may read the comments (Any), not write one (User).
        assert_eq!(call(Method::GET).await.unwrap().status(), StatusCode::OK);
        assert_eq!(call(Method::POST).await.unwrap().status(), StatusCode::UNAUTHORIZED);
    }

    #[test]
    #[should_panic(expected = "is no internal route")]
    fn a_route_outside_internal_is_not_served() {
        let _: axum::Router = axum::Router::new().serve(&Route::get("/healthz", Access::Any), || async { "ok" });
    }

    #[test]
    #[should_panic(expected = "Overlapping method route")]
    fn one_route_mounted_twice_panics() {
        let _: axum::Router = axum::Router::new().serve(&VIDEOS, || async { "a" }).serve(&VIDEOS, || async { "b" });
    }
}
