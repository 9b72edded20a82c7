"""`tablehall_rules.structcopy`: the copy `decide` works on (`clone`) equals its original, shares
only what cannot change, and shares no mutable object, for every kind of field a state has.

Every game's own states are checked by the conformance suite (`check_copy` in
tests/conformance/test_every_game.py); here, each planning case on small types of its own."""

from __future__ import annotations

import enum
from typing import Any, Generic, TypeVar

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tablehall_rules import clone
from tablehall_rules.conformance import shared_mutables

T = TypeVar("T")


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Card(msgspec.Struct, frozen=True):
    colour: Colour
    value: int


class Tile(msgspec.Struct, frozen=True, array_like=True):
    low: int
    high: int


class Mine(msgspec.Struct, array_like=True):  # mutable: its owner changes
    cell: int
    owner: int | None = None


class Placed(msgspec.Struct, frozen=True):  # frozen, yet its lists could be changed in place
    id: int
    cells: list[int]


class Pile(msgspec.Struct, Generic[T]):
    items: list[T] = []


class Node(msgspec.Struct):  # a type that holds itself
    value: int
    children: list[Node] = []


class Other(msgspec.Struct, frozen=True, tag=True):
    note: str


class Mutable(msgspec.Struct, tag=True):
    marks: list[int]


class State(msgspec.Struct):
    turn: int = 0
    name: str = ""
    colour: Colour = Colour.RED
    pieces: dict[int, Card] = {}
    hands: list[list[Card]] = []
    cards: Pile[Card] = msgspec.field(default_factory=Pile)
    tiles: Pile[Tile] = msgspec.field(default_factory=Pile)
    bag: tuple[Tile, ...] = ()
    pair: tuple[int, list[int]] = (0, [])
    mines: list[Mine] = []
    placed: list[Placed] = []
    seen: set[int] = set()
    fixed: frozenset[int] = frozenset()
    scores: dict[str, list[int]] = {}
    maybe: Mine | None = None
    either: Other | Mutable | None = None
    tree: Node = msgspec.field(default_factory=lambda: Node(0))
    extra: Any = None


def full_state() -> State:
    red, blue = Card(Colour.RED, 3), Card(Colour.BLUE, 7)
    return State(
        turn=2,
        name="стол",
        colour=Colour.BLUE,
        pieces={5: red, 9: blue},
        hands=[[red], [blue, red]],
        cards=Pile([red, blue]),
        tiles=Pile([Tile(1, 2)]),
        bag=(Tile(0, 0), Tile(3, 6)),
        pair=(4, [1, 2]),
        mines=[Mine(3), Mine(8, 1)],
        placed=[Placed(1, [10, 11])],
        seen={1, 2},
        fixed=frozenset({4}),
        scores={"a": [1, 2]},
        maybe=Mine(12, 0),
        either=Mutable([7]),
        tree=Node(1, [Node(2, [Node(3)])]),
        extra={"k": [1, {"n": [2]}]},
    )


def test_a_clone_equals_its_state_and_shares_nothing_mutable() -> None:
    state = full_state()
    copied = clone(state)
    assert copied == state
    assert msgspec.msgpack.encode(copied) == msgspec.msgpack.encode(state)
    assert shared_mutables(state, copied) == []


def test_what_cannot_change_is_shared() -> None:
    state = full_state()
    copied = clone(state)
    assert copied.pieces[5] is state.pieces[5]  # a frozen card
    assert copied.bag is state.bag  # a tuple of frozen tiles
    assert copied.fixed is state.fixed
    assert copied.hands[1][0] is state.hands[1][0]
    assert copied.pieces is not state.pieces and copied.hands[0] is not state.hands[0]


def test_changing_the_clone_leaves_the_state_as_it_was() -> None:
    state = full_state()
    before = msgspec.msgpack.encode(state)
    copied = clone(state)
    copied.pieces[6] = Card(Colour.RED, 1)
    copied.hands[0].append(Card(Colour.BLUE, 2))
    copied.cards.items.pop()
    copied.tiles.items.append(Tile(2, 2))
    copied.pair[1].append(3)
    copied.mines[0].owner = 2
    copied.placed[0].cells.append(12)
    copied.seen.add(9)
    copied.scores["a"].append(5)
    assert copied.maybe is not None and isinstance(copied.either, Mutable)
    copied.maybe.owner = 3
    copied.either.marks.append(8)
    copied.tree.children[0].children[0].value = 99
    copied.extra["k"][1]["n"].append(4)
    assert msgspec.msgpack.encode(state) == before


def test_a_field_typed_as_a_union_of_structs_copies_by_the_class_it_holds() -> None:
    kept = State(either=Other("x"))
    assert clone(kept).either is kept.either  # no mutable field: shared
    changed = State(either=Mutable([1]))
    assert clone(changed).either is not changed.either


def test_a_generic_struct_is_planned_per_argument() -> None:
    # Pile[Card] and Pile[Tile]: both frozen items, each shared; a Pile[Mine]'s mines are copied
    class Mines(msgspec.Struct):
        pile: Pile[Mine]
        cards: Pile[Card]

    state = Mines(Pile([Mine(1)]), Pile([Card(Colour.RED, 1)]))
    copied = clone(state)
    assert copied == state
    assert copied.pile.items[0] is not state.pile.items[0]
    assert copied.cards.items[0] is state.cards.items[0]


def test_a_clone_of_a_state_after_decoding_is_the_same_as_before() -> None:
    # a snapshot-decoded state (what the match holds after a load) copies the same way
    state = msgspec.msgpack.decode(msgspec.msgpack.encode(full_state()), type=State)
    assert clone(state) == state and shared_mutables(state, clone(state)) == []


ints = st.integers(-(2**40), 2**40)


@settings(max_examples=60, deadline=None)
@given(
    pieces=st.dictionaries(st.integers(0, 100), st.builds(Card, st.sampled_from(Colour), ints), max_size=8),
    mines=st.lists(st.builds(Mine, ints, st.none() | ints), max_size=6),
    scores=st.dictionaries(st.text(max_size=4), st.lists(ints, max_size=4), max_size=4),
    either=st.none() | st.builds(Other, st.text(max_size=5)) | st.builds(Mutable, st.lists(ints, max_size=3)),
)
def test_random_states_clone_exactly(
    pieces: dict[int, Card], mines: list[Mine], scores: dict[str, list[int]], either: Any
) -> None:
    state = State(pieces=pieces, mines=mines, scores=scores, either=either)
    copied = clone(state)
    assert msgspec.msgpack.encode(copied) == msgspec.msgpack.encode(state)
    assert shared_mutables(state, copied) == []


@pytest.mark.parametrize("value", [[1, [2]], {"a": {"b": [1]}}])
def test_plain_values_copy_deeply(value: Any) -> None:
    copied = clone(value)
    assert copied == value and shared_mutables(value, copied) == []
