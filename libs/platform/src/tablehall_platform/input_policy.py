"""The input policy every service applies at its edge (docs/security.md, «Input policy»).

The gRPC guard runs `check_request` on every request message (and on every
message of a client stream) before a servicer sees it, so no service can
forget it. Rules go by field name, whatever the message:

- no control character (Unicode category Cc, NUL included) in any string;
- identifiers (`request_id`, `user_id`, `decision_key`, `game`, ...): at most
  `max_id` characters, no whitespace or invisible format characters;
- display names (`name`, `display_name`): normalised to Unicode NFKC in place,
  no invisible characters (format, zero-width, bidirectional controls, fillers),
  at most `max_name` characters;
- table names (`table`): `tables/{id}` exactly (see `names.parse_table`);
- chat (`text`): at most `max_chat` characters, no invisible characters but the
  joiners and emoji tags text needs;
- `options_json`: at most `max_options_bytes` bytes and `max_options_depth`
  levels of nesting, an object whose keys and strings hold no control character;
- `page_token`: at most `max_page_token` characters of the URL-safe base64
  alphabet; `page_size`: 0..`max_page_size`;
- any other string: at most `max_string` characters.

Every violation is INVALID_ARGUMENT with a stable reason and en/ru messages.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from tablehall_platform.errors import BadRequest
from tablehall_platform.names import options_from_json, parse_table

INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1

ID_FIELDS = frozenset({"request_id", "user_id", "decision_key", "game", "host_user_id", "seed_sha256"})
NAME_FIELDS = frozenset({"name", "display_name"})
TABLE_FIELDS = frozenset({"table"})
CHAT_FIELDS = frozenset({"text"})
OPTIONS_FIELDS = frozenset({"options_json"})
PAGE_TOKEN_FIELDS = frozenset({"page_token"})
PAGE_SIZE_FIELDS = frozenset({"page_size"})
PAGE_TOKEN_ALPHABET = re.compile(r"[A-Za-z0-9_=:,-]*")


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


@dataclass(frozen=True)
class InputLimits:
    """The limits of the input policy, each a setting (TABLEHALL_MAX_*) with a default."""

    max_id: int = field(default_factory=lambda: _env_int("TABLEHALL_MAX_ID_LENGTH", 128))
    max_name: int = field(default_factory=lambda: _env_int("TABLEHALL_MAX_NAME_LENGTH", 60))
    max_chat: int = field(default_factory=lambda: _env_int("TABLEHALL_MAX_CHAT_LENGTH", 500))
    max_string: int = field(default_factory=lambda: _env_int("TABLEHALL_MAX_STRING_LENGTH", 1024))
    max_options_bytes: int = field(default_factory=lambda: _env_int("TABLEHALL_MAX_OPTIONS_BYTES", 16384))
    max_options_depth: int = field(default_factory=lambda: _env_int("TABLEHALL_MAX_OPTIONS_DEPTH", 16))
    max_page_token: int = field(default_factory=lambda: _env_int("TABLEHALL_MAX_PAGE_TOKEN_LENGTH", 256))
    max_page_size: int = field(default_factory=lambda: _env_int("TABLEHALL_MAX_PAGE_SIZE", 1000))


# -- the single checks, usable on their own ------------------------------------------------


# Unicode's Cc category is exactly these 65 code points (C0, DEL, C1), fixed by the standard:
# one regular expression scan instead of a category lookup per character (every request's strings)
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
# printable ASCII but the space: all of it is in categories L, N, P or S
_ASCII_ID = re.compile("[!-~]*")


def has_control(text: str) -> bool:
    """Whether `text` holds a control character (Cc: C0, DEL, C1; NUL included)."""
    return _CONTROL.search(text) is not None


def _is_id_char(ch: str) -> bool:
    # letters, digits, marks, punctuation and symbols: no separators (spaces),
    # control, format (invisible) or unassigned characters
    return unicodedata.category(ch)[0] in "LNMPS"


def _is_id(value: str) -> bool:
    if value.isascii():  # the usual id: one scan in C
        return _ASCII_ID.fullmatch(value) is not None
    return all(_is_id_char(ch) for ch in value)


def _refuse(reason: str, what: str, en: str, ru: str) -> BadRequest:
    return BadRequest(reason, f"{what}: {en}", ru=f"{what}: {ru}", metadata={"field": what})


def check_id(value: str, what: str, limits: InputLimits, reason: str = "INVALID_ID") -> str:
    """An identifier: 1..max_id visible characters, nothing else (empty passes: a field not sent)."""
    if len(value) > limits.max_id:
        raise _refuse(reason, what, f"at most {limits.max_id} characters.", f"не больше {limits.max_id} символов.")
    if not _is_id(value):
        raise _refuse(
            reason,
            what,
            "only visible characters (no spaces, control or invisible characters).",
            "только видимые символы (без пробелов и управляющих символов).",
        )
    return value


# Characters that show as nothing (or move other text) and so let one name pass for another:
# format characters (Cf: zero-width spaces and joiners, bidirectional controls, the soft
# hyphen, tags), line and paragraph separators, private-use, surrogate and unassigned code
# points, and the Hangul fillers (letters that draw blank).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
# In chat, the format characters real text needs: zero-width (non-)joiners (Persian, Indic
# scripts, emoji sequences) and the tag characters of flag emoji. Bidirectional controls,
# zero-width spaces and the rest stay refused.
_CHAT_FORMAT = frozenset("\u200c\u200d") | frozenset(chr(c) for c in range(0xE0020, 0xE0080))


def invisible_in_name(text: str) -> bool:
    """Whether `text` holds a character that shows as nothing or reorders text (see above)."""
    if text.isascii():  # no format characters in ASCII: one check in C
        return False
    return any(ch in _BLANK_LETTERS or unicodedata.category(ch) in _INVISIBLE_CATEGORIES for ch in text)


def invisible_in_chat(text: str) -> bool:
    """Like `invisible_in_name`, but joiners and emoji tags are text here."""
    if text.isascii():
        return False
    return any(
        ch not in _CHAT_FORMAT and (ch in _BLANK_LETTERS or unicodedata.category(ch) in _INVISIBLE_CATEGORIES)
        for ch in text
    )


def name_form(value: str) -> str:
    """A name as it is compared and shown: Unicode NFKC (fullwidth, ligatures, compatibility
    forms folded), so look-alike spellings meet."""
    return value if value.isascii() else unicodedata.normalize("NFKC", value)


def display_name(value: str, limits: InputLimits, what: str = "name") -> str:
    """A display name in NFKC: no control or invisible character, at most max_name characters."""
    normal = name_form(value)
    if has_control(normal):
        raise _refuse("INVALID_NAME", what, "no control characters.", "без управляющих символов.")
    if invisible_in_name(normal):
        raise _refuse(
            "INVALID_NAME",
            what,
            "no invisible characters (zero-width, bidirectional controls, fillers).",
            "без невидимых символов (нулевой ширины, управления направлением текста, заполнителей).",
        )
    if len(normal) > limits.max_name:
        raise _refuse(
            "INVALID_NAME", what, f"at most {limits.max_name} characters.", f"не больше {limits.max_name} символов."
        )
    return normal


def json_depth_exceeds(text: str, limit: int) -> bool:
    """Whether JSON text nests deeper than `limit` (scanned, never parsed: a parser recurses)."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _json_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _json_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _json_strings(item)


def check_options_json(text: str, limits: InputLimits) -> None:
    """options_json within size and depth, an object, no control character in its strings."""
    if len(text.encode()) > limits.max_options_bytes:
        raise _refuse(
            "INVALID_OPTIONS_JSON",
            "options_json",
            f"at most {limits.max_options_bytes} bytes.",
            f"не больше {limits.max_options_bytes} байт.",
        )
    if json_depth_exceeds(text, limits.max_options_depth):
        raise _refuse(
            "INVALID_OPTIONS_JSON",
            "options_json",
            f"at most {limits.max_options_depth} levels of nesting.",
            f"не больше {limits.max_options_depth} уровней вложенности.",
        )
    options = options_from_json(text)
    if any(has_control(s) for s in _json_strings(options)):
        raise _refuse(
            "INVALID_OPTIONS_JSON", "options_json", "no control characters in its strings.", "без управляющих символов."
        )


def token_int(text: str, *, low: int = 0, high: int = INT32_MAX) -> int:
    """An integer read from a page token: decimal, within low..high; INVALID_PAGE_TOKEN otherwise."""
    if not (text.isascii() and (text.isdigit() or (text[:1] == "-" and text[1:].isdigit()))) or len(text) > 20:
        raise _bad_token()
    value = int(text)
    if not low <= value <= high:
        raise _bad_token()
    return value


def _bad_token() -> BadRequest:
    return BadRequest("INVALID_PAGE_TOKEN", "page_token is not one we gave.", ru="Неверный page_token.")


# -- the request walk -----------------------------------------------------------------------


def check_request(message: Message, limits: InputLimits) -> None:
    """Apply the policy to every field of a request (nested messages included).

    Display names are normalised to NFKC in place; everything else is checked only.
    """
    for descriptor, value in message.ListFields():
        kind = _KINDS.get(descriptor)
        if kind is None:
            kind = _kind(descriptor)
        if kind is _OTHER:
            continue
        if kind is _MESSAGE:
            check_request(value, limits)
        elif kind is _MESSAGES:
            for item in value:
                if isinstance(item, Message):
                    check_request(item, limits)
        elif kind is _STRING:
            name = descriptor.name
            normal = _check_string(name, value, limits)
            if normal != value:
                setattr(message, name, normal)
        elif kind is _STRINGS:
            for item in value:
                _check_string(descriptor.name, item, limits)
        elif not 0 <= value <= limits.max_page_size:  # _PAGE_SIZE
            raise BadRequest(
                "INVALID_PAGE_SIZE",
                f"page_size is 0..{limits.max_page_size}.",
                ru=f"page_size — от 0 до {limits.max_page_size}.",
            )


# What the walk does with a field, looked up once per field descriptor (the
# descriptor's attributes cost more to read than most checks take).
_MESSAGE, _MESSAGES, _STRING, _STRINGS, _PAGE_SIZE, _OTHER = (object() for _ in range(6))
_KINDS: dict[FieldDescriptor, object] = {}


def _kind(descriptor: FieldDescriptor) -> object:
    repeated = _is_repeated(descriptor)
    if descriptor.type == FieldDescriptor.TYPE_MESSAGE:
        kind = _MESSAGES if repeated else _MESSAGE
    elif descriptor.type == FieldDescriptor.TYPE_STRING:
        kind = _STRINGS if repeated else _STRING
    elif descriptor.name in PAGE_SIZE_FIELDS and not repeated:
        kind = _PAGE_SIZE
    else:
        kind = _OTHER
    _KINDS[descriptor] = kind
    return kind


def _is_repeated(descriptor: FieldDescriptor) -> bool:
    return bool(descriptor.is_repeated)


def _check_string(name: str, value: str, limits: InputLimits) -> str:
    if name in NAME_FIELDS:
        return display_name(value, limits, name)
    if name in ID_FIELDS:
        reason = "INVALID_REQUEST_ID" if name == "request_id" else "INVALID_ID"
        return check_id(value, name, limits, reason)
    if name in TABLE_FIELDS:
        if value:
            parse_table(value)
        return value
    if name in OPTIONS_FIELDS:
        check_options_json(value, limits)
        return value
    if name in PAGE_TOKEN_FIELDS:
        if len(value) > limits.max_page_token or not PAGE_TOKEN_ALPHABET.fullmatch(value):
            raise _bad_token()
        return value
    chat = name in CHAT_FIELDS
    limit = limits.max_chat if chat else limits.max_string
    if has_control(value):
        raise _refuse("INVALID_TEXT", name, "no control characters.", "без управляющих символов.")
    if chat and invisible_in_chat(value):
        raise _refuse(
            "INVALID_TEXT",
            name,
            "no invisible characters (zero-width spaces, bidirectional controls).",
            "без невидимых символов (пробелов нулевой ширины, управления направлением текста).",
        )
    if len(value.strip()) > limit:
        if chat:
            raise _refuse("CHAT_TOO_LONG", name, f"at most {limit} characters.", f"не больше {limit} символов.")
        raise _refuse("INVALID_TEXT", name, f"at most {limit} characters.", f"не больше {limit} символов.")
    return value
