# Sourced by scripts/test-all and its parts: the one build the whole suite shares.
#
# Cargo resolves the features of shared crates (nqueens-support, the engines, serde, syn, ...)
# from the packages and features of each invocation, dev-dependencies included: `-p nqueens-gpu`
# leaves nqueens-support without `signals`, `--features mpi` brings bindgen's syn features
# into every proc macro, so each part that picked its own packages compiled the engines again.
# When scripts/test-all runs more than one part, it builds once with SUITE_FLAGS (exported as
# NQUEENS_SUITE_FLAGS) and each part reuses that build: the Rust part runs those very tests,
# the GPU part adds `nqueens-cli/gpu` (only the CLI compiles again), the MPI, shell-docs and
# web parts take the binaries from it, the Python part the module. A part run alone builds what
# it needs, as before.
# Plain `cargo build` and `cargo test` are untouched: they need only Rust.

# Every workspace member, the MPI binary with its GPU ranks (which brings nqueens-gpu and
# wgpu in), in the checked profile. The CLI keeps its default features: its tests check the
# build without `gpu` (the GPU part builds the CLI once more with it).
# CI's lints and docs (below) take the same features and profile: what they compile is shared
# with this build only as long as the three agree.
SUITE_FEATURES=nqueens-mpi/mpi,nqueens-mpi/gpu
SUITE_FLAGS=(--workspace --profile checked --features "$SUITE_FEATURES")
# CI's clippy step (.ci/run): the whole workspace, every target, in the suite's features and
# profile. The MPI and GPU parts' own lints (when a part runs alone) are what this covers. In
# `checked` (lints do not depend on the profile: debug assertions are on in it as in `dev`), the
# proc macros and build scripts it compiles and runs (syn, serde_derive, clap_derive, bindgen
# and MPI's bindings, some 30 units) are the very ones the suite's build needs, which then
# finds them built.
LINT_FLAGS=(--workspace --all-targets --profile checked --features "$SUITE_FEATURES")
# CI's doc step: the same profile and features (the CLI's `gpu` too, as clippy's last pass
# leaves them), and the examples beside the libraries and the CLI (`cargo doc`'s own targets):
# examples use the dev-dependencies, whose features then unify as in clippy's `--all-targets`
# (num-traits' `std`, and through it naga and wgpu), so that the docs check again only the
# workspace's own crates, for rustdoc.
DOC_FLAGS=(--workspace --no-deps --profile checked --features "$SUITE_FEATURES,nqueens-cli/gpu"
    --lib --bin nqueens --examples)
# What building and running that needs besides Rust: MPI and libclang for the MPI binary, the
# Vulkan loader and Mesa's software driver for nqueens-gpu's tests.
SUITE_PACKAGES=(libopenmpi-dev openmpi-bin clang libclang-dev libvulkan1 mesa-vulkan-drivers)

# The suite's one build (scripts/test-all runs it first; CI runs it beside its other steps, and
# the README's test command then finds it done).
# The second command adds the one library no test builds, the Python module (its tests are
# pytest's; `--tests` keeps the dev-dependencies' features in, so everything else is found built).
suite_build() {
    cargo test "${SUITE_FLAGS[@]}" --no-run &&
        cargo build "${SUITE_FLAGS[@]}" --lib --tests
}

# True inside scripts/test-all when it built the suite once for every part.
in_suite() { [ -n "${NQUEENS_SUITE_FLAGS:-}" ]; }

# Where the suite's binaries are (CARGO_TARGET_DIR when set, made absolute).
suite_bin() {
    local dir=${CARGO_TARGET_DIR:-target}
    mkdir -p "$dir"
    echo "$(cd "$dir" && pwd)/checked/$1"
}
