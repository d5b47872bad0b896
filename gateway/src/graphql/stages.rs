//! Every refusal of the engine gets its code where it is made, by the stage that made it,
//! instead of being recognised afterwards by its message: the parser's typed error, the
//! document's nesting ([`super::fragments`], before the engine's own check, which stays on as
//! a second bound) and directives checked here (the engine's directive check turned off), the
//! validation rules' errors, and the depth and complexity the validation measured.
//!
//! What is left to a message: async-graphql gives no kind to an argument or variable that
//! does not parse as its type (a validation rule's error, or an execution error), so
//! [`super::errors::is_input_value_error`] still reads its prefix.

use std::sync::Arc;

use async_graphql::{
    extensions::{Extension, ExtensionContext, ExtensionFactory, NextParseQuery, NextPrepareRequest, NextValidation},
    parser::types::{ExecutableDocument, Selection, SelectionSet},
    Request, ServerError, ServerResult, ValidationResult, Variables,
};

use super::errors::{self, with_code};
use super::{fragments, MAX_COMPLEXITY, MAX_DEPTH, MAX_DIRECTIVES, MAX_RECURSION};

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
    /// The cost guard ([`super::cost`], whose refusals and parse errors have their codes):
    /// anything else refused before parsing is a parse failure.
    async fn prepare_request(
        &self,
        ctx: &ExtensionContext<'_>,
        request: Request,
        next: NextPrepareRequest<'_>,
    ) -> ServerResult<Request> {
        next.run(ctx, request).await.map_err(|e| with_code(e, "GRAPHQL_PARSE_FAILED"))
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
            // Without the cost guard the engine parsed (the parser's typed error says which) and
            // checked the recursion depth (the fragments' check says why, with its code).
            Err(e) => {
                return Err(match async_graphql::parser::parse_query(query) {
                    Err(parsed) => errors::parse_failed(parsed),
                    Ok(document) => match fragments::check(&document, MAX_RECURSION) {
                        Err(refusal) => refusal.into_server_error(),
                        Ok(_) => with_code(e, "GRAPHQL_PARSE_FAILED"),
                    },
                })
            }
        };
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

/// A field with more than `max` directives, in any operation or fragment as written (every
/// field a fragment brings is in the fragment): TOO_MANY_DIRECTIVES. Iterative.
fn check_directives(document: &ExecutableDocument, max: usize) -> ServerResult<()> {
    let mut stack: Vec<&SelectionSet> = document.operations.iter().map(|(_, o)| &o.node.selection_set.node).collect();
    stack.extend(document.fragments.values().map(|f| &f.node.selection_set.node));
    while let Some(set) = stack.pop() {
        for selection in &set.items {
            match &selection.node {
                Selection::Field(field) => {
                    if field.node.directives.len() > max {
                        let message = format!(
                            "The number of directives on the field `{}` cannot be greater than `{max}`",
                            field.node.name.node
                        );
                        return Err(with_code(ServerError::new(message, Some(field.pos)), "TOO_MANY_DIRECTIVES"));
                    }
                    stack.push(&field.node.selection_set.node);
                }
                Selection::FragmentSpread(_) => {}
                Selection::InlineFragment(inline) => stack.push(&inline.node.selection_set.node),
            }
        }
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
    fn a_field_with_too_many_directives_is_refused_with_its_name() {
        let query = |n: usize| format!("{{ f {} }}", "@include(if: true) ".repeat(n));
        assert!(check_directives(&parsed(&query(2)), 2).is_ok());
        let e = check_directives(&parsed(&query(3)), 2).unwrap_err();
        assert_eq!(code(&e).as_deref(), Some("TOO_MANY_DIRECTIVES"));
        assert_eq!(e.message, "The number of directives on the field `f` cannot be greater than `2`");
        // In a fragment, used or not, and inside an inline fragment.
        let inside = "{ ...F } fragment F on Q { ... on Q { g @skip(if: false) @skip(if: false) @skip(if: false) } }";
        assert_eq!(code(&check_directives(&parsed(inside), 2).unwrap_err()).as_deref(), Some("TOO_MANY_DIRECTIVES"));
    }
}
