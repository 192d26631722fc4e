#!/bin/sh
# Issue 15's measure: the `duplicates` pairs among crates/ sources, tests left out
# (tests/ folders, *tests.rs files and #[cfg(test)] items). `duplicates` is the
# workplace's tool (not installed by CI); this script only counts, it checks nothing.
# Usage: scripts/source_duplicates.sh [CHECKOUT]   (default: this checkout)
set -eu
ROOT=${1:-$(cd "$(dirname "$0")/.." && pwd)}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cp -r "$ROOT/crates" "$TMP/crates"
find "$TMP/crates" -type d \( -name tests -o -name target \) -prune -exec rm -rf {} +
find "$TMP/crates" -name '*tests.rs' -delete
python3 "$(dirname "$0")/strip_cfg_test.py" "$TMP/crates"
duplicates --repo "$TMP" --most 200 --seconds 120
