"""Make text safe for the RaspberryJuice wire, in both directions.

RaspberryJuice reads requests with Java `readLine`, so a CR or LF inside an argument ends
the line and whatever follows runs as a second command. It splits arguments on every comma
with no escaping and drops trailing empty fields; replies separate records with `|`.
A player's name or chat line must never be able to exploit any of that, so every piece of
text that goes out passes through one of the functions here, and text that comes back
(names, chat) is cleaned before the rest of the program sees it.
"""

from __future__ import annotations

import math
import re

#: Chat lines longer than this are cut (vanilla clients send at most 256 characters).
MAX_CHAT = 256
#: Sign lines: a safety bound, not layout (about 15 characters fit on a sign).
MAX_SIGN_LINE = 32
#: Any other text argument (player names, labels).
MAX_ARG = 64
#: Text read back from the server (names, chat messages).
MAX_INCOMING = 256

# C0/C1 controls (CR, LF, TAB, NUL, ESC, NEL...), DEL, Unicode line/paragraph separators,
# bidi overrides and lone surrogates (which cannot be encoded as UTF-8).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_SPACES = re.compile("[\t\r\n\u2028\u2029]+")


def clean_text(text: str, max_len: int) -> str:
    """Line breaks and tabs become one space, other control characters vanish, then cut."""
    text = _SPACES.sub(" ", str(text))
    text = _UNSAFE.sub("", text)
    return text[:max_len]


def chat_text(text: str) -> str:
    """Text for `chat.post`: commas are safe there, but a trailing comma would be dropped."""
    text = clean_text(text, MAX_CHAT)
    if text.endswith(","):
        # Java's split drops trailing empty fields; a final space keeps the comma.
        text = text[: MAX_CHAT - 1] + " "
    return text


def sign_line(text: str) -> str:
    """One sign line: no commas (they would split the arguments), no parentheses (as mcpi)."""
    text = clean_text(text, MAX_SIGN_LINE)
    return text.replace(",", ";").replace("(", "[").replace(")", "]")


def arg_text(text: str) -> str:
    """Any other text argument (a player name...): a comma would split it into two."""
    return clean_text(text, MAX_ARG).replace(",", ";")


def incoming_text(text: str, max_len: int = MAX_INCOMING) -> str:
    """Names and chat lines read from the server, before any other code sees them."""
    return clean_text(text, max_len).strip()


def number(value: object) -> str:
    """A numeric argument as RaspberryJuice parses it; booleans and NaN are refused."""
    if isinstance(value, bool):
        raise TypeError("RaspberryJuice takes no booleans; pass 1 or 0 instead.")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot send {value!r} to the server: coordinates must be finite.")
        return repr(value)
    raise TypeError(f"expected a number, got {type(value).__name__}: {value!r}")


def floor(value: float) -> int:
    """Block coordinates are floored here: the server would truncate (-0.5 -> 0, not -1)."""
    if isinstance(value, bool):
        raise TypeError("a coordinate cannot be a boolean.")
    if isinstance(value, int):
        return value
    if not math.isfinite(value):
        raise ValueError(f"cannot send {value!r} to the server: coordinates must be finite.")
    return math.floor(value)
