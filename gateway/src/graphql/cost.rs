//! The cost of a document, bounded before anything walks its expanded tree.
//!
//! async-graphql's depth, complexity and recursion checks all walk the document with its
//! fragments expanded, so a 1 KB document of nested spreads (each fragment spreading the
//! next twice) costs 2^k steps before the first refusal, and on a fragment cycle they never
//! stop. [`CostGuard`] runs around the parser: on the text, its size, its tokens and how deep
//! its brackets nest (the parser recurses once per bracket); on the document as written, its
//! aliases, its fragment spreads, then its fragment cycles, its depth and the number of
//! selections it would expand to, each fragment measured once ([`super::fragments`]), so the
//! check costs the size of the text, whatever the expansion, and none of it recurses.

use std::sync::Arc;

use async_graphql::{
    extensions::{Extension, ExtensionContext, ExtensionFactory, NextPrepareRequest},
    parser::types::{ExecutableDocument, Selection, SelectionSet},
    Pos, Request, ServerError, ServerResult,
};

use super::MAX_RECURSION;

/// Largest query text, in bytes (the browser's largest document is about 3 KB).
pub const MAX_QUERY_BYTES: usize = 16 * 1024;
/// Most lexical tokens in one document (the browser's largest has about 400).
pub const MAX_TOKENS: usize = 2_000;
/// Most operations in one document (the browser sends one at a time).
pub const MAX_OPERATIONS: usize = 5;
/// Most directives written in one document.
pub const MAX_WRITTEN_DIRECTIVES: usize = 20;
/// Most fragment spreads written in one document.
pub const MAX_FRAGMENT_SPREADS: usize = 100;
/// Most aliases written in one document.
pub const MAX_ALIASES: usize = 50;
/// Deepest nesting of brackets (`{`, `[`, `(`) in the text: the parser's own limit on
/// selection sets, which it checks only after a first pass that recurses once per bracket.
pub const MAX_TEXT_NESTING: usize = 64;
/// Most selections (fields, spreads, inline fragments) once every fragment is expanded.
pub const MAX_EXPANDED_SELECTIONS: u64 = 2_000;

/// Why a document was refused, with the code the browser sees and, where one selection is to
/// blame, its place in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
    pub pos: Option<Pos>,
}

impl Refusal {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Refusal { code, message: message.into(), pos: None }
    }

    pub fn at(self, pos: Pos) -> Self {
        Refusal { pos: Some(pos), ..self }
    }

    pub fn into_server_error(self) -> ServerError {
        let mut error = ServerError::new(self.message, self.pos);
        error.extensions.get_or_insert_with(Default::default).set("code", self.code);
        error
    }
}

/// The text's size, its token count and how deep its brackets nest, before parsing (the
/// parser recurses once per bracket before its own limits apply).
pub fn check_text(query: &str) -> Result<(), Refusal> {
    if query.len() > MAX_QUERY_BYTES {
        return Err(Refusal::new("QUERY_TOO_LARGE", format!("A query may hold at most {MAX_QUERY_BYTES} bytes")));
    }
    let lexed = lex(query, MAX_TOKENS + 1);
    if lexed.tokens > MAX_TOKENS {
        return Err(Refusal::new("TOO_MANY_TOKENS", format!("A query may hold at most {MAX_TOKENS} tokens")));
    }
    if lexed.deepest > MAX_TEXT_NESTING {
        return Err(Refusal::new(
            "QUERY_TOO_DEEP",
            format!("A query may nest brackets at most {MAX_TEXT_NESTING} deep"),
        ));
    }
    Ok(())
}

/// What one pass of the lexer finds: the GraphQL tokens (punctuators, names, numbers, strings;
/// whitespace, commas and comments are ignored), counted up to the stop, and the deepest
/// nesting of `{`, `[` and `(` outside strings and comments among them.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Lexed {
    pub tokens: usize,
    pub deepest: usize,
}

/// One pass over the bytes, no allocation.
pub fn lex(text: &str, stop: usize) -> Lexed {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut lexed = Lexed::default();
    let mut open: usize = 0;
    while i < bytes.len() && lexed.tokens < stop {
        match bytes[i] {
            b' ' | b'\t' | b'\n' | b'\r' | b',' => i += 1,
            0xEF if bytes[i..].starts_with(&[0xEF, 0xBB, 0xBF]) => i += 3, // byte order mark
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
                    i += 1;
                }
            }
            b'"' if bytes[i..].starts_with(b"\"\"\"") => {
                // A block string, if it is closed; else the parser reads `""`, an empty string,
                // and goes on after it, so the lexer does too.
                let mut end = i + 3;
                while end < bytes.len() && !bytes[end..].starts_with(b"\"\"\"") {
                    end += if bytes[end..].starts_with(b"\\\"\"\"") { 4 } else { 1 };
                }
                i = if end < bytes.len() { end + 3 } else { i + 2 };
                lexed.tokens += 1;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                lexed.tokens += 1;
            }
            b'.' if bytes[i..].starts_with(b"...") => {
                i += 3;
                lexed.tokens += 1;
            }
            b if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' => {
                // A name, or a number with its sign, fraction and exponent: one token.
                let number = b.is_ascii_digit() || b == b'-';
                i += 1;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric()
                        || bytes[i] == b'_'
                        || (number && matches!(bytes[i], b'.' | b'+' | b'-')))
                {
                    i += 1;
                }
                lexed.tokens += 1;
            }
            b => {
                match b {
                    b'{' | b'[' | b'(' => {
                        open += 1;
                        lexed.deepest = lexed.deepest.max(open);
                    }
                    b'}' | b']' | b')' => open = open.saturating_sub(1),
                    _ => {}
                }
                i += 1;
                lexed.tokens += 1;
            }
        }
    }
    lexed
}

/// The parsed document: operations, aliases, directives and spreads as written, then fragment
/// cycles, the depth with fragments entered and the selections the operations expand to,
/// measured in one pass with each fragment's measure computed once ([`super::fragments`]).
pub fn check_document(document: &ExecutableDocument) -> Result<(), Refusal> {
    let operations = document.operations.iter().count();
    if operations > MAX_OPERATIONS {
        return Err(Refusal::new(
            "TOO_MANY_OPERATIONS",
            format!("A document may hold at most {MAX_OPERATIONS} operations"),
        ));
    }
    let mut written = Written::default();
    for (_, operation) in document.operations.iter() {
        written.directives += operation.node.directives.len();
        written.count(&operation.node.selection_set.node);
    }
    for fragment in document.fragments.values() {
        written.directives += fragment.node.directives.len();
        written.count(&fragment.node.selection_set.node);
    }
    if written.directives > MAX_WRITTEN_DIRECTIVES {
        return Err(Refusal::new(
            "TOO_MANY_DIRECTIVES",
            format!("A query may hold at most {MAX_WRITTEN_DIRECTIVES} directives"),
        ));
    }
    if written.spreads > MAX_FRAGMENT_SPREADS {
        return Err(Refusal::new(
            "TOO_MANY_FRAGMENT_SPREADS",
            format!("A query may hold at most {MAX_FRAGMENT_SPREADS} fragment spreads"),
        ));
    }
    if written.aliases > MAX_ALIASES {
        return Err(Refusal::new("TOO_MANY_ALIASES", format!("A query may hold at most {MAX_ALIASES} aliases")));
    }
    let total = super::fragments::check(document, MAX_RECURSION)?.selections;
    if total > MAX_EXPANDED_SELECTIONS {
        return Err(Refusal::new(
            "QUERY_TOO_COMPLEX",
            format!("A query may expand to at most {MAX_EXPANDED_SELECTIONS} selections"),
        ));
    }
    Ok(())
}

/// Counts as written (no fragment is entered), with a stack of the sets still to read.
#[derive(Default)]
struct Written {
    spreads: usize,
    aliases: usize,
    directives: usize,
}

impl Written {
    fn count(&mut self, set: &SelectionSet) {
        let mut stack = vec![set];
        while let Some(set) = stack.pop() {
            for selection in &set.items {
                match &selection.node {
                    Selection::Field(field) => {
                        if field.node.alias.is_some() {
                            self.aliases += 1;
                        }
                        self.directives += field.node.directives.len();
                        stack.push(&field.node.selection_set.node);
                    }
                    Selection::FragmentSpread(spread) => {
                        self.spreads += 1;
                        self.directives += spread.node.directives.len();
                    }
                    Selection::InlineFragment(inline) => {
                        self.directives += inline.node.directives.len();
                        stack.push(&inline.node.selection_set.node);
                    }
                }
            }
        }
    }
}

/// Documents that passed the checks, remembered at most, by their text (the front end sends a
/// few dozen; an attacker's stream of new texts only pushes out the least recently used).
pub const CHECKED_DOCUMENTS_KEPT: usize = 512;

/// The schema extension running both checks around the parser, and remembering the
/// documents that passed them: a page's query is the same text on every request, and parsing
/// it again each time was a twentieth of the gateway's time. A refused text is not kept, so it
/// is checked (and refused) every time.
#[derive(Clone)]
pub struct CostGuard {
    checked: Arc<std::sync::Mutex<lru::LruCache<String, ExecutableDocument>>>,
    /// Off only for `paysite bench refusals`' second gateway: the same memory of parsed texts,
    /// none of the checks, so that the two differ by the checks alone.
    checks: bool,
}

impl Default for CostGuard {
    fn default() -> Self {
        let kept = std::num::NonZeroUsize::new(CHECKED_DOCUMENTS_KEPT).expect("not zero");
        CostGuard { checked: Arc::new(std::sync::Mutex::new(lru::LruCache::new(kept))), checks: true }
    }
}

impl CostGuard {
    /// Parsed texts remembered as by the guard, and nothing checked: what the checks cost is
    /// measured against it (`paysite bench refusals`), never served.
    pub fn parse_cache_only() -> Self {
        CostGuard { checks: false, ..CostGuard::default() }
    }

    /// `query` parsed, once it passed [`check_text`] and [`check_document`]; from memory when
    /// the same text passed before.
    pub fn checked(&self, query: &str) -> ServerResult<ExecutableDocument> {
        if let Some(document) = self.checked.lock().expect("checked documents lock").get(query) {
            return Ok(document.clone());
        }
        if self.checks {
            check_text(query).map_err(Refusal::into_server_error)?;
        }
        let document = async_graphql::parser::parse_query(query).map_err(super::errors::parse_failed)?;
        if self.checks {
            check_document(&document).map_err(Refusal::into_server_error)?;
        }
        self.checked.lock().expect("checked documents lock").put(query.to_owned(), document.clone());
        Ok(document)
    }

    #[cfg(test)]
    fn remembers(&self, query: &str) -> bool {
        self.checked.lock().unwrap().contains(query)
    }
}

impl ExtensionFactory for CostGuard {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(CostGuardExtension(self.clone()))
    }
}

struct CostGuardExtension(CostGuard);

/// Runs at `prepare_request`, around the persisted-query extension and before the engine's
/// own parse-time checks (recursion depth, directives), which walk fragments entered.
///
/// The text is checked before the persisted-query extension sees it: registering a document
/// (text and hash) parses it there, and the parser recurses once per bracket. That extension
/// hands on a parsed document and an empty text, both when it registers one and when it finds
/// one by its hash, so such a document is checked as parsed. Otherwise the parsed document is
/// handed on, so the text is parsed once.
#[async_trait::async_trait]
impl Extension for CostGuardExtension {
    async fn prepare_request(
        &self,
        ctx: &ExtensionContext<'_>,
        request: Request,
        next: NextPrepareRequest<'_>,
    ) -> ServerResult<Request> {
        if self.0.checks && !request.query.is_empty() {
            check_text(&request.query).map_err(Refusal::into_server_error)?;
        }
        let mut request = next.run(ctx, request).await?;
        if request.query.is_empty() {
            // A persisted document (or no text at all, which the parser refuses).
            let document = request.parsed_query()?;
            if self.0.checks {
                check_document(document).map_err(Refusal::into_server_error)?;
            }
            return Ok(request);
        }
        let document = self.0.checked(&request.query)?;
        request.set_parsed_query(document);
        Ok(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(query: &str) -> Result<(), Refusal> {
        check_text(query)?;
        check_document(&async_graphql::parser::parse_query(query).expect("parses"))
    }

    /// `fragment F{k} on QueryRoot { ...F{k-1} ...F{k-1} }`: 2^levels spreads once expanded.
    fn explosion(levels: u32) -> String {
        let mut query = String::from("query { ...F0 }\nfragment F0 on QueryRoot { __typename }\n");
        for k in 1..=levels {
            query.push_str(&format!("fragment F{k} on QueryRoot {{ ...F{j} ...F{j} }}\n", j = k - 1));
        }
        query.replace("{ ...F0 }", &format!("{{ ...F{levels} }}"))
    }

    #[test]
    fn a_fragment_explosion_is_refused_without_expanding_it() {
        for levels in [10, 20, 30, 31, 32, 49] {
            let query = explosion(levels);
            assert!(query.len() < 3_000, "{}", query.len());
            let started = std::time::Instant::now();
            let refusal = check(&query).unwrap_err();
            // Past MAX_RECURSION levels the chain of spreads is too deep before it is too big.
            let code = if levels as usize >= MAX_RECURSION { "QUERY_TOO_DEEP" } else { "QUERY_TOO_COMPLEX" };
            assert_eq!(refusal.code, code, "2^{levels}");
            assert!(started.elapsed() < std::time::Duration::from_millis(50), "{:?}", started.elapsed());
        }
    }

    #[test]
    fn a_document_that_passed_is_remembered_and_a_refused_one_is_checked_every_time() {
        let guard = CostGuard::default();
        let page = "query Page { tenantConfig { key } }";
        let first = guard.checked(page).unwrap();
        assert!(guard.remembers(page));
        assert_eq!(format!("{:?}", guard.checked(page).unwrap()), format!("{first:?}"));
        let bomb = explosion(20);
        for _ in 0..2 {
            let refused = guard.checked(&bomb).unwrap_err();
            assert_eq!(refused.extensions.unwrap().get("code"), Some(&async_graphql::Value::from("QUERY_TOO_COMPLEX")));
            assert!(!guard.remembers(&bomb));
        }
        assert!(guard.checked("query {").is_err());
        assert!(!guard.remembers("query {"));
        // New texts push out the least recently used, never past the bound.
        for i in 0..CHECKED_DOCUMENTS_KEPT {
            guard.checked(&format!("query Q{i} {{ __typename }}")).unwrap();
        }
        assert!(!guard.remembers(page));
        assert_eq!(guard.checked.lock().unwrap().len(), CHECKED_DOCUMENTS_KEPT);
    }

    #[test]
    fn a_few_shared_fragments_pass() {
        check(&explosion(5)).unwrap();
        check("query Q { a: tenantConfig b: tenantConfig ...on QueryRoot { __typename } }").unwrap();
    }

    #[test]
    fn spreads_and_aliases_as_written_are_capped() {
        let spreads = format!("{{ {} }} fragment F on QueryRoot {{ __typename }}", "...F ".repeat(101));
        assert_eq!(check(&spreads).unwrap_err().code, "TOO_MANY_FRAGMENT_SPREADS");
        let aliases: String = (0..51).map(|i| format!("a{i}: __typename ")).collect();
        assert_eq!(check(&format!("{{ {aliases} }}")).unwrap_err().code, "TOO_MANY_ALIASES");
        assert_eq!(check(&" ".repeat(MAX_QUERY_BYTES + 1)).unwrap_err().code, "QUERY_TOO_LARGE");
    }

    #[test]
    fn tokens_are_counted_as_the_lexer_reads_them() {
        assert_eq!(lex("{ a }", 100).tokens, 3);
        assert_eq!(lex("query Q($x: Int = -1.5e3) { a(x: $x) @skip(if: false) }", 100).tokens, 26);
        assert_eq!(lex("{ ...F } # a comment { { {\n", 100).tokens, 4);
        assert_eq!(lex(r#"{ a(s: "x } \" {", b: """block { \""" }""") }"#, 100).tokens, 11);
        assert_eq!(lex(&"{ a ".repeat(1_000), 50).tokens, 50, "stops at the limit");
    }

    proptest::proptest! {
        /// Any text is counted without a panic, never past the stop and never past its length.
        #[test]
        fn counting_tokens_is_total_and_bounded(text in "\\PC{0,200}", stop in 0usize..300) {
            let n = lex(&text, stop).tokens;
            proptest::prop_assert!(n <= stop);
            proptest::prop_assert!(lex(&text, usize::MAX).tokens <= text.len());
        }
    }

    #[test]
    fn many_tokens_directives_or_operations_are_refused() {
        let tokens = format!("{{ {} }}", "a ".repeat(MAX_TOKENS));
        assert_eq!(check(&tokens).unwrap_err().code, "TOO_MANY_TOKENS");
        let directives = format!("{{ __typename {} }}", "@skip(if: false) ".repeat(MAX_WRITTEN_DIRECTIVES + 1));
        assert_eq!(check(&directives).unwrap_err().code, "TOO_MANY_DIRECTIVES");
        let operations: String = (0..=MAX_OPERATIONS).map(|i| format!("query Q{i} {{ __typename }} ")).collect();
        assert_eq!(check(&operations).unwrap_err().code, "TOO_MANY_OPERATIONS");
    }

    #[test]
    fn a_fragment_cycle_is_refused_before_the_engine_sees_it() {
        let refusal = check("{ ...A } fragment A on QueryRoot { ...B } fragment B on QueryRoot { ...A }").unwrap_err();
        assert_eq!(refusal.code, "GRAPHQL_VALIDATION_FAILED");
        assert_eq!(refusal.message, "Cannot spread fragment \"A\" within itself via \"B\".");
        // Refused, so never remembered: a cycle is checked, and refused, every time.
        let guard = CostGuard::default();
        let cycle = "{ ...A } fragment A on QueryRoot { a: __typename ...A }";
        for _ in 0..2 {
            assert!(guard.checked(cycle).is_err());
            assert!(!guard.remembers(cycle));
        }
    }

    #[test]
    fn brackets_nested_past_the_limit_are_refused_before_parsing() {
        let lists = |n: usize| format!("{{ a(x: {}1{}) }}", "[".repeat(n), "]".repeat(n));
        // The selection set and the argument list are two of the brackets.
        assert_eq!(lex(&lists(MAX_TEXT_NESTING - 2), usize::MAX).deepest, MAX_TEXT_NESTING);
        check_text(&lists(MAX_TEXT_NESTING - 2)).unwrap();
        let refusal = check_text(&lists(MAX_TEXT_NESTING - 1)).unwrap_err();
        assert_eq!(refusal.code, "QUERY_TOO_DEEP");
        // Brackets in strings and comments do not count.
        assert_eq!(lex("{ a(s: \"[[[[\") # {{{{\n }", usize::MAX).deepest, 2);
        // Four quotes are two empty strings to the parser, not a block string left open: what
        // follows them counts.
        let open = format!("{{ a(x: [\"\"\"\", {}\"v\"{}]) }}", "[".repeat(100), "]".repeat(100));
        assert_eq!(lex(&open, usize::MAX).deepest, 103);
        assert_eq!(check_text(&open).unwrap_err().code, "QUERY_TOO_DEEP");
    }

    /// How deep the parser nested a value: one per list or object, iteratively.
    fn value_depth(value: &async_graphql::Value) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(value, 0usize)];
        while let Some((value, depth)) = stack.pop() {
            deepest = deepest.max(depth);
            match value {
                async_graphql::Value::List(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
                async_graphql::Value::Object(fields) => stack.extend(fields.values().map(|v| (v, depth + 1))),
                _ => {}
            }
        }
        deepest
    }

    /// A value's text: strings holding brackets, quotes, escapes and `#`; empty strings written
    /// back to back (`""""` is two of them to the parser, not a block string left open); block
    /// strings; lists and objects of them.
    fn value_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let text = proptest::collection::vec(
            prop_oneof![
                Just("["),
                Just("]"),
                Just("{"),
                Just("}"),
                Just("#"),
                Just("\\\""),
                Just("\\\\"),
                Just("a"),
                Just(" ")
            ],
            0..6,
        )
        .prop_map(|parts| parts.concat());
        let leaf = prop_oneof![
            Just("\"\"".to_owned()),
            Just("1".to_owned()),
            text.clone().prop_map(|t| format!("\"{t}\"")),
            text.prop_map(|t| format!("\"\"\"{}\"\"\"", t.replace("\\\"", "'"))),
        ];
        leaf.prop_recursive(6, 48, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(|items| format!("[{}]", items.concat())),
                proptest::collection::vec(inner, 0..4).prop_map(|items| {
                    let fields: Vec<String> = items.iter().enumerate().map(|(i, v)| format!("f{i}:{v}")).collect();
                    format!("{{{}}}", fields.join(" "))
                }),
            ]
        })
    }

    proptest::proptest! {
        /// Whatever the parser reads from a text, the lexer's nesting is at least as deep, so
        /// the text check bounds what the parser recurses over. The selection set and the
        /// argument list are two brackets around the values; `tail` comes after four quotes,
        /// which a lexer that read them as an unclosed block string would not count.
        #[test]
        fn the_lexers_nesting_bounds_what_the_parser_reads(value in value_text(), tail in value_text()) {
            let text = format!("{{ a(x: [\"\"\"\" {value}] y: {tail}) }}");
            if let Ok(document) = async_graphql::parser::parse_query(&text) {
                let (_, operation) = document.operations.iter().next().unwrap();
                let Selection::Field(field) = &operation.node.selection_set.node.items[0].node else {
                    unreachable!("the text's one selection is a field")
                };
                let parsed = field
                    .node
                    .arguments
                    .iter()
                    .map(|(_, v)| value_depth(&v.node.clone().into_const().unwrap_or_default()))
                    .max()
                    .unwrap_or(0);
                proptest::prop_assert!(parsed + 2 <= lex(&text, usize::MAX).deepest, "{text}: parsed {parsed}");
            }
        }
    }

    proptest::proptest! {
        /// The deepest nesting is that of the brackets, read one by one.
        #[test]
        fn nesting_is_the_deepest_open_bracket_count(brackets in "[\\[\\]{}() a]{0,200}") {
            let mut open = 0i64;
            let mut deepest = 0i64;
            for c in brackets.chars() {
                match c {
                    '[' | '{' | '(' => { open += 1; deepest = deepest.max(open); }
                    ']' | '}' | ')' => open = (open - 1).max(0),
                    _ => {}
                }
            }
            proptest::prop_assert_eq!(lex(&brackets, usize::MAX).deepest as i64, deepest);
        }
    }
}
