//! The one error type of the HTTP API: `{code, message}` with a SCREAMING_SNAKE code and its
//! status (an invalid deal also names its `field`).

use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
    Json,
};
use runtime::StoreError;
use serde_json::json;
use uuid::Uuid;

use crate::confirmation::ConfirmationError;
use crate::domain::DealError;
use crate::input::InvalidDeal;

/// Every answer of this API that is not a success.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    InvalidDeal(InvalidDeal),
    #[error("{0}")]
    Confirmation(ConfirmationError),
    #[error("{0:?} is not a brand of this platform")]
    UnknownSite(String),
    #[error("no deal {0}")]
    DealNotFound(Uuid),
    /// An admin signed in on one brand acting on another brand's deals.
    #[error("an admin of {admin_of} may not manage the deals of {site}")]
    AnotherBrand { admin_of: String, site: String },
    #[error("a different deal {0} already exists")]
    DealExists(Uuid),
    #[error("no such image")]
    ImageNotFound,
    /// Well-formed but not acceptable.
    #[error("{0}")]
    Invalid(String),
    /// Not even well-formed (body, path or query).
    #[error("{0}")]
    BadRequest(String),
    #[error("the deals service is busy, try again")]
    Busy(#[source] StoreError),
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::InvalidDeal(_) | ApiError::Confirmation(_) | ApiError::UnknownSite(_) | ApiError::Invalid(_) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            ApiError::DealNotFound(_) | ApiError::ImageNotFound => StatusCode::NOT_FOUND,
            ApiError::DealExists(_) => StatusCode::CONFLICT,
            ApiError::AnotherBrand { .. } => StatusCode::FORBIDDEN,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::InvalidDeal(_) => "INVALID_DEAL",
            ApiError::Confirmation(e) => e.code(),
            ApiError::UnknownSite(_) => "UNKNOWN_SITE",
            ApiError::DealNotFound(_) | ApiError::ImageNotFound => "NOT_FOUND",
            ApiError::DealExists(_) => "DEAL_ALREADY_EXISTS",
            ApiError::AnotherBrand { .. } => "FORBIDDEN",
            ApiError::Invalid(_) => "INVALID_REQUEST",
            ApiError::BadRequest(_) => "BAD_REQUEST",
            ApiError::Busy(_) => "RETRY",
            ApiError::Internal(_) => "INTERNAL",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "code": self.code(), "message": self.to_string() });
        match &self {
            ApiError::InvalidDeal(e) => body["field"] = json!(e.field),
            ApiError::Busy(e) => tracing::warn!(error = %e, "deals request failed, retryable"),
            ApiError::Internal(e) => tracing::error!(error = %format!("{e:#}"), "deals request failed"),
            _ => {}
        }
        (self.status_code(), Json(body)).into_response()
    }
}

runtime::api_error_from!(failures for ApiError: busy Busy, internal Internal; StoreError);
runtime::api_error_from!(internal for ApiError: Internal; sqlx::Error);
runtime::api_error_from!(rejections for ApiError: malformed BadRequest, unacceptable Invalid);

impl From<DealError> for ApiError {
    fn from(e: DealError) -> Self {
        match e {
            DealError::AlreadyExists(id) => ApiError::DealExists(id),
            DealError::NotFound(id) => ApiError::DealNotFound(id),
            DealError::WrongId { .. } => ApiError::Invalid(e.to_string()),
        }
    }
}

impl From<InvalidDeal> for ApiError {
    fn from(e: InvalidDeal) -> Self {
        ApiError::InvalidDeal(e)
    }
}
