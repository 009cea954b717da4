"""The packages import one another only along the arrows of ARCHITECTURE.md.

Read from the source with :mod:`ast`, so an import hidden inside a function counts too.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = {"engine", "calibration", "vision", "firmware_link", "webui", "bgbridge"}

#: Which of our packages each package may import (besides itself).
ALLOWED = {
    "engine": set(),
    "calibration": {"engine"},
    "vision": {"engine", "calibration"},
    "firmware_link": {"engine"},
    "webui": {"engine"},
    "bgbridge": OURS - {"bgbridge"},
}


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names & OURS


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_what_it_may(package: str) -> None:
    wrong = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        extra = imported_packages(path) - ALLOWED[package] - {package}
        if extra:
            wrong[str(path.relative_to(ROOT))] = sorted(extra)
    assert not wrong, f"imports against ARCHITECTURE.md: {wrong}"
