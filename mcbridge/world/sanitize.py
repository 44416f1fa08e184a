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
import unicodedata

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


#: What a comma in sign text is shown as. RaspberryJuice splits a command's arguments at every
#: "," (and setSign, unlike chat.post, does not join them back), so a comma cannot be sent.
#: [decided here] U+201A SINGLE LOW-9 QUOTATION MARK: the same shape as a comma at the same
#: height, where ";" reads as another mark ("3, 4" as "3; 4"). Both servers take it (RJ reads
#: the socket as UTF-8, flying-squid sends sign text as JSON), and the 1.12 client draws it
#: from its Unicode font pages; `textfit` counts it as a comma's width. One place for every
#: sign line (the kits' fitted texts, refusal notes, pasted schematics), so a comma looks the
#: same wherever it is shown.
SIGN_COMMA = "\u201a"


def sign_line(text: str) -> str:
    """One sign line: commas as `SIGN_COMMA` (a comma would split the arguments), no
    parentheses (as mcpi)."""
    text = clean_text(text, MAX_SIGN_LINE)
    return text.replace(",", SIGN_COMMA).replace("(", "[").replace(")", "]")


def arg_text(text: str) -> str:
    """Any other text argument (a player name...): a comma would split it into two."""
    return clean_text(text, MAX_ARG).replace(",", ";")


def incoming_text(text: str, max_len: int = MAX_INCOMING) -> str:
    """Names and chat lines read from the server, before any other code sees them."""
    return clean_text(text, max_len).strip()


# -- player text on the servers, and the reply-field escaping ---------------------------------

#: A Java Edition player name, as vanilla enforces it at login.
JAVA_NAME = re.compile(r"[A-Za-z0-9_]{3,16}")
#: Unicode categories stripped from player chat: controls, format characters (bidi
#: overrides and marks, zero-width joiners), line/paragraph separators, lone surrogates.
_STRIPPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
#: Vanilla refuses the section sign in player chat: it would forge colour codes.
SECTION_SIGN = "\u00a7"


def is_java_name(name: str) -> bool:
    return JAVA_NAME.fullmatch(name) is not None


def clean_player_chat(message: str, max_len: int = MAX_CHAT) -> str:
    """What a server keeps of a chat line a player sent: no control, format or bidi
    characters and no section sign (vanilla kicks for those; we strip them), at most
    `max_len` characters. An empty result means the line is dropped."""
    kept = "".join(c for c in str(message) if c != SECTION_SIGN and unicodedata.category(c) not in _STRIPPED_CATEGORIES)
    return kept[:max_len]


def _needs_escape(c: str) -> bool:
    return c in "\\|" or unicodedata.category(c) in _STRIPPED_CATEGORIES


def escape_field(text: str) -> str:
    """A reply field that carries player text (server/README.md, "Reply escaping").

    `\\` becomes `\\\\`; `|` and every control, format or separator character become
    `\\uXXXX` (UTF-16 code units, as in JSON). Ordinary text is unchanged, so stock mcpi
    still reads it; no text can add a reply line, a record or a field.
    """
    if not any(_needs_escape(c) for c in text):
        return text
    out = []
    for c in text:
        if c == "\\":
            out.append("\\\\")
        elif not _needs_escape(c):
            out.append(c)
        elif ord(c) > 0xFFFF:  # an astral format character: its UTF-16 surrogate pair
            high, low = divmod(ord(c) - 0x10000, 0x400)
            out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}")
        else:
            out.append(f"\\u{ord(c):04x}")
    return "".join(out)


_ESCAPE = re.compile(r"\\(\\|u[0-9a-fA-F]{4})")


def unescape_field(text: str) -> str:
    """The inverse of `escape_field`; a backslash not starting an escape stays as it is."""
    if "\\" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        return "\\" if code == "\\" else chr(int(code[1:], 16))

    decoded = _ESCAPE.sub(one, text)
    # Surrogate pairs written as two escapes join back into one character.
    return decoded.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


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
