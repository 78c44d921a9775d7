#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this script). Works on a fresh machine:
# it installs what it needs itself.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "toolchain components"
rustup component add rustfmt clippy >/dev/null 2>&1 || true

step "headless Chromium for the report's browser test (Debian's chromium)"
if [ ! -x /usr/bin/chromium ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 || {
        $sudo apt-get update -qq >/dev/null
        $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
    }
fi
/usr/bin/chromium --version

step "cargo fmt --check"
cargo fmt --all -- --check

step "no import circle among the binary's files"
python3 scripts/check-imports.py

step "cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo doc, public and private items (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --document-private-items --locked

step "fuzz target builds"
scripts/fuzz-build.sh

step "conformance with the reference implementation (../shared/eval-dev)"
eval_dev=../shared/eval-dev
if [ -x "$eval_dev/run.sh" ]; then
    "$eval_dev/install.sh"
    # The test profile (html5ever and silhouette-dom optimised, see Cargo.toml) is the build
    # `cargo test` needs anyway: no separate release build.
    # The binary's path comes from cargo itself, so CARGO_TARGET_DIR (or a target-dir in a
    # cargo config) is honoured.
    bin=$(cargo build --profile test --locked --bin silhouette --message-format=json-render-diagnostics \
        | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
    [ -x "$bin" ] || { echo "cannot find the silhouette binary built by cargo" >&2; exit 1; }
    out=$("$eval_dev/run.sh" --conformance "$bin" --features classic)
    printf '%s\n' "$out" | tail -n 2
    printf '%s\n' "$out" | grep -Eq '^dev-conformance: identical=([0-9]+)/\1$' || {
        echo "conformance: fingerprints differ from the reference" >&2
        exit 1
    }
else
    echo "skipped: $eval_dev not found (it sits beside the repository in CI)"
fi

step "jieba-rs keywords against Python jieba (debian-reference-zh-cn, >= 95% of pages)"
scripts/jieba-check.sh --han-only --hmm

step "tools the WARC tests compare with (wget, warcio, cdxj-indexer)"
if ! command -v wget >/dev/null 2>&1; then
    sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq wget >/dev/null
fi
if ! python3 -c 'import warcio, cdxj_indexer' >/dev/null 2>&1 || ! command -v cdxj-indexer >/dev/null 2>&1; then
    python3 -m pip install -q 'warcio>=1.8.1' cdxj-indexer
fi
command -v pyenv >/dev/null 2>&1 && pyenv rehash || true
wget --version | head -n 1
warcio --version

step "redis-server and redis-cli for the shared-crawl tests (Debian's redis-server)"
if ! command -v redis-server >/dev/null 2>&1 || ! command -v redis-cli >/dev/null 2>&1; then
    sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo_cmd apt-get install -y -qq --no-install-recommends redis-server >/dev/null 2>&1 || {
        $sudo_cmd apt-get update -qq >/dev/null
        $sudo_cmd apt-get install -y -qq --no-install-recommends redis-server >/dev/null
    }
fi
redis-server --version

step "cargo test (unit, doc, property, hostile-input and end-to-end tests)"
cargo test --workspace --locked

step "the silhouette-crawl example against the demo site on 127.0.0.1"
scripts/example-check.sh
