#!/bin/sh
# Fuzz tensh for as long as asked: generated programs (tensh::fuzz), one process each; failing
# programs are minimized into fuzz-failures/. Usage:
#   scripts/fuzz.sh --minutes 30 [--seed 1] [--len 60] [--timeout 30] [--jobs 2]
#   scripts/fuzz.sh --programs 2000
set -e
cd "$(dirname "$0")/.."
cargo build --release --quiet --bin tensh --example fuzz
exec target/release/examples/fuzz --bin target/release/tensh "$@"
