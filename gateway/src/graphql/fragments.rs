//! Fragment spreads, checked on the document as written, before anything walks it expanded:
//! no fragment may spread itself, directly or through others (the GraphQL spec's "Fragment
//! spreads must not form cycles"), and the selection sets may nest at most
//! [`super::MAX_RECURSION`] deep once every fragment is entered. The same pass measures how
//! many selections the operations expand to, for [`super::cost`].
//!
//! It is iterative: each selection set is read once with an explicit stack, and the fragments
//! are measured in the order of one depth-first walk over the spread graph, on a stack of its
//! own, each once (a fragment spread twice costs its size twice, not its walk twice). No input
//! can make it recurse. What runs after them may recurse over fragments entered
//! (async-graphql's recursion check, its validation's inline visitors for depth, complexity
//! and cache control, execution): it then walks a graph without cycles whose depth is bounded.

use std::collections::HashMap;

use async_graphql::{
    parser::types::{ExecutableDocument, Selection, SelectionSet},
    Name, Pos,
};

use super::cost::Refusal;

/// A selection set as written: how deep its own selection sets nest below it (0 when none
/// do), how many selections it holds at every depth (spreads counted, not entered), and each
/// fragment spread with the depth, below it, at which the fragment's selection set is entered.
struct Outline<'a> {
    deepest: usize,
    selections: u64,
    spreads: Vec<Spread<'a>>,
}

/// A selection set, or a fragment's, with every fragment entered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Measure {
    /// How deep its selection sets nest, as async-graphql's recursion check counts.
    pub depth: usize,
    /// How many selections (fields, spreads, inline fragments) it expands to.
    pub selections: u64,
}

struct Spread<'a> {
    name: &'a Name,
    entered_at: usize,
    pos: Pos,
}

/// One pass over `set` and the sets written inside it, with a stack; spreads are not entered.
/// Depth counts as async-graphql's recursion check counts it: a field with a selection set, an
/// inline fragment and an entered fragment each add one.
fn outline(set: &SelectionSet) -> Outline<'_> {
    let mut outline = Outline { deepest: 0, selections: 0, spreads: Vec::new() };
    let mut stack = vec![(set, 0usize)];
    while let Some((set, depth)) = stack.pop() {
        outline.deepest = outline.deepest.max(depth);
        outline.selections += set.items.len() as u64;
        for selection in &set.items {
            match &selection.node {
                Selection::Field(field) => {
                    if !field.node.selection_set.node.items.is_empty() {
                        stack.push((&field.node.selection_set.node, depth + 1));
                    }
                }
                Selection::InlineFragment(inline) => stack.push((&inline.node.selection_set.node, depth + 1)),
                Selection::FragmentSpread(spread) => outline.spreads.push(Spread {
                    name: &spread.node.fragment_name.node,
                    entered_at: depth + 1,
                    pos: spread.pos,
                }),
            }
        }
    }
    outline
}

/// A selection set's measure with every fragment entered, given each fragment's (`known`; a
/// spread of a fragment the document lacks adds nothing: validation names it).
fn expanded(outline: &Outline<'_>, known: &HashMap<&Name, Measure>) -> Measure {
    let mut measure = Measure { depth: outline.deepest, selections: outline.selections };
    for spread in &outline.spreads {
        if let Some(inner) = known.get(spread.name) {
            measure.depth = measure.depth.max(spread.entered_at.saturating_add(inner.depth));
            measure.selections = measure.selections.saturating_add(inner.selections);
        }
    }
    measure
}

/// The message a cycle is refused with, as graphql-js words it: the fragment spread within
/// itself, and the fragments it goes through.
fn cycle_message(cycle: &[&Name]) -> String {
    match cycle {
        [name] => format!("Cannot spread fragment \"{name}\" within itself."),
        [name, via @ ..] => {
            let via: Vec<String> = via.iter().map(|n| format!("\"{n}\"")).collect();
            format!("Cannot spread fragment \"{name}\" within itself via {}.", via.join(", "))
        }
        [] => "Cannot spread a fragment within itself.".to_owned(),
    }
}

/// Refuses a fragment cycle (`GRAPHQL_VALIDATION_FAILED`, at the spread that closes it) and
/// selection sets nested deeper than `max_depth` with fragments entered (`QUERY_TOO_DEEP`);
/// else the operations' deepest nesting and their selections, all expanded, together.
pub fn check(document: &ExecutableDocument, max_depth: usize) -> Result<Measure, Refusal> {
    let outlines: HashMap<&Name, Outline<'_>> =
        document.fragments.iter().map(|(name, fragment)| (name, outline(&fragment.node.selection_set.node))).collect();
    // Fragments in the order they are written, so that the same document is refused the same way.
    let mut order: Vec<(&Name, Pos)> = document.fragments.iter().map(|(name, f)| (name, f.pos)).collect();
    order.sort_by_key(|(_, pos)| (pos.line, pos.column));

    // Depth-first over the spread graph: a fragment is on `path` while its spreads are being
    // followed, and in `measured` once they all have been.
    let mut measured: HashMap<&Name, Measure> = HashMap::with_capacity(outlines.len());
    let mut on_path: HashMap<&Name, usize> = HashMap::new();
    for (root, _) in order {
        if measured.contains_key(root) {
            continue;
        }
        let mut path: Vec<(&Name, usize)> = vec![(root, 0)];
        on_path.insert(root, 0);
        while let Some(&(name, next)) = path.last() {
            let outline = &outlines[name];
            if let Some(spread) = outline.spreads.get(next) {
                path.last_mut().expect("not empty").1 += 1;
                if let Some(&start) = on_path.get(spread.name) {
                    let cycle: Vec<&Name> = path[start..].iter().map(|(n, _)| *n).collect();
                    return Err(Refusal::new("GRAPHQL_VALIDATION_FAILED", cycle_message(&cycle)).at(spread.pos));
                }
                if outlines.contains_key(spread.name) && !measured.contains_key(spread.name) {
                    on_path.insert(spread.name, path.len());
                    path.push((spread.name, 0));
                }
            } else {
                measured.insert(name, expanded(outline, &measured));
                on_path.remove(name);
                path.pop();
            }
        }
    }

    let mut total = Measure::default();
    for (_, operation) in document.operations.iter() {
        let set = &operation.node.selection_set;
        let measure = expanded(&outline(&set.node), &measured);
        if measure.depth > max_depth {
            return Err(Refusal::new(
                "QUERY_TOO_DEEP",
                format!("The recursion depth of the query cannot be greater than `{max_depth}`"),
            )
            .at(set.pos));
        }
        total.depth = total.depth.max(measure.depth);
        total.selections = total.selections.saturating_add(measure.selections);
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_text(query: &str, max_depth: usize) -> Result<Measure, Refusal> {
        check(&async_graphql::parser::parse_query(query).expect("parses"), max_depth)
    }

    fn refused(query: &str) -> Refusal {
        check_text(query, 32).unwrap_err()
    }

    #[test]
    fn a_cycle_of_two_is_refused_where_it_closes() {
        let refusal = refused("query { ...A } fragment A on QueryRoot { ...B } fragment B on QueryRoot { ...A }");
        assert_eq!(refusal.code, "GRAPHQL_VALIDATION_FAILED");
        assert_eq!(refusal.message, "Cannot spread fragment \"A\" within itself via \"B\".");
        assert_eq!(refusal.pos.map(|p| (p.line, p.column)), Some((1, 75)));
    }

    #[test]
    fn a_self_spread_and_cycles_inside_fields_and_inline_fragments_are_refused() {
        let refusal = refused("query { ...A } fragment A on QueryRoot { a: __typename ...A }");
        assert_eq!(refusal.message, "Cannot spread fragment \"A\" within itself.");
        let nested = "{ ...A } fragment A on QueryRoot { tenantConfig { key ... on TenantConfig { ...B } } } \
                      fragment B on TenantConfig { key ...C } fragment C on TenantConfig { ... { ...B } }";
        assert_eq!(refused(nested).message, "Cannot spread fragment \"B\" within itself via \"C\".");
        // A cycle among fragments no operation uses is refused too (the spec's rule is on
        // every fragment), as is one that an operation reaches only through another fragment.
        let unused = "{ __typename } fragment X on QueryRoot { ...Y } fragment Y on QueryRoot { ...X }";
        assert_eq!(refused(unused).code, "GRAPHQL_VALIDATION_FAILED");
        let through = "{ ...P } fragment P on QueryRoot { ...X } fragment X on QueryRoot { ...Y } \
                       fragment Y on QueryRoot { ...Z } fragment Z on QueryRoot { ...X }";
        assert_eq!(refused(through).message, "Cannot spread fragment \"X\" within itself via \"Y\", \"Z\".");
    }

    #[test]
    fn shared_fragments_are_not_cycles() {
        let diamond = "{ ...A ...B } fragment A on QueryRoot { ...C } fragment B on QueryRoot { ...C } \
                       fragment C on QueryRoot { __typename }";
        // Each selection once per place it is spread: 2 spreads + A's and B's one spread each
        // + C's one field twice.
        assert_eq!(check_text(diamond, 32).unwrap(), Measure { depth: 2, selections: 6 });
        check_text("{ ...Missing }", 32).unwrap(); // validation names the unknown fragment
    }

    #[test]
    fn depth_counts_as_the_engine_counts_it() {
        let nested = |n: usize| format!("{{ {}a{} }}", "a { ".repeat(n), " }".repeat(n));
        check_text(&nested(3), 3).unwrap();
        let refusal = check_text(&nested(4), 3).unwrap_err();
        assert_eq!(refusal.code, "QUERY_TOO_DEEP");
        assert_eq!(refusal.message, "The recursion depth of the query cannot be greater than `3`");
        // A fragment's set is one deeper than the spread's, and its own nesting adds on.
        let spread = "{ ...F } fragment F on Q { a { b } }";
        check_text(spread, 2).unwrap();
        assert!(check_text(spread, 1).is_err());
        let inline = "{ ... on Q { ... on Q { a } } }";
        check_text(inline, 2).unwrap();
        assert!(check_text(inline, 1).is_err());
    }

    /// `fragment F{i} on QueryRoot { ...F{i+1} }`: a chain of `n` distinct fragments.
    fn chain(n: usize) -> ExecutableDocument {
        let mut text = String::from("{ ...F0 }\n");
        for i in 0..n {
            text.push_str(&format!("fragment F{i} on QueryRoot {{ ...F{} }}\n", i + 1));
        }
        text.push_str(&format!("fragment F{n} on QueryRoot {{ __typename }}\n"));
        async_graphql::parser::parse_query(&text).unwrap()
    }

    #[test]
    fn a_chain_of_ten_thousand_fragments_is_walked_without_recursion() {
        // Parsed here, checked on a stack far smaller than any recursion over 10,000 fragments
        // would need, and handed back to be dropped here (its Drop is the parser's concern).
        let document = chain(10_000);
        let (refusal, document) = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || (check(&document, 32).unwrap_err(), document))
            .unwrap()
            .join()
            .expect("no stack overflow");
        drop(document);
        assert_eq!(refusal.code, "QUERY_TOO_DEEP");
        check(&chain(30), 32).unwrap();
    }

    proptest::proptest! {
        /// Random spread graphs: refused as a cycle exactly when the graph has one, and a
        /// graph without cycles gets the depth of its longest chain of spreads.
        #[test]
        fn cycles_are_found_exactly_and_depth_is_the_longest_chain(
            edges in proptest::collection::vec((0usize..8, 0usize..8), 0..16)
        ) {
            let mut text = String::from("{ ...F0 }\n");
            for i in 0..8 {
                let spreads: String = edges.iter().filter(|(from, _)| *from == i).map(|(_, to)| format!("...F{to} ")).collect();
                text.push_str(&format!("fragment F{i} on QueryRoot {{ __typename {spreads}}}\n"));
            }
            let document = async_graphql::parser::parse_query(&text).unwrap();
            // The expected answer, by brute force: the longest path from each node (cycles
            // found by a path longer than the number of nodes).
            fn longest(node: usize, edges: &[(usize, usize)], seen: usize) -> Option<usize> {
                if seen > 8 { return None; }
                let mut best = 0;
                for (_, to) in edges.iter().filter(|(from, _)| *from == node) {
                    best = best.max(longest(*to, edges, seen + 1)? + 1);
                }
                Some(best)
            }
            let cyclic = (0..8).any(|n| longest(n, &edges, 0).is_none());
            match check(&document, 100) {
                Err(refusal) => {
                    proptest::prop_assert!(cyclic, "{refusal:?}");
                    proptest::prop_assert_eq!(refusal.code, "GRAPHQL_VALIDATION_FAILED");
                }
                Ok(_) => {
                    proptest::prop_assert!(!cyclic);
                    // The operation's set is 0, F0's is 1, each spread one more.
                    let depth = longest(0, &edges, 0).unwrap() + 1;
                    proptest::prop_assert_eq!(check(&document, depth).unwrap().depth, depth);
                    proptest::prop_assert!(check(&document, depth - 1).is_err());
                }
            }
        }
    }
}
