"""Who may sign in through the page, and OpenID Connect sign-in (the authorization code flow).

The identity API lists no providers: the lobby takes the ones `TABLEHALL_AUTH_PROVIDERS` names,
and the web front reads the same setting (every deployment gives both the same configuration),
so the page offers exactly the providers the lobby accepts:

| variable | default | meaning |
|---|---|---|
| TABLEHALL_AUTH_PROVIDERS | `dev` | `dev`: the name form (`DevSignIn`); `oidc`: «Sign in with …» |
| TABLEHALL_OIDC_ISSUER | | the issuer (its `/.well-known/openid-configuration` names the endpoints) |
| TABLEHALL_WEB_OIDC_CLIENT_ID | | the page's client id at the issuer (the ID token's audience: the services' TABLEHALL_OIDC_AUDIENCE) |
| TABLEHALL_WEB_OIDC_CLIENT_SECRET | | a confidential client's secret (none: a public client, PKCE only) |
| TABLEHALL_WEB_OIDC_NAME | the issuer's host | the provider's name on the button |
| TABLEHALL_WEB_OIDC_SCOPES | `openid profile` | the scopes asked for |
| TABLEHALL_WEB_PUBLIC_URL | the request's own | the page's address as browsers reach it (the redirect URI's base) |

The flow: `/auth/oidc` sends the browser to the issuer with a state, a nonce and a PKCE
challenge (kept in a short HttpOnly cookie); the issuer sends it back to `/auth/oidc/callback`
with a code, which the web front exchanges for the ID token at the token endpoint. That token is
the person's token from then on, exactly as a gRPC client would present it: the lobby verifies
it (issuer, audience, the issuer's keys) on every call. Nothing here trusts it on its own but the
nonce, read to match the request that started the flow.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlparse

import aiohttp

DISCOVERY = "/.well-known/openid-configuration"
DISCOVERY_TTL_S = 3600.0


def providers_setting() -> tuple[str, ...]:
    raw = os.environ.get("TABLEHALL_AUTH_PROVIDERS", "dev")
    return tuple(p.strip() for p in raw.split(",") if p.strip())


@dataclass
class Oidc:
    issuer: str
    client_id: str
    client_secret: str = ""
    name: str = ""
    scopes: str = "openid profile"
    public_url: str = ""
    _endpoints: dict[str, Any] = field(default_factory=dict)
    _fetched_at: float = 0.0

    @classmethod
    def from_env(cls) -> Oidc | None:
        """The OIDC sign-in the settings configure; None unless `oidc` is a provider with an issuer and a client id."""
        issuer = os.environ.get("TABLEHALL_OIDC_ISSUER", "").rstrip("/")
        client_id = os.environ.get("TABLEHALL_WEB_OIDC_CLIENT_ID", "")
        if "oidc" not in providers_setting() or not issuer or not client_id:
            return None
        return cls(
            issuer=issuer,
            client_id=client_id,
            client_secret=os.environ.get("TABLEHALL_WEB_OIDC_CLIENT_SECRET", ""),
            name=os.environ.get("TABLEHALL_WEB_OIDC_NAME", "") or urlparse(issuer).netloc,
            scopes=os.environ.get("TABLEHALL_WEB_OIDC_SCOPES", "openid profile"),
            public_url=os.environ.get("TABLEHALL_WEB_PUBLIC_URL", "").rstrip("/"),
        )

    async def endpoints(self, http: aiohttp.ClientSession) -> dict[str, Any]:
        """The issuer's discovery document (fetched once an hour)."""
        if not self._endpoints or time.monotonic() - self._fetched_at > DISCOVERY_TTL_S:
            async with http.get(self.issuer + DISCOVERY) as reply:
                reply.raise_for_status()
                self._endpoints = await reply.json(content_type=None)
            self._fetched_at = time.monotonic()
        return self._endpoints

    def redirect_uri(self, request_base: str) -> str:
        return f"{self.public_url or request_base}/auth/oidc/callback"

    async def authorize_url(self, http: aiohttp.ClientSession, redirect_uri: str) -> tuple[str, str]:
        """Where to send the browser, and the cookie that remembers this attempt (state.nonce.verifier)."""
        state, nonce, verifier = (secrets.token_urlsafe(24) for _ in range(3))
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        query = {
            "response_type": "code",
            "client_id": self.client_id,
            "redirect_uri": redirect_uri,
            "scope": self.scopes,
            "state": state,
            "nonce": nonce,
            "code_challenge": challenge,
            "code_challenge_method": "S256",
        }
        endpoint = (await self.endpoints(http))["authorization_endpoint"]
        return f"{endpoint}?{urlencode(query)}", f"{state}.{nonce}.{verifier}"

    async def id_token(self, http: aiohttp.ClientSession, code: str, redirect_uri: str, verifier: str) -> str:
        """The ID token the token endpoint gives for `code`."""
        form = {
            "grant_type": "authorization_code",
            "code": code,
            "redirect_uri": redirect_uri,
            "client_id": self.client_id,
            "code_verifier": verifier,
        }
        if self.client_secret:
            form["client_secret"] = self.client_secret
        endpoint = (await self.endpoints(http))["token_endpoint"]
        async with http.post(endpoint, data=form) as reply:
            body = await reply.json(content_type=None)
            if reply.status != 200 or "id_token" not in body:
                raise SignInFailed(str(body.get("error", f"HTTP {reply.status}")))
        return str(body["id_token"])


class SignInFailed(Exception):
    """The issuer did not give a token for this attempt."""


def claims(token: str) -> dict[str, Any]:
    """A JWT's claims, unverified (the services verify the token; this reads only the nonce)."""
    try:
        payload = token.split(".")[1]
        decoded: dict[str, Any] = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (IndexError, ValueError) as exc:
        raise SignInFailed("not a JWT") from exc
    return decoded
