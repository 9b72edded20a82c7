"""PINs of private tables: hashed, compared in constant time, rate limited.

A PIN is stored as PBKDF2-SHA256 with a per-table random salt in
`lobby_secrets`, never in an event or a listing; hashing runs in a worker
thread, off the event loop. A PIN is 4-32 printable characters: digits or a
passphrase (the host chooses; longer is stronger).

Two limits, both checked before the PIN is even compared:
- per user and table: `max_attempts` within `window_seconds`;
- per table, whatever the identity (identities are free): PIN checks of one
  table run one at a time (a row lock), the first `free_failures` wrong PINs
  cost nothing, and after that each wrong PIN closes PIN entry for a delay
  that doubles (1 s, 2 s, 4 s, ...) up to `max_delay_seconds`. A right PIN or
  a new PIN starts afresh. `check` tells the caller when to notify the host.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

import asyncpg

from tablehall_lobby import refusals as no
from tablehall_platform.errors import ServiceError

ITERATIONS = 60_000


def valid_pin(pin: str) -> bool:
    return 4 <= len(pin) <= 32 and pin.isprintable() and pin == pin.strip()


def _hash(pin: str, salt: bytes, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)


@dataclass(frozen=True)
class PinNotice:
    """Tell the host: `failures` wrong PINs so far, PIN entry closed until then."""

    failures: int
    locked_until_ms: int


class WrongPin(Exception):
    """A wrong PIN: `refusal` for the caller, `notice` for the host (or None)."""

    def __init__(self, refusal: ServiceError, notice: PinNotice | None) -> None:
        super().__init__(refusal.reason)
        self.refusal = refusal
        self.notice = notice


def lock_seconds(failures: int, free: int, max_delay: float) -> float:
    """How long PIN entry closes after the `failures`-th wrong PIN: 0 for the
    first `free`, then 1 s, 2 s, 4 s, ... up to `max_delay`."""
    if failures <= free:
        return 0.0
    return float(min(max_delay, 2.0 ** min(failures - free - 1, 62)))


def worth_telling(failures: int, free: int) -> bool:
    """When the lock starts, then at each doubling of the failures."""
    if failures <= free:
        return False
    return failures == free + 1 or math.log2(failures).is_integer()


class Pins:
    def __init__(
        self,
        pool: asyncpg.Pool,
        max_attempts: int = 5,
        window_seconds: int = 300,
        free_failures: int = 3,
        max_delay_seconds: float = 900.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.pool = pool
        self.max_attempts = max_attempts
        self.window_seconds = window_seconds
        self.free_failures = free_failures
        self.max_delay_seconds = max_delay_seconds
        self.clock = clock
        self._locks: dict[str, asyncio.Lock] = {}

    async def set(self, table_id: str, pin: str) -> None:
        if not valid_pin(pin):
            raise no.invalid_pin()
        salt = secrets.token_bytes(16)
        digest = await asyncio.to_thread(_hash, pin, salt, ITERATIONS)
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                """INSERT INTO lobby_secrets (table_id, salt, pin_hash, iterations) VALUES ($1, $2, $3, $4)
                   ON CONFLICT (table_id) DO UPDATE
                     SET salt = excluded.salt, pin_hash = excluded.pin_hash,
                         iterations = excluded.iterations, updated_at = now()""",
                table_id,
                salt,
                digest,
                ITERATIONS,
            )
            await conn.execute("DELETE FROM lobby_pin_guard WHERE table_id = $1", table_id)

    async def guard(self, table_id: str) -> PinNotice:
        """PIN entry as it stands now (wrong PINs since the last right one, closed until): the
        host's card reads it here, since the stream is told only at the lock and each doubling."""
        row = await self.pool.fetchrow(
            "SELECT failures, locked_until_ms FROM lobby_pin_guard WHERE table_id = $1", table_id
        )
        return PinNotice(0, 0) if row is None else PinNotice(int(row[0]), int(row[1]))

    async def _per_user(self, table_id: str, user_id: str) -> None:
        attempts = await self.pool.fetchval(
            """INSERT INTO lobby_pin_attempts AS a (table_id, user_id, attempts, window_start)
               VALUES ($1, $2, 1, now())
               ON CONFLICT (table_id, user_id) DO UPDATE SET
                 attempts = CASE WHEN a.window_start < now() - make_interval(secs => $3) THEN 1
                                 ELSE a.attempts + 1 END,
                 window_start = CASE WHEN a.window_start < now() - make_interval(secs => $3) THEN now()
                                     ELSE a.window_start END
               RETURNING attempts""",
            table_id,
            user_id,
            float(self.window_seconds),
        )
        if attempts > self.max_attempts:
            raise no.pin_attempts_exceeded(self.window_seconds)

    async def check(self, table_id: str, user_id: str, pin: str) -> None:
        """Pass, or raise PIN_REQUIRED / PIN_ATTEMPTS_EXCEEDED, or WrongPin (WRONG_PIN, PIN_LOCKED)."""
        if not pin:
            raise no.pin_required()
        await self._per_user(table_id, user_id)
        # one check per table at a time in this process too, so a flood of guesses
        # waits here, not holding database connections
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                await self._compare(table_id, user_id, pin)
        finally:
            if not lock.locked() and self._locks.get(table_id) is lock:
                del self._locks[table_id]

    async def _compare(self, table_id: str, user_id: str, pin: str) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO lobby_pin_guard (table_id) VALUES ($1) ON CONFLICT (table_id) DO NOTHING", table_id
            )
            guard = await conn.fetchrow(
                "SELECT failures, locked_until_ms FROM lobby_pin_guard WHERE table_id = $1 FOR UPDATE", table_id
            )
            assert guard is not None
            now_ms = int(self.clock() * 1000)
            failures, locked_until_ms = int(guard[0]), int(guard[1])
            if now_ms < locked_until_ms:
                raise WrongPin(no.pin_locked(math.ceil((locked_until_ms - now_ms) / 1000)), None)
            row = await conn.fetchrow(
                "SELECT salt, pin_hash, iterations FROM lobby_secrets WHERE table_id = $1", table_id
            )
            right = False
            if row is not None:  # a private table without a PIN admits nobody by PIN
                digest = await asyncio.to_thread(_hash, pin, bytes(row["salt"]), int(row["iterations"]))
                right = hmac.compare_digest(digest, bytes(row["pin_hash"]))
            if right:
                await conn.execute("DELETE FROM lobby_pin_guard WHERE table_id = $1", table_id)
                await conn.execute(
                    "DELETE FROM lobby_pin_attempts WHERE table_id = $1 AND user_id = $2", table_id, user_id
                )
                return
            failures += 1
            locked_until_ms = now_ms + int(lock_seconds(failures, self.free_failures, self.max_delay_seconds) * 1000)
            await conn.execute(
                "UPDATE lobby_pin_guard SET failures = $2, locked_until_ms = $3, updated_at = now() WHERE table_id = $1",
                table_id,
                failures,
                locked_until_ms,
            )
        notice = PinNotice(failures, locked_until_ms) if worth_telling(failures, self.free_failures) else None
        raise WrongPin(no.wrong_pin(), notice)
