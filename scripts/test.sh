#!/usr/bin/env bash
# Sets everything up and runs the whole test suite (slow tests included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
export BGBRIDGE_REQUIRE_TOOLS=1   # tools the set-up installed must not be skipped silently
exec .venv/bin/python -m pytest "$@"
