#!/usr/bin/env bash
# Builds the cargo-fuzz target of silhouette-dom on the stable toolchain (running it needs
# nightly: `cargo +nightly fuzz run hash` from crates/dom).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f crates/dom/fuzz/Cargo.toml ]; then
    cargo check --manifest-path crates/dom/fuzz/Cargo.toml --bins
else
    echo "no fuzz target yet"
fi
