"""Java's text rules, as RaspberryJuice applies them to every request and reply.

RaspberryJuice is a Java plugin: arguments are split with ``String.split(",")``, numbers
are read with ``Integer.parseInt``/``Byte.parseByte``/``Double.parseDouble``, block
coordinates are ``(int)`` casts of doubles, and replies print doubles and floats with
``Double.toString``/``Float.toString``. Python's own ``split``, ``int``, ``float`` and
``repr`` differ at the edges (trailing empty fields, ``"1_0"``, ``"inf"``, ``1e-05``,
saturating casts), and those edges are exactly what a conformance suite probes. Every
parse error raises ``ValueError``, which the command layer turns into ``Fail``.
"""

from __future__ import annotations

import math
import re
import struct
from decimal import Decimal

INT_MIN = -(2**31)
INT_MAX = 2**31 - 1

_JAVA_INT = re.compile(r"[+-]?[0-9]+")
# Double.parseDouble: optional sign, NaN/Infinity or a decimal literal with an optional
# exponent and an optional f/F/d/D suffix; surrounding chars <= ' ' are trimmed.
# (Hexadecimal float literals are also Java-legal; nobody sends them, so they Fail here.)
_JAVA_DOUBLE = re.compile(
    r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)"
)


def split_args(text: str) -> list[str]:
    """``text.split(",")`` with Java semantics: trailing empty fields are dropped,
    except that a text with no comma at all (even an empty one) is returned whole."""
    if "," not in text:
        return [text]
    parts = text.split(",")
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def parse_int(text: str, low: int = INT_MIN, high: int = INT_MAX) -> int:
    """``Integer.parseInt`` (or ``Byte.parseByte`` with low=-128, high=127)."""
    if not _JAVA_INT.fullmatch(text):
        raise ValueError(f"not an integer: {text!r}")
    value = int(text)
    if not low <= value <= high:
        raise ValueError(f"out of range: {text!r}")
    return value


def parse_byte(text: str) -> int:
    return parse_int(text, -128, 127)


def parse_double(text: str) -> float:
    """``Double.parseDouble``."""
    trimmed = _java_trim(text)
    if not _JAVA_DOUBLE.fullmatch(trimmed):
        raise ValueError(f"not a number: {text!r}")
    body = trimmed.rstrip("fFdD") if not trimmed.endswith(("NaN", "Infinity")) else trimmed
    if body.lstrip("+-") == "NaN":
        return math.nan
    if body.lstrip("+-") == "Infinity":
        return -math.inf if body.startswith("-") else math.inf
    return float(body)


def parse_float(text: str) -> float:
    """``Float.parseFloat``: a double rounded to single precision."""
    return to_float32(parse_double(text))


def to_float32(value: float) -> float:
    if math.isnan(value) or math.isinf(value):
        return value
    if abs(value) > 3.4028235677973366e38:
        return math.copysign(math.inf, value)
    return float(struct.unpack("f", struct.pack("f", value))[0])


def java_int_cast(value: float) -> int:
    """``(int) someDouble``: truncation toward zero, NaN -> 0, saturating at the int range."""
    if math.isnan(value):
        return 0
    if value >= INT_MAX:
        return INT_MAX
    if value <= INT_MIN:
        return INT_MIN
    return int(value)


def wrap_int(value: int) -> int:
    """32-bit two's-complement wrap-around, as Java ``int`` addition does."""
    return (value + 2**31) % 2**32 - 2**31


def parse_block_coord(text: str) -> int:
    """A block coordinate as RJ reads it: parse as double, then truncate toward zero."""
    digits = text[1:] if text[:1] == "-" else text
    if digits.isascii() and digits.isdigit():  # the usual case, ~5x faster; same result
        return max(INT_MIN, min(INT_MAX, int(text)))
    return java_int_cast(parse_double(text))


def format_double(value: float) -> str:
    """``Double.toString``."""
    return _format_java(value, repr(float(value)) if math.isfinite(value) else "")


def format_float(value: float) -> str:
    """``Float.toString`` for a value already rounded to single precision."""
    if not math.isfinite(value):
        return _format_java(value, "")
    return _format_java(value, _shortest_float32_digits(value))


def _shortest_float32_digits(value: float) -> str:
    for precision in range(1, 10):
        text = f"{value:.{precision}g}"
        if to_float32(float(text)) == value:
            return text
    return repr(value)


def _format_java(value: float, shortest: str) -> str:
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    sign, digits, exponent = Decimal(shortest).normalize().as_tuple()
    assert isinstance(exponent, int)
    text_digits = "".join(map(str, digits))
    # Decimal exponent of the leading digit: value = d.ddd x 10^point.
    point = len(text_digits) + exponent - 1
    prefix = "-" if sign else ""
    if 1e-3 <= abs(value) < 1e7:
        if point >= 0:
            whole = text_digits[: point + 1].ljust(point + 1, "0")
            fraction = text_digits[point + 1 :] or "0"
        else:
            whole = "0"
            fraction = "0" * (-point - 1) + text_digits
        return f"{prefix}{whole}.{fraction}"
    fraction = text_digits[1:] or "0"
    return f"{prefix}{text_digits[0]}.{fraction}E{point}"


def _java_trim(text: str) -> str:
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]
