"""Auditable randomness.

A table holds a secret seed. Its SHA-256 is committed in the table's first
event and the seed itself is revealed in its last. Every draw is derived from
the seed and a draw counter with HMAC-SHA256, so an auditor holding the
revealed seed recomputes every die and shuffle. Each draw is recorded
(`Draw`) and the service writes the records beside the events they produced;
the game writes the drawn values into its own events.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from typing import Literal, TypeVar

import msgspec

T = TypeVar("T")

DrawKind = Literal["int", "shuffle"]


class Draw(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One recorded draw: its counter, what was asked and what came out."""

    n: int
    kind: DrawKind
    lo: int = 0
    hi: int = 0
    size: int = 0
    value: int | list[int] = 0


def new_seed() -> bytes:
    """A fresh 32-byte secret seed from the operating system's CSPRNG."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: its SHA-256, hex."""
    return hashlib.sha256(seed).hexdigest()


def _block(seed: bytes, label: str) -> int:
    return int.from_bytes(hmac.new(seed, label.encode(), hashlib.sha256).digest(), "big")


_SPACE = 1 << 256


def _uniform(seed: bytes, label: str, bound: int) -> int:
    """A uniform integer in [0, bound) by rejection sampling, no modulo bias."""
    limit = _SPACE - _SPACE % bound
    attempt = 0
    while True:
        x = _block(seed, f"{label}#{attempt}")
        if x < limit:
            return x % bound
        attempt += 1


def derive_int(seed: bytes, n: int, lo: int, hi: int) -> int:
    """The value of draw number `n` asked as an integer in [lo, hi]."""
    if hi < lo:
        raise ValueError(f"empty range [{lo}, {hi}]")
    return lo + _uniform(seed, f"{n}:int", hi - lo + 1)


def derive_permutation(seed: bytes, n: int, size: int) -> list[int]:
    """The permutation of range(size) drawn as draw number `n` (Fisher-Yates)."""
    perm = list(range(size))
    for i in range(size - 1, 0, -1):
        j = _uniform(seed, f"{n}:shuffle:{i}", i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    return perm


class DrawSource:
    """Draws from a seed, numbering them from `counter` and recording each."""

    def __init__(self, seed: bytes, counter: int = 0) -> None:
        self._seed = seed
        self.counter = counter
        self.draws: list[Draw] = []

    def randint(self, lo: int, hi: int) -> int:
        value = derive_int(self._seed, self.counter, lo, hi)
        self.draws.append(Draw(n=self.counter, kind="int", lo=lo, hi=hi, value=value))
        self.counter += 1
        return value

    def die(self) -> int:
        return self.randint(1, 6)

    def permutation(self, size: int) -> list[int]:
        perm = derive_permutation(self._seed, self.counter, size)
        self.draws.append(Draw(n=self.counter, kind="shuffle", size=size, value=perm))
        self.counter += 1
        return perm

    def shuffled(self, items: Sequence[T]) -> list[T]:
        return [items[i] for i in self.permutation(len(items))]

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice from an empty sequence")
        return items[self.randint(0, len(items) - 1)]


class DrawMismatch(msgspec.Struct, frozen=True):
    """The first draw that does not follow from the seed."""

    index: int
    expected_n: int
    recorded: Draw
    reason: str


def recompute(seed: bytes, draw: Draw) -> int | list[int]:
    if draw.kind == "int":
        return derive_int(seed, draw.n, draw.lo, draw.hi)
    return derive_permutation(seed, draw.n, draw.size)


def verify_draws(seed: bytes, draws: Iterable[Draw], start: int = 0) -> DrawMismatch | None:
    """Check recorded draws against the seed; None when every one follows.

    Counters must run without gaps from `start`: a skipped counter would let
    somebody draw in secret and keep only the outcome they liked.
    """
    expected = start
    for index, draw in enumerate(draws):
        if draw.n != expected:
            return DrawMismatch(index, expected, draw, f"counter {draw.n}, expected {expected}")
        if recompute(seed, draw) != draw.value:
            return DrawMismatch(index, expected, draw, "value does not follow from the seed")
        expected += 1
    return None
