"""Fixtures of the match-recording tests: a private data directory and the real gnubg."""
from __future__ import annotations

import pytest
from tools import GNUBG, require_tool


@pytest.fixture
def home(tmp_path, monkeypatch):
    """``$BGBRIDGE_HOME`` in a temporary directory: the journal never touches the user's."""
    path = tmp_path / "home"
    monkeypatch.setenv("BGBRIDGE_HOME", str(path))
    return path


@pytest.fixture(scope="session")
def gnubg_binary() -> str:
    return require_tool(GNUBG)[0]
