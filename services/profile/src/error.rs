//! The one error type of the HTTP API: `{code, message}` with a SCREAMING_SNAKE code and its
//! status; a refused grant also carries `{error: "invalid_grant"}`.

use axum::{
    http::StatusCode,
    response::{IntoResponse, Response},
    Json,
};
use serde_json::json;

use crate::commands::CommandError;
use crate::domain::DomainError;
use crate::sessions::GrantError;

/// changePassword past the failed-login limit of the account.
pub const CHANGE_PASSWORD_TOO_MANY_MESSAGE: &str = "Too many wrong passwords. Please wait a few minutes and try again.";

/// Every answer of this API that is not a success.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    Command(#[from] CommandError),
    #[error("invalid_grant")]
    InvalidGrant,
    #[error("refresh_in_progress")]
    RefreshInProgress,
    #[error("too_many_refreshes")]
    TooManyRefreshes,
    /// Too many wrong old passwords for this account in the failed-login window.
    #[error("{}", CHANGE_PASSWORD_TOO_MANY_MESSAGE)]
    TooManyAttempts,
    #[error("{0}")]
    NotFound(&'static str),
    #[error("{0}")]
    BadRequest(String),
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    pub fn status_code(&self) -> StatusCode {
        match self {
            ApiError::Command(CommandError::Domain(e)) => match e {
                DomainError::UnknownUser => StatusCode::NOT_FOUND,
                DomainError::RelationshipNotEditable | DomainError::TandemChildCannotCreate => StatusCode::FORBIDDEN,
                DomainError::AccountExists | DomainError::UsernameAlreadyChosen | DomainError::TandemChildExists => {
                    StatusCode::CONFLICT
                }
                _ => StatusCode::UNPROCESSABLE_ENTITY,
            },
            ApiError::Command(CommandError::UsernameTaken | CommandError::EmailTaken) => StatusCode::CONFLICT,
            ApiError::Command(CommandError::Store(e)) if e.is_retryable() => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Command(CommandError::Store(_)) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::InvalidGrant => StatusCode::UNAUTHORIZED,
            ApiError::RefreshInProgress => StatusCode::CONFLICT,
            ApiError::TooManyRefreshes | ApiError::TooManyAttempts => StatusCode::TOO_MANY_REQUESTS,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::Command(CommandError::Domain(e)) => e.code(),
            ApiError::Command(CommandError::UsernameTaken) => "USERNAME_TAKEN",
            ApiError::Command(CommandError::EmailTaken) => "EMAIL_ALREADY_EXISTS",
            ApiError::Command(CommandError::Store(e)) if e.is_retryable() => "RETRY",
            ApiError::Command(CommandError::Store(_)) | ApiError::Internal(_) => "INTERNAL",
            ApiError::InvalidGrant => "INVALID_GRANT",
            ApiError::RefreshInProgress => "REFRESH_IN_PROGRESS",
            ApiError::TooManyRefreshes => "TOO_MANY_REFRESHES",
            ApiError::TooManyAttempts => "TOO_MANY_ATTEMPTS",
            ApiError::NotFound(_) => "NOT_FOUND",
            ApiError::BadRequest(_) => "BAD_REQUEST",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({ "code": self.code(), "message": self.to_string() });
        match &self {
            ApiError::InvalidGrant => body["error"] = json!("invalid_grant"),
            ApiError::RefreshInProgress => body["error"] = json!("refresh_in_progress"),
            ApiError::TooManyRefreshes => body["error"] = json!("too_many_refreshes"),
            ApiError::Command(CommandError::Store(e)) => {
                body["message"] = json!("internal error");
                tracing::error!(error = %e, "profile command failed");
            }
            ApiError::Internal(e) => tracing::error!(error = %format!("{e:#}"), "profile request failed"),
            _ => {}
        }
        (self.status_code(), Json(body)).into_response()
    }
}

runtime::api_error_from!(internal for ApiError: Internal; sqlx::Error, anyhow::Error);
// Profile's answers have no 422 of their own: a body of the wrong shape is a bad request too.
runtime::api_error_from!(rejections for ApiError: malformed BadRequest, unacceptable BadRequest);

impl From<GrantError> for ApiError {
    fn from(e: GrantError) -> Self {
        match e {
            GrantError::InvalidGrant(why) => {
                tracing::info!(reason = why, "grant refused");
                ApiError::InvalidGrant
            }
            GrantError::RefreshInProgress => ApiError::RefreshInProgress,
            GrantError::TooManyRefreshes => ApiError::TooManyRefreshes,
            GrantError::Failed(e) => ApiError::Command(e),
        }
    }
}
