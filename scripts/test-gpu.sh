#!/usr/bin/env bash
# The GPU counter (crates/nqueens-gpu and `nqueens count --device gpu`) on whatever Vulkan
# adapter the machine has; with no GPU, Mesa's software driver (lavapipe) runs the very same
# WGSL kernel on the CPU. Checks the kernel against the CPU loop sub-board by sub-board and
# task by task, every count of n = 1..15 (total and unique) against the published table, a
# GPU count stopped by Ctrl-C and finished on the CPU (n = 16), and the no-adapter error.
# Needs the Vulkan loader and a driver: installed with apt-get when run as root, otherwise
# this fails naming the packages. About a minute on 2 cores once built.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/debian-packages.sh
need_packages test-gpu "the Vulkan loader and Mesa's software Vulkan driver, to run the GPU kernel without a GPU" \
    libvulkan1 mesa-vulkan-drivers

# Mesa's device-selection layer prints "error:" lines when no display server runs.
export NODEVICE_SELECT=1

cargo clippy -p nqueens-cli --features gpu --all-targets --profile checked -- -D warnings
cargo test -p nqueens-gpu --profile checked
cargo test -p nqueens-cli --features gpu --profile checked --test cli gpu::

echo "== the README's GPU example"
cargo build -p nqueens-cli --features gpu --profile checked
bin=target/checked/nqueens
"$bin" devices
[ "$("$bin" count 12 --device gpu)" = 14200 ] || { echo "test-gpu: count 12 --device gpu" >&2; exit 1; }
[ "$("$bin" count 14 --device gpu --unique)" = 45752 ] || { echo "test-gpu: count 14 --device gpu --unique" >&2; exit 1; }
echo "count 12 --device gpu: 14200; count 14 --device gpu --unique: 45752"
