#!/usr/bin/env bash
# The generated shell completions and manual pages, checked with the real tools: every page
# renders with `man -l` without warnings, and the zsh and fish scripts parse in those shells.
# Installs man-db, zsh and fish with apt-get when missing (as root), or says what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/debian-packages.sh
need_packages test-shell-docs "man and groff to render the manual pages, zsh and fish to parse the completions" \
    man-db groff-base zsh fish

. scripts/suite.sh
# In scripts/test-all, the CLI comes from the suite's one build; alone, this builds it.
in_suite || cargo build --profile checked -q -p nqueens-cli
bin=$(suite_bin nqueens)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

pages=0
for command in "" $("$bin" --help | awk '/^Commands:/ {on=1; next} on && /^  [a-z]/ {print $1} on && !/^  /{on=0}' | grep -v '^help$'); do
    "$bin" man $command > "$tmp/page.1"
    MANWIDTH=80 man -l "$tmp/page.1" > "$tmp/page.txt" 2> "$tmp/warnings.txt"
    if [ -s "$tmp/warnings.txt" ] || [ ! -s "$tmp/page.txt" ]; then
        echo "man -l: page for '${command:-nqueens}' did not render cleanly:" >&2
        cat "$tmp/warnings.txt" >&2
        exit 1
    fi
    pages=$((pages + 1))
done

"$bin" completions bash > "$tmp/nqueens.bash" && bash -n "$tmp/nqueens.bash"
"$bin" completions zsh > "$tmp/_nqueens" && zsh -n "$tmp/_nqueens"
"$bin" completions fish > "$tmp/nqueens.fish" && fish --no-execute "$tmp/nqueens.fish"
echo "$pages passed, 0 failed: manual pages rendered; bash, zsh and fish completions parse"
