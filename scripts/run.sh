#!/usr/bin/env bash
# Sets bgbridge up (first run) and runs the main job, or the bgbridge command given:
#   bash scripts/run.sh                 the main job
#   bash scripts/run.sh legal 4HPwATDgc/ABMA 62
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2
if [ "$#" -eq 0 ]; then
    set -- demo
fi
exec .venv/bin/bgbridge "$@"
