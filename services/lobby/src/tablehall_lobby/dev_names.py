"""Development sign-in binds each name to the client that claimed it first.

The client sends a secret it keeps (the SDK and the terminal client: in
`$XDG_CONFIG_HOME/tablehall/client-secret`); the first sign-in for a name
records sha256(secret) in `lobby_dev_names`, and later sign-ins for that name
must send the same secret. Another client asking for a claimed name is
refused (NAME_CLAIMED), so nobody signs in as another table's host by typing
their name. Names are one user whatever their case: the claim is unique by the
lower-case name (`folded`), and `P4HOST` signs in as the `p4host` who claimed first. The development provider remains for laptops; deployments use
OIDC (docs/security.md).
"""

from __future__ import annotations

import hashlib
import hmac

import asyncpg

from tablehall_platform.errors import BadRequest, PermissionDenied

MIN_SECRET, MAX_SECRET = 16, 256


def _digest(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


class DevNames:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def claim(self, name: str, secret: str) -> str:
        """The user id of `name` for this client: the name is free (it becomes this client's, as
        spelt) or this client's in any case (`P4HOST` is the user `p4host`); else refuse."""
        if not (MIN_SECRET <= len(secret) <= MAX_SECRET) or not secret.isprintable():
            raise BadRequest(
                "CLIENT_SECRET_REQUIRED",
                f"Development sign-in needs the client's secret ({MIN_SECRET}-{MAX_SECRET} printable characters).",
                ru="Для входа разработчика нужен секрет клиента.",
            )
        digest = _digest(secret)
        row = None
        for _ in range(3):  # a claim made at the same moment is seen by the next statement
            row = await self.pool.fetchrow(_CLAIM, name, digest)
            if row is not None:
                break
        if row is None or not hmac.compare_digest(bytes(row["secret_hash"]), digest):
            raise PermissionDenied(
                "NAME_CLAIMED",
                "Another client signed in with that name (in some case) first; choose another name.",
                ru="Это имя (в любом регистре) уже занято другим клиентом; выберите другое.",
            )
        return str(row["name"])


# Claim `name` unless it (or any spelling of it) is claimed; answer the claim that holds it:
# the exact spelling first (claims made before names were folded), else the folded one.
_CLAIM = """
WITH claimed AS (
    INSERT INTO lobby_dev_names (name, folded, secret_hash) VALUES ($1, lower($1), $2)
    ON CONFLICT DO NOTHING
    RETURNING name, secret_hash
)
SELECT name, secret_hash FROM claimed
UNION ALL
(SELECT name, secret_hash FROM lobby_dev_names
  WHERE (name = $1 OR folded = lower($1)) AND NOT EXISTS (SELECT 1 FROM claimed)
  ORDER BY name = $1 DESC LIMIT 1)
LIMIT 1
"""
