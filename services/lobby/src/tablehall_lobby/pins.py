"""PINs of private tables: hashed, compared in constant time, rate limited.

A PIN is stored as PBKDF2-SHA256 with a per-table random salt in
`lobby_secrets`, never in an event or a listing. Each attempt (right or
wrong) counts against the user and table within a window; over the limit the
PIN is not even compared. A right PIN clears the count.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets

import asyncpg

from tablehall_lobby import refusals as no

ITERATIONS = 60_000


def valid_pin(pin: str) -> bool:
    return 4 <= len(pin) <= 32 and pin.isprintable() and pin == pin.strip()


def _hash(pin: str, salt: bytes, iterations: int) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, iterations)


class Pins:
    def __init__(self, pool: asyncpg.Pool, max_attempts: int = 5, window_seconds: int = 300) -> None:
        self.pool = pool
        self.max_attempts = max_attempts
        self.window_seconds = window_seconds

    async def set(self, table_id: str, pin: str) -> None:
        if not valid_pin(pin):
            raise no.invalid_pin()
        salt = secrets.token_bytes(16)
        digest = await asyncio.to_thread(_hash, pin, salt, ITERATIONS)
        await self.pool.execute(
            """INSERT INTO lobby_secrets (table_id, salt, pin_hash, iterations) VALUES ($1, $2, $3, $4)
               ON CONFLICT (table_id) DO UPDATE
                 SET salt = excluded.salt, pin_hash = excluded.pin_hash,
                     iterations = excluded.iterations, updated_at = now()""",
            table_id,
            salt,
            digest,
            ITERATIONS,
        )

    async def check(self, table_id: str, user_id: str, pin: str) -> None:
        """Pass, or raise PIN_REQUIRED / PIN_ATTEMPTS_EXCEEDED / WRONG_PIN."""
        if not pin:
            raise no.pin_required()
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
        row = await self.pool.fetchrow(
            "SELECT salt, pin_hash, iterations FROM lobby_secrets WHERE table_id = $1", table_id
        )
        if row is None:
            raise no.wrong_pin()  # a private table without a PIN admits nobody by PIN
        digest = await asyncio.to_thread(_hash, pin, bytes(row["salt"]), int(row["iterations"]))
        if not hmac.compare_digest(digest, bytes(row["pin_hash"])):
            raise no.wrong_pin()
        await self.pool.execute(
            "DELETE FROM lobby_pin_attempts WHERE table_id = $1 AND user_id = $2", table_id, user_id
        )
