"""One JSON codec for the commands, events and states of any game.

Events are stored as (type, schema_version, payload). The type is the
struct's tag; the schema version is the class attribute `schema_version`
(default 1). Payloads written under an older version go through the game's
upcasters before decoding, so old streams stay readable.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from operator import or_
from typing import Any, Generic, TypeVar

import msgspec

from tablehall_rules.contract import Upcasters

T = TypeVar("T", bound=msgspec.Struct)


def type_name(cls: type[msgspec.Struct]) -> str:
    tag = cls.__struct_config__.tag
    return tag if isinstance(tag, str) else cls.__name__


def schema_version(cls: type[msgspec.Struct]) -> int:
    return int(getattr(cls, "schema_version", 1))


class StructCodec(Generic[T]):
    """Encodes and decodes a tagged union of structs (commands or events)."""

    def __init__(self, types: Sequence[type[T]], upcasters: Upcasters | None = None) -> None:
        if not types:
            raise ValueError("a codec needs at least one type")
        self.types = tuple(types)
        self.by_name = {type_name(t): t for t in self.types}
        # the current version of each type, looked up once: `schema_version` of a class without the
        # attribute costs a microsecond (a missed class attribute), as much as decoding the payload
        self._version_by_name = {name: schema_version(t) for name, t in self.by_name.items()}
        self._version_by_type: dict[type[T], int] = {t: schema_version(t) for t in self.types}
        union: Any = reduce(or_, self.types) if len(self.types) > 1 else self.types[0]
        self._decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(union)
        self._encoder = msgspec.json.Encoder()
        self.upcasters = upcasters or Upcasters()

    def encode(self, item: T) -> bytes:
        return self._encoder.encode(item)

    def name(self, item: T) -> str:
        return type_name(type(item))

    def version(self, item: T) -> int:
        version = self._version_by_type.get(type(item))
        return schema_version(type(item)) if version is None else version

    def decode(self, data: bytes | str) -> T:
        result: T = self._decoder.decode(data)
        return result

    def decode_stored(self, name: str, version: int, payload: bytes | str) -> T:
        """Decode a stored payload written under `version` of type `name`."""
        current = self._version_by_name.get(name)
        if current is None:
            raise msgspec.ValidationError(f"unknown type {name!r}")
        if version == current:
            result: T = self._decoder.decode(payload)
            return result
        cls = self.by_name[name]
        raw = msgspec.json.decode(payload)
        upgraded = self.upcasters.upcast(name, version, raw)
        return msgspec.convert(upgraded, cls)

    def to_builtins(self, item: T) -> Any:
        return msgspec.to_builtins(item)

    def from_builtins(self, data: Any) -> T:
        """Decode a command or event from plain JSON-like data (tag included)."""
        return self.decode(msgspec.json.encode(data))


def encode_state(state: Any) -> bytes:
    return msgspec.json.encode(state)


def decode_state(data: bytes, state_type: type[Any]) -> Any:
    return msgspec.json.decode(data, type=state_type)
