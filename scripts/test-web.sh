#!/usr/bin/env bash
# The web playground's browser tests: builds the page (scripts/build-web), serves it on
# localhost and drives Debian's Chromium, headless, with playwright-core from npm under node's
# built-in test runner (web/tests). Screenshots land in target/web-screenshots/.
#
#   scripts/test-web.sh                 build, serve and test
#   scripts/test-web.sh --test-name-pattern=race   extra arguments go to node --test
#
# Needs Rust with the wasm32-unknown-unknown target, node ≥ 18 with npm, python3 (the static
# server) and Chromium (Debian: apt-get install chromium chromium-driver). Run as root on a
# machine with apt-get, missing Chromium and node are installed; with rustup, a missing target is
# added. npm must reach its registry the first time (playwright-core, pinned by
# web/tests/package-lock.json; its browser download is never used).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
    echo "test-web: $*" >&2
    exit 1
}

root=false
[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null && root=true

. scripts/debian-packages.sh
apt_install() {
    DEBIAN_FRONTEND=noninteractive apt_get install -y -q "$@" >/dev/null 2>&1 ||
        { apt_get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt_get install -y -q "$@" >/dev/null; }
}

chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
    if $root; then
        echo "test-web: installing chromium and chromium-driver with apt-get (the browser tests drive the page in it)" >&2
        apt_install chromium chromium-driver || fail "could not install chromium with apt-get"
    fi
    [ -x "$chromium" ] || fail "no Chromium at $chromium: install it (Debian/Ubuntu: apt-get install chromium chromium-driver) or set CHROMIUM"
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    if $root; then
        echo "test-web: installing nodejs and npm with apt-get (the browser tests run under node's test runner)" >&2
        apt_install nodejs npm || fail "could not install nodejs and npm with apt-get"
    fi
    command -v node >/dev/null && command -v npm >/dev/null ||
        fail "node and npm are needed: install them (Debian/Ubuntu: apt-get install nodejs npm)"
fi
node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 18 ? 0 : 1)' ||
    fail "node 18 or later is needed (for node --test), this is $(node --version)"
command -v python3 >/dev/null || fail "python3 is needed to serve the page (apt-get install python3)"
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "test-web: adding the wasm32-unknown-unknown target with rustup (the page runs the engines as WebAssembly)" >&2
    rustup target add wasm32-unknown-unknown >/dev/null || fail "could not add the wasm32-unknown-unknown target with rustup"
fi

# The page, and the CLI whose answers it must agree with (the checked profile; in
# scripts/test-all, the suite's one build, which the Rust part tested).
. scripts/suite.sh
scripts/build-web target/web || fail "building the page failed (see above)"
if ! in_suite; then
    cargo build --quiet --profile checked -p nqueens-cli || fail "building the nqueens CLI failed"
fi
# Where cargo put it: CARGO_TARGET_DIR when set, made absolute like the other paths below.
cli=$(suite_bin nqueens)

if [ ! -d web/tests/node_modules/playwright-core ] ||
    [ web/tests/package-lock.json -nt web/tests/node_modules/.package-lock.json ]; then
    (cd web/tests && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error) ||
        fail "npm ci in web/tests failed (is the npm registry reachable?)"
fi

# A static server on a free port, stopped whatever happens.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
python3 -m http.server "$port" --bind 127.0.0.1 --directory target/web >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/index.html')" 2>/dev/null && break
    sleep 0.1
done

NQ_BASE_URL="http://127.0.0.1:$port/" \
    NQ_PAGE_DIR="$PWD/target/web" \
    NQ_CLI="$cli" \
    NQ_SCREENSHOTS="$PWD/target/web-screenshots" \
    CHROMIUM="$chromium" \
    node --test "$@" web/tests/playground.test.js
