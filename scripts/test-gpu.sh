#!/usr/bin/env bash
# The GPU counter (crates/nqueens-gpu and `nqueens count --device gpu`) on whatever Vulkan
# adapter the machine has; with no GPU, Mesa's software driver (lavapipe) runs the very same
# WGSL kernel on the CPU. Checks the kernel against the CPU loop sub-board by sub-board and
# task by task, every count of n = 1..15 (total and unique) against the published table, a
# GPU count stopped by Ctrl-C and finished on the CPU (n = 16), and the no-adapter error; then
# runs the prepared device check (scripts/gpu-check: both kernels' series, and its --sweep)
# with small n.
# Needs the Vulkan loader and a driver: installed with apt-get when run as root, otherwise
# this fails naming the packages. About a minute on 2 cores once built.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/debian-packages.sh
need_packages test-gpu "the Vulkan loader and Mesa's software Vulkan driver, to run the GPU kernel without a GPU" \
    libvulkan1 mesa-vulkan-drivers

# Mesa's device-selection layer prints "error:" lines when no display server runs.
export NODEVICE_SELECT=1

. scripts/suite.sh

# The CLI with `gpu` linted over the whole workspace in the dev profile: only the CLI is
# checked again after a clippy of the workspace (a `-p nqueens-cli` selection would check every
# crate below it again, in other features). In the suite it is CI's clippy step's (.ci/run lints
# the workspace in the suite's features, then with the CLI's `gpu`); a part run alone lints it
# here.
if in_suite; then
    echo "test-gpu: the CLI's lints with gpu are CI's clippy step (cargo clippy ${LINT_FLAGS[*]} --features nqueens-cli/gpu)"
    # scripts/test-all built the suite once: nqueens-gpu's tests ran in its Rust part, on this
    # driver; the CLI's GPU tests need the CLI with `gpu`, which only the CLI compiles again for.
    echo "test-gpu: nqueens-gpu's own tests run in the Rust part (the suite's one build)"
    # Only the CLI compiles again here (its binary and the `cli` test binary, with `gpu`): at
    # opt-level 1, not the profile's 3. Its code parses, dispatches and prints; the counting
    # is the engines' and nqueens-gpu's, which stay as the suite built them, debug assertions
    # and all. The setting is a profile setting of this one package, so the suite's own CLI
    # (opt-level 3, without `gpu`) stays fresh and is put back below without compiling.
    cargo test "${SUITE_FLAGS[@]}" --features nqueens-cli/gpu --config 'profile.checked.package.nqueens-cli.opt-level=1' --test cli gpu::
else
    cargo clippy --workspace --all-targets --features nqueens-cli/gpu -- -D warnings
    cargo test -p nqueens-gpu --profile checked
    cargo test -p nqueens-cli --features gpu --profile checked --test cli gpu::
fi

echo "== the README's GPU example"
# The binary the CLI tests above ran, built with `gpu` (a `cargo build` here would build it
# again: without the tests' dev-dependencies, the shared crates' features differ). A copy: in
# the suite, the parts after this one find the suite's CLI (without `gpu`) back in its place.
gpu_bin_dir=$(mktemp -d)
cp "$(suite_bin nqueens)" "$gpu_bin_dir/nqueens"
if in_suite; then
    cargo test "${SUITE_FLAGS[@]}" --no-run --quiet
fi
bin=$gpu_bin_dir/nqueens
"$bin" devices
[ "$("$bin" count 12 --device gpu)" = 14200 ] || { echo "test-gpu: count 12 --device gpu" >&2; exit 1; }
[ "$("$bin" count 14 --device gpu --unique)" = 45752 ] || { echo "test-gpu: count 14 --device gpu --unique" >&2; exit 1; }
echo "count 12 --device gpu: 14200; count 14 --device gpu --unique: 45752"

echo "== the prepared device check, small n"
scripts/gpu-check --binary "$bin" --min-n 9 --max-n 12 --cpu-n 12 --out target/gpu-check.tsv
scripts/gpu-check --binary "$bin" --sweep --sweep-n 10 --time-limit 240 --out target/gpu-sweep.tsv
# Both kernels' series, each on every n asked for (the kernel column, before the device).
awk -F'\t' 'NR > 1 { k[$(NF - 1)]++ } END { exit !(k["subboards"] == 4 && k["constellations"] == 4) }' target/gpu-check.tsv ||
    { echo "test-gpu: gpu-check lacks a kernel's series" >&2; cat target/gpu-check.tsv >&2; exit 1; }
# Both series say how long the GPU waited for the host (a share, or "unknown" without timestamps).
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "gpu_wait") w = i }
    NR > 1 && $(NF - 1) != "cpu" && $w == "" { bad++ } END { exit !(w && !bad) }' target/gpu-check.tsv ||
    { echo "test-gpu: gpu-check lacks a run's gpu_wait" >&2; cat target/gpu-check.tsv >&2; exit 1; }
for tsv in target/gpu-check.tsv target/gpu-sweep.tsv; do
    # A header and a row per run, every one counted right.
    awk -F'\t' 'NR > 1 { rows++; if ($3 != "ok") bad++ } END { exit !(rows >= 5 && !bad) }' "$tsv" ||
        { echo "test-gpu: $tsv lacks rows or has a failed run" >&2; cat "$tsv" >&2; exit 1; }
done

echo "== gpu-check fails on a wrong count"
stub=$(mktemp -d)
cat > "$stub/nqueens" <<'STUB'
#!/bin/sh
# A binary that lists a GPU and counts every board as 1 solution.
case "$1" in
    devices) echo "index  kind  backend  name (driver)  limits"; echo "0      discrete GPU  Vulkan  Stub  storage binding 128 MiB" ;;
    count) echo 1; echo "method=counter elapsed=0.001s nodes=1" >&2 ;;
esac
STUB
chmod +x "$stub/nqueens"
if scripts/gpu-check --binary "$stub/nqueens" --min-n 8 --max-n 8 --cpu-n 8 --out "$stub/check.tsv" 2> "$stub/err"; then
    echo "test-gpu: gpu-check passed a wrong count" >&2; exit 1
fi
grep -q "WRONG: gpu n = 8 counted 1, published 92" "$stub/err" ||
    { echo "test-gpu: gpu-check did not name the wrong count" >&2; cat "$stub/err" >&2; exit 1; }
rm -rf "$stub" "$gpu_bin_dir"
echo "gpu-check: a wrong count fails (exit 1)"
