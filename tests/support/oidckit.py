"""A small OpenID Connect issuer for the tests: discovery, an authorization endpoint that signs
in whoever the test names (no form), a token endpoint that checks the code, the redirect URI
and the PKCE verifier, and its signing keys (JWKS). Tokens are RS256 JWTs, as a real issuer's."""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

KID = "test-key-1"


@dataclass
class Issuer:
    url: str = ""
    client_id: str = "tablehall-web"
    key: rsa.RSAPrivateKey = field(
        default_factory=lambda: rsa.generate_private_key(public_exponent=65537, key_size=2048)
    )
    user: tuple[str, str] = ("u-1", "Ирина")  # who signs in next: (sub, name)
    codes: dict[str, dict[str, str]] = field(default_factory=dict)
    tokens_issued: int = 0

    def user_id(self, sub: str) -> str:
        """The user id the services give this issuer's `sub` (`issuer|sub`)."""
        return f"{self.url}|{sub}"

    def discovery(self) -> dict[str, Any]:
        return {
            "issuer": self.url,
            "authorization_endpoint": f"{self.url}/authorize",
            "token_endpoint": f"{self.url}/token",
            "jwks_uri": f"{self.url}/jwks.json",
            "response_types_supported": ["code"],
            "code_challenge_methods_supported": ["S256"],
        }

    def jwks(self) -> dict[str, Any]:
        jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        return {"keys": [{**jwk, "kid": KID, "alg": "RS256", "use": "sig"}]}

    def authorize(self, query: dict[str, str]) -> str:
        """Where the browser goes back to: the redirect URI with a code (or an error)."""
        if query.get("client_id") != self.client_id or query.get("code_challenge_method") != "S256":
            return f"{query['redirect_uri']}?{urlencode({'error': 'invalid_request', 'state': query.get('state', '')})}"
        code = secrets.token_urlsafe(16)
        sub, name = self.user
        self.codes[code] = {
            "redirect_uri": query["redirect_uri"],
            "nonce": query.get("nonce", ""),
            "challenge": query["code_challenge"],
            "sub": sub,
            "name": name,
        }
        return f"{query['redirect_uri']}?{urlencode({'code': code, 'state': query.get('state', '')})}"

    def token(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        grant = self.codes.pop(form.get("code", ""), None)
        if (
            grant is None
            or form.get("redirect_uri") != grant["redirect_uri"]
            or form.get("client_id") != self.client_id
        ):
            return 400, {"error": "invalid_grant"}
        verifier = form.get("code_verifier", "").encode()
        if base64.urlsafe_b64encode(hashlib.sha256(verifier).digest()).rstrip(b"=").decode() != grant["challenge"]:
            return 400, {"error": "invalid_grant"}
        now = int(time.time())
        claims: dict[str, object] = {"iss": self.url, "aud": self.client_id, "sub": grant["sub"], "name": grant["name"]}
        claims |= {"nonce": grant["nonce"], "iat": now, "exp": now + 3600}
        self.tokens_issued += 1
        token = jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": KID})
        return 200, {"id_token": token, "access_token": secrets.token_urlsafe(16), "token_type": "Bearer"}


@contextmanager
def issuer_running() -> Iterator[Issuer]:
    """The issuer on a free local port, for as long as the block runs."""
    issuer = Issuer()

    class Handler(http.server.BaseHTTPRequestHandler):
        def _json(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            url = urlparse(self.path)
            if url.path == "/.well-known/openid-configuration":
                self._json(200, issuer.discovery())
            elif url.path == "/jwks.json":
                self._json(200, issuer.jwks())
            elif url.path == "/authorize":
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                self.send_response(302)
                self.send_header("Location", issuer.authorize(query))
                self.send_header("Content-Length", "0")
                self.end_headers()
            else:
                self._json(404, {"error": "not_found"})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
            if urlparse(self.path).path != "/token":
                self._json(404, {"error": "not_found"})
                return
            self._json(*issuer.token(form))

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    issuer.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield issuer
    finally:
        server.shutdown()
        server.server_close()


def settings(issuer: Issuer, operators: list[str]) -> dict[str, str]:
    """`tablehall up`'s environment with this issuer beside the development sign-in."""
    return {
        "TABLEHALL_AUTH_PROVIDERS": "dev,oidc",
        "TABLEHALL_OIDC_ISSUER": issuer.url,
        "TABLEHALL_OIDC_JWKS_URL": f"{issuer.url}/jwks.json",
        "TABLEHALL_OIDC_AUDIENCE": issuer.client_id,
        "TABLEHALL_WEB_OIDC_CLIENT_ID": issuer.client_id,
        "TABLEHALL_WEB_OIDC_NAME": "Test ID",
        "TABLEHALL_OPERATORS": ",".join(operators),
    }
