"""Legal-move descriptors: what a seat may do now, in a form that stays small.

A `LegalMove` is a command template plus parameters. Each parameter names a
top-level field of the command and its domain:

- `IntRange(lo, hi, step)`: any integer lo, lo+step, ... <= hi (a bid);
- `Choice(values)`: one of the listed values (a piece's target cells);
- `Rule(name, examples)`: any value the engine's named rule accepts (a
  contour declared as a cycle of cells; a trade's bundles). The engine is the
  judge; `examples` are values it accepts now, for clients and bots that want
  something concrete.

The template's own value in a parameter field is a placeholder. A move admits
the commands equal to the template in every other field and in its domain in
every parameter field; a move without parameters admits its template alone.

The contract (checked for every game by `tablehall_rules.conformance`): every
command a descriptor admits through finite domains and rule examples is
accepted by `decide`, and every command `decide` accepts is admitted by some
descriptor.

A game may answer with `LegalMoves`: the descriptors in order, some of them
found only when a reader reaches them (a part `later` stands for the zero or
more descriptors its function returns, e.g. those that exist only through a
contour an example search finds). Reading it in full gives what the eager list
gave; a reader that stops early (the first command, whether any use exists)
never runs the parts after.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol, overload

import msgspec


class IntRange(msgspec.Struct, frozen=True, tag="range"):
    lo: int
    hi: int
    step: int = 1

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return self.lo <= value <= self.hi and (value - self.lo) % self.step == 0

    def __len__(self) -> int:
        return max(0, (self.hi - self.lo) // self.step + 1)

    def values(self) -> Iterator[int]:
        return iter(range(self.lo, self.hi + 1, self.step))


class Choice(msgspec.Struct, frozen=True, tag="choice"):
    values: list[Any]

    def __contains__(self, value: object) -> bool:
        return value in self.values

    def __len__(self) -> int:
        return len(self.values)


class Rule(msgspec.Struct, frozen=True, tag="rule"):
    name: str
    examples: list[Any] = msgspec.field(default_factory=list)

    def __contains__(self, value: object) -> bool:
        return True  # the engine judges; the descriptor only says the move exists


Domain = IntRange | Choice | Rule


class Param(msgspec.Struct, frozen=True):
    field: str
    domain: Domain


class LegalMove(msgspec.Struct, frozen=True, omit_defaults=True):
    command: msgspec.Struct
    params: list[Param] = msgspec.field(default_factory=list)

    @property
    def finite(self) -> bool:
        """Every parameter has a finite domain (no engine rule)."""
        return not any(isinstance(p.domain, Rule) for p in self.params)

    def size(self) -> int:
        """How many commands the finite domains and rule examples spell out."""
        n = 1
        for p in self.params:
            n *= len(p.domain.examples) if isinstance(p.domain, Rule) else len(p.domain)
        return n


Later = Callable[[], Iterable[LegalMove]]


class LegalMoves(Sequence[LegalMove]):
    """Descriptors in order, of which the `Later` parts are found when first reached (each once).

    A part's function must not read anything that may change after the listing was made (a
    state that evolves in place): it closes over copies.
    """

    __slots__ = ("_found", "_parts")

    def __init__(self, parts: Iterable[LegalMove | Later] = ()) -> None:
        self._found: list[LegalMove] = []
        self._parts: Iterator[LegalMove | Later] = iter(parts)

    def _more(self) -> bool:
        """Find the next part's descriptors; False when none is left."""
        for part in self._parts:
            if isinstance(part, LegalMove):
                self._found.append(part)
            else:
                self._found.extend(part())
            return True
        return False

    def __iter__(self) -> Iterator[LegalMove]:
        i = 0
        while True:
            if i < len(self._found):
                yield self._found[i]
                i += 1
            elif not self._more():
                return

    def __len__(self) -> int:
        while self._more():
            pass
        return len(self._found)

    @overload
    def __getitem__(self, index: int) -> LegalMove: ...

    @overload
    def __getitem__(self, index: slice) -> list[LegalMove]: ...

    def __getitem__(self, index: int | slice) -> LegalMove | list[LegalMove]:
        if isinstance(index, slice) or index < 0:
            len(self)
        else:
            while len(self._found) <= index and self._more():
                pass
        return self._found[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalMoves | list | tuple):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LegalMoves({list(self)!r})"


class CommandCodec(Protocol):
    """The part of `StructCodec` the expansion needs."""

    def to_builtins(self, item: Any) -> Any: ...

    def from_builtins(self, data: Any) -> Any: ...


def move(command: msgspec.Struct, **params: Domain) -> LegalMove:
    """A descriptor: `move(Bid(amount=0), amount=IntRange(10, 200))`."""
    return LegalMove(command, [Param(name, domain) for name, domain in params.items()])


def concrete(commands: Iterable[msgspec.Struct]) -> list[LegalMove]:
    """Descriptors for a list of concrete commands (one each, no parameters)."""
    return [LegalMove(c) for c in commands]


def values(domain: Domain) -> Iterable[Any]:
    """The values a domain spells out, in order (a rule's: its examples)."""
    if isinstance(domain, IntRange):
        return domain.values()
    if isinstance(domain, Choice):
        return domain.values
    return domain.examples


@functools.cache
def _plain_fields(command_type: type[msgspec.Struct]) -> dict[str, str]:
    """The command's fields declared as exactly `int`, `str` or `list[int]` (no constraints, no
    enum), by name: a value of that shape is the field's value as decoding would give it."""
    kinds = {int: "int", str: "str"}
    out: dict[str, str] = {}
    for f in msgspec.structs.fields(command_type):
        kind = "ints" if f.type == list[int] else kinds.get(f.type)
        if kind is not None:
            out[f.name] = kind
    return out


def _plain(value: Any, kind: str) -> bool:
    if kind == "int":
        return type(value) is int
    if kind == "str":
        return type(value) is str
    return type(value) is list and all(type(x) is int for x in value)


def _direct(lm: LegalMove) -> list[Iterable[Any]] | None:
    """Each parameter's values when every one of them goes into its field as it is (integers,
    strings and lists of integers into fields of those types), so the descriptor's commands need
    no trip through the codec (e.g. a bot reading 400 bids, or Драконы' moves with their contours);
    None when any does not."""
    kinds = _plain_fields(type(lm.command))
    out: list[Iterable[Any]] = []
    for p in lm.params:
        kind = kinds.get(p.field)
        if kind is None:
            return None
        if isinstance(p.domain, IntRange):  # integers by construction
            if kind != "int":
                return None
        elif not all(_plain(v, kind) for v in values(p.domain)):
            return None
        out.append(values(p.domain))
    return out


def expand(lm: LegalMove, codec: CommandCodec) -> Iterator[msgspec.Struct]:
    """The commands a descriptor spells out (rule parameters: their examples)."""
    if not lm.params:
        yield lm.command
        return
    names = [p.field for p in lm.params]
    direct = _direct(lm)
    if direct is not None:
        for combo in itertools.product(*direct):
            yield _replaced(lm.command, names, combo)
        return
    base = codec.to_builtins(lm.command)
    for combo in itertools.product(*(values(p.domain) for p in lm.params)):
        yield _decoded(base, names, combo, codec)


def _replaced(command: msgspec.Struct, names: list[str], combo: Sequence[Any]) -> msgspec.Struct:
    # a list is copied: each command owns its values, as decoding would give them
    fields = {n: list(v) if type(v) is list else v for n, v in zip(names, combo, strict=True)}
    return msgspec.structs.replace(command, **fields)


def _decoded(base: dict[str, Any], names: list[str], combo: Sequence[Any], codec: CommandCodec) -> msgspec.Struct:
    data = dict(base)
    data.update(zip(names, combo, strict=True))
    result: msgspec.Struct = codec.from_builtins(data)
    return result


def spell(lm: LegalMove, combo: Sequence[Any], codec: CommandCodec) -> msgspec.Struct:
    """The one command of `lm` whose parameters take the values `combo` (in the parameters'
    order): what `expand` yields for that combination, made alone (a policy that chose among
    the descriptors' values makes only the command it plays)."""
    names = [p.field for p in lm.params]
    if _direct(lm) is not None:
        return _replaced(lm.command, names, combo)
    return _decoded(codec.to_builtins(lm.command), names, combo, codec)


def expand_all(moves: Sequence[LegalMove], codec: CommandCodec, limit: int | None = None) -> list[msgspec.Struct]:
    """Every command the descriptors spell out, in order, at most `limit`."""
    out: list[msgspec.Struct] = []
    if limit is not None and limit <= 0:
        return out
    for lm in moves:
        for command in expand(lm, codec):
            out.append(command)
            if len(out) == limit:  # stop here: a `LegalMoves` finds no part after
                return out
    return out


def count(moves: Sequence[LegalMove]) -> int:
    return sum(lm.size() for lm in moves)


def count_upto(moves: Sequence[LegalMove], limit: int) -> int:
    """`min(count(moves), limit)`, reading no descriptor past the limit (as `expand_all` with
    that limit reads none: a `LegalMoves` finds no part after it)."""
    total = 0
    for lm in moves:
        total += lm.size()
        if total >= limit:
            return limit
    return total


def nth(moves: Sequence[LegalMove], index: int, codec: CommandCodec) -> msgspec.Struct:
    """`expand_all(moves, codec)[index]`, the one command made alone (a random player choosing
    among thousands of commands spells out only the one it plays)."""
    if index < 0:
        raise IndexError(index)
    for lm in moves:
        size = lm.size()
        if index < size:
            return spell_at(lm, index, codec)
        index -= size
    raise IndexError("the descriptors spell out fewer commands")


def draw(
    moves: Sequence[LegalMove], rng: random.Random, codec: CommandCodec, limit: int | None = None
) -> msgspec.Struct:
    """`rng.choice(expand_all(moves, codec, limit))`, the same draw, only the drawn command spelled
    out (`nth`)."""
    size = count(moves) if limit is None else count_upto(moves, limit)
    if size == 0:
        raise IndexError("no legal command")  # what `rng.choice` of nothing raises
    # `rng.choice(seq)` draws `seq[rng._randbelow(len(seq))]`; `randrange(n)` draws the same
    return nth(moves, rng.randrange(size), codec)


def spell_at(lm: LegalMove, index: int, codec: CommandCodec) -> msgspec.Struct:
    """`list(expand(lm, codec))[index]`, made alone (`0 <= index < lm.size()`)."""
    if not lm.params:
        return lm.command
    # `expand` runs through the parameters' values as `itertools.product` does: the last fastest
    combo: list[Any] = []
    for domain in reversed([list(values(p.domain)) for p in lm.params]):
        index, at = divmod(index, len(domain))
        combo.append(domain[at])
    combo.reverse()
    return spell(lm, combo, codec)


def admits(lm: LegalMove, command: msgspec.Struct, codec: CommandCodec) -> bool:
    """Whether the descriptor admits `command`."""
    if type(command) is not type(lm.command):
        return False
    if not lm.params:
        return bool(command == lm.command)
    want = codec.to_builtins(lm.command)
    got = codec.to_builtins(command)
    domains = {p.field: p.domain for p in lm.params}
    for name in set(want) | set(got):
        if name in domains:
            if got.get(name) not in domains[name]:
                return False
        elif want.get(name) != got.get(name):
            return False
    return True


def admitted(moves: Sequence[LegalMove], command: msgspec.Struct, codec: CommandCodec) -> bool:
    """Whether any descriptor admits `command`."""
    return any(admits(lm, command, codec) for lm in moves)
