"""Spelling out descriptors: a one-parameter descriptor of plain integers or strings (a bid's
range, a choice of cells) makes its commands by replacing the field, without the codec's trip
through JSON; the commands are those the codec makes, value for value and type for type, for every
descriptor of every game along random games."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from dragons.commands import PlaceDie
from dragons.game import GAME as DRAGONS
from puzzipolia import commands as c
from tablehall_rules import Choice, DecideContext, IntRange, LegalMove, StructCodec
from tablehall_rules import conformance as kit
from tablehall_rules.legal import Rule, _direct, expand, move, spell, values
from tablehall_rules.registry import get_game

CODEC = StructCodec(c.COMMAND_TYPES)


def through_the_codec(lm: LegalMove, codec: StructCodec[Any]) -> Iterator[msgspec.Struct]:
    """The commands as the codec spells them (the general path)."""
    if not lm.params:
        yield lm.command
        return
    base = codec.to_builtins(lm.command)
    names = [p.field for p in lm.params]
    for combo in itertools.product(*(values(p.domain) for p in lm.params)):
        data = dict(base)
        data.update(zip(names, combo, strict=True))
        yield codec.from_builtins(data)


def same(a: list[msgspec.Struct], b: list[msgspec.Struct]) -> bool:
    return a == b and [msgspec.json.encode(x) for x in a] == [msgspec.json.encode(x) for x in b]


def test_a_bid_range_is_spelled_out_by_replacing_the_amount() -> None:
    bids = [b for b in expand(move(c.Bid(amount=0), amount=IntRange(10, 400, 10)), CODEC) if isinstance(b, c.Bid)]
    assert [b.amount for b in bids] == list(range(10, 401, 10))
    assert all(type(b) is c.Bid and type(b.amount) is int for b in bids)


def test_values_of_another_type_than_the_field_go_through_the_codec() -> None:
    # a string where the field is an integer: the codec refuses it, as it always did
    with pytest.raises(msgspec.ValidationError):
        list(expand(move(c.Bid(amount=0), amount=Choice(["ten"])), CODEC))
    # a rule's examples of the field's type are put in as they are
    examples = list(expand(move(c.Bid(amount=0), amount=Rule("bid", [20, 30])), CODEC))
    assert [b.amount for b in examples if isinstance(b, c.Bid)] == [20, 30] and len(examples) == 2


def test_each_command_owns_its_lists() -> None:
    """A list value (a contour's cells) is copied into each command: changing one command's list
    changes neither the descriptor nor another command."""
    contour = [3, 4, 5]
    descriptor = move(PlaceDie(face=2, cell=0), cell=Choice([7, 8]), contour=Rule("contour", [contour]))
    first, second = list(expand(descriptor, StructCodec(DRAGONS.command_types)))
    assert isinstance(first, PlaceDie) and isinstance(second, PlaceDie)
    assert first.contour == second.contour == contour
    assert first.contour is not contour and second.contour is not contour and first.contour is not second.contour


@pytest.mark.parametrize("game_id,seats", [("puzzipolia", 4), ("homunculus", 4), ("dragons", 2), ("magnates", 4)])
def test_every_descriptor_of_random_games_spells_out_as_the_codec_does(game_id: str, seats: int) -> None:
    game = get_game(game_id)
    codec = StructCodec(game.command_types)
    rng = random.Random(11)
    state, _, source = kit.start(game, game.parse_options({}), kit.seats_for(seats), rng.randbytes(32))
    now = kit.START_MS
    checked = plain = 0
    for _ in range(300):
        if game.outcome(state) is not None:
            break
        decision = rng.choice(game.pending(state))
        now += 250
        spelled: list[msgspec.Struct] = []
        for lm in game.legal(state, decision.seat, now):
            ours = list(itertools.islice(expand(lm, codec), 500))
            assert same(ours, list(itertools.islice(through_the_codec(lm, codec), 500))), lm
            # one command made alone from its parameters' values is the one `expand` spells out
            combos = itertools.islice(itertools.product(*(values(p.domain) for p in lm.params)), 500)
            assert same([spell(lm, combo, codec) for combo in combos], ours), lm
            spelled += ours
            checked += 1
            plain += _direct(lm) is not None
        command = rng.choice([x for x in spelled if type(x).__name__ not in ("Leave", "Surrender")] or spelled)
        for event in game.decide(state, command, DecideContext(decision.seat, now, source)):
            state = game.evolve(state, event)
    assert checked > 100 and plain > 0  # the direct path was taken, and agreed
