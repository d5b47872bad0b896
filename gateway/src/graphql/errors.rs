//! GraphQL errors: every error leaves with a SCREAMING_SNAKE `extensions.code`; what a
//! service refused keeps its code and message, anything unexpected is masked.

use async_graphql::{ErrorExtensions, Response, ServerError};
use runtime::client::UpstreamError;

pub fn coded(code: &str, message: impl Into<String>) -> async_graphql::Error {
    let code = code.to_owned();
    async_graphql::Error::new(message).extend_with(move |_, e| e.set("code", code.as_str()))
}

pub fn unauthenticated() -> async_graphql::Error {
    coded("UNAUTHENTICATED", "You need to log in")
}

pub fn forbidden() -> async_graphql::Error {
    coded("FORBIDDEN", "You are not allowed to do this")
}

pub fn bad_input(message: impl Into<String>) -> async_graphql::Error {
    coded("BAD_USER_INPUT", message)
}

/// A service's answer as a GraphQL error: its refusals (4xx) keep their code, message and
/// extra fields (`daysUntilRefreshGems`, ...); an unavailable or failing service is masked.
pub fn upstream(e: UpstreamError) -> async_graphql::Error {
    match e {
        UpstreamError::Refused { status, code, message, body, .. } if (400..500).contains(&status) => {
            let code = match status {
                401 => "UNAUTHENTICATED".to_owned(),
                _ => code,
            };
            async_graphql::Error::new(message).extend_with(move |_, ext| {
                ext.set("code", code.as_str());
                if let serde_json::Value::Object(fields) = &body {
                    for (key, value) in fields {
                        if key != "code" && key != "message" {
                            if let Ok(value) = async_graphql::Value::from_json(value.clone()) {
                                ext.set(key, value);
                            }
                        }
                    }
                }
            })
        }
        other => {
            tracing::warn!(error = %other, "upstream call failed");
            coded("SERVICE_UNAVAILABLE", "The service is unavailable, please try again later")
        }
    }
}

/// `error` with `code`, unless it has one already.
pub fn with_code(mut error: ServerError, code: &str) -> ServerError {
    let extensions = error.extensions.get_or_insert_with(Default::default);
    if extensions.get("code").is_none() {
        extensions.set("code", code);
    }
    error
}

/// The parser's refusal with its code: its own nesting limit is QUERY_TOO_DEEP, anything else
/// GRAPHQL_PARSE_FAILED.
pub fn parse_failed(error: async_graphql::parser::Error) -> ServerError {
    let code = match error {
        async_graphql::parser::Error::RecursionLimitExceeded => "QUERY_TOO_DEEP",
        _ => "GRAPHQL_PARSE_FAILED",
    };
    with_code(error.into(), code)
}

/// Gives every error of a response a code. The engine's refusals got theirs where they were
/// made ([`super::stages`]); an argument that does not parse is the caller's mistake; any
/// resolver error without a code is masked (its message may carry internals).
pub fn finish(mut response: Response) -> Response {
    for error in &mut response.errors {
        classify(error);
    }
    response
}

/// async-graphql's messages for an argument or variable that does not parse as its type: the
/// engine gives these errors no kind, so their prefix is all there is to read.
pub fn is_input_value_error(message: &str) -> bool {
    message.starts_with("Failed to parse \"")
        || message.starts_with("Expected input type \"")
        || message.starts_with("Invalid value for argument")
}

fn classify(error: &mut ServerError) {
    if error.extensions.as_ref().is_some_and(|e| e.get("code").is_some()) {
        return;
    }
    let code = if is_input_value_error(&error.message) {
        // An argument of a field the engine could not read (a page past 32 bits, a string for
        // an Int): the caller's mistake, with the engine's message, which names the type and range.
        "BAD_USER_INPUT"
    } else if error.path.is_empty() && !error.locations.is_empty() {
        "GRAPHQL_VALIDATION_FAILED"
    } else if error.path.is_empty() {
        // The request itself (an unknown operation name, no operation name among several).
        "GRAPHQL_PARSE_FAILED"
    } else {
        tracing::error!(message = %error.message, path = ?error.path, "resolver error without a code, masked");
        error.message = "Internal server error".to_owned();
        "INTERNAL_SERVER_ERROR"
    };
    error.extensions.get_or_insert_with(Default::default).set("code", code);
}
