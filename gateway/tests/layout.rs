//! The repository explains itself (docs/architecture.md): no file names a path outside it (a
//! clone has nothing there to read), and no comment or document cites an issue number (a
//! reader of a clone cannot look one up); the rules are cited from docs/product.md and the
//! reasons from docs/decisions/ (docs/decisions/code-structure/repository-explains-itself.md). Read over every file git tracks, so a new citation fails here,
//! not in review.
//!
//! Migrations are left out of the issue check only: sqlx keeps each applied migration's checksum,
//! so a migration's text never changes once it shipped
//! (docs/decisions/code-structure/applied-migrations-never-edited.md).

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
