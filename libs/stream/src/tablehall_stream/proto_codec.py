"""One protobuf codec for every game's commands, driven by its structs and its proto.

A game's `Command` message has a oneof `kind` with one field per command,
named as the command's tag in snake_case (`BuyCompany` -> `buy_company`); each
field's message has the command's fields under the same names. Scalars,
repeated scalars and nested structs (as nested messages) copy over by name.
A field whose proto differs (an enum for a Python value, a differently named
field) is the only thing a game writes, as a `FieldCodec`:

    CODEC = ProtoCodec(pb.Command, COMMAND_TYPES, fields={
        "piece": EnumField({"queen": "PIECE_QUEEN", ...}),
    })

The platform's table commands come with their codecs (`SetPresence.present`
as a `presence` enum where the proto has one, `CloseTable.reason` as a
`reason` enum where the proto has one).
"""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import msgspec
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from tablehall_rules.codec import type_name
from tablehall_rules.errors import InvalidCommand, invalid


def snake(name: str) -> str:
    """`BuyCompany` -> `buy_company`, `Choose67` -> `choose_67`."""
    return re.sub(r"(?<=[a-z])(?=[A-Z0-9])|(?<=[0-9])(?=[A-Z])", "_", name).lower()


def bad_field(path: str) -> InvalidCommand:
    return invalid("BAD_FIELD", f"Field {path} is missing or invalid.", f"Поле {path} отсутствует или неверно.")


class FieldCodec(Protocol):
    """How one struct field travels in a message whose field is not a plain copy."""

    def read(self, inner: Any, name: str, path: str) -> Any: ...

    def write(self, inner: Any, name: str, value: Any) -> None: ...


class EnumField:
    """A Python value <-> a proto enum, by the enum values' names; the zero
    (UNSPECIFIED) or any other number is refused as BAD_FIELD. `proto_name`:
    the message field's name when it differs from the struct's."""

    def __init__(self, values: Mapping[Any, str], proto_name: str | None = None) -> None:
        self.values = dict(values)
        self.proto_name = proto_name
        self._numbers: dict[str, tuple[dict[Any, int], dict[int, Any]]] = {}

    def _maps(self, inner: Any, field: str) -> tuple[dict[Any, int], dict[int, Any]]:
        key = inner.DESCRIPTOR.full_name
        maps = self._numbers.get(key)
        if maps is None:
            enum = inner.DESCRIPTOR.fields_by_name[field].enum_type
            to_pb = {value: enum.values_by_name[name].number for value, name in self.values.items()}
            maps = self._numbers[key] = (to_pb, {n: v for v, n in to_pb.items()})
        return maps

    def read(self, inner: Any, name: str, path: str) -> Any:
        field = self.proto_name or name
        _, from_pb = self._maps(inner, field)
        number = getattr(inner, field)
        if number not in from_pb:
            raise bad_field(f"{path}.{field}")
        return from_pb[number]

    def write(self, inner: Any, name: str, value: Any) -> None:
        field = self.proto_name or name
        to_pb, _ = self._maps(inner, field)
        if value not in to_pb:
            raise bad_field(f"{inner.DESCRIPTOR.name}.{field}")
        setattr(inner, field, to_pb[value])


class Unset:
    """A proto3 `optional` field whose absence is a struct's sentinel value (a cell or a
    colour of -1: "none"): unset reads as `value`, `value` writes nothing."""

    def __init__(self, value: Any = -1) -> None:
        self.value = value

    def read(self, inner: Any, name: str, path: str) -> Any:
        return getattr(inner, name) if inner.HasField(name) else self.value

    def write(self, inner: Any, name: str, value: Any) -> None:
        if value != self.value:
            setattr(inner, name, value)


PRESENCE = EnumField({True: "PRESENCE_PRESENT", False: "PRESENCE_ABSENT"}, proto_name="presence")
CLOSE_REASON = EnumField({"operator": "CLOSE_REASON_OPERATOR", "idle": "CLOSE_REASON_IDLE"})


def _is_enum(message: Any, field: str) -> bool:
    fd = message.DESCRIPTOR.fields_by_name.get(field)
    return fd is not None and fd.type == FieldDescriptor.TYPE_ENUM


class ProtoCodec:
    """`Command` message <-> command structs for one game."""

    def __init__(
        self,
        message: type[Message],
        types: Sequence[type[msgspec.Struct]],
        *,
        fields: Mapping[str, FieldCodec] | None = None,
        oneof: str = "kind",
    ) -> None:
        self.message = message
        self.oneof = oneof
        by_snake = {snake(type_name(t)): t for t in types}
        self.by_field: dict[str, type[msgspec.Struct]] = {}
        for fd in message.DESCRIPTOR.oneofs_by_name[oneof].fields:
            kind = by_snake.get(fd.name)
            if kind is None:
                raise TypeError(f"{message.DESCRIPTOR.full_name}.{fd.name} names no command struct")
            self.by_field[fd.name] = kind
        self.by_type = {t: name for name, t in self.by_field.items()}
        self._codecs: dict[tuple[type[msgspec.Struct], str], FieldCodec] = {}
        self._hints: dict[type[Any], dict[str, Any]] = {}
        for field_name, kind in self.by_field.items():
            inner = getattr(message(), field_name)
            for name in kind.__struct_fields__:
                codec = self._codec_for(kind, name, inner, fields or {})
                if codec is not None:
                    self._codecs[(kind, name)] = codec

    def _codec_for(
        self, kind: type[msgspec.Struct], name: str, inner: Any, fields: Mapping[str, FieldCodec]
    ) -> FieldCodec | None:
        tag = type_name(kind)
        explicit = fields.get(f"{tag}.{name}") or fields.get(name)
        if explicit is not None:
            return explicit
        if tag == "SetPresence" and name == "present" and _is_enum(inner, "presence"):
            return PRESENCE
        if tag == "CloseTable" and name == "reason" and _is_enum(inner, "reason"):
            return CLOSE_REASON
        if name not in inner.DESCRIPTOR.fields_by_name:
            raise TypeError(f"{inner.DESCRIPTOR.full_name} has no field {name!r} for {tag}")
        if _is_enum(inner, name):
            raise TypeError(f"{inner.DESCRIPTOR.full_name}.{name} is an enum: give it an EnumField")
        return None

    def _hint(self, kind: type[Any], name: str) -> Any:
        hints = self._hints.get(kind)
        if hints is None:
            hints = self._hints[kind] = typing.get_type_hints(kind)
        return hints[name]

    # --- message -> struct ------------------------------------------------------------

    def from_proto(self, msg: Message) -> msgspec.Struct:
        """The command a message carries; `InvalidCommand` when it carries none or a bad field."""
        field = msg.WhichOneof(self.oneof)
        if field is None:
            raise invalid("EMPTY_COMMAND", "The command carries no kind.", "В команде не указан её вид.")
        command: msgspec.Struct = self._read_struct(self.by_field[field], getattr(msg, field), field)
        return command

    def _read_struct(self, kind: type[Any], inner: Any, path: str) -> Any:
        args: dict[str, Any] = {}
        for name in kind.__struct_fields__:
            codec = self._codecs.get((kind, name))
            if codec is not None:
                args[name] = codec.read(inner, name, path)
            else:
                args[name] = self._read_value(self._hint(kind, name), getattr(inner, name), f"{path}.{name}")
        try:
            return kind(**args)
        except (TypeError, msgspec.ValidationError) as exc:
            raise bad_field(path) from exc

    def _read_value(self, hint: Any, value: Any, path: str) -> Any:
        origin = typing.get_origin(hint)
        if origin in (list, tuple, Sequence):
            (item,) = typing.get_args(hint)[:1]
            return [self._read_value(item, v, path) for v in value]
        if isinstance(hint, type) and issubclass(hint, msgspec.Struct):
            return self._read_struct(hint, value, path)
        return value

    # --- struct -> message ------------------------------------------------------------

    def to_proto(self, command: msgspec.Struct) -> Message:
        field = self.by_type.get(type(command))
        if field is None:
            raise invalid("UNKNOWN_COMMAND", f"Unknown command {type(command).__name__}.", "Неизвестная команда.")
        msg = self.message()
        inner = getattr(msg, field)
        inner.SetInParent()
        self._write_struct(command, inner)
        return msg

    def _write_struct(self, item: Any, inner: Any) -> None:
        kind = type(item)
        for name in kind.__struct_fields__:
            value = getattr(item, name)
            codec = self._codecs.get((kind, name))
            if codec is not None:
                codec.write(inner, name, value)
            elif isinstance(value, (list, tuple)):
                target = getattr(inner, name)
                for v in value:
                    if isinstance(v, msgspec.Struct):
                        self._write_struct(v, target.add())
                    else:
                        target.append(v)
            elif isinstance(value, msgspec.Struct):
                sub = getattr(inner, name)
                sub.SetInParent()
                self._write_struct(value, sub)
            else:
                setattr(inner, name, value)
