//! The one error type of the HTTP API: `{code, message}` with a SCREAMING_SNAKE code and its
//! status (a declined signup also carries its `reason`, a retention refusal its `flash`).

use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
    Json,
};
use runtime::StoreError;
use serde_json::json;

use crate::joins::{self, JoinError};
use crate::outgoing::OutgoingRefusal;
use crate::postbacks::PostbackError;
use crate::retention::RetentionRefusal;

/// Every answer of this API that is not a success.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    Postback(#[from] PostbackError),
    #[error("{0}")]
    Join(#[from] JoinError),
    #[error("{0}")]
    Retention(#[from] RetentionRefusal),
    #[error("{0}")]
    Outgoing(#[from] OutgoingRefusal),
    #[error("{0}")]
    NotFound(&'static str),
    #[error("no access token")]
    Unauthenticated,
    #[error("the biller declined the signup")]
    SignupDenied(String),
    #[error("{0}")]
    BadRequest(String),
    #[error("a service this one needs is unavailable")]
    Unavailable(String),
    #[error("the subscription service is busy, try again")]
    Busy(#[source] StoreError),
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

runtime::api_error_from!(failures for ApiError: busy Busy, internal Internal; StoreError);

impl From<joins::StartError> for ApiError {
    fn from(e: joins::StartError) -> Self {
        match e {
            joins::StartError::Database(e) => e.into(),
            joins::StartError::Hash(e) => ApiError::Internal(e),
            joins::StartError::Profile(e) => ApiError::Unavailable(e.to_string()),
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        ApiError::from(StoreError::from(e))
    }
}

impl ApiError {
    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::Postback(PostbackError::UnknownBiller(_)) | ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Postback(PostbackError::Rejected(r)) if r.is_authenticity() => StatusCode::UNAUTHORIZED,
            ApiError::Postback(PostbackError::Rejected(_)) | ApiError::BadRequest(_) | ApiError::SignupDenied(_) => {
                StatusCode::BAD_REQUEST
            }
            ApiError::Postback(PostbackError::Unprocessable(_)) | ApiError::Join(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Retention(RetentionRefusal::NotYours) => StatusCode::FORBIDDEN,
            ApiError::Unauthenticated => StatusCode::UNAUTHORIZED,
            ApiError::Retention(_) | ApiError::Outgoing(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Postback(PostbackError::Profile(_)) | ApiError::Unavailable(_) | ApiError::Busy(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Postback(PostbackError::Store(e)) if e.is_retryable() => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Postback(PostbackError::Store(_)) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Postback(PostbackError::UnknownBiller(_)) => "UNKNOWN_BILLER",
            ApiError::Postback(PostbackError::Rejected(r)) => r.code(),
            ApiError::Postback(PostbackError::Unprocessable(_)) => "UNPROCESSABLE_POSTBACK",
            ApiError::Postback(PostbackError::Profile(_)) | ApiError::Unavailable(_) => "SERVICE_UNAVAILABLE",
            ApiError::Postback(PostbackError::Store(_)) | ApiError::Internal(_) => "INTERNAL",
            ApiError::Join(e) => e.code(),
            ApiError::Retention(e) => e.code(),
            ApiError::Outgoing(e) => e.code(),
            ApiError::NotFound(_) => "NOT_FOUND",
            ApiError::Unauthenticated => "UNAUTHENTICATED",
            ApiError::SignupDenied(_) => "SIGNUP_DENIED",
            ApiError::BadRequest(_) => "BAD_REQUEST",
            ApiError::Busy(_) => "RETRY",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "code": self.code(), "message": self.to_string() });
        match &self {
            ApiError::SignupDenied(reason) => body["reason"] = json!(reason),
            ApiError::Retention(r) => body["flash"] = json!(r.flash()),
            ApiError::Busy(e) => tracing::warn!(error = %e, "subscription request failed, retryable"),
            ApiError::Internal(e) => tracing::error!(error = %format!("{e:#}"), "subscription request failed"),
            ApiError::Postback(PostbackError::Store(e)) => tracing::error!(error = %e, "postback failed"),
            ApiError::Postback(PostbackError::Profile(e)) => tracing::warn!(error = %e, "account creation failed"),
            _ => {}
        }
        (self.status_code(), Json(body)).into_response()
    }
}
