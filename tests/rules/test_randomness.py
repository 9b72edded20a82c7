from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from tablehall_rules import DrawSource, commitment, verify_draws
from tablehall_rules.randomness import Draw, derive_int

SEED = bytes(range(32))


def test_commitment_is_sha256_of_seed() -> None:
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()


def test_same_seed_and_counter_give_same_draws() -> None:
    a, b = DrawSource(SEED), DrawSource(SEED)
    assert [a.die() for _ in range(50)] == [b.die() for _ in range(50)]
    assert a.shuffled(list("abcdefgh")) == b.shuffled(list("abcdefgh"))


def test_draws_depend_on_seed() -> None:
    a, b = DrawSource(SEED), DrawSource(b"another seed")
    assert [a.die() for _ in range(40)] != [b.die() for _ in range(40)]


def test_dice_are_roughly_uniform() -> None:
    source = DrawSource(SEED)
    counts = [0] * 7
    for _ in range(6000):
        counts[source.die()] += 1
    assert all(850 < c < 1150 for c in counts[1:]), counts


@given(st.binary(min_size=1, max_size=32), st.integers(0, 10_000), st.integers(-5, 5), st.integers(0, 50))
def test_int_draw_in_range(seed: bytes, n: int, lo: int, width: int) -> None:
    assert lo <= derive_int(seed, n, lo, lo + width) <= lo + width


def test_verifier_accepts_honest_draws_and_reports_first_forgery() -> None:
    source = DrawSource(SEED, counter=5)
    source.die()
    source.permutation(10)
    source.randint(0, 99)
    assert verify_draws(SEED, source.draws, start=5) is None

    forged = list(source.draws)
    first = forged[0]
    forged[0] = Draw(n=first.n, kind="int", lo=1, hi=6, value=7 - int(first.value))  # type: ignore[arg-type]
    mismatch = verify_draws(SEED, forged, start=5)
    assert mismatch is not None and mismatch.index == 0


def test_verifier_refuses_a_skipped_counter() -> None:
    source = DrawSource(SEED)
    for _ in range(3):
        source.die()
    mismatch = verify_draws(SEED, [source.draws[0], source.draws[2]])
    assert mismatch is not None and mismatch.index == 1 and mismatch.expected_n == 1
