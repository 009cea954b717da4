#!/usr/bin/env bash
# Sets up bgbridge on a fresh Debian machine (run as root, or with sudo rights for apt).
# Idempotent: a second run only checks that everything is there.
#   scripts/setup.sh          runtime only
#   scripts/setup.sh --test   also the tools the test suite uses (gnubg, avr-gcc, simavr, chromium)
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

apt_packages=(python3 python3-venv python3-pip)
if [ "$want_test" = 1 ]; then
    # gnubg: the rules oracle; gcc-avr/avr-libc/simavr: build and run the unit's firmware;
    # chromium: the dashboard tests.
    apt_packages+=(gnubg gcc-avr avr-libc simavr libsimavr-dev libelf-dev pkg-config make gcc)
fi

missing=()
for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${missing[@]}"
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
extras=""
[ "$want_test" = 1 ] && extras="[test]"
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extras}"
