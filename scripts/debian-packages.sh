# Sourced by the test parts that need Debian packages: one way to check, install and explain.
#
#   need_packages PART WHY PACKAGE...
#
# Installs the missing PACKAGEs with apt-get when run as root (saying which and why, in one
# line), or fails naming them and the apt-get line to type.
# apt-get, one at a time: parts that run side by side (scripts/test-all) may install at once,
# and dpkg holds one lock; the second waits for the first instead of failing on the lock.
apt_get() {
    flock "${TMPDIR:-/tmp}/nqueens-apt-get.lock" apt-get -o DPkg::Lock::Timeout=600 "$@"
}

need_packages() {
    local part=$1 why=$2 package
    shift 2
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "$part: installing ${missing[*]} ($why)"
        apt_get update -qq
        DEBIAN_FRONTEND=noninteractive apt_get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "$part: needs ${missing[*]} ($why): apt-get install ${missing[*]}" >&2
        exit 1
    fi
}
