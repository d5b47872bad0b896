//! Every refusal of the engine gets its code where it is made, by the stage that made it,
//! instead of being recognised afterwards by its message: the parser's typed error, the
//! document's nesting and directives checked here (the engine's checks turned off), the
//! validation rules' errors, and the depth and complexity the validation measured.
//!
//! What is left to a message: async-graphql gives no kind to an argument or variable that
//! does not parse as its type (a validation rule's error, or an execution error), so
//! [`super::errors::is_input_value_error`] still reads its prefix; and the persisted-query
//! lookup's "not found" is the APQ protocol's own name, `PersistedQueryNotFound`, which Apollo
//! clients match too.

use std::sync::Arc;

use async_graphql::{
    extensions::{Extension, ExtensionContext, ExtensionFactory, NextParseQuery, NextPrepareRequest, NextValidation},
    parser::types::{ExecutableDocument, Selection, SelectionSet},
    Positioned, Request, ServerError, ServerResult, ValidationResult, Variables,
};

use super::errors::{self, with_code};
use super::{MAX_COMPLEXITY, MAX_DEPTH, MAX_DIRECTIVES, MAX_RECURSION};

/// The persisted-query lookup's answer for a hash it does not hold (the APQ protocol's name).
const PERSISTED_QUERY_NOT_FOUND: &str = "PersistedQueryNotFound";

/// Registered first, so it sees what every other extension and the engine refuse.
pub struct Stages;

impl ExtensionFactory for Stages {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(StagesExtension)
    }
}

struct StagesExtension;

#[async_trait::async_trait]
impl Extension for StagesExtension {
    /// The persisted-query lookup and the cost guard ([`super::cost`], whose refusals and
    /// parse errors have their codes): the lookup's refusals.
    async fn prepare_request(
        &self,
        ctx: &ExtensionContext<'_>,
        request: Request,
        next: NextPrepareRequest<'_>,
    ) -> ServerResult<Request> {
        next.run(ctx, request).await.map_err(|e| {
            let code = if e.message == PERSISTED_QUERY_NOT_FOUND {
                "PERSISTED_QUERY_NOT_FOUND"
            } else {
                "GRAPHQL_PARSE_FAILED"
            };
            with_code(e, code)
        })
    }

    async fn parse_query(
        &self,
        ctx: &ExtensionContext<'_>,
        query: &str,
        variables: &Variables,
        next: NextParseQuery<'_>,
    ) -> ServerResult<ExecutableDocument> {
        let document = match next.run(ctx, query, variables).await {
            Ok(document) => document,
            // Without the cost guard the engine parsed: the parser's typed error says which.
            Err(e) => {
                return Err(match async_graphql::parser::parse_query(query) {
                    Err(parsed) => errors::parse_failed(parsed),
                    Ok(_) => with_code(e, "GRAPHQL_PARSE_FAILED"),
                })
            }
        };
        check_recursion(&document, MAX_RECURSION)?;
        check_directives(&document, MAX_DIRECTIVES)?;
        Ok(document)
    }

    async fn validation(
        &self,
        ctx: &ExtensionContext<'_>,
        next: NextValidation<'_>,
    ) -> Result<ValidationResult, Vec<ServerError>> {
        let measured = next.run(ctx).await.map_err(|refused| {
            refused
                .into_iter()
                .map(|e| {
                    let code = if errors::is_input_value_error(&e.message) {
                        // An argument the engine could not read: the caller's mistake, with the
                        // engine's message, which names the type and range.
                        "BAD_USER_INPUT"
                    } else {
                        "GRAPHQL_VALIDATION_FAILED"
                    };
                    with_code(e, code)
                })
                .collect::<Vec<_>>()
        })?;
        if measured.complexity > MAX_COMPLEXITY {
            return Err(vec![with_code(ServerError::new("Query is too complex.", None), "QUERY_TOO_COMPLEX")]);
        }
        if measured.depth > MAX_DEPTH {
            return Err(vec![with_code(ServerError::new("Query is nested too deep.", None), "QUERY_TOO_DEEP")]);
        }
        Ok(measured)
    }
}

/// Selection sets nested deeper than `max` (fragments entered), as the engine's own check
/// counts them: QUERY_TOO_DEEP.
fn check_recursion(document: &ExecutableDocument, max: usize) -> ServerResult<()> {
    fn walk(
        document: &ExecutableDocument,
        set: &Positioned<SelectionSet>,
        depth: usize,
        max: usize,
    ) -> ServerResult<()> {
        if depth > max {
            let message = format!("The recursion depth of the query cannot be greater than `{max}`");
            return Err(with_code(ServerError::new(message, Some(set.pos)), "QUERY_TOO_DEEP"));
        }
        for selection in &set.node.items {
            match &selection.node {
                Selection::Field(field) => {
                    if !field.node.selection_set.node.items.is_empty() {
                        walk(document, &field.node.selection_set, depth + 1, max)?;
                    }
                }
                Selection::FragmentSpread(spread) => {
                    if let Some(fragment) = document.fragments.get(&spread.node.fragment_name.node) {
                        walk(document, &fragment.node.selection_set, depth + 1, max)?;
                    }
                }
                Selection::InlineFragment(inline) => walk(document, &inline.node.selection_set, depth + 1, max)?,
            }
        }
        Ok(())
    }
    for (_, operation) in document.operations.iter() {
        walk(document, &operation.node.selection_set, 0, max)?;
    }
    Ok(())
}

/// A field with more than `max` directives (fragments entered): TOO_MANY_DIRECTIVES.
fn check_directives(document: &ExecutableDocument, max: usize) -> ServerResult<()> {
    fn walk(document: &ExecutableDocument, set: &Positioned<SelectionSet>, max: usize) -> ServerResult<()> {
        for selection in &set.node.items {
            match &selection.node {
                Selection::Field(field) => {
                    if field.node.directives.len() > max {
                        let message = format!(
                            "The number of directives on the field `{}` cannot be greater than `{max}`",
                            field.node.name.node
                        );
                        return Err(with_code(ServerError::new(message, Some(field.pos)), "TOO_MANY_DIRECTIVES"));
                    }
                    walk(document, &field.node.selection_set, max)?;
                }
                Selection::FragmentSpread(spread) => {
                    if let Some(fragment) = document.fragments.get(&spread.node.fragment_name.node) {
                        walk(document, &fragment.node.selection_set, max)?;
                    }
                }
                Selection::InlineFragment(inline) => walk(document, &inline.node.selection_set, max)?,
            }
        }
        Ok(())
    }
    for (_, operation) in document.operations.iter() {
        walk(document, &operation.node.selection_set, max)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(e: &ServerError) -> Option<String> {
        e.extensions.as_ref().and_then(|x| x.get("code")).map(|v| v.to_string().trim_matches('"').to_owned())
    }

    fn parsed(query: &str) -> ExecutableDocument {
        async_graphql::parser::parse_query(query).unwrap()
    }

    #[test]
    fn nesting_past_the_limit_is_too_deep_with_the_engines_message() {
        let nested = |n: usize| format!("{{ {}a{} }}", "a { ".repeat(n), " }".repeat(n));
        assert!(check_recursion(&parsed(&nested(3)), 3).is_ok());
        let e = check_recursion(&parsed(&nested(4)), 3).unwrap_err();
        assert_eq!(code(&e).as_deref(), Some("QUERY_TOO_DEEP"));
        assert_eq!(e.message, "The recursion depth of the query cannot be greater than `3`");
        // Fragments count as they are entered.
        let spread = "{ ...F } fragment F on Q { a { b } }";
        assert!(check_recursion(&parsed(spread), 2).is_ok());
        assert!(check_recursion(&parsed(spread), 1).is_err());
    }

    #[test]
    fn a_field_with_too_many_directives_is_refused_with_its_name() {
        let query = |n: usize| format!("{{ f {} }}", "@include(if: true) ".repeat(n));
        assert!(check_directives(&parsed(&query(2)), 2).is_ok());
        let e = check_directives(&parsed(&query(3)), 2).unwrap_err();
        assert_eq!(code(&e).as_deref(), Some("TOO_MANY_DIRECTIVES"));
        assert_eq!(e.message, "The number of directives on the field `f` cannot be greater than `2`");
    }
}
