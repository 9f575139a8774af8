#!/usr/bin/env bash
# Double-click launcher: starts the arcade with the project's virtual environment, creating it on first use with the
# README's Play command (the player's install: pip install .).
set -euo pipefail
here="$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)"
cd "$here"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/pip install -q .
fi
if [ -x .venv/bin/arcade ]; then
  exec .venv/bin/arcade "$@"
fi
exec .venv/bin/python main.py "$@"  # an environment made before the arcade command existed
