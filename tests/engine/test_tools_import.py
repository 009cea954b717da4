from tools import GNUBG, require_tool


def test_require_tool_finds_sh():
    assert require_tool("sh")[0].endswith("/sh")
    assert GNUBG.startswith("/")
