"""A request's JSON object, read with its size bounded: refused (413) before it is all read, as
soon as it says or shows that it is larger than allowed; one reader for the API's requests
(serve.api) and the body that opens a table (serve.tables)."""

from __future__ import annotations

import json
import sys


async def json_object(request, most: int, refused, what: str, parse_int=None) -> dict:
    """The body of `request` as a JSON object of at most `most` bytes, else `refused(status,
    message)` raised (413 naming `what`, "a request's body"; 400 for a body that is not a JSON
    object); `parse_int` reads its whole numbers (json.loads's, e.g. bounding their length)."""
    declared = request.headers.get("content-length")
    too_large = f"{what} is at most {most:,} bytes"
    if declared is not None and (not declared.isdigit() or int(declared) > most):
        raise refused(413, too_large)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > most:
            raise refused(413, too_large)
        chunks.append(chunk)
    try:
        body = json.loads(b"".join(chunks), parse_int=parse_int or _whole, parse_constant=_Constant)
    except _TooManyDigits:  # JSON all the same: "not JSON" would be wrong (fuzz42 A3)
        raise refused(400, f"a number in the body has more than {sys.get_int_max_str_digits():,} digits; "
                           f"no field takes one so long") from None
    except (ValueError, RecursionError):
        raise refused(400, "the body is not JSON") from None
    if not isinstance(body, dict):
        raise refused(400, "the body is a JSON object")
    where = _constant_in(body)
    if where is not None:
        field, constant = where
        raise refused(400, f"{field}: {constant} is not JSON (JSON has no NaN or Infinity)")
    return body


class _TooManyDigits(Exception):
    """A whole number past the digits Python reads into an int (`sys.get_int_max_str_digits`),
    raised out of json.loads, which would say ValueError as for a body that is no JSON."""


def _whole(text: str) -> int:
    """json.loads's whole number, refused past Python's bound on its digits (`_TooManyDigits`)."""
    bound = sys.get_int_max_str_digits()
    if bound and len(text) - text.startswith("-") > bound:
        raise _TooManyDigits
    return int(text)


class _Constant(str):
    """NaN, Infinity or -Infinity, which Python's json reads though JSON has none of them:
    kept as what they were written, so that the field sent one is named and refused (read as
    floats, a NaN became the option value 'nan')."""


def _constant_in(value, path: str = "") -> tuple[str, str] | None:
    """The first field of a body holding a `_Constant` (its path, `options.ten`; an item of a
    list by its index, `variants.0`), with the constant, or None. Iterative: a body nests as
    deep as json read it."""
    stack = [(value, path)]
    while stack:
        value, path = stack.pop()
        if isinstance(value, _Constant):
            return path or "the body", str(value)
        if isinstance(value, dict):
            items = value.items()
        elif isinstance(value, list):
            items = enumerate(value)
        else:
            continue
        stack.extend((item, f"{path}.{key}" if path else str(key)) for key, item in reversed(list(items)))
    return None
