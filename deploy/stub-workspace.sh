#!/usr/bin/env bash
# stub-workspace.sh OUT: copies the workspace's manifests (every Cargo.toml, Cargo.lock and
# toolchain/cargo config) into OUT with an empty stand-in for each target root (src/lib.rs,
# src/main.rs, src/bin/*, build.rs, and any `path = "..."` of a [[bin]]/[lib] table).
#
# The Dockerfile builds this stub workspace first, so the dependency layer is rebuilt only
# when a manifest or the lock file changes, not on every source edit (what cargo-chef does,
# without installing it). Run from the workspace root.
set -euo pipefail
out="${1:?usage: stub-workspace.sh OUT}"
mkdir -p "$out"
cp Cargo.lock "$out/"
for extra in rust-toolchain rust-toolchain.toml .cargo/config.toml .cargo/config; do
  if [ -f "$extra" ]; then mkdir -p "$out/$(dirname "$extra")" && cp "$extra" "$out/$extra"; fi
done

stub() { # stub DIR RELATIVE-PATH
  local file="$1/$2"
  mkdir -p "$out/$(dirname "$file")"
  case "$2" in
    src/lib.rs | */lib.rs) : >"$out/$file" ;;
    *) echo 'fn main() {}' >"$out/$file" ;;
  esac
}

find . -name Cargo.toml -not -path './target/*' -not -path '*/node_modules/*' | sort | while read -r manifest; do
  dir="$(dirname "$manifest")"
  mkdir -p "$out/$dir"
  cp "$manifest" "$out/$manifest"
  [ "$dir" = . ] && continue
  for root in src/lib.rs src/main.rs build.rs; do
    if [ -f "$dir/$root" ]; then stub "$dir" "$root"; fi
  done
  for bin in "$dir"/src/bin/*.rs "$dir"/src/bin/*/main.rs; do
    if [ -f "$bin" ]; then stub "$dir" "${bin#"$dir"/}"; fi
  done
  # Explicit target paths (`path = "src/main.rs"` under [[bin]] or [lib]); dependency
  # tables use `{ path = ... }` inline and are skipped.
  sed -n 's/^[[:space:]]*path[[:space:]]*=[[:space:]]*"\([^"]*\.rs\)".*/\1/p' "$manifest" | while read -r target; do
    if [ -f "$dir/$target" ]; then stub "$dir" "$target"; fi
  done
done
