"""Shared test helpers.

Tests that need an outside tool (real gnubg, avr-gcc, simavr, chromium) call :func:`require_tool`.
On a developer machine without the tool they skip; under ``scripts/test.sh`` (which installs
the tools and sets ``BGBRIDGE_REQUIRE_TOOLS=1``) a missing tool is a failure, so CI can never
pass by silently skipping them.
"""
from __future__ import annotations

import os
import shutil

import pytest


def require_tool(*names: str) -> list[str]:
    """Return the full paths of ``names`` (commands or absolute paths), or skip/fail."""
    found = []
    for name in names:
        path = name if os.path.isabs(name) and os.access(name, os.X_OK) else shutil.which(name)
        if not path:
            message = f"needs {name!r} (installed by scripts/setup.sh --test)"
            if os.environ.get("BGBRIDGE_REQUIRE_TOOLS") == "1":
                pytest.fail(message + " but it is missing", pytrace=False)
            pytest.skip(message)
        found.append(path)
    return found


GNUBG = "/usr/games/gnubg"
