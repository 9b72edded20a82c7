"""The shared codec: tagged structs, stored versions and upcasting."""

from __future__ import annotations

from typing import ClassVar

import msgspec
import pytest

from tablehall_rules import StructCodec, Upcasters


class Paid(msgspec.Struct, frozen=True, tag="Paid"):
    """Version 2: `amount` became `pupy` and a `reason` was added."""

    schema_version: ClassVar[int] = 2
    seat: int
    pupy: int
    reason: str


class Moved(msgspec.Struct, frozen=True, tag="Moved"):
    seat: int
    to: int


def paid_v1_to_v2(payload: dict[str, object]) -> dict[str, object]:
    payload = dict(payload)
    payload["pupy"] = payload.pop("amount")
    payload.setdefault("reason", "rent")
    return payload


def codec() -> StructCodec[msgspec.Struct]:
    upcasters = Upcasters()
    upcasters.register("Paid", 1, paid_v1_to_v2)
    return StructCodec([Paid, Moved], upcasters)


def test_round_trip_carries_the_tag_and_the_current_version() -> None:
    c = codec()
    event = Paid(seat=1, pupy=50, reason="tax")
    assert c.name(event) == "Paid" and c.version(event) == 2
    assert c.decode(c.encode(event)) == event
    assert c.version(Moved(0, 5)) == 1


def test_an_old_stream_stays_readable_through_the_upcaster() -> None:
    old = b'{"type": "Paid", "seat": 2, "amount": 120}'
    assert codec().decode_stored("Paid", 1, old) == Paid(seat=2, pupy=120, reason="rent")


def test_a_current_payload_is_decoded_directly() -> None:
    c = codec()
    assert c.decode_stored("Moved", 1, c.encode(Moved(1, 39))) == Moved(1, 39)


def test_unknown_types_and_missing_upcasters_are_errors_not_guesses() -> None:
    with pytest.raises(msgspec.ValidationError):
        codec().decode_stored("Exploded", 1, b"{}")
    bare = StructCodec[msgspec.Struct]([Paid, Moved])
    with pytest.raises(msgspec.ValidationError):
        bare.decode_stored("Paid", 1, b'{"type": "Paid", "seat": 2, "amount": 120}')
