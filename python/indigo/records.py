"""Reading records (and other JSON input) from bytes: one policy for every reader.

``indigo replay``, ``indigo render`` and the web app all turn bytes into JSON here, so a file
is accepted or refused the same way everywhere:

* at most :data:`MAX_RECORD_BYTES` (a whole game's record is about 4 KiB); a stream is read to
  at most one byte more than the limit, so ``/dev/zero`` is refused at once;
* UTF-8 only: a UTF-8 byte-order mark and UTF-16/UTF-32 text are refused, with a message that
  says so (docs/spec/FORMATS.md: records are UTF-8 JSON);
* strict JSON: no ``NaN``/``Infinity``, no integer of more than 4,300 digits, nesting that the
  parser can follow, and strings that are text (no lone surrogate such as ``"\\ud800"``);
* a JSON object at the top.

:func:`parse_record` raises :class:`indigo.RecordError` with ``at == "format"``;
:func:`decode_json_object` raises :class:`JsonInputError` for callers whose input is not a record
(a web request body). Whether the object is a valid record is then for ``Game.from_record``.
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any, Final

from indigo._native import IndigoError, RecordError

__all__ = [
    "MAX_RECORD_BYTES",
    "JsonInputError",
    "decode_json_object",
    "parse_record",
    "read_record",
]

MAX_RECORD_BYTES: Final = 1 << 20
"""Largest record accepted from a file or stream, in bytes (1 MiB)."""

_UTF8_BOM: Final = b"\xef\xbb\xbf"
_WIDE_BOMS: Final = {
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}


class JsonInputError(IndigoError):
    """Bytes that are not one JSON object under the project's input policy (see the module)."""


def _refuse_constant(name: str) -> Any:
    raise JsonInputError(f"invalid JSON: {name} is not JSON")


def decode_json_object(data: bytes | bytearray | memoryview, *, limit: int) -> dict[str, Any]:
    """The JSON object in ``data`` (at most ``limit`` bytes). Raises :class:`JsonInputError`."""
    raw = bytes(data)
    if len(raw) > limit:
        raise JsonInputError(f"longer than {limit} bytes")
    if raw.startswith(_UTF8_BOM):
        raise JsonInputError(
            "invalid JSON: starts with a UTF-8 byte-order mark (save it as UTF-8 without BOM)"
        )
    for bom, name in _WIDE_BOMS.items():
        if raw.startswith(bom):
            raise JsonInputError(f"invalid JSON: not UTF-8 text ({name}: save it as UTF-8)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise JsonInputError(
            f"invalid JSON: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise JsonInputError(
            f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise JsonInputError("invalid JSON: nested too deeply") from None
    except JsonInputError:
        raise
    except ValueError:  # int() refuses the digits
        most = sys.get_int_max_str_digits()
        raise JsonInputError(f"invalid JSON: an integer of more than {most} digits") from None
    try:  # a "\ud800" escape decodes to a str that is not text
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start : exc.end].encode("unicode_escape").decode("ascii")
        raise JsonInputError(f"invalid JSON: a lone surrogate ({bad}) is not text") from None
    except RecursionError:
        raise JsonInputError("invalid JSON: nested too deeply") from None
    if not isinstance(value, dict):
        raise JsonInputError(f"must be a JSON object, not {type(value).__name__}")
    return value


def parse_record(
    data: bytes | bytearray | memoryview, *, limit: int = MAX_RECORD_BYTES
) -> dict[str, Any]:
    """The record's JSON object in ``data``, not yet checked as a record (``Game.from_record``
    does that). Raises :class:`indigo.RecordError` at ``"format"``."""
    try:
        return decode_json_object(data, limit=limit)
    except JsonInputError as exc:
        error = RecordError(f"format: {exc}")
        error.at = "format"
        raise error from None


def read_record(stream: IO[bytes] | IO[str], *, limit: int = MAX_RECORD_BYTES) -> dict[str, Any]:
    """:func:`parse_record` of what ``stream`` holds, reading at most ``limit + 1`` bytes.

    A text stream (already decoded by its owner) is read as its UTF-8 encoding.
    """
    data = stream.read(limit + 1)
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return parse_record(raw, limit=limit)
