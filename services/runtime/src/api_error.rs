//! The conversions every service's one error type shares, so that each of their rules has one
//! owner:
//! - a request the extractors reject is malformed (400 `BAD_REQUEST`), unless it is valid JSON
//!   of the wrong shape, which is well-formed but not acceptable (422 `INVALID_REQUEST`);
//! - a store failure that a retry may get past is `Busy` (503 `RETRY`), any other is
//!   `Internal` (500);
//! - a database or programming error met outside a command is `Internal`.
//!
//! A service's `error.rs` keeps its own variants, codes and statuses, and names which of its
//! variants these rules produce, once:
//!
//! ```ignore
//! runtime::api_error_from!(rejections for ApiError: malformed BadRequest, unacceptable Invalid);
//! runtime::api_error_from!(failures for ApiError: busy Busy, internal Internal; runtime::StoreError);
//! runtime::api_error_from!(internal for ApiError: Internal; sqlx::Error);
//! ```

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};

#[doc(hidden)]
pub use axum as __axum;

/// Which side of the 400/422 line a request the extractors rejected is on, with their text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejected {
    /// Not even well-formed (body, path or query): 400.
    Malformed(String),
    /// Valid JSON of the wrong shape: 422.
    Unacceptable(String),
}

impl From<JsonRejection> for Rejected {
    fn from(e: JsonRejection) -> Self {
        match e {
            JsonRejection::JsonDataError(e) => Rejected::Unacceptable(e.body_text()),
            other => Rejected::Malformed(other.body_text()),
        }
    }
}

impl From<PathRejection> for Rejected {
    fn from(e: PathRejection) -> Self {
        Rejected::Malformed(e.body_text())
    }
}

impl From<QueryRejection> for Rejected {
    fn from(e: QueryRejection) -> Self {
        Rejected::Malformed(e.body_text())
    }
}

/// Writes the `From` conversions of a service's error type that follow the rules of this
/// module (see the module's documentation for the three forms). The variants named take one
/// value: the message (`String`) for rejections, the failure itself (or what it converts into)
/// for `busy`, an `anyhow::Error` for `internal`.
#[macro_export]
macro_rules! api_error_from {
    (rejections for $error:ident: malformed $malformed:ident, unacceptable $unacceptable:ident) => {
        $crate::api_error_from!(@rejection $error, $malformed, $unacceptable, JsonRejection);
        $crate::api_error_from!(@rejection $error, $malformed, $unacceptable, PathRejection);
        $crate::api_error_from!(@rejection $error, $malformed, $unacceptable, QueryRejection);
    };
    (failures for $error:ident: busy $busy:ident, internal $internal:ident; $($failure:ty),+ $(,)?) => {
        $(
            impl From<$failure> for $error {
                fn from(e: $failure) -> Self {
                    if $crate::retry::Retryable::is_retryable(&e) {
                        $error::$busy(e.into())
                    } else {
                        $error::$internal(e.into())
                    }
                }
            }
        )+
    };
    (internal for $error:ident: $internal:ident; $($failure:ty),+ $(,)?) => {
        $(
            impl From<$failure> for $error {
                fn from(e: $failure) -> Self {
                    $error::$internal(e.into())
                }
            }
        )+
    };
    (@rejection $error:ident, $malformed:ident, $unacceptable:ident, $rejection:ident) => {
        impl From<$crate::api_error::__axum::extract::rejection::$rejection> for $error {
            fn from(e: $crate::api_error::__axum::extract::rejection::$rejection) -> Self {
                match $crate::api_error::Rejected::from(e) {
                    $crate::api_error::Rejected::Malformed(message) => $error::$malformed(message),
                    $crate::api_error::Rejected::Unacceptable(message) => $error::$unacceptable(message),
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use axum::{
        body::Body,
        extract::{FromRequest, Json},
        http::Request,
    };

    use super::*;

    async fn rejection_of(body: &'static str) -> JsonRejection {
        let request = Request::builder()
            .method("POST")
            .header("content-type", "application/json")
            .body(Body::from(body))
            .expect("request");
        Json::<std::collections::BTreeMap<String, u32>>::from_request(request, &())
            .await
            .expect_err("the body is refused")
    }

    #[tokio::test]
    async fn json_of_the_wrong_shape_is_unacceptable_and_broken_json_malformed() {
        assert!(matches!(Rejected::from(rejection_of(r#"{"a":"x"}"#).await), Rejected::Unacceptable(_)));
        assert!(matches!(Rejected::from(rejection_of(r#"{"a":"#).await), Rejected::Malformed(_)));
    }

    #[derive(Debug)]
    enum Answer {
        Bad(String),
        Invalid(String),
    }
    crate::api_error_from!(rejections for Answer: malformed Bad, unacceptable Invalid);

    #[tokio::test]
    async fn the_macro_names_the_service_variants() {
        assert!(matches!(Answer::from(rejection_of(r#"[1]"#).await), Answer::Invalid(m) if !m.is_empty()));
        assert!(matches!(Answer::from(rejection_of("nope").await), Answer::Bad(m) if !m.is_empty()));
    }
}
