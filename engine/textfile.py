"""Reading match files as text: the one decoder for ``.mat`` and SGF files.

>>> decode_text(b"\\xef\\xbb\\xbf 5 point match", "a .mat", ValueError)
' 5 point match'
>>> decode_text("caf\\xe9".encode("latin-1"), "a .mat", ValueError)
'caf\xe9'
"""
from __future__ import annotations

#: Larger files are not match files.
MAX_FILE = 50_000_000


def decode_text(data: bytes | str, what: str, error: type[Exception]) -> str:
    """``data`` as text: UTF-8 (with or without a byte-order mark), else Latin-1, which older
    Jellyfish and gnubg files use.  A huge or binary file raises ``error`` naming ``what``."""
    if isinstance(data, str):
        return data
    if len(data) > MAX_FILE:
        raise error(f"the file is {len(data)} bytes; {what} match file is far smaller")
    if b"\x00" in data[:65536]:
        raise error(f"this is a binary file, not {what} text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")
