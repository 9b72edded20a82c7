"""Identity providers and the authenticator."""

from __future__ import annotations

import time

import jwt
import pytest

from tablehall_platform.auth import Authenticator, DevProvider, ServiceProvider
from tablehall_platform.errors import Unauthenticated

DEV = DevProvider("dev-secret-0123456789-0123456789-ab")
SVC = ServiceProvider("svc-secret-0123456789-0123456789-ab")


def reason(auth: Authenticator, header: str | None) -> str:
    with pytest.raises(Unauthenticated) as caught:
        auth.authenticate(header)
    return caught.value.reason


def test_dev_tokens_name_the_user_and_roles() -> None:
    auth = Authenticator([DEV, SVC])
    p = auth.authenticate(f"Bearer {DEV.issue('alice', 'Alice', roles=('player', 'operator'))}")
    assert p.user_id == "alice" and p.name == "Alice" and p.is_operator and not p.is_service


def test_service_tokens_come_only_from_the_service_provider() -> None:
    auth = Authenticator([DEV, SVC])
    assert auth.authenticate(f"Bearer {SVC.service_token('timer')}").is_service
    assert reason(auth, f"Bearer {DEV.issue('timer', roles=('service',))}") == "TOKEN_INVALID"


def test_bad_tokens_are_refused_with_their_reason() -> None:
    auth = Authenticator([DEV])
    assert reason(auth, None) == "TOKEN_MISSING"
    assert reason(auth, "Basic xyz") == "TOKEN_MISSING"
    assert reason(auth, "Bearer not-a-jwt") == "TOKEN_INVALID"
    forged = jwt.encode(
        {"iss": DevProvider.issuer, "sub": "eve"}, "another-secret-0123456789-0123456", algorithm="HS256"
    )
    assert reason(auth, f"Bearer {forged}") == "TOKEN_INVALID"
    expired = DEV.issue("bob", ttl_seconds=-10)
    assert reason(auth, f"Bearer {expired}") == "TOKEN_EXPIRED"
    stranger = jwt.encode({"iss": "elsewhere", "sub": "x"}, "k" * 32, algorithm="HS256")
    assert reason(auth, f"Bearer {stranger}") == "TOKEN_ISSUER_UNKNOWN"


def test_no_provider_lets_nobody_in() -> None:
    assert reason(Authenticator([]), f"Bearer {DEV.issue('alice')}") == "NO_IDENTITY_PROVIDER"


def test_a_remembered_token_still_expires() -> None:
    auth = Authenticator([DEV])
    token = f"Bearer {DEV.issue('carol', ttl_seconds=1)}"
    assert auth.authenticate(token).user_id == "carol"
    assert auth.authenticate(token).user_id == "carol"  # from the cache
    time.sleep(2.1)
    assert reason(auth, token) == "TOKEN_EXPIRED"
