"""Who acts in the lobby: the signed-in principal plus the lobby's roles.

Site-wide roles come from the token (`player`, `bot`, `operator`,
`service`). An operator is a principal whose token carries `operator`
(development tokens issued by `tablehall token --roles operator`) or whose
user id is listed in TABLEHALL_OPERATORS (OIDC users: `issuer|sub`). Per
table, the host is the creator and a spectator is any signed-in user who is
not seated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from tablehall_lobby.dev_names import DevNames
from tablehall_platform.auth import DevProvider, Principal, current_principal
from tablehall_platform.errors import BadRequest, Refused, Unauthenticated

DEV_NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")  # fullmatch: `$` would pass "alice\n"
RESERVED_PREFIXES = ("bot", "service")


@dataclass(frozen=True)
class Actor:
    user_id: str
    name: str
    is_operator: bool


class Identity:
    def __init__(
        self, operators: Iterable[str] = (), dev: DevProvider | None = None, names: DevNames | None = None
    ) -> None:
        self.operators = frozenset(operators)
        self.dev = dev
        self.names = names  # who claimed which development name

    def actor(self, principal: Principal | None = None) -> Actor:
        principal = principal or current_principal.get()
        if principal is None:
            raise Unauthenticated("TOKEN_MISSING", "Not signed in.", ru="Вход не выполнен.")
        return Actor(principal.user_id, principal.name, self.is_operator(principal))

    def is_operator(self, principal: Principal) -> bool:
        return principal.is_operator or principal.user_id in self.operators

    async def dev_sign_in(self, name: str, display_name: str, client_secret: str) -> str:
        """A development token (role player) for `name`, for the client that claimed it."""
        if self.dev is None:
            raise Refused(
                "DEV_SIGN_IN_DISABLED",
                "Development sign-in is off (TABLEHALL_AUTH_PROVIDERS has no 'dev').",
                ru="Вход для разработки выключен.",
            )
        if not DEV_NAME.fullmatch(name) or name.lower().startswith(RESERVED_PREFIXES):
            raise BadRequest(
                "INVALID_NAME",
                "A name is 1-40 of [A-Za-z0-9_.-] and does not start with 'bot' or 'service'.",
                ru="Имя — 1-40 символов [A-Za-z0-9_.-], не начинается с 'bot' или 'service'.",
            )
        if name in self.operators:
            raise Refused(
                "NAME_RESERVED",
                "That name belongs to an operator; sign in with an operator token.",
                ru="Это имя владельца сайта.",
            )
        if self.names is not None:
            await self.names.claim(name, client_secret)
        shown = display_name.strip()[:60] or name
        return self.dev.issue(name, shown, roles=("player",))
