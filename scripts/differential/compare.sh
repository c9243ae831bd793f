#!/bin/sh
# Runs one plain-Python program with real PyTorch (the conformance oracle) and with tensh, and
# shows where their standard outputs differ (exit status 1 when they do). Usage:
#   scripts/differential/compare.sh PROGRAM.py [ORACLE]
# ORACLE defaults to ../shared/conformance/oracle beside this repository ($TENSH_ORACLE).
set -e
here="$(cd "$(dirname "$0")/../.." && pwd)"
program="$1"
oracle="${2:-${TENSH_ORACLE:-$here/../shared/conformance/oracle}}"
[ -f "$program" ] || { echo "usage: $0 PROGRAM.py [ORACLE]" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Both run in an empty folder of their own, so files a program writes do not meet.
mkdir "$work/torch" "$work/tensh"
(cd "$work/torch" && "$oracle" run "$program" > "$work/torch.out" 2> /dev/null) || true
(cd "$work/tensh" && "$here/target/release/tensh" "$program" > "$work/tensh.out" 2> /dev/null) || true
if diff -u --label PyTorch --label tensh "$work/torch.out" "$work/tensh.out"; then
    echo "same output ($(wc -l < "$work/torch.out") lines)"
else
    exit 1
fi
