"""Who acts in the lobby: the signed-in principal plus the lobby's roles.

Site-wide roles come from the token (`player`, `bot`, `operator`,
`service`). An operator is a principal whose token carries `operator`
(development tokens issued by `tablehall token --roles operator`) or whose
user id is listed in TABLEHALL_OPERATORS (OIDC users: `issuer|sub`). Per
table, the host is the creator and a spectator is any signed-in user who is
not seated.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from tablehall_lobby.chat import RateLimiter
from tablehall_lobby.dev_names import DevNames
from tablehall_lobby.refusals import sign_ins_throttled
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
        self,
        operators: Iterable[str] = (),
        dev: DevProvider | None = None,
        names: DevNames | None = None,
        throttle: SignInThrottle | None = None,
    ) -> None:
        self.operators = frozenset(operators)
        self.dev = dev
        self.names = names  # who claimed which development name
        self.throttle = throttle or SignInThrottle()

    def actor(self, principal: Principal | None = None) -> Actor:
        principal = principal or current_principal.get()
        if principal is None:
            raise Unauthenticated("TOKEN_MISSING", "Not signed in.", ru="Вход не выполнен.")
        return Actor(principal.user_id, principal.name, self.is_operator(principal))

    def is_operator(self, principal: Principal) -> bool:
        return principal.is_operator or principal.user_id in self.operators

    async def dev_sign_in(self, name: str, display_name: str, client_secret: str, peer: str = "") -> tuple[str, str]:
        """(token, user id): a development token (role player) for `name`, for the client that
        claimed it (in any case: the user id is the first claim's spelling)."""
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
        self.throttle.hit(name.lower(), peer)  # before the claim: a guessed secret costs a try too
        if name.lower() in {o.lower() for o in self.operators}:
            raise Refused(
                "NAME_RESERVED",
                "That name belongs to an operator; sign in with an operator token.",
                ru="Это имя владельца сайта.",
            )
        user_id = name
        if self.names is not None:
            user_id = await self.names.claim(name, client_secret)
        shown = display_name.strip()[:60] or user_id
        return self.dev.issue(user_id, shown, roles=("player",)), user_id


@dataclass(frozen=True)
class SignInThrottle:
    """Development sign-ins per name (any case) and per peer address, in a sliding window."""

    per_name: RateLimiter = field(default_factory=lambda: _limiter("TABLEHALL_DEV_SIGN_INS_PER_NAME", 10))
    per_peer: RateLimiter = field(default_factory=lambda: _limiter("TABLEHALL_DEV_SIGN_INS_PER_PEER", 60))

    def hit(self, folded_name: str, peer: str) -> None:
        self.per_peer.hit(("peer", _address(peer)))
        self.per_name.hit(("name", folded_name))


def _limiter(setting: str, default: int) -> RateLimiter:
    window = float(os.environ.get("TABLEHALL_DEV_SIGN_IN_WINDOW_SECONDS", "60"))
    return RateLimiter(int(os.environ.get(setting, str(default))), window, refusal=sign_ins_throttled)


def _address(peer: str) -> str:
    """gRPC's peer without its port (`ipv4:10.0.0.7:53211` -> `ipv4:10.0.0.7`): one host, one budget."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return f"{kind}:{rest.rsplit(':', 1)[0]}"
    return peer
