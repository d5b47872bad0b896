//! The repository explains itself (docs/architecture.md): no file names a path outside it (a
//! clone has nothing there to read), and no comment or document cites an issue number (a
//! reader of a clone cannot look one up); the rules are cited from docs/product.md and the
//! reasons from docs/decisions/ (docs/decisions/code-structure/repository-explains-itself.md). Read over every file git tracks, so a new citation fails here,
//! not in review.
//!
//! Migrations are left out of the issue check only: sqlx keeps each applied migration's checksum,
//! so a migration's text never changes once it shipped
//! (docs/decisions/code-structure/applied-migrations-never-edited.md).
//!
//! An internal route's path is written once, in its service's contract (`routes.rs`), and read
//! from there by the router, the trust table and the client
//! (docs/decisions/code-structure/each-internal-route-declared-once-contract.md): no other
//! shipped Rust source spells a `"/internal/…"` literal.

use std::path::{Component, Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// Every tracked text file, as (path from the root, text).
fn tracked() -> Vec<(String, String)> {
    let out = std::process::Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root())
        .output()
        .expect("git lists the tracked files");
    assert!(out.status.success(), "git ls-files: {}", String::from_utf8_lossy(&out.stderr));
    let files: Vec<(String, String)> = out
        .stdout
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .filter_map(|p| std::fs::read_to_string(root().join(&p)).ok().map(|text| (p, text)))
        .collect();
    assert!(files.len() > 500, "the whole tree is read ({} files)", files.len());
    files
}

/// Names that only exist beside a checkout, never in it: the design and specification inputs
/// the project was built from, and the machine's work directories.
fn outside_names() -> Vec<String> {
    let joined = |parts: &[&str]| parts.concat();
    vec![
        joined(&["../", "shared"]),
        joined(&["shared/", "spec"]),
        joined(&["shared/", "design"]),
        joined(&["/", "work/"]),
        joined(&["account-payments", "-gems.md"]),
        joined(&["screens-routes", "-access.md"]),
        joined(&["ARCHITECTURE", ".md"]),
        joined(&["STYLE", ".md"]),
        joined(&["TOOLING", ".md"]),
    ]
}

/// Each `../`-relative path in `text` that, taken from the file's folder, climbs out of the root.
fn escaping_paths(file: &str, text: &str) -> Vec<String> {
    let depth = Path::new(file).parent().map_or(0, |dir| dir.components().count());
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("../") {
        // The whole run of `../` and what it names.
        let start = rest[..at].rfind(|c: char| !(c == '.' || c == '/')).map_or(0, |i| i + 1);
        let tail = &rest[start..];
        let end = tail.find(|c: char| c.is_whitespace() || "'\"`)(,;<>]".contains(c)).unwrap_or(tail.len());
        let path = &tail[..end];
        let ups = Path::new(path).components().take_while(|c| matches!(c, Component::ParentDir)).count();
        let names_something = Path::new(path).components().any(|c| matches!(c, Component::Normal(_)));
        if path.starts_with("..") && ups > depth && names_something {
            found.push(path.to_owned());
        }
        // Past the whole path, so its inner `../` are not read again as paths of their own.
        rest = &rest[(start + end).max(at + 3)..];
    }
    found
}

#[test]
fn no_file_names_a_path_outside_the_repository() {
    let names = outside_names();
    let mut offending = Vec::new();
    for (path, text) in tracked() {
        for (number, line) in text.lines().enumerate() {
            for name in &names {
                if line.contains(name.as_str()) {
                    offending.push(format!("{path}:{}: names {name}", number + 1));
                }
            }
            for escaping in escaping_paths(&path, line) {
                offending.push(format!("{path}:{}: {escaping} climbs out of the repository", number + 1));
            }
        }
    }
    assert!(offending.is_empty(), "paths outside the repository:\n{}", offending.join("\n"));
}

/// Whether `line` cites an issue by number: the word, singular or plural, in any case, then a
/// space and a number, with or without `#`.
fn cites_an_issue(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.match_indices("issue").any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            return false;
        }
        let after = lower[at + "issue".len()..].strip_prefix('s').unwrap_or(&lower[at + "issue".len()..]);
        let after = after.strip_prefix(' ').map(|a| a.strip_prefix('#').unwrap_or(a));
        after.is_some_and(|a| a.starts_with(|c: char| c.is_ascii_digit()))
    })
}

#[test]
fn no_file_cites_an_issue_number() {
    let mut offending = Vec::new();
    for (path, text) in tracked() {
        if path.starts_with("migrations/") {
            continue;
        }
        for (number, line) in text.lines().enumerate() {
            if cites_an_issue(line) {
                offending.push(format!("{path}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(offending.is_empty(), "issue numbers a reader cannot look up:\n{}", offending.join("\n"));
}

/// The `product.md, "<heading>"` citations of `line` (a heading broken across lines is not read).
fn product_citations(line: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for quote in ['"', '\''] {
        let open = format!("product.md, {quote}");
        let mut rest = line;
        while let Some(at) = rest.find(&open) {
            let tail = &rest[at + open.len()..];
            let Some(end) = tail.find(quote) else { break };
            found.push(&tail[..end]);
            rest = &tail[end..];
        }
    }
    found
}

/// The `docs/decisions/<subject>/<record>.md` paths `line` names.
fn decision_citations(line: &str) -> Vec<&str> {
    line.match_indices("docs/decisions/")
        .filter_map(|(at, _)| {
            let tail = &line[at..];
            let end = tail.find(|c: char| !(c.is_ascii_alphanumeric() || "/-_.".contains(c))).unwrap_or(tail.len());
            let path = tail[..end].trim_end_matches('.');
            path.ends_with(".md").then_some(path)
        })
        .collect()
}

#[test]
fn every_cited_rule_and_decision_exists() {
    let product = std::fs::read_to_string(root().join("docs/product.md")).expect("docs/product.md");
    let headings: Vec<&str> = product.lines().filter_map(|l| l.strip_prefix("## ")).collect();
    let mut missing = Vec::new();
    let mut cited = 0;
    for (path, text) in tracked() {
        for (number, line) in text.lines().enumerate() {
            for heading in product_citations(line).into_iter().filter(|h| *h != "<heading>") {
                cited += 1;
                if !headings.contains(&heading) {
                    missing.push(format!("{path}:{}: product.md has no heading {heading:?}", number + 1));
                }
            }
            for record in decision_citations(line) {
                cited += 1;
                if !root().join(record).is_file() {
                    missing.push(format!("{path}:{}: no record {record}", number + 1));
                }
            }
        }
    }
    assert!(cited > 100, "the citations are read ({cited})");
    assert!(missing.is_empty(), "citations of nothing:\n{}", missing.join("\n"));
}

#[test]
fn the_checks_see_what_they_look_for() {
    // The samples are put together here, so that this file, which the checks read too, cites nothing.
    let issue = |rest: &str| ["iss", "ue", rest].concat();
    assert!(cites_an_issue(&format!("// The catalog ({}): videos", issue(" 7"))));
    assert!(cites_an_issue(&format!("I{}'s role matrix", issue(" 19").trim_start_matches('i'))));
    assert!(cites_an_issue(&format!("see {}", issue("s #12"))));
    assert!(!cites_an_issue(&format!("the {}", issue("'s targets"))));
    assert!(!cites_an_issue(&format!("t{}", issue(" 3"))));
    assert!(!cites_an_issue(&format!("an {}", issue(" with 3 parts"))));
    let outside = ["../", "shared/", "spec"].concat();
    assert_eq!(escaping_paths("README.md", &format!("see `{outside}` here")), vec![outside.clone()]);
    assert_eq!(escaping_paths("gateway/src/lib.rs", r#"include_str!("../../config/x.json")"#), Vec::<String>::new());
    let above = ["../../", "../x.json"].concat();
    assert_eq!(escaping_paths("gateway/src/lib.rs", &format!("include_str!(\"{above}\")")), vec![above.clone()]);
    assert_eq!(escaping_paths("docs/notes/gateway/a.md", "[b](../front-end/b.md)"), Vec::<String>::new());
    assert_eq!(escaping_paths("a/b.ts", "'..'"), Vec::<String>::new());
    assert!(outside_names().iter().all(|name| !name.is_empty()));
    assert_eq!(
        product_citations(r#"(product.md, "Unlocks"; product.md, 'Gems and the wallet')"#),
        ["Unlocks", "Gems and the wallet"]
    );
    assert_eq!(
        decision_citations("(docs/decisions/unlocks/wire-shapes.md)."),
        ["docs/decisions/unlocks/wire-shapes.md"]
    );
    assert_eq!(decision_citations("see docs/decisions/ for the rest"), Vec::<&str>::new());
}

/// The Rust sources that ship, as (path from the root, text): `services/*/src`,
/// `services/*/contract/src`, `gateway/src` and `cli/src`, read from the disk (a file not yet
/// added to git is read too). Test code is left out: `tests/` directories, and the files of
/// out-of-line `#[cfg(test)] mod name;` modules (inline ones are skipped by
/// [`shipped_string_literals`]).
fn shipped_rust_sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "tests") {
                    walk(&path, found);
                }
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    let mut dirs = vec![root().join("gateway/src"), root().join("cli/src")];
    for service in std::fs::read_dir(root().join("services")).unwrap() {
        let service = service.unwrap().path();
        dirs.push(service.join("src"));
        dirs.push(service.join("contract/src"));
    }
    let mut files = Vec::new();
    for dir in dirs {
        walk(&dir, &mut files);
    }
    files.sort();
    let texts: Vec<(PathBuf, String)> =
        files.into_iter().map(|f| (f.clone(), std::fs::read_to_string(&f).unwrap())).collect();
    let mut tests: Vec<PathBuf> = Vec::new();
    for (file, text) in &texts {
        let dir = file.parent().unwrap();
        let stem = file.file_stem().unwrap().to_string_lossy();
        let children =
            if ["mod", "lib", "main"].contains(&stem.as_ref()) { dir.to_path_buf() } else { dir.join(&*stem) };
        for module in out_of_line_test_modules(text) {
            tests.push(children.join(format!("{module}.rs")));
            tests.push(children.join(&module).join("mod.rs"));
        }
    }
    texts
        .into_iter()
        .filter(|(file, _)| !tests.contains(file))
        .map(|(file, text)| (file.strip_prefix(root()).unwrap().to_string_lossy().into_owned(), text))
        .collect()
}

/// A token of Rust source, as far as the checks below need one.
#[derive(Debug, PartialEq)]
enum Token {
    /// A string literal's text between its quotes, as written (escapes left as they are), and
    /// the line it starts on (from 1).
    Str(String, usize),
    Ident(String),
    Punct(char),
}

/// The tokens of Rust `source`, comments, whitespace, numbers, characters and lifetimes left out.
fn tokens(source: &str) -> Vec<Token> {
    let chars: Vec<char> = source.chars().collect();
    let (mut found, mut i, mut line) = (Vec::new(), 0, 1);
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let (mut depth, mut j) = (1, i + 2);
            while j < chars.len() && depth > 0 {
                match (chars[j], at(j + 1)) {
                    ('/', '*') => (depth, j) = (depth + 1, j + 2),
                    ('*', '/') => (depth, j) = (depth - 1, j + 2),
                    ('\n', _) => (line, j) = (line + 1, j + 1),
                    _ => j += 1,
                }
            }
            i = j;
        } else if c == '"' {
            let (start, mut j) = (line, i + 1);
            while j < chars.len() && chars[j] != '"' {
                if chars[j] == '\\' {
                    j += 1;
                }
                if at(j) == '\n' {
                    line += 1;
                }
                j += 1;
            }
            found.push(Token::Str(chars[i + 1..j.min(chars.len())].iter().collect(), start));
            i = j + 1;
        } else if c == '\'' {
            // A character ('x', '\n', '\u{7f}') or a lifetime ('a).
            if at(i + 1) == '\\' {
                let mut j = i + 3;
                while j < chars.len() && chars[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                i += 1;
            }
        } else if c.is_alphanumeric() || c == '_' {
            let mut j = i;
            while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect();
            // A raw string: r"…", r#"…"#, br#"…"# (but not a raw identifier, r#type).
            let hashes = chars[j..].iter().take_while(|c| **c == '#').count();
            if ["r", "br", "cr"].contains(&word.as_str()) && at(j + hashes) == '"' {
                let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                let open = j + hashes + 1;
                let rest: String = chars[open..].iter().collect();
                let len = rest.find(&close).map_or(rest.len(), |end| rest[..end].chars().count());
                let text: String = chars[open..open + len].iter().collect();
                found.push(Token::Str(text.clone(), line));
                line += text.matches('\n').count();
                i = open + len + close.chars().count();
            } else if c.is_ascii_digit() {
                i = j;
            } else {
                found.push(Token::Ident(word));
                i = j;
            }
        } else {
            found.push(Token::Punct(c));
            i += 1;
        }
    }
    found
}

/// Where a `#[cfg(test)] mod name` starts in `tokens`: the index after it and the module's name.
fn test_modules(tokens: &[Token]) -> Vec<(usize, String)> {
    let attribute = ["#", "[", "cfg", "(", "test", ")", "]"];
    let text = |t: &Token| match t {
        Token::Ident(w) => w.clone(),
        Token::Punct(c) => c.to_string(),
        Token::Str(..) => String::new(),
    };
    let mut found = Vec::new();
    for start in 0..tokens.len() {
        if tokens.len() - start < attribute.len() + 2 {
            break;
        }
        if !attribute.iter().enumerate().all(|(k, want)| text(&tokens[start + k]) == *want) {
            continue;
        }
        let mut k = start + attribute.len();
        if text(&tokens[k]) == "pub" {
            k += 1;
        }
        if let (Some("mod"), Some(Token::Ident(name))) = (Some(text(&tokens[k])).as_deref(), tokens.get(k + 1)) {
            found.push((k + 2, name.clone()));
        }
    }
    found
}

/// The modules `source` declares `#[cfg(test)] mod name;`, in a file of their own.
fn out_of_line_test_modules(source: &str) -> Vec<String> {
    let tokens = tokens(source);
    test_modules(&tokens)
        .into_iter()
        .filter(|(after, _)| tokens.get(*after) == Some(&Token::Punct(';')))
        .map(|(_, name)| name)
        .collect()
}

/// The string literals of Rust `source` that ship, with their lines: none in a comment or in an
/// inline `#[cfg(test)] mod name { … }`.
fn shipped_string_literals(source: &str) -> Vec<(usize, String)> {
    let tokens = tokens(source);
    let mut skipped = vec![false; tokens.len()];
    for (after, _) in test_modules(&tokens) {
        if tokens.get(after) != Some(&Token::Punct('{')) {
            continue;
        }
        let mut depth = 0;
        for (k, token) in tokens.iter().enumerate().skip(after) {
            skipped[k] = true;
            match token {
                Token::Punct('{') => depth += 1,
                Token::Punct('}') => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                break;
            }
        }
    }
    tokens
        .into_iter()
        .zip(skipped)
        .filter_map(|(token, skipped)| match token {
            Token::Str(text, line) if !skipped => Some((line, text)),
            _ => None,
        })
        .collect()
}

/// Whether a string literal spells an internal route's path (or the start of one): the prefix
/// alone (`runtime::auth::INTERNAL_PREFIX`) names no route.
fn spells_an_internal_path(literal: &str) -> bool {
    literal.starts_with("/internal/") && literal != "/internal/"
}

#[test]
fn internal_paths_are_written_only_in_the_contracts_routes() {
    let mut offending = Vec::new();
    let mut read = 0;
    for (path, text) in shipped_rust_sources() {
        if path.starts_with("services/") && path.ends_with("/contract/src/routes.rs") {
            continue;
        }
        read += 1;
        for (line, literal) in shipped_string_literals(&text) {
            if spells_an_internal_path(&literal) {
                offending.push(format!("{path}:{line}: \"{literal}\""));
            }
        }
    }
    assert!(read > 100, "the sources are read ({read} files)");
    assert!(
        offending.is_empty(),
        "internal paths written outside services/<service>/contract/src/routes.rs (name the route there, \
         read it with `Router::serve`, `Route::path_with`):\n{}",
        offending.join("\n")
    );
}

#[test]
fn the_route_check_sees_what_it_looks_for() {
    // Put together here, so that the samples do not read as this file's own strings.
    let path = ["/inter", "nal/videos/{video_id}"].concat();
    let source = format!(
        "//! See \"{path}\".\nfn a() {{ let c = '\"'; let q = '\\''; let l: &'static str = \"x\"; get(&format!(\"{path}\")) }}\n\
         /* \"{path}\" /* nested \"{path}\" */ */\nconst R: &str = r#\"{path}\"#;\n\
         #[cfg(test)]\nmod tests {{\n    fn t() {{ call(\"{path}\", \"{{}}\") }}\n}}\n\
         fn b() {{ post(\"{path}/rating\") }}\n#[cfg(test)]\nmod more;\n"
    );
    let found: Vec<(usize, String)> =
        shipped_string_literals(&source).into_iter().filter(|(_, l)| spells_an_internal_path(l)).collect();
    assert_eq!(found, [(2, path.clone()), (4, path.clone()), (9, format!("{path}/rating"))]);
    assert_eq!(out_of_line_test_modules(&source), ["more"]);
    assert!(!spells_an_internal_path(&["/inter", "nal/"].concat()));
    assert!(!spells_an_internal_path("/media/deals/../../internal/admin/deals"));
    let files = shipped_rust_sources();
    let has = |p: &str| files.iter().any(|(path, _)| path == p);
    assert!(has("gateway/src/lib.rs") && has("services/runtime/src/auth/gate.rs"), "the shipped sources are read");
    assert!(!has("services/runtime/src/auth/tests.rs"), "a #[cfg(test)] module's file is test code");
}
