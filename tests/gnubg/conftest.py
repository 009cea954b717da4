"""Fixtures for the checks against the real GNU Backgammon binary (Debian ``gnubg``)."""
from __future__ import annotations

from typing import Iterator

import pytest
from tools import GNUBG, require_tool

from engine.gnubg import Gnubg


@pytest.fixture(scope="session")
def gnubg_binary() -> str:
    return require_tool(GNUBG)[0]


@pytest.fixture(scope="module")
def gnubg(gnubg_binary: str) -> Iterator[Gnubg]:
    """One gnubg process shared by a test module (starting one costs ~0.15 s)."""
    with Gnubg(gnubg_binary) as client:
        yield client
