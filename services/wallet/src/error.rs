//! The wallet's one error type: every answer of its internal API that is not a success, as
//! `{code, message, ...}` with a SCREAMING_SNAKE code.

use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
    Json,
};
use serde_json::json;

use crate::api::{NotEnoughCredits, NotEnoughGems, NOT_ENOUGH_CREDITS, NOT_ENOUGH_GEMS};
use crate::commands::Failure;
use crate::domain::DomainError;

/// Every answer of this API that is not a success.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The wallet's answer to a debit it refuses (not enough, or a key reused).
    #[error("{0}")]
    Refused(DomainError),
    /// Well-formed but not acceptable.
    #[error("{0}")]
    Invalid(String),
    /// Not even well-formed (body, path or query).
    #[error("{0}")]
    BadRequest(String),
    /// A store failure that a retry with the same idempotency key may get past.
    #[error("the wallet is busy, try again")]
    Busy(Failure),
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::Refused(DomainError::NotEnoughGems { .. } | DomainError::NotEnoughCredits { .. }) => {
                StatusCode::CONFLICT
            }
            ApiError::Refused(_) | ApiError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Refused(DomainError::NotEnoughGems { .. }) => NOT_ENOUGH_GEMS,
            ApiError::Refused(DomainError::NotEnoughCredits { .. }) => NOT_ENOUGH_CREDITS,
            ApiError::Refused(DomainError::IdempotencyKeyReused { .. }) => "IDEMPOTENCY_KEY_REUSED",
            ApiError::Refused(_) | ApiError::Invalid(_) => "INVALID_REQUEST",
            ApiError::BadRequest(_) => "BAD_REQUEST",
            ApiError::Busy(_) => "RETRY",
            ApiError::Internal(_) => "INTERNAL",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "code": self.code(), "message": self.to_string() });
        // A refusal for want of funds adds the contract's fields of its code.
        let fields = match self {
            ApiError::Refused(DomainError::NotEnoughGems { balance, needed, days_until_refresh_gems }) => {
                json!(NotEnoughGems { balance, needed, days_until_refresh_gems })
            }
            ApiError::Refused(DomainError::NotEnoughCredits { balance, needed }) => {
                json!(NotEnoughCredits { balance, needed })
            }
            _ => json!({}),
        };
        if let (Some(body), Some(fields)) = (body.as_object_mut(), fields.as_object()) {
            body.extend(fields.clone());
        }
        match &self {
            ApiError::Busy(failure) => tracing::warn!(error = %failure, "wallet request failed, retryable"),
            ApiError::Internal(e) => tracing::error!(error = %format!("{e:#}"), "wallet request failed"),
            _ => {}
        }
        (self.status_code(), Json(body)).into_response()
    }
}

impl From<DomainError> for ApiError {
    fn from(e: DomainError) -> Self {
        match e {
            e @ (DomainError::NotEnoughGems { .. }
            | DomainError::NotEnoughCredits { .. }
            | DomainError::IdempotencyKeyReused { .. }) => ApiError::Refused(e),
            DomainError::NothingToDebit => ApiError::Invalid("amount must be at least 1".into()),
            other => ApiError::Internal(anyhow::Error::new(other)),
        }
    }
}

runtime::api_error_from!(failures for ApiError: busy Busy, internal Internal; Failure);
runtime::api_error_from!(internal for ApiError: Internal; sqlx::Error);
runtime::api_error_from!(rejections for ApiError: malformed BadRequest, unacceptable Invalid);
