"""Legal-move descriptors: what each domain admits, how they spell out, and
their trip through the match API's protos."""

from __future__ import annotations

import msgspec
import pytest

from puzzipolia import commands as c
from puzzipolia.state import Bundle
from tablehall_rules import Choice, IntRange, LegalMove, Rule
from tablehall_rules.codec import StructCodec
from tablehall_rules.legal import admits, count, expand_all, move
from tablehall_stream.proto_games import legal_move_from_proto, legal_move_to_proto

CODEC = StructCodec(c.COMMAND_TYPES)


def test_an_integer_range_admits_its_steps_only() -> None:
    bid = move(c.Bid(amount=0), amount=IntRange(10, 20, 5))
    assert [x.amount for x in expand_all([bid], CODEC)] == [10, 15, 20]  # type: ignore[attr-defined]
    assert admits(bid, c.Bid(amount=15), CODEC)
    assert not admits(bid, c.Bid(amount=12), CODEC) and not admits(bid, c.Bid(amount=25), CODEC)
    assert not admits(bid, c.Build(square=15), CODEC)
    assert count([bid]) == 3


def test_a_choice_admits_its_values_and_fixed_fields_must_match() -> None:
    sell = move(
        c.ProposeTrade(to_seat=2, give=Bundle(), get=Bundle()), give=Choice([{"lots": [1], "money": 0, "cards": []}])
    )
    assert admits(sell, c.ProposeTrade(to_seat=2, give=Bundle(lots=[1]), get=Bundle()), CODEC)
    assert not admits(sell, c.ProposeTrade(to_seat=3, give=Bundle(lots=[1]), get=Bundle()), CODEC)
    assert not admits(sell, c.ProposeTrade(to_seat=2, give=Bundle(lots=[1]), get=Bundle(money=1)), CODEC)


def test_a_rule_admits_anything_the_engine_judges_and_spells_out_its_examples() -> None:
    example = Bundle(money=50)
    trade = move(c.ProposeTrade(to_seat=1, give=Bundle(), get=Bundle()), give=Rule("trade_bundle", [example]))
    assert admits(trade, c.ProposeTrade(to_seat=1, give=Bundle(lots=[39], money=7), get=Bundle()), CODEC)
    assert expand_all([trade], CODEC) == [c.ProposeTrade(to_seat=1, give=example, get=Bundle())]
    assert not trade.finite and LegalMove(c.Roll()).finite


def test_a_large_range_stays_one_small_descriptor() -> None:
    bid = move(c.Bid(amount=0), amount=IntRange(1, 1_000_000))
    assert count([bid]) == 1_000_000 and len(msgspec.json.encode(bid)) < 200
    assert len(expand_all([bid], CODEC, limit=7)) == 7


@pytest.mark.parametrize(
    "descriptor",
    [
        LegalMove(c.Roll()),
        move(c.Bid(amount=30), amount=IntRange(30, 1200)),
        move(c.Build(square=0), square=Choice([1, 3, 39])),
        move(
            c.ProposeTrade(to_seat=2, give=Bundle(), get=Bundle()),
            give=Rule("trade_bundle", [Bundle(lots=[5], money=10)]),
            get=Rule("trade_bundle", [Bundle(money=120)]),
        ),
    ],
)
def test_descriptors_survive_the_match_api(descriptor: LegalMove) -> None:
    back = legal_move_from_proto("puzzipolia", legal_move_to_proto("puzzipolia", descriptor))
    assert back.command == descriptor.command
    assert expand_all([back], CODEC) == expand_all([descriptor], CODEC)
