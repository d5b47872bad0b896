#!/usr/bin/env python3
"""The configuration reference: every environment variable the code reads, found in the Rust
sources and described in docs/configuration.md; run by scripts/check-deploy.

    config_reference.py --write
        Scans the code, merges what it finds with deploy/config_reference.json (each
        variable's area, default, meaning and whether production requires it) and writes
        docs/configuration.md.

    config_reference.py --check
        First proves the check can fail (a self-test on scratch copies: a documented row
        removed, a row for a variable nobody reads added, fake reads added to the code, an
        entry of the json removed or emptied: each must be noticed). Then exits 1, printing
        each problem, when the code reads a variable docs/configuration.md does not describe
        or the json has no entry (or an empty meaning) for, when the doc or the json names a
        variable the code no longer reads, or when the doc is not what --write would write.

    config_reference.py --list
        Prints every variable found, with its scope and the files that read it.

What counts as a read (a string literal elsewhere, an error code such as "INVALID_PASSWORD",
is never one): `std::env::var("X")` / `var_os("X")`; a call `f("X", ...)` or `f(CONST, ...)`
of a lookup (a parameter `impl Fn(&str) -> Option<String>`, or a closure whose body hands its
key to a lookup or to `std::env::var`), a constant resolved through its `const NAME: &str`;
clap's `#[arg(env = "X")]`; a key built with `format!` and handed to a lookup (the billers'
`PAYSITE_BILLER_<NAME>_SECRET`, `_NEXT`); the services' base URLs (`PAYSITE_<NAME>_URL`, one
per service named at `service_url("name", ..)` and its kin); the rate limits
(`Rate::from_env("P", ..)`: `P_PER_MINUTE`, `P_BURST`); the benchmarks' `with_env("A", "B")`;
the `<NAME>_FILE` forms of the secrets `runtime::config::is_secret_variable` lists; and
`RUST_LOG`, read by tracing's `EnvFilter::try_from_default_env`. Comments and `#[cfg(test)]`
items are left out. Sources: services/*/src, services/*/contract/src, gateway/src, cli/src,
proto-events/src (the code), and apart from it, the benchmarks (bench.rs, bench/, the
`bench` binaries) and the tests (tests/, tests.rs, testing.rs, testing/, the test binaries,
as their Cargo.toml says through `required-features`).
"""

from __future__ import annotations

import argparse
import copy
import glob
import json
import os
import re
import sys
import tomllib

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DOC = "docs/configuration.md"
DATA = "deploy/config_reference.json"
BILLING = "config/billing/billing.json"

# Where Rust sources are looked for, relative to the repository.
SOURCE_GLOBS = [
    "services/*/src/**/*.rs",
    "services/*/contract/src/**/*.rs",
    "services/*/tests/**/*.rs",
    "gateway/src/**/*.rs",
    "gateway/tests/**/*.rs",
    "cli/src/**/*.rs",
    "cli/tests/**/*.rs",
    "proto-events/src/**/*.rs",
    "proto-events/tests/**/*.rs",
]

# Read, but not configuration: a test hands the runner's PATH on to the `paysite` it starts.
NOT_CONFIGURATION = {"PATH"}

# The tables of docs/configuration.md, in order: key, heading, the crates whose files belong
# to it (for the "also read here" line), and a sentence under the heading.
AREAS = [
    ("runtime", "Runtime: every process", ["services/runtime", "services/tenants", "proto-events"],
     "Read by the runtime every service, the gateway and the `paysite` command share (services/runtime, "
     "services/tenants)."),
    ("gateway", "Gateway", ["gateway"],
     "Read by the gateway (`paysite serve gateway`, `paysite up`, `cargo run -p gateway`)."),
    ("profile", "Profile", ["services/profile"], "Read by the profile service (accounts, sign-in, tokens)."),
    ("subscription", "Subscription and billing", ["services/subscription", "services/biller-sandbox"],
     "Read by the subscription service and the biller sandbox (development only) that plays the billers."),
    ("wallet", "Wallet", ["services/wallet"], "Read by the wallet service."),
    ("unlocks", "Unlocks", ["services/unlocks"],
     "Read by the unlocks service (packs, videos, media tokens, downloads)."),
    ("catalog", "Catalog", ["services/catalog"], "Read by the catalog service."),
    ("deals", "Deals", ["services/deals"], "Read by the deals service."),
    ("paysite", "The `paysite` command", ["cli"], "Read by the `paysite` command itself (cli/)."),
    ("benchmarks", "Benchmarks only", [],
     "Read only by the benchmarks (`paysite bench`, the `*-bench` binaries, the bench tests): never by a "
     "deployed process."),
    ("tests", "Tests only", [],
     "Read only by the tests and their helper binaries: never by a deployed process."),
]
AREA_KEYS = [a[0] for a in AREAS]
SCOPES = ("code", "benchmarks", "tests")

ENV_NAME = re.compile(r"^[A-Z][A-Z0-9_]*[A-Z0-9]$")
VAR_NAME = re.compile(r"^[A-Z][A-Z0-9_]*(?:<NAME>[A-Z0-9_]*)*$")
PRODUCTION = re.compile(r"^(?:yes|no|yes, or (?P<file>[A-Z0-9_<>]+_FILE))$")


# ----- reading Rust: comments and string contents out of the way -----

LEX_START = re.compile(r"//|/\*|(?<![\w])b?r#*\"|(?<![\w])b\"|\"|'")
CHAR_LITERAL = re.compile(r"'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'")
BLOCK_COMMENT_PART = re.compile(r"/\*|\*/")


def lex(text: str) -> tuple[str, str]:
    """(code, masked): `code` is `text` with its comments blanked; `masked` also has the
    contents of string and char literals blanked. Both keep every offset and newline, so a
    position found in one holds in the other and in `text`."""
    n = len(text)
    comments: list[tuple[int, int]] = []  # blanked in both
    contents: list[tuple[int, int]] = []  # blanked in masked only
    i = 0
    while True:
        m = LEX_START.search(text, i)
        if not m:
            break
        tok, at = m.group(0), m.start()
        if tok == "//":
            j = text.find("\n", at)
            j = n if j < 0 else j
            comments.append((at, j))
            i = j
        elif tok == "/*":
            depth, j = 1, at + 2
            while depth:
                b = BLOCK_COMMENT_PART.search(text, j)
                if not b:
                    j = n
                    break
                depth += 1 if b.group(0) == "/*" else -1
                j = b.end()
            comments.append((at, j))
            i = j
        elif tok == "'":
            c = CHAR_LITERAL.match(text, at)
            if c:
                contents.append((at + 1, c.end() - 1))
                i = c.end()
            else:  # a lifetime
                i = at + 1
        elif "r" in tok:  # raw string: r"..", r#".."#, br".."
            hashes = tok.count("#")
            close = text.find('"' + "#" * hashes, m.end())
            close = n if close < 0 else close
            contents.append((m.end(), close))
            i = close + 1 + hashes
        else:  # "..." or b"..."
            j = m.end()
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            contents.append((m.end(), min(j, n)))
            i = j + 1

    def blanked(source: str, spans: list[tuple[int, int]]) -> str:
        parts, last = [], 0
        for a, b in spans:
            parts.append(source[last:a])
            parts.append(re.sub(r"[^\n]", " ", source[a:b]))
            last = b
        parts.append(source[last:])
        return "".join(parts)

    code = blanked(text, comments)
    masked = blanked(code, sorted(contents))
    return code, masked


_PREPARED: dict[str, tuple[str, str]] = {}


def prepare(text: str) -> tuple[str, str]:
    """`lex`, then `strip_cfg_test`, once per distinct text (the self-test scans again)."""
    if text not in _PREPARED:
        _PREPARED[text] = strip_cfg_test(*lex(text))
    return _PREPARED[text]


def matching(masked: str, open_at: int) -> int:
    """The offset just past the bracket that closes the one at `open_at`."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = []
    for k in range(open_at, len(masked)):
        ch = masked[k]
        if ch in pairs:
            stack.append(pairs[ch])
        elif ch in ")]}":
            if stack and stack[-1] == ch:
                stack.pop()
                if not stack:
                    return k + 1
    return len(masked)


def statement_end(masked: str, start: int) -> int:
    """Where the expression starting at `start` ends: a `;` or `,` at its own depth, or the
    bracket that closes an enclosing one."""
    depth = 0
    for k in range(start, len(masked)):
        ch = masked[k]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return k
            depth -= 1
        elif ch in ";," and depth == 0:
            return k
    return len(masked)


def strip_cfg_test(code: str, masked: str) -> tuple[str, str]:
    """Blanks every `#[cfg(test)]` item (an inline `mod tests { .. }`, a test-only fn or use)."""
    code_l, masked_l = list(code), list(masked)
    for m in re.finditer(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]", masked):
        k = m.end()
        while True:  # further attributes of the same item
            a = re.compile(r"\s*#\s*\[").match(masked, k)
            if not a:
                break
            k = matching(masked, a.end() - 1)
        brace, semi = masked.find("{", k), masked.find(";", k)
        if brace >= 0 and (semi < 0 or brace < semi):
            end = matching(masked, brace)
        else:
            end = semi + 1 if semi >= 0 else len(masked)
        for idx in range(m.start(), end):
            if code_l[idx] != "\n":
                code_l[idx] = masked_l[idx] = " "
    return "".join(code_l), "".join(masked_l)


# ----- which files, in which scope -----

def bin_scopes(root: str) -> dict[str, str]:
    """The scope of each `[[bin]]` a crate declares: benchmarks (required-features `bench`),
    tests (`testing`, `test-hooks`), else the code."""
    scopes = {}
    for manifest in glob.glob(os.path.join(root, "**", "Cargo.toml"), recursive=True):
        rel_dir = os.path.relpath(os.path.dirname(manifest), root)
        if "target" in rel_dir.split(os.sep) or rel_dir.startswith("frontend"):
            continue
        try:
            with open(manifest, "rb") as f:
                data = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError):
            continue
        for b in data.get("bin", []):
            if "path" not in b:
                continue
            features = set(b.get("required-features", []))
            scope = "benchmarks" if "bench" in features else "tests" if features & {"testing", "test-hooks"} else "code"
            scopes[os.path.normpath(os.path.join(rel_dir, b["path"]))] = scope
    return scopes


def scope_of(rel: str, bins: dict[str, str]) -> str | None:
    parts = rel.split("/")
    name = parts[-1]
    if "target" in parts:
        return None
    if rel in bins:
        return bins[rel]
    if name == "bench.rs" or name.endswith("-bench.rs") or "bench" in parts[:-1]:
        return "benchmarks"
    if "tests" in parts[:-1] or name in ("tests.rs", "testing.rs") or "testing" in parts[:-1]:
        return "tests"
    return "code"


def source_files(root: str) -> list[str]:
    files = set()
    for pattern in SOURCE_GLOBS:
        for path in glob.glob(os.path.join(root, pattern), recursive=True):
            files.add(os.path.relpath(path, root).replace(os.sep, "/"))
    return sorted(f for f in files if "/target/" not in f)


# ----- the read sites -----

class Found:
    """Variables found: name -> scope -> files; and the URL family's service names."""

    def __init__(self):
        self.reads: dict[str, dict[str, set[str]]] = {}
        self.errors: list[str] = []

    def add(self, name: str, scope: str, rel: str) -> None:
        if name in NOT_CONFIGURATION:
            return
        self.reads.setdefault(name, {}).setdefault(scope, set()).add(rel)

    def scope_set(self, name: str) -> set[str]:
        return set(self.reads.get(name, {}))

    def files(self, name: str) -> list[str]:
        """The files that read `name`: those of the code if any, else all of them."""
        by_scope = self.reads.get(name, {})
        if "code" in by_scope:
            return sorted(by_scope["code"])
        return sorted(set().union(*by_scope.values())) if by_scope else []


FN_PARAM_LOOKUP = re.compile(r"\b(\w+)\s*:\s*&?\s*impl\s+Fn\(\s*&\s*str\s*\)\s*->\s*Option<String>")
FN_PARAM_URL = re.compile(r"\b(\w+)\s*:\s*impl\s+Fn\(\s*&\s*str\s*,\s*u16\s*\)\s*->\s*String")
CLOSURE = re.compile(r"\blet\s+(?:mut\s+)?(\w+)\s*=\s*(?:move\s+)?\|\s*(\w+)\s*:\s*&\s*(?:'static\s+)?str\b[^|]*\|")
CONST = re.compile(r"\bconst\s+([A-Z][A-Z0-9_]*)\s*:\s*&\s*(?:'static\s+)?str\s*=\s*\"([A-Z][A-Z0-9_]*)\"\s*;")
DIRECT = re.compile(r"\benv::var(?:_os)?\(\s*(?:\"([^\"\\]*)\"|&?([A-Za-z_][\w:]*))\s*\)")
CLAP_ARG = re.compile(r"#\s*\[\s*arg\s*\(")
FORMAT_KEY = re.compile(r"\blet\s+(\w+)\s*=\s*format!\(\s*\"([^\"]*)\"")
ENV_FILTER = re.compile(r"\bEnvFilter::(?:try_)?from_default_env\s*\(")
MATCH_ARM_ENV = re.compile(r"\"([A-Z][A-Z0-9_]*)\"\s*=>\s*std::env::var\(\s*key\s*\)")
WITH_ENV = re.compile(r"\.with_env\(\s*\"([A-Z][A-Z0-9_]*)\"\s*,\s*\"([A-Z][A-Z0-9_]*)\"\s*\)")
RATE_FROM_ENV = re.compile(r"\bRate::from_env\(\s*\"([A-Z][A-Z0-9_]*)\"")
URL_CALLS = [
    re.compile(r"(?<![\w.])service_url\(\s*\"([a-z][a-z0-9-]*)\""),
    re.compile(r"\bservice_url_from\(\s*[^,()]+,\s*\"([a-z][a-z0-9-]*)\""),
    re.compile(r"\bUpstream::from_env\(\s*\"([a-z][a-z0-9-]*)\""),
]
TUPLE_LOOP = re.compile(r"\bfor\s*\(\s*(\w+)\s*,\s*\w+\s*\)\s*in\s*\[")


def sites(pattern: re.Pattern, code: str, masked: str):
    """The matches of `pattern` in `code` that start in code, not inside a string literal."""
    return (m for m in pattern.finditer(code) if masked[m.start()] == code[m.start()])


def template_of(fmt: str) -> str | None:
    """`PAYSITE_BILLER_{name}_SECRET` -> `PAYSITE_BILLER_<NAME>_SECRET`; None unless the
    literal part names something (a key built wholly of arguments is no family)."""
    template = re.sub(r"\{[^{}]*\}", "<NAME>", fmt)
    literal = template.replace("<NAME>", "")
    if not re.search(r"[A-Z]{3}", literal) or not VAR_NAME.match(template):
        return None
    return template


class Rules:
    """What the scan needs to know of the runtime before reading the files one by one: the
    constants, the URL family's key, the rate limits' suffixes, the secrets with a file form."""

    def __init__(self, texts: dict[str, tuple[str, str]], found: Found):
        self.consts: dict[str, str] = {}
        for rel, (code, masked) in texts.items():
            for m in sites(CONST, code, masked) if "const " in code else ():
                self.consts.setdefault(m.group(1), m.group(2))
        runtime_config = texts.get("services/runtime/src/config.rs", ("", ""))[0]
        throttle = texts.get("services/runtime/src/throttle.rs", ("", ""))[0]
        # PAYSITE_<NAME>_URL: the key service_url_from builds, and how it makes the name.
        m = re.search(r"fn\s+service_url_from\b.*?format!\(\s*\"([A-Z_]*)\{\}([A-Z_]*)\"", runtime_config, re.S)
        if m:
            self.url_prefix, self.url_suffix = m.group(1), m.group(2)
        else:
            found.errors.append("services/runtime/src/config.rs: service_url_from's key "
                                "(format!(\"PAYSITE_{}_URL\", ..)) was not found: teach deploy/config_reference.py "
                                "the new form")
            self.url_prefix, self.url_suffix = "PAYSITE_", "_URL"
        # Rate::from_env(name, ..): `{name}_{suffix}` for each suffix its `read` closure is given.
        self.rate_suffixes = re.findall(r"\bread\(\s*\"([A-Z][A-Z0-9_]*)\"", throttle)
        if "format!(\"{name}_{suffix}\")" not in throttle or not self.rate_suffixes:
            found.errors.append("services/runtime/src/throttle.rs: Rate::from_env's keys ({name}_{suffix}) were not "
                                "found: teach deploy/config_reference.py the new form")
        # <KEY>_FILE for the secrets is_secret_variable lists.
        self.secret_names: list[str] = []
        self.file_suffix = "_FILE"
        body = re.search(r"fn\s+is_secret_variable\b[^{]*\{", runtime_config)
        if body:
            runtime_masked = texts["services/runtime/src/config.rs"][1]
            text = runtime_config[body.end() - 1: matching(runtime_masked, body.end() - 1)]
            listed = re.search(r"matches!\(\s*key\s*,(.*?)\)", text, re.S)
            self.secret_names += re.findall(r"\"([A-Z][A-Z0-9_]*)\"", listed.group(1) if listed else "")
            # key.starts_with("P") && (key.ends_with("S") || key.ends_with("T")): P<NAME>S, P<NAME>T
            starts = list(re.finditer(r"key\.starts_with\(\s*\"([A-Z0-9_]+)\"\s*\)", text))
            for k, m in enumerate(starts):
                rest = text[m.end(): starts[k + 1].start() if k + 1 < len(starts) else len(text)]
                for suffix in re.findall(r"key\.ends_with\(\s*\"([A-Z0-9_]+)\"\s*\)", rest):
                    self.secret_names.append(f"{m.group(1)}<NAME>{suffix}")
            s = re.search(r"fn\s+secret_files\b.*?strip_suffix\(\s*\"(_[A-Z]+)\"\s*\)", runtime_config, re.S)
            if s:
                self.file_suffix = s.group(1)
        if not self.secret_names:
            found.errors.append("services/runtime/src/config.rs: is_secret_variable was not found or lists no "
                                "secret: teach deploy/config_reference.py the new form")

    def resolve(self, literal: str | None, ident: str | None) -> str | None:
        if literal is not None:
            return literal if ENV_NAME.match(literal) else None
        if ident:
            return self.consts.get(ident.split("::")[-1])
        return None

    def url_var(self, service: str) -> str:
        return f"{self.url_prefix}{service.upper().replace('-', '_')}{self.url_suffix}"


def readers_of(code: str, masked: str) -> set[str]:
    """The names that read a variable when called with its name: the lookup parameters, and
    the closures whose body hands their key to one of them or to std::env::var."""
    # (Substring tests first, here and in scan_file: most files have no read site at all.)
    if "Option<String>" not in code and "env::var" not in code:
        return set()
    readers = set(FN_PARAM_LOOKUP.findall(code))
    closures = []
    for m in sites(CLOSURE, code, masked):
        closures.append((m.group(1), m.group(2), code[m.end(): statement_end(masked, m.end())]))
    changed = True
    while changed:
        changed = False
        for name, key, body in closures:
            if name in readers:
                continue
            names = "|".join(map(re.escape, sorted(readers))) or "(?!)"
            if re.search(rf"(?<![\w.])(?:{names})\(\s*&?{key}\b", body) or \
                    re.search(rf"\benv::var(?:_os)?\(\s*&?{key}\b", body):
                readers.add(name)
                changed = True
    return readers


def scan_file(rel: str, scope: str, code: str, masked: str, rules: Rules, found: Found) -> None:
    add = lambda name: found.add(name, scope, rel)  # noqa: E731
    has = code.__contains__
    # std::env::var("X"), var_os("X"), var(CONST)
    for m in sites(DIRECT, code, masked) if has("env::var") else ():
        name = rules.resolve(m.group(1), m.group(2))
        if name:
            add(name)
    # lookup("X"), value("X"), number("X", ..), rule("X", ..), set(CONST), ...
    readers = readers_of(code, masked)
    if readers:
        names = "|".join(map(re.escape, sorted(readers)))
        call = re.compile(rf"(?<![\w.:])(?:{names})\(\s*(?:\"([^\"\\]*)\"|&?([A-Za-z_][\w:]*))\s*[,)]")
        for m in sites(call, code, masked):
            name = rules.resolve(m.group(1), m.group(2))
            if name:
                add(name)
    # A key built with format! and handed to a reader or std::env::var: a family.
    callers = "|".join(map(re.escape, sorted(readers | {"env::var", "env::var_os"})))
    for m in sites(FORMAT_KEY, code, masked) if has("format!") and (readers or has("env::var")) else ():
        var, template = m.group(1), template_of(m.group(2))
        if not template or template == f"{rules.url_prefix}<NAME>{rules.url_suffix}":
            continue  # PAYSITE_<NAME>_URL: one row per service named, below
        if re.search(rf"(?<![\w.])(?:{callers})\(\s*&{var}\b", code):
            add(template)
        for suffix in re.findall(rf"(?<![\w.])(?:{callers})\(\s*&format!\(\s*\"\{{{var}\}}([A-Z0-9_]+)\"", code):
            add(template + suffix)
    # clap: #[arg(.., env = "X")], or a bare `env` (the field's name in capitals).
    for m in CLAP_ARG.finditer(masked) if "arg" in masked else ():
        end = matching(masked, m.end() - 1)
        attr = code[m.end(): end - 1]
        for e in re.finditer(r"\benv\b(\s*=\s*\"([A-Z][A-Z0-9_]*)\")?", attr):
            if e.group(2):
                add(e.group(2))
            elif not e.group(1):
                field = re.compile(r"\s*(?:#\s*\[[^\]]*\]\s*)*(?:pub\s+)?(\w+)\s*:").match(code, end + 1)
                if field:
                    add(field.group(1).upper())
    # The services' base URLs.
    for pattern in URL_CALLS if has("service_url") or has("Upstream::from_env") else ():
        for m in sites(pattern, code, masked):
            add(rules.url_var(m.group(1)))
    for param in FN_PARAM_URL.findall(code) if has("u16") else ():
        for m in sites(re.compile(rf"(?<![\w.]){re.escape(param)}\(\s*\"([a-z][a-z0-9-]*)\"\s*,"), code, masked):
            add(rules.url_var(m.group(1)))
    # Rate limits, benchmark knobs, tracing's filter, an override that falls back to the env.
    for m in sites(RATE_FROM_ENV, code, masked) if has("Rate::from_env") else ():
        for suffix in rules.rate_suffixes:
            add(f"{m.group(1)}_{suffix}")
    for m in sites(WITH_ENV, code, masked):
        add(m.group(1))
        add(m.group(2))
    if has("from_default_env") and any(sites(ENV_FILTER, code, masked)):
        add("RUST_LOG")
    for m in sites(MATCH_ARM_ENV, code, masked):
        add(m.group(1))
    # for (key, value) in [("X", ..), ..] { .. std::env::var_os(key) .. }
    for m in sites(TUPLE_LOOP, code, masked) if has("env::var") else ():
        array_end = matching(masked, m.end() - 1)
        body_open = masked.find("{", array_end)
        if body_open < 0:
            continue
        body = code[body_open: matching(masked, body_open)]
        if re.search(rf"\benv::var(?:_os)?\(\s*&?{m.group(1)}\b", body):
            for name in re.findall(r"\(\s*\"([A-Z][A-Z0-9_]*)\"\s*,", code[m.end(): array_end]):
                add(name)
    # The secrets' file forms, read by runtime::config::secret_files.
    if rel == "services/runtime/src/config.rs" and scope == "code":
        for name in rules.secret_names:
            add(name + rules.file_suffix)


def scan(root: str = ROOT, overrides: dict[str, str] | None = None) -> Found:
    """Every variable the sources read. `overrides` replaces (or adds) files' texts: the
    self-test's scratch copies."""
    overrides = overrides or {}
    bins = bin_scopes(root)
    texts: dict[str, tuple[str, str]] = {}
    scopes: dict[str, str] = {}
    for rel in sorted(set(source_files(root)) | set(overrides)):
        scope = scope_of(rel, bins)
        if scope is None:
            continue
        if rel in overrides:
            text = overrides[rel]
        else:
            with open(os.path.join(root, rel), encoding="utf-8") as f:
                text = f.read()
        code, masked = prepare(text)
        texts[rel], scopes[rel] = (code, masked), scope
    found = Found()
    rules = Rules(texts, found)
    for rel, (code, masked) in texts.items():
        scan_file(rel, scopes[rel], code, masked, rules, found)
    found.secret_names = rules.secret_names  # type: ignore[attr-defined]
    found.file_suffix = rules.file_suffix  # type: ignore[attr-defined]
    return found


# ----- the data file and the doc -----

def load_data(root: str = ROOT) -> dict:
    with open(os.path.join(root, DATA), encoding="utf-8") as f:
        return json.load(f)


def biller_names(root: str = ROOT) -> list[str]:
    try:
        with open(os.path.join(root, BILLING), encoding="utf-8") as f:
            return list(json.load(f)["billers"])
    except (OSError, KeyError, ValueError):
        return []


def cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def area_of_dir(rel: str) -> str | None:
    """The table of the crate `rel` is in; none for a contract (services/<name>/contract: the
    client library its callers link, not the service)."""
    if "/contract/" in rel:
        return None
    for key, _, dirs, _ in AREAS:
        if any(rel == d or rel.startswith(d + "/") for d in dirs):
            return key
    return None


def render(found: Found, data: dict, root: str = ROOT) -> str:
    """docs/configuration.md: the variables found, with what the json says of them."""
    secrets = [f"`{n}`" for n in getattr(found, "secret_names", [])]
    suffix = getattr(found, "file_suffix", "_FILE")
    billers = ", ".join(f"`{b}`" for b in biller_names(root)) or "(none found)"
    secrets_dir = (", and, from the directories in `PAYSITE_SECRETS_DIR`, the files named after the secrets they hold"
                   if "PAYSITE_SECRETS_DIR" in found.reads else "")
    out = [
        "# Configuration reference",
        "",
        "Every environment variable the code reads, with its default, what it means and whether a production "
        "process needs it. This file is generated by `python3 deploy/config_reference.py --write` from the code "
        "(the read sites it finds in the Rust sources of services/, gateway/, cli/ and proto-events/) and "
        "deploy/config_reference.json (the defaults, meanings and production requirements, written from the "
        "code and the doc comments at each read site). Do not edit it by hand: change the json, or the code, "
        "and run the script again. `scripts/check-deploy` fails when this file is out of date: when the code "
        "reads a variable it does not describe, or it describes one the code no longer reads.",
        "",
        "How to read the tables:",
        "",
        "- **Production** is `PAYSITE_ENV=production`. *Required in production* is what a production process "
        "refuses to start (or to run the command) without; \"no\" means the default, or the variable's absence, "
        "is acceptable to the code (a deployment may still set it, as k8s/ does).",
        f"- **Secrets as files**: each of {', '.join(secrets)} may instead be given as a file, its path in "
        f"`<NAME>{suffix}` (a mounted Secret; one trailing newline is dropped). The `paysite` command reads "
        f"these files first thing (`runtime::config::load_secret_files`){secrets_dir}; giving a secret two ways "
        f"is an error.",
        f"- **Billers**: `<NAME>` in `PAYSITE_BILLER_<NAME>_SECRET` and its kin is each biller of "
        f"config/billing/billing.json: {billers}.",
        "- **Service URLs**: `PAYSITE_<NAME>_URL` has one row per service the code calls; `paysite up` sets them "
        "all itself. In production `paysite serve` (and `up`, `seed`) refuses to start when a `PAYSITE_*_URL`, a "
        "`PAYSITE_*_ORIGIN` or `OTEL_EXPORTER_OTLP_ENDPOINT` names a reserved example domain (`example.com`, "
        "`.test`, ...: `runtime::config::check_production_urls`).",
        "- *Read in* lists the files that read the variable (for a variable of the code, not the tests or "
        "benchmarks that also read it).",
        "",
    ]
    by_area: dict[str, list[str]] = {k: [] for k in AREA_KEYS}
    undocumented = []
    for name, entry in data.items():
        if name in found.reads and entry.get("area") in by_area:
            by_area[entry["area"]].append(name)
    for name in sorted(found.reads):
        if name not in data or data[name].get("area") not in by_area:
            undocumented.append(name)
    header = ["| Variable | Default | Meaning | Required in production | Read in |",
              "| --- | --- | --- | --- | --- |"]

    def row(name: str) -> str:
        e = data.get(name, {})
        files = ", ".join(f"`{f}`" for f in found.files(name))
        return (f"| `{name}` | {cell(e.get('default', '')) or '?'} | {cell(e.get('meaning', '')) or 'UNDOCUMENTED'} "
                f"| {cell(e.get('production', '')) or '?'} | {files} |")

    for key, title, dirs, sentence in AREAS:
        names = by_area[key]
        also = sorted({n for n in found.reads for f in found.reads[n].get("code", ())
                       if area_of_dir(f) == key and data.get(n, {}).get("area") != key})
        if not names and not also:
            continue
        out += [f"## {title}", "", sentence, ""]
        if names:
            out += header + [row(n) for n in names] + [""]
        else:
            out += ["It reads no variable of its own.", ""]
        if also:
            out += ["Also read here, described in another table: " + ", ".join(f"`{n}`" for n in also) + ".", ""]
    if undocumented:
        out += ["## Undocumented", "", "Read by the code, but deploy/config_reference.json has no entry: "
                "`--check` fails until it has.", ""] + header + [row(n) for n in undocumented] + [""]
    return "\n".join(out).rstrip("\n") + "\n"


def described(doc: str) -> set[str]:
    """The variables the doc has a row for."""
    return set(re.findall(r"^\|\s*`([A-Z][A-Z0-9_<>]*)`\s*\|", doc, re.M))


def data_problems(found: Found, data: dict) -> list[str]:
    problems = []
    for name in sorted(found.reads):
        entry = data.get(name)
        where = ", ".join(found.files(name))
        if entry is None:
            problems.append(f"{name}: read by the code ({where}) but {DATA} has no entry for it")
            continue
        if not str(entry.get("meaning", "")).strip():
            problems.append(f"{name}: the entry in {DATA} has an empty meaning")
        if not str(entry.get("default", "")).strip():
            problems.append(f"{name}: the entry in {DATA} has no default (say \"unset\" and what that does)")
        area = entry.get("area")
        scopes = found.scope_set(name)
        if area not in AREA_KEYS:
            problems.append(f"{name}: the entry in {DATA} has area {area!r}, not one of {', '.join(AREA_KEYS)}")
        elif "code" in scopes and area in ("benchmarks", "tests"):
            problems.append(f"{name}: the code reads it ({where}), yet {DATA} files it under {area}")
        elif "code" not in scopes and area not in scopes:
            problems.append(f"{name}: only the {' and '.join(sorted(scopes))} read it ({where}), yet {DATA} files "
                            f"it under {area}")
        m = PRODUCTION.match(str(entry.get("production", "")))
        if not m:
            problems.append(f"{name}: production must be \"yes\", \"no\" or \"yes, or <NAME>_FILE\", got "
                            f"{entry.get('production')!r}")
        elif m.group("file") and (m.group("file") != name + "_FILE" or m.group("file") not in found.reads):
            problems.append(f"{name}: production names {m.group('file')}, which is not its file form read by the code")
        elif entry.get("production") == "yes" and name + "_FILE" in found.reads:
            problems.append(f"{name}: required and it may come from a file: production should say "
                            f"\"yes, or {name}_FILE\"")
    for name in sorted(set(data) - set(found.reads)):
        problems.append(f"{name}: {DATA} has an entry for it, but the code no longer reads it")
    return problems


def doc_problems(found: Found, doc: str) -> list[str]:
    problems = []
    rows = described(doc)
    for name in sorted(set(found.reads) - rows):
        problems.append(f"{name}: read by the code ({', '.join(found.files(name))}) but {DOC} does not describe it")
    for name in sorted(rows - set(found.reads)):
        problems.append(f"{name}: {DOC} describes it, but the code no longer reads it")
    return problems


def all_problems(found: Found, data: dict, doc: str | None, root: str = ROOT) -> list[str]:
    problems = list(found.errors) + data_problems(found, data)
    if doc is None:
        problems.append(f"{DOC} does not exist: run python3 deploy/config_reference.py --write")
        return problems
    problems += doc_problems(found, doc)
    if doc != render(found, data, root):
        problems.append(f"{DOC} is out of date (it is not what --write writes): run "
                        "python3 deploy/config_reference.py --write")
    return problems


# ----- proving the check can fail -----

SELF_TEST_SOURCE = r'''
pub const SELF_TEST_KEY_ENV: &str = "PAYSITE_SELF_TEST_CONST";
pub const NOT_READ_ENV: &str = "PAYSITE_SELF_TEST_CONST_NEVER_READ";
#[derive(clap::Parser)]
struct Args {
    #[arg(long, env = "PAYSITE_SELF_TEST_CLAP", default_value = "x")]
    x: String,
}
pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> anyhow::Result<()> {
    let value = |key: &str| lookup(key).filter(|v| !v.trim().is_empty());
    let number = |key: &str, default: u64| -> anyhow::Result<u64> {
        match value(key) { None => Ok(default), Some(v) => Ok(v.parse()?) }
    };
    let _ = (value("PAYSITE_SELF_TEST_VALUE"), number("PAYSITE_SELF_TEST_NUMBER", 1)?, value(SELF_TEST_KEY_ENV));
    let _ = std::env::var("PAYSITE_SELF_TEST_DIRECT");
    let _ = runtime::config::service_url("self-test", 1);
    let _ = runtime::throttle::Rate::from_env("PAYSITE_SELF_TEST_RATE", GRAPHQL);
    let key = format!("PAYSITE_SELF_TEST_{name}_SECRET");
    let _ = lookup(&key);
    // Not reads: an error code, a method named like a reader, a bare string, a comment.
    let _ = ApiError::new("INVALID_PASSWORD", "the password is wrong");
    error.extensions.set("code", "NOT_AN_ENVIRONMENT_VARIABLE");
    let _ = "PAYSITE_SELF_TEST_BARE_STRING";
    // std::env::var("PAYSITE_SELF_TEST_IN_A_COMMENT")
    let _ = "std::env::var(\"PAYSITE_SELF_TEST_IN_A_STRING\")";
    let _ = r#"std::env::var("PAYSITE_SELF_TEST_IN_A_RAW_STRING"); lookup("PAYSITE_SELF_TEST_IN_A_RAW_STRING")"#;
    let _ = ('"', '{', "}");
    Ok(())
}
#[cfg(test)]
mod tests {
    #[test]
    fn t() { let _ = std::env::var("PAYSITE_SELF_TEST_IN_CFG_TEST"); }
}
'''


def self_test(found: Found, data: dict, root: str = ROOT) -> tuple[list[str], int]:
    """Each way the check must fail, on scratch copies: what it failed to notice, and how
    many cases ran."""
    failures = []
    cases = [0]
    doc = render(found, data, root)
    code_vars = sorted(n for n in found.reads if "code" in found.scope_set(n) and n in data)
    if not code_vars:
        return ["the scan found no variable read by the code: nothing to test the check with"], 0

    def expect(problems: list[str], needle: str, what: str) -> None:
        cases[0] += 1
        if not any(p.startswith(needle) for p in problems) and not any(needle in p for p in problems):
            failures.append(f"{what}: not noticed")

    # 1. A documented row removed from a scratch copy of the doc.
    for victim in (code_vars[0], code_vars[-1]):
        lines = [l for l in doc.split("\n") if not l.startswith(f"| `{victim}` |")]
        if len(lines) == len(doc.split("\n")):
            failures.append(f"the row of {victim} was not found in the generated doc")
            continue
        scratch = "\n".join(lines)
        problems = doc_problems(found, scratch)
        expect(problems, f"{victim}: read by the code", f"the row of {victim} removed from the doc")
        expect(all_problems(found, data, scratch, root), f"{DOC} is out of date", f"{DOC} without {victim}'s row")
    # 2. A row for a variable nobody reads.
    scratch = doc + "| `PAYSITE_SELF_TEST_GONE` | unset | gone | no | `nowhere.rs` |\n"
    expect(doc_problems(found, scratch), "PAYSITE_SELF_TEST_GONE: ", "a doc row for a variable the code does not read")
    # 3. A meaning changed by hand.
    victim = code_vars[0]
    edited = doc.replace(f"| `{victim}` | ", f"| `{victim}` | edited by hand, ", 1)
    expect(all_problems(found, data, edited, root), f"{DOC} is out of date", "a row edited by hand")
    # 4. The json: an entry removed, a meaning emptied, an entry for nothing.
    scratch_data = copy.deepcopy(data)
    del scratch_data[victim]
    expect(data_problems(found, scratch_data), f"{victim}: read by the code", f"the json entry of {victim} removed")
    scratch_data = copy.deepcopy(data)
    scratch_data[victim]["meaning"] = " "
    expect(data_problems(found, scratch_data), f"{victim}: the entry in {DATA} has an empty meaning",
           f"the json entry of {victim} with an empty meaning")
    scratch_data = copy.deepcopy(data)
    scratch_data["PAYSITE_SELF_TEST_GONE"] = {"area": "runtime", "default": "unset", "meaning": "x", "production": "no"}
    expect(data_problems(found, scratch_data), "PAYSITE_SELF_TEST_GONE: ", "a json entry for a variable nobody reads")
    # 5. Fake reads of every kind, in a scratch source file, are found; the non-reads are not.
    fake = scan(root, {"services/runtime/src/self_test_scratch.rs": SELF_TEST_SOURCE})
    cases[0] += 1
    for name in ["PAYSITE_SELF_TEST_CONST", "PAYSITE_SELF_TEST_CLAP", "PAYSITE_SELF_TEST_VALUE",
                 "PAYSITE_SELF_TEST_NUMBER", "PAYSITE_SELF_TEST_DIRECT", "PAYSITE_SELF_TEST_URL",
                 "PAYSITE_SELF_TEST_RATE_PER_MINUTE", "PAYSITE_SELF_TEST_RATE_BURST",
                 "PAYSITE_SELF_TEST_<NAME>_SECRET"]:
        if name not in fake.reads:
            failures.append(f"a fake read of {name} was not found")
    for name in ["INVALID_PASSWORD", "NOT_AN_ENVIRONMENT_VARIABLE", "PAYSITE_SELF_TEST_BARE_STRING",
                 "PAYSITE_SELF_TEST_IN_A_COMMENT", "PAYSITE_SELF_TEST_IN_A_STRING",
                 "PAYSITE_SELF_TEST_IN_A_RAW_STRING", "PAYSITE_SELF_TEST_IN_CFG_TEST",
                 "PAYSITE_SELF_TEST_CONST_NEVER_READ"]:
        if name in fake.reads:
            failures.append(f"{name} was taken for a read, and it is not one")
    # 6. A fake read added to a scratch copy of a real file: the whole check fails naming it.
    real = "gateway/src/config.rs"
    with open(os.path.join(root, real), encoding="utf-8") as f:
        text = f.read()
    text = text.replace("let value = |key: &str| lookup(key).filter(|v| !v.trim().is_empty());",
                        "let value = |key: &str| lookup(key).filter(|v| !v.trim().is_empty());\n"
                        "        let _fake = value(\"PAYSITE_SELF_TEST_FAKE\");", 1)
    if "PAYSITE_SELF_TEST_FAKE" not in text:
        text += '\nfn self_test() { let _ = std::env::var("PAYSITE_SELF_TEST_FAKE"); }\n'
    with_fake = scan(root, {real: text})
    problems = all_problems(with_fake, data, doc, root)
    expect(problems, "PAYSITE_SELF_TEST_FAKE: read by the code (gateway/src/config.rs) but " + DATA,
           "a fake read in a copy of gateway/src/config.rs, without a json entry")
    expect(problems, "PAYSITE_SELF_TEST_FAKE: read by the code (gateway/src/config.rs) but " + DOC,
           "a fake read in a copy of gateway/src/config.rs, without a doc row")
    # 7. A read removed from a scratch copy of the one file that reads it: its doc row and its
    #    json entry are stale now.
    def literal_in_its_file(name: str) -> bool:
        with open(os.path.join(root, found.files(name)[0]), encoding="utf-8") as f:
            return f'"{name}"' in prepare(f.read())[0]

    lone = [n for n in code_vars if found.scope_set(n) == {"code"} and len(found.files(n)) == 1
            and literal_in_its_file(n)]
    if not lone:
        failures.append("no variable read by one file only: the removal of a read cannot be tested")
    else:
        victim, victim_file = lone[0], found.files(lone[0])[0]
        with open(os.path.join(root, victim_file), encoding="utf-8") as f:
            text = f.read()
        without = scan(root, {victim_file: text.replace(f'"{victim}"', '"paysite_self_test_removed"')})
        if victim in without.reads:
            failures.append(f"{victim} is still found after its literal was removed from a copy of {victim_file}")
        problems = all_problems(without, data, doc, root)
        expect(problems, f"{victim}: {DOC} describes it, but the code no longer",
               f"the read of {victim} removed from a copy of {victim_file}, its doc row left")
        expect(problems, f"{victim}: {DATA} has an entry for it, but the code no longer",
               f"the read of {victim} removed from a copy of {victim_file}, its json entry left")
    return failures, cases[0]


# ----- main -----

def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help=f"regenerate {DOC}")
    mode.add_argument("--check", action="store_true", help=f"fail when {DOC} or {DATA} and the code disagree")
    mode.add_argument("--list", action="store_true", help="print every variable found")
    args = parser.parse_args(argv)
    found = scan(ROOT)
    data = load_data(ROOT)
    if args.list:
        for name in sorted(found.reads):
            scopes = ",".join(s for s in SCOPES if s in found.reads[name])
            print(f"{name}\t{scopes}\t{' '.join(found.files(name))}")
        print(f"{len(found.reads)} variables", file=sys.stderr)
        return 0
    if args.write:
        text = render(found, data, ROOT)
        with open(os.path.join(ROOT, DOC), "w", encoding="utf-8") as f:
            f.write(text)
        problems = list(found.errors) + data_problems(found, data)
        print(f"wrote {DOC}: {len(found.reads)} variables")
        for p in problems:
            print(f"  - {p}", file=sys.stderr)
        return 1 if problems else 0
    failures, cases = self_test(found, data, ROOT)
    if failures:
        print("configuration reference: the self-test failed, so the check cannot be trusted to fail:", file=sys.stderr)
        for f in failures:
            print(f"  - {f}", file=sys.stderr)
        return 1
    path = os.path.join(ROOT, DOC)
    doc = open(path, encoding="utf-8").read() if os.path.exists(path) else None
    problems = all_problems(found, data, doc, ROOT)
    if problems:
        print(f"configuration reference: {len(problems)} problems", file=sys.stderr)
        for p in problems:
            print(f"  - {p}", file=sys.stderr)
        return 1
    code_count = sum(1 for n in found.reads if "code" in found.reads[n])
    print(f"configuration reference: {len(found.reads)} variables ({code_count} read by the code, the rest by "
          f"benchmarks and tests), all in {DOC} and {DATA}; self-test: {cases} ways to fail, each noticed "
          f"(a row removed or added, a hand edit, a json entry removed, emptied or stale, fake reads of each "
          f"kind, a read removed)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
