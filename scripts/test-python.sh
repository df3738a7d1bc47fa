#!/usr/bin/env bash
# The Python package's tests: builds `nqueens` (crates/nqueens-py) into a virtual environment
# under target/py-venv, which this script creates, and runs its pytest suite. Under
# scripts/test-all the module is the suite's build of it (below); alone, maturin builds it.
#
#   scripts/test-python.sh            build and test
#   scripts/test-python.sh -k xc      extra arguments go to pytest
#   scripts/test-python.sh --environment-only
#                                     only make the virtual environment and install its
#                                     packages (scripts/test-all does this beside an earlier
#                                     part: it waits on the network, not the cores)
#
# Needs Rust and Python ≥ 3.9 with the venv module; PyPI must be reachable the first time
# (maturin, pytest and dask[distributed], for the cluster example, are installed into the
# virtual environment). Run as root on a machine
# with apt-get, a missing venv module is installed.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/py-venv
python=${PYTHON:-python3}

fail() {
    echo "test-python: $*" >&2
    exit 1
}

command -v "$python" >/dev/null ||
    fail "no '$python' on PATH: install Python 3.9 or later (Debian/Ubuntu: apt-get install python3 python3-venv)"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' ||
    fail "Python 3.9 or later is needed, '$python' is $("$python" --version 2>&1)"

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import pip' 2>/dev/null; then
    rm -rf "$venv"
    if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
        rm -rf "$venv"
        version=$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')
        if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
            echo "test-python: installing python$version-venv with apt-get" >&2
            . scripts/debian-packages.sh
            apt_get install -y -q "python$version-venv" >/dev/null 2>&1 ||
                { apt_get update -q >/dev/null && apt_get install -y -q "python$version-venv" >/dev/null; } ||
                apt_get install -y -q python3-venv >/dev/null ||
                fail "could not install python$version-venv with apt-get"
            "$python" -m venv "$venv" || fail "'$python -m venv' fails even after installing python$version-venv"
        else
            fail "'$python -m venv' does not work: install the venv module (Debian/Ubuntu: apt-get install python$version-venv)"
        fi
    fi
fi

if ! "$venv/bin/python" -c 'import pytest, dask.distributed' 2>/dev/null || [ ! -x "$venv/bin/maturin" ]; then
    "$venv/bin/python" -m pip install -q "maturin>=1.5,<2" "pytest>=7" "dask[distributed]" ||
        fail "could not install maturin, pytest and dask[distributed] from PyPI into $venv (is PyPI reachable?)"
fi

# Under scripts/test-all the module comes from the suite's one build (scripts/suite.sh builds
# crates/nqueens-py's library there, in the suite's features and profile), installed the way
# `maturin develop` installs a package with Python sources: the compiled module beside them in
# crates/nqueens-py/python/nqueens, that folder on the environment's path (a .pth file), and the
# package's metadata as maturin writes it (the PKG-INFO of `maturin sdist`, which compiles
# nothing and so checks pyproject.toml, the version maturin takes from Cargo and the files it
# packages). maturin's own build would resolve the engines' dependencies for this one package
# and compile every engine a second time.
install_suite_module() {
    local built module=crates/nqueens-py/python/nqueens/_nqueens.abi3.so sdist site version
    built=$(suite_bin lib_nqueens.so)
    [ -f "$built" ] || built=$(suite_bin lib_nqueens.dylib)
    [ -f "$built" ] || fail "the suite's build has no Python module ($(suite_bin lib_nqueens.so))"
    sdist=$(mktemp -d)
    "$venv/bin/maturin" sdist -m crates/nqueens-py/Cargo.toml --out "$sdist" >"$sdist.log" 2>&1 ||
        { cat "$sdist.log" >&2; rm -rf "$sdist" "$sdist.log"; fail "maturin sdist failed: the Python package's metadata does not build (see above)"; }
    site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    # An earlier install of the package (maturin develop's, or a wheel's copy in site-packages,
    # which would shadow the sources) goes first.
    rm -rf "$site"/nqueens-*.dist-info "$site/nqueens.pth" "$site/nqueens"
    tar -xzf "$sdist"/nqueens-*.tar.gz -C "$sdist" --wildcards 'nqueens-*/PKG-INFO'
    version=$(sed -n 's/^Version: //p' "$sdist"/nqueens-*/PKG-INFO)
    mkdir "$site/nqueens-$version.dist-info"
    cp "$sdist"/nqueens-*/PKG-INFO "$site/nqueens-$version.dist-info/METADATA"
    rm -rf "$sdist" "$sdist.log"
    echo "scripts/test-python.sh" >"$site/nqueens-$version.dist-info/INSTALLER"
    printf '%s,,\n' nqueens.pth "nqueens-$version.dist-info/"{METADATA,INSTALLER,RECORD} \
        >"$site/nqueens-$version.dist-info/RECORD"
    echo "$PWD/crates/nqueens-py/python" >"$site/nqueens.pth"
    cp "$built" "$module.tmp"
    mv "$module.tmp" "$module"
    echo "test-python: the suite's module ($built) installed in $venv as nqueens $version"
}

if [ "${1:-}" = --environment-only ]; then
    echo "test-python: the virtual environment is ready in $venv"
    exit 0
fi

. scripts/suite.sh
if in_suite; then
    install_suite_module
else
    # Alone: maturin builds the module (in the `checked` profile, as the Rust tests use:
    # optimised, with debug assertions, no LTO) and installs it as an editable package.
    VIRTUAL_ENV="$PWD/$venv" PATH="$PWD/$venv/bin:$PATH" \
        "$venv/bin/maturin" develop --quiet -m crates/nqueens-py/Cargo.toml --profile checked ||
        fail "building the Python package failed (see above)"
fi

status=0
"$venv/bin/python" -m pytest -q -p no:cacheprovider crates/nqueens-py/tests "$@" || status=$?
if [ "$status" -eq 5 ]; then
    fail "pytest collected no tests (exit 5): is crates/nqueens-py/tests there?"
fi
exit "$status"
