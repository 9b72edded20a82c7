"""The OIDC/JWT identity provider: a token of the configured issuer, signed RS256 by a key of
its JWKS (served over HTTP as an issuer does), is accepted; an external `roles` claim never
grants our roles; a token signed by any other key, or for another audience, is refused."""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from tablehall_platform.auth import Authenticator, OidcProvider
from tablehall_platform.errors import Unauthenticated

ISSUER = "https://id.example.test"
AUDIENCE = "tablehall"
KID = "key-1"


def _key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


@pytest.fixture(scope="module")
def signing_key() -> rsa.RSAPrivateKey:
    return _key()


@pytest.fixture(scope="module")
def jwks_url(signing_key: rsa.RSAPrivateKey) -> Iterator[str]:
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(signing_key.public_key()))
    body = json.dumps({"keys": [{**jwk, "kid": KID, "alg": "RS256", "use": "sig"}]}).encode()

    class Jwks(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Jwks)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/jwks.json"
    server.shutdown()
    server.server_close()


def _token(key: rsa.RSAPrivateKey, **claims: Any) -> str:
    now = int(time.time())
    payload = {"iss": ISSUER, "aud": AUDIENCE, "sub": "u-42", "name": "Зоя", "iat": now, "exp": now + 600, **claims}
    return jwt.encode(payload, key, algorithm="RS256", headers={"kid": KID})


def _auth(jwks_url: str) -> Authenticator:
    return Authenticator([OidcProvider(ISSUER, jwks_url, audience=AUDIENCE)])


def test_a_valid_rs256_token_is_accepted_and_its_user_namespaced(signing_key: rsa.RSAPrivateKey, jwks_url: str) -> None:
    principal = _auth(jwks_url).authenticate(f"Bearer {_token(signing_key)}")
    assert (principal.user_id, principal.name, principal.issuer) == (f"{ISSUER}|u-42", "Зоя", ISSUER)
    assert principal.roles == frozenset({"player"}) and not principal.is_operator


def test_an_external_roles_claim_is_stripped(signing_key: rsa.RSAPrivateKey, jwks_url: str) -> None:
    token = _token(signing_key, roles=["operator", "service"])
    principal = _auth(jwks_url).authenticate(f"Bearer {token}")
    assert principal.roles == frozenset({"player"})
    assert not principal.is_operator and not principal.is_service


def test_an_operator_listed_in_the_settings_is_one_to_every_service(
    signing_key: rsa.RSAPrivateKey, jwks_url: str
) -> None:
    """TABLEHALL_OPERATORS names OIDC users (`issuer|sub`): the authenticator every service
    builds gives them the role, so the match and the projection agree with the lobby (the
    auditor view was refused to an OIDC operator the lobby knew)."""
    listed = Authenticator([OidcProvider(ISSUER, jwks_url, audience=AUDIENCE)], operators=[f"{ISSUER}|u-42"])
    assert listed.authenticate(f"Bearer {_token(signing_key)}").is_operator
    other = listed.authenticate(f"Bearer {_token(signing_key, sub='u-43')}")
    assert other.roles == frozenset({"player"})


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda key: _token(_key()), id="signed by another key with the issuer's kid"),
        pytest.param(lambda key: _token(key, aud="someone-else"), id="another audience"),
        pytest.param(lambda key: _token(key)[:-6] + "AAAAAA", id="tampered signature"),
        pytest.param(
            lambda key: jwt.encode(
                {"iss": ISSUER, "aud": AUDIENCE, "sub": "u-42"},
                "a-shared-secret-of-32-bytes-or-more!",
                algorithm="HS256",
            ),
            id="HS256 instead of RS256",
        ),
    ],
)
def test_a_forged_token_is_refused(signing_key: rsa.RSAPrivateKey, jwks_url: str, forge: Any) -> None:
    with pytest.raises(Unauthenticated) as refused:
        _auth(jwks_url).authenticate(f"Bearer {forge(signing_key)}")
    assert refused.value.reason == "TOKEN_INVALID"


def test_an_expired_token_is_refused(signing_key: rsa.RSAPrivateKey, jwks_url: str) -> None:
    token = _token(signing_key, exp=int(time.time()) - 60)
    with pytest.raises(Unauthenticated) as refused:
        _auth(jwks_url).authenticate(f"Bearer {token}")
    assert refused.value.reason == "TOKEN_EXPIRED"
