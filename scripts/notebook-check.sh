#!/usr/bin/env bash
# Runs documentation pages as notebooks on the tensh kernel, as a class would, and checks
# that every cell prints what the page's transcript says. Needs Jupyter's Python packages
# (in a virtual environment of your own: `pip install jupyter_client nbclient nbconvert`);
# `cargo test` does not. Usage: scripts/notebook-check.sh [PAGE.md ...] (default: the layout
# tutorial). The kernel is installed into a temporary Jupyter data folder, never yours.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
tensh=target/release/tensh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export JUPYTER_DATA_DIR="$work/jupyter"
"$tensh" jupyter install --user > /dev/null
pages=("$@")
[ ${#pages[@]} -gt 0 ] || pages=(docs/layout.md)
for page in "${pages[@]}"; do
    name=$(basename "$page" .md)
    "$tensh" jupyter notebook "$page" > "$work/$name.ipynb"
    # Pages run from their own folder, as `tensh test` runs them. A cell whose transcript
    # raises is tagged `raises-exception`, so no --allow-errors is needed.
    # Each notebook names its kernel: "tensh", or "tensh-python" for a page of ```pycon blocks.
    (cd "$(dirname "$page")" && jupyter nbconvert --to notebook --execute \
        "$work/$name.ipynb" \
        --output "$work/$name-run.ipynb" > /dev/null 2>&1)
    "$tensh" jupyter check "$work/$name-run.ipynb"
done
