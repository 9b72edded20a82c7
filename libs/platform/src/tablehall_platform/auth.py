"""Identity: who calls, proved by a signed token.

Providers are pluggable. `DevProvider` issues and verifies HS256 tokens for
named users (tests and `make run`); `OidcProvider` verifies tokens of an
external issuer (e.g. Twitch's OIDC) by the issuer's public keys (JWKS).
With no provider configured nobody gets in.

Roles: `player` (any signed-in user), `bot`, `operator` (the site owner) and
`service` (our own services acting for seats: timer, bot).
"""

from __future__ import annotations

import contextvars
import secrets
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import jwt

from tablehall_platform.errors import Unauthenticated
from tablehall_platform.input_policy import has_control, invisible_in_name, name_form
from tablehall_platform.kept_files import kept_file

ROLES = frozenset({"player", "bot", "operator", "service"})


@dataclass(frozen=True)
class Principal:
    """An authenticated caller."""

    user_id: str
    name: str
    roles: frozenset[str] = field(default_factory=lambda: frozenset({"player"}))
    issuer: str = ""
    expires_at: float = float("inf")

    @property
    def is_operator(self) -> bool:
        return "operator" in self.roles

    @property
    def is_service(self) -> bool:
        return "service" in self.roles


current_principal: contextvars.ContextVar[Principal | None] = contextvars.ContextVar("current_principal", default=None)


class IdentityProvider(Protocol):
    issuer: str

    def verify(self, token: str) -> Principal: ...


def _principal(claims: dict[str, Any], issuer: str) -> Principal:
    sub = claims.get("sub")
    if not isinstance(sub, str) or not sub:
        raise Unauthenticated("TOKEN_INVALID", "The token names no user.", ru="Токен не называет пользователя.")
    roles = claims.get("roles") or ["player"]
    # a validly signed token may still carry anything: roles must be a list of known names
    if not isinstance(roles, list) or not all(isinstance(r, str) and r in ROLES for r in roles):
        raise Unauthenticated("TOKEN_INVALID", "The token carries unknown roles.", ru="Неизвестные роли в токене.")
    name = claims.get("name") or claims.get("preferred_username") or sub
    if not isinstance(name, str) or has_control(sub) or has_control(name) or len(sub) > 256 or len(name) > 256:
        raise Unauthenticated(
            "TOKEN_INVALID", "The token's user id or name is malformed.", ru="Имя или id в токене некорректны."
        )
    # our own issuers name users plainly; an external issuer's users are namespaced
    local = issuer in (DevProvider.issuer, ServiceProvider.issuer)
    exp = claims.get("exp")
    return Principal(
        user_id=sub if local else f"{issuer}|{sub}",
        name=_shown_name(name) or sub,
        roles=frozenset(roles),
        issuer=issuer,
        expires_at=float(exp) if isinstance(exp, int | float) else float("inf"),
    )


def _shown_name(name: str) -> str:
    """A token's name as the input policy would have it (NFKC), its invisible characters
    dropped: an external issuer's name is shown, not refused, so its user can still sign in."""
    normal = name_form(name)
    if invisible_in_name(normal):
        normal = "".join(ch for ch in normal if not invisible_in_name(ch))
    return normal


class DevProvider:
    """HS256 tokens for named users, signed with a local secret."""

    issuer = "tablehall-dev"

    def __init__(self, secret: str) -> None:
        if len(secret) < 16:
            raise ValueError("the development token secret must have at least 16 characters")
        self._secret = secret

    @classmethod
    def from_secrets_dir(cls, folder: Path, secret: str | None = None) -> DevProvider:
        """Use the given secret, else the one kept in `folder` (TABLEHALL_SECRETS_DIR; made once)."""
        return cls(secret or kept_secret(folder / "dev-token-secret"))

    def issue(
        self,
        user_id: str,
        name: str | None = None,
        roles: Sequence[str] = ("player",),
        ttl_seconds: int = 7 * 24 * 3600,
    ) -> str:
        if not set(roles) <= ROLES:
            raise ValueError(f"unknown roles {sorted(set(roles) - ROLES)}")
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "sub": user_id,
            "name": name or user_id,
            "roles": list(roles),
            "iat": now,
            "exp": now + ttl_seconds,
        }
        return jwt.encode(claims, self._secret, algorithm="HS256")

    def verify(self, token: str) -> Principal:
        claims = jwt.decode(token, self._secret, algorithms=["HS256"], issuer=self.issuer)
        if self.issuer == DevProvider.issuer and "service" in (claims.get("roles") or ()):
            # the development provider signs people in, never services
            raise Unauthenticated(
                "TOKEN_INVALID",
                "Development tokens cannot carry the service role.",
                ru="Токен разработки не может быть токеном службы.",
            )
        return _principal(claims, self.issuer)


class ServiceProvider(DevProvider):
    """Tokens our own services present to each other (role `service`).

    Always enabled; its secret comes from TABLEHALL_SERVICE_SECRET or a file in
    the secrets folder, and is never handed to players.
    """

    issuer = "tablehall-service"

    @classmethod
    def from_secrets_dir(cls, folder: Path, secret: str | None = None) -> ServiceProvider:
        return cls(secret or kept_secret(folder / "service-token-secret"))

    def service_token(self, service: str) -> str:
        return self.issue(f"service:{service}", service, roles=("service",), ttl_seconds=365 * 24 * 3600)

    def verify(self, token: str) -> Principal:
        principal = super().verify(token)
        if principal.roles != frozenset({"service"}):
            raise Unauthenticated("TOKEN_INVALID", "Service tokens carry the service role only.", ru="Токен службы.")
        return principal


class OidcProvider:
    """Verifies RS256/ES256 tokens of an external OIDC issuer by its JWKS."""

    def __init__(self, issuer: str, jwks_url: str, audience: str | None = None) -> None:
        self.issuer = issuer
        self.audience = audience
        self._jwks = jwt.PyJWKClient(jwks_url, cache_keys=True)

    def verify(self, token: str) -> Principal:
        key = self._jwks.get_signing_key_from_jwt(token)
        claims = jwt.decode(
            token,
            key.key,
            algorithms=["RS256", "ES256"],
            issuer=self.issuer,
            audience=self.audience,
            options={"verify_aud": self.audience is not None},
        )
        claims.pop("roles", None)  # an external issuer never grants our roles
        return _principal(claims, self.issuer)


class Authenticator:
    """Tries each provider whose issuer matches the token.

    Verified tokens are remembered until they expire: checking a signature
    costs far more than a command, and clients send the same token each call.
    """

    CACHE_LIMIT = 100_000

    def __init__(self, providers: Sequence[IdentityProvider], operators: Iterable[str] = ()) -> None:
        self.providers = list(providers)
        # user ids given the operator role whatever their token says (TABLEHALL_OPERATORS)
        self.operators = frozenset(operators)
        self._verified: dict[str, Principal] = {}

    def authenticate(self, authorization: str | None) -> Principal:
        if authorization is not None:
            known = self._verified.get(authorization)
            if known is not None:
                if known.expires_at > time.time():
                    return known
                del self._verified[authorization]
        principal = self._authenticate(authorization)
        if principal.user_id in self.operators and not principal.is_service:
            principal = replace(principal, roles=principal.roles | {"operator"})
        if len(self._verified) >= self.CACHE_LIMIT:
            self._verified.clear()
        assert authorization is not None
        self._verified[authorization] = principal
        return principal

    def _authenticate(self, authorization: str | None) -> Principal:
        if not self.providers:
            raise Unauthenticated(
                "NO_IDENTITY_PROVIDER",
                "No identity provider is configured.",
                ru="Не настроен ни один поставщик входа.",
            )
        if not authorization or not authorization.lower().startswith("bearer "):
            raise Unauthenticated(
                "TOKEN_MISSING",
                "Send 'authorization: Bearer <token>'.",
                ru="Нужен заголовок authorization: Bearer <токен>.",
            )
        token = authorization[7:].strip()
        try:
            issuer = jwt.decode(token, options={"verify_signature": False}).get("iss")
        except jwt.PyJWTError as exc:
            raise Unauthenticated("TOKEN_INVALID", f"Malformed token: {exc}", ru="Токен повреждён.") from exc
        for provider in self.providers:
            if provider.issuer == issuer:
                try:
                    return provider.verify(token)
                except jwt.ExpiredSignatureError as exc:
                    raise Unauthenticated("TOKEN_EXPIRED", "The token has expired.", ru="Срок токена истёк.") from exc
                except jwt.PyJWTError as exc:
                    raise Unauthenticated("TOKEN_INVALID", f"Token rejected: {exc}", ru="Токен отклонён.") from exc
        raise Unauthenticated(
            "TOKEN_ISSUER_UNKNOWN", f"No provider for issuer {issuer!r}.", ru="Неизвестный издатель токена."
        )


def kept_secret(path: Path) -> str:
    """The secret in `path`, made once when missing (`kept_files.kept_file`)."""
    return kept_file(path, lambda: secrets.token_hex(32).encode()).decode().strip()


def providers_from_settings(
    names: Sequence[str],
    secrets_dir: Path,
    dev_secret: str | None,
    oidc_issuer: str,
    oidc_jwks_url: str,
    oidc_audience: str | None,
) -> list[IdentityProvider]:
    """The identity providers named in configuration (TABLEHALL_AUTH_PROVIDERS)."""
    providers: list[IdentityProvider] = []
    for name in names:
        if name == "dev":
            providers.append(DevProvider.from_secrets_dir(secrets_dir, dev_secret))
        elif name == "oidc":
            if not (oidc_issuer and oidc_jwks_url):
                raise ValueError("oidc needs TABLEHALL_OIDC_ISSUER and TABLEHALL_OIDC_JWKS_URL")
            providers.append(OidcProvider(oidc_issuer, oidc_jwks_url, oidc_audience))
        else:
            raise ValueError(f"unknown identity provider {name!r} (dev, oidc)")
    return providers
