"""Development sign-in binds each name to the client that claimed it first.

The client sends a secret it keeps (the SDK and the terminal client: in
`$XDG_CONFIG_HOME/tablehall/client-secret`); the first sign-in for a name
records sha256(secret) in `lobby_dev_names`, and later sign-ins for that name
must send the same secret. Another client asking for a claimed name is
refused (NAME_CLAIMED), so nobody signs in as another table's host by typing
their name. The development provider remains for laptops; deployments use
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

    async def claim(self, name: str, secret: str) -> None:
        """Pass if `name` is free (it becomes this client's) or this client's; else refuse."""
        if not (MIN_SECRET <= len(secret) <= MAX_SECRET) or not secret.isprintable():
            raise BadRequest(
                "CLIENT_SECRET_REQUIRED",
                f"Development sign-in needs the client's secret ({MIN_SECRET}-{MAX_SECRET} printable characters).",
                ru="Для входа разработчика нужен секрет клиента.",
            )
        digest = _digest(secret)
        stored = await self.pool.fetchval(
            """INSERT INTO lobby_dev_names (name, secret_hash) VALUES ($1, $2)
               ON CONFLICT (name) DO UPDATE SET name = excluded.name
               RETURNING secret_hash""",
            name,
            digest,
        )
        if not hmac.compare_digest(bytes(stored), digest):
            raise PermissionDenied(
                "NAME_CLAIMED",
                "Another client signed in with that name first; choose another name.",
                ru="Это имя уже занято другим клиентом; выберите другое.",
            )
