#!/usr/bin/env bash
# The library crates as a newcomer meets them: every example under crates/*/examples/ run with
# real inputs and its output checked, then a crate of a user's own outside the workspace
# (examples/using-the-libraries: exact cover, incremental SAT, CP and the counter, imported by
# their package names) built into the workspace's target folder and run.
#
#   scripts/test-libraries.sh
#
# Needs only Rust. The examples are the suite's `checked` build (under scripts/test-all they
# compile nothing again); the user's crate is built as a user builds it (below).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
    echo "test-libraries: $*" >&2
    exit 1
}

# expect NAME PATTERN TEXT: TEXT has a line matching the extended regular expression PATTERN.
expect() {
    if ! grep -Eq -- "$2" <<<"$3"; then
        printf '%s\n' "$3" >&2
        fail "$1: no line matches /$2/ in the output above"
    fi
}

target=${CARGO_TARGET_DIR:-target}
work=$target/test-libraries
rm -rf "$work"
mkdir -p "$work"

echo "== the library crates' examples"
. scripts/suite.sh
if in_suite; then
    # scripts/test-all built every test and example once (`cargo test` builds the examples).
    # No cargo here: this part runs beside the GPU part, which links the suite's CLI again with
    # `gpu` meanwhile, and a `cargo test` of the suite's flags would put the suite's CLI back
    # under it.
    for example in count dlx_first instance parse_dimacs queens solve_dimacs split_rate; do
        [ -x "$target/checked/examples/$example" ] ||
            fail "the suite's build has no example $example in $target/checked/examples"
    done
else
    # The rust part's selection (`cargo test --workspace --exclude nqueens-gpu`), so the
    # libraries are built with the same features as there (dev-dependencies included).
    cargo build --profile checked --workspace --exclude nqueens-gpu --examples
fi
bin=$target/checked/examples

# Exact cover: generated instances written in Knuth's format, then counted from the file.
"$bin/instance" langford 7 >"$work/langford-7.dlx"
out=$("$bin/count" "$work/langford-7.dlx" 2>&1)
expect "exact cover count, Langford 7" '^Altogether 52 solutions' "$out"
out=$("$bin/count" "$work/langford-7.dlx" --engine links --choice scan 2>&1)
expect "exact cover count, Langford 7 on dancing links" '^Altogether 52 solutions, .*\(links\)' "$out"
"$bin/instance" pentominoes 3 20 >"$work/pentominoes-3x20.dlx"
out=$("$bin/count" "$work/pentominoes-3x20.dlx" 2>&1)
# Two ways to tile a 3×20 box, each in its four orientations.
expect "exact cover count, pentominoes 3×20" '^Altogether 8 solutions' "$out"
out=$("$bin/count" "$work/missing.dlx" 2>&1) && fail "count of a missing file succeeded"
expect "exact cover count, missing file" 'count: .*missing\.dlx' "$out"

# SAT: a satisfiable formula and the pigeonhole formula of 3 pigeons in 2 holes.
printf 'c a or b, not a or c, not b or not c\np cnf 3 3\n1 2 0\n-1 3 0\n-2 -3 0\n' >"$work/small.cnf"
{
    echo "p cnf 6 9"
    # Pigeon p in hole h is variable 2(p-1)+h: each pigeon in a hole, no hole shared.
    echo "1 2 0"
    echo "3 4 0"
    echo "5 6 0"
    for hole in 1 2; do
        for p in 0 1 2; do
            for q in $(seq $((p + 1)) 2); do
                echo "-$((2 * p + hole)) -$((2 * q + hole)) 0"
            done
        done
    done
} >"$work/pigeons-3-2.cnf"
out=$("$bin/solve_dimacs" "$work/small.cnf")
expect "solve_dimacs, satisfiable" '^s SATISFIABLE' "$out"
out=$("$bin/solve_dimacs" "$work/pigeons-3-2.cnf")
expect "solve_dimacs, pigeonhole" '^s UNSATISFIABLE' "$out"
out=$("$bin/parse_dimacs" "$work/pigeons-3-2.cnf")
expect "parse_dimacs, pigeonhole" '6 variables.* 9 clauses' "$out"

# CP: eight queens, all solutions.
out=$("$bin/queens" 8 all)
expect "cp queens 8 all" '^n=8 .*solutions=92 ' "$out"

# nqueens-solver: the exact cover encoding's first solution, and the GPU's task split.
out=$("$bin/dlx_first" 8)
expect "dlx_first 8" 'n=8 seed=None found=true ' "$out"
out=$("$bin/split_rate" 12 6 1 4)
expect "split_rate 12 6 1" '^n = 12, cut at row [0-9]+: [0-9]+ tasks, [0-9]+ sub-boards' "$out"

echo "== a user's crate outside the workspace (examples/using-the-libraries)"
# A copy at the same depth, so its path dependencies still point at crates/, with the
# workspace's lock file (the very versions the suite tests: checked below), built as a user builds
# it: `cargo build` in the dev profile, its own workspace resolving its own features. In the dev
# profile it shares nothing with the suite's `checked` build, nor compiles the libraries at
# opt-level 3 a second time: a user's crate is another project's build, like the packaged copies
# of the publish dry run.
user=target/using-the-libraries
rm -rf "$user"
mkdir -p "$user"
cp -r examples/using-the-libraries/Cargo.toml examples/using-the-libraries/src "$user/"
cp Cargo.lock "$user/"
cargo build --manifest-path "$user/Cargo.toml" --target-dir "$target" 2>"$work/build.log" ||
    { cat "$work/build.log" >&2; fail "the user's crate does not build"; }
cat "$work/build.log" >&2
# Cargo adds the crate itself to the lock file; every other package must be one the workspace
# locks, at its version.
locked() { awk '/^name = / { name = $3 } /^version = / { print name, $3 }' "$1" | sort -u; }
strays=$(comm -23 <(locked "$user/Cargo.lock" | grep -v '^"using-the-libraries" ') <(locked Cargo.lock))
[ -z "$strays" ] || fail "the user's crate resolved packages the workspace's lock file does not hold: $strays"
out=$("$target/debug/using-the-libraries")
printf '%s\n' "$out"
expect "Knuth's example" '^exact cover: Knuth.s example is covered by a d f \| b g \| c e$' "$out"
expect "Knuth's example, count" '^exact cover: 1 solution\(s\) to Knuth.s example$' "$out"
expect "Langford 7" '^exact cover: Langford pairs of 7: 52 arrangements$' "$out"
expect "a limit-stopped count" '^exact cover: Langford pairs of 11 under 1000 nodes: stopped before the answer \(node limit reached\) after [0-9]+ solutions \([0-9]+ found\)$' "$out"
expect "incremental SAT" '^sat: \(a or b\) and \(not a or c\) is satisfiable: true$' "$out"
expect "incremental SAT, assumptions" '^sat: with \(not b or c\) added, under not c and a: unsatisfiable, refuted by ' "$out"
expect "incremental SAT, reuse" '^sat: without assumptions again satisfiable, c = true$' "$out"
expect "CP" '^cp: 92 solutions to eight queens, the first \[' "$out"
expect "counter" '^counter: n = 12 has 14200 solutions, 1787 unique; progress reported: true$' "$out"
echo "test-libraries: every example and the user's crate printed what they should"
