//! Persisted documents: the operations the front end is built with, by the SHA-256 of their
//! text, and (while `PAYSITE_GRAPHQL_APQ` is on) documents registered the automatic
//! persisted-query way. A request names its document by hash
//! (`extensions.persistedQuery.sha256Hash`), by text, or both; this module turns it into text
//! for the engine, or refuses it.
//!
//! The manifest is `frontend/src/gql/persisted-documents.json`, which codegen writes from the
//! front end's `.graphql` files; it is built into the binary, so a release's gateway knows
//! exactly the documents its own SPA sends (docs/decisions/graphql/persisted-documents-queries-get.md).
//!
//! - APQ on (the default in development): any document is executed. A hash with its text is
//!   remembered (per replica, least recently used first out) when the text's own hash is
//!   that hash; a hash alone that is neither in the manifest nor remembered is
//!   `PERSISTED_QUERY_NOT_FOUND`, which makes an Apollo client send the text.
//! - APQ off (the default in production): only the manifest's documents are executed, named
//!   by hash or by their exact text. Anything else is `DOCUMENT_NOT_REGISTERED`.

use std::{collections::HashMap, num::NonZeroUsize, sync::Arc, sync::Mutex};

use async_graphql::{
    parser::types::{DocumentOperations, OperationType, Selection},
    Request, ServerError,
};
use sha2::Digest;

use super::errors::with_code;

/// The front end's operations, as codegen registered them (hash → text).
const MANIFEST: &str = include_str!("../../../frontend/src/gql/persisted-documents.json");

/// How many APQ registrations a replica keeps.
const REMEMBERED: usize = 1024;

/// The APQ protocol's message for a hash the server does not hold (Apollo clients match it).
pub const PERSISTED_QUERY_NOT_FOUND: &str = "PersistedQueryNotFound";

/// One operation of a document: its name (`None` for the one anonymous operation), its type,
/// and the root fields it selects (`None` when a fragment stands at the root).
#[derive(Debug, Clone)]
struct Operation {
    name: Option<String>,
    ty: OperationType,
    root_fields: Option<Vec<String>>,
}

/// A document's text and what its operations are.
#[derive(Debug, Clone)]
pub struct Document {
    pub text: Arc<str>,
    operations: Arc<[Operation]>,
}

impl Document {
    /// Parses `text` to learn its operations. The text has been bounded by the cost guard's
    /// checks ([`super::cost::check_text`]) first: the parser recurses per bracket.
    fn parse(text: &str) -> Option<Document> {
        super::cost::check_text(text).ok()?;
        let parsed = async_graphql::parser::parse_query(text).ok()?;
        let operation = |name: Option<String>, op: &async_graphql::parser::types::OperationDefinition| Operation {
            name,
            ty: op.ty,
            root_fields: op
                .selection_set
                .node
                .items
                .iter()
                .map(|item| match &item.node {
                    Selection::Field(field) => Some(field.node.name.node.to_string()),
                    _ => None,
                })
                .collect(),
        };
        let operations: Vec<_> = match &parsed.operations {
            DocumentOperations::Single(op) => vec![operation(None, &op.node)],
            DocumentOperations::Multiple(ops) => {
                ops.iter().map(|(name, op)| operation(Some(name.to_string()), &op.node)).collect()
            }
        };
        Some(Document { text: text.into(), operations: operations.into() })
    }

    /// The operation `name` selects, as the engine will choose it: by name, or the only one.
    /// `None` when the request does not select exactly one (the engine says why).
    fn operation(&self, name: Option<&str>) -> Option<&Operation> {
        match (name, &self.operations[..]) {
            (_, [only @ Operation { name: None, .. }]) => Some(only),
            (None, [only]) => Some(only),
            (Some(name), ops) => ops.iter().find(|op| op.name.as_deref() == Some(name)),
            (None, _) => None,
        }
    }

    /// The type of the operation `name` selects.
    pub fn operation_type(&self, name: Option<&str>) -> Option<OperationType> {
        self.operation(name).map(|op| op.ty)
    }

    /// The root fields the operation `name` selects, when each is a field (not a fragment).
    pub fn root_fields(&self, name: Option<&str>) -> Option<&[String]> {
        self.operation(name)?.root_fields.as_deref()
    }
}

/// The lower-case hex SHA-256 of `text`, as codegen and Apollo write it.
pub fn hash_of(text: &str) -> String {
    sha2::Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// The documents this gateway executes.
pub struct Documents {
    manifest: HashMap<String, Document>,
    /// Each named operation of the manifest, with its document's hash (pages ask by name).
    by_operation: HashMap<String, String>,
    /// APQ registrations, while APQ is on.
    registered: Option<Mutex<lru::LruCache<String, Document>>>,
}

/// A request's document, once named.
#[derive(Debug)]
pub struct Resolved {
    pub document: Document,
    /// The hash it was named by alone (a GET may only be that), or `None` when a text came.
    pub by_hash_only: Option<String>,
}

impl Documents {
    /// The built-in manifest, and APQ registration when `apq`. Every manifest document must
    /// parse and hash to its key: a build whose codegen and gateway disagree fails here.
    pub fn new(apq: bool) -> anyhow::Result<Documents> {
        Self::with_manifest(MANIFEST, apq)
    }

    fn with_manifest(manifest: &str, apq: bool) -> anyhow::Result<Documents> {
        let entries: HashMap<String, String> = serde_json::from_str(manifest)?;
        let mut documents = HashMap::with_capacity(entries.len());
        let mut by_operation = HashMap::new();
        for (hash, text) in entries {
            anyhow::ensure!(hash_of(&text) == hash, "persisted document {hash} is not the SHA-256 of its text");
            let document =
                Document::parse(&text).ok_or_else(|| anyhow::anyhow!("persisted document {hash} does not parse"))?;
            for name in document.operations.iter().filter_map(|op| op.name.clone()) {
                by_operation.insert(name, hash.clone());
            }
            documents.insert(hash, document);
        }
        let registered = apq.then(|| Mutex::new(lru::LruCache::new(NonZeroUsize::new(REMEMBERED).expect("non-zero"))));
        Ok(Documents { manifest: documents, by_operation, registered })
    }

    /// Whether documents outside the manifest are executed (`PAYSITE_GRAPHQL_APQ`).
    pub fn apq(&self) -> bool {
        self.registered.is_some()
    }

    /// How many documents the manifest holds.
    pub fn registered_count(&self) -> usize {
        self.manifest.len()
    }

    /// The hash of the front end's operation `name` (a page's first screen, benchmarks and the
    /// rehearsal ask as the front end does).
    pub fn hash_of_operation(&self, name: &str) -> Option<String> {
        self.by_operation.get(name).cloned()
    }

    /// The manifest's document with this hash.
    pub fn get(&self, hash: &str) -> Option<&Document> {
        self.manifest.get(hash)
    }

    /// The request's document: its text put where the engine reads it, or the refusal.
    pub fn resolve(&self, request: &mut Request) -> Result<Resolved, ServerError> {
        let hash = persisted_hash(request)?;
        let text = std::mem::take(&mut request.query);
        let resolved = match (hash, text.is_empty()) {
            (None, true) => return Err(with_code(ServerError::new("The request has no query", None), "BAD_REQUEST")),
            (Some(hash), true) => match self.lookup(&hash) {
                Some(document) => Resolved { document, by_hash_only: Some(hash) },
                None if self.apq() => {
                    return Err(with_code(
                        ServerError::new(PERSISTED_QUERY_NOT_FOUND, None),
                        "PERSISTED_QUERY_NOT_FOUND",
                    ))
                }
                None => return Err(not_registered()),
            },
            (hash, false) => {
                let own = hash_of(&text);
                if let Some(document) = self.manifest.get(&own) {
                    Resolved { document: document.clone(), by_hash_only: None }
                } else if let Some(registered) = &self.registered {
                    // Only a hash that is the text's own is remembered: another would let one
                    // client put its text under a hash other clients send. A text the checks
                    // refuse is remembered too, and refused again when named by its hash.
                    let unparsed = || Document { text: text.as_str().into(), operations: Arc::new([]) };
                    let document = if hash.as_deref() == Some(own.as_str()) {
                        let document = Document::parse(&text).unwrap_or_else(unparsed);
                        registered.lock().expect("persisted documents lock").put(own, document.clone());
                        document
                    } else {
                        unparsed()
                    };
                    Resolved { document, by_hash_only: None }
                } else {
                    return Err(not_registered());
                }
            }
        };
        request.query = resolved.document.text.to_string();
        request.extensions.remove("persistedQuery");
        Ok(resolved)
    }

    fn lookup(&self, hash: &str) -> Option<Document> {
        if let Some(document) = self.manifest.get(hash) {
            return Some(document.clone());
        }
        self.registered.as_ref()?.lock().expect("persisted documents lock").get(hash).cloned()
    }
}

fn not_registered() -> ServerError {
    with_code(
        ServerError::new("This gateway executes only the documents its front end was built with", None),
        "DOCUMENT_NOT_REGISTERED",
    )
}

/// `extensions.persistedQuery`: version 1 and a SHA-256 in hex, or nothing.
fn persisted_hash(request: &Request) -> Result<Option<String>, ServerError> {
    let Some(persisted) = request.extensions.get("persistedQuery") else { return Ok(None) };
    let bad = || {
        with_code(ServerError::new("extensions.persistedQuery must be {version: 1, sha256Hash}", None), "BAD_REQUEST")
    };
    let async_graphql::Value::Object(fields) = persisted else { return Err(bad()) };
    let version = fields.get("version").and_then(|v| match v {
        async_graphql::Value::Number(n) => n.as_i64(),
        _ => None,
    });
    if version != Some(1) {
        return Err(with_code(ServerError::new("PersistedQueryNotSupported", None), "PERSISTED_QUERY_NOT_SUPPORTED"));
    }
    match fields.get("sha256Hash") {
        Some(async_graphql::Value::String(hash))
            if hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) =>
        {
            Ok(Some(hash.clone()))
        }
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn persisted(hash: &str) -> Request {
        let mut request = Request::new("");
        request.extensions.insert(
            "persistedQuery".into(),
            async_graphql::Value::from_json(serde_json::json!({ "version": 1, "sha256Hash": hash })).unwrap(),
        );
        request
    }

    fn code(e: &ServerError) -> String {
        e.extensions.as_ref().and_then(|x| x.get("code")).map(|c| c.to_string()).unwrap_or_default()
    }

    #[test]
    fn the_built_in_manifest_is_every_operation_hashed_and_parsed() {
        let documents = Documents::new(false).expect("the manifest loads");
        assert!(documents.registered_count() > 50, "{}", documents.registered_count());
        let tenant = documents.manifest.values().find(|d| d.text.contains("query TenantConfig")).expect("TenantConfig");
        assert_eq!(tenant.operation_type(Some("TenantConfig")), Some(OperationType::Query));
        let join = documents.manifest.values().find(|d| d.text.contains("mutation Join(")).expect("Join");
        assert_eq!(join.operation_type(None), Some(OperationType::Mutation));
    }

    #[test]
    fn a_manifest_whose_key_is_not_its_text_hash_is_refused() {
        let manifest = serde_json::json!({ hash_of("query A { a }"): "query B { b }" }).to_string();
        assert!(Documents::with_manifest(&manifest, false).is_err());
    }

    #[test]
    fn without_apq_only_the_manifest_is_executed() {
        let text = "query A { tenantConfig }";
        let manifest = serde_json::json!({ hash_of(text): text }).to_string();
        let documents = Documents::with_manifest(&manifest, false).unwrap();
        let mut by_hash = persisted(&hash_of(text));
        let resolved = documents.resolve(&mut by_hash).unwrap();
        assert!(resolved.by_hash_only.is_some());
        assert_eq!(by_hash.query, text);
        let mut by_text = Request::new(text);
        assert!(documents.resolve(&mut by_text).unwrap().by_hash_only.is_none());
        for mut other in [Request::new("query B { tenantConfig }"), persisted(&hash_of("query B { tenantConfig }"))] {
            assert_eq!(code(&documents.resolve(&mut other).unwrap_err()), "\"DOCUMENT_NOT_REGISTERED\"");
        }
    }

    #[test]
    fn with_apq_a_text_is_remembered_only_under_its_own_hash() {
        let documents = Documents::with_manifest("{}", true).unwrap();
        let text = "query Mine { tenantConfig }";
        let unknown = documents.resolve(&mut persisted(&hash_of(text))).unwrap_err();
        assert_eq!(code(&unknown), "\"PERSISTED_QUERY_NOT_FOUND\"");
        assert_eq!(unknown.message, PERSISTED_QUERY_NOT_FOUND);
        // Another hash with this text: executed, not remembered under it.
        let mut lying = persisted(&hash_of("query Other { x }"));
        lying.query = text.into();
        documents.resolve(&mut lying).unwrap();
        assert!(documents.resolve(&mut persisted(&hash_of("query Other { x }"))).is_err());
        let mut honest = persisted(&hash_of(text));
        honest.query = text.into();
        documents.resolve(&mut honest).unwrap();
        let mut again = persisted(&hash_of(text));
        documents.resolve(&mut again).unwrap();
        assert_eq!(again.query, text);
    }

    #[test]
    fn the_selected_operation_decides_the_type() {
        let document = Document::parse("query A { a } mutation B { b }").unwrap();
        assert_eq!(document.operation_type(Some("A")), Some(OperationType::Query));
        assert_eq!(document.operation_type(Some("B")), Some(OperationType::Mutation));
        assert_eq!(document.operation_type(None), None);
        assert_eq!(document.operation_type(Some("C")), None);
        let single = Document::parse("mutation { b }").unwrap();
        assert_eq!(single.operation_type(None), Some(OperationType::Mutation));
        let roots = Document::parse("query A { a b: c ...F } query B { d e }").unwrap();
        assert_eq!(roots.root_fields(Some("A")), None, "a fragment at the root");
        assert_eq!(roots.root_fields(Some("B")).unwrap(), ["d", "e"]);
    }

    #[test]
    fn a_malformed_persisted_query_is_a_bad_request() {
        let documents = Documents::with_manifest("{}", true).unwrap();
        for bad in [persisted("xyz"), persisted(&"A".repeat(64))] {
            assert_eq!(code(&documents.resolve(&mut { bad }).unwrap_err()), "\"BAD_REQUEST\"");
        }
        let mut version2 = Request::new("{ a }");
        version2.extensions.insert(
            "persistedQuery".into(),
            async_graphql::Value::from_json(serde_json::json!({ "version": 2, "sha256Hash": "0" })).unwrap(),
        );
        assert_eq!(code(&documents.resolve(&mut version2).unwrap_err()), "\"PERSISTED_QUERY_NOT_SUPPORTED\"");
    }
}
