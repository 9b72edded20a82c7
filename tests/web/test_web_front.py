"""The web front's own refusals of malformed requests: with a reason and both texts, as the
services refuse theirs; what the sign-in screen offers."""

from __future__ import annotations

import aiohttp
from support.webkit import Served


async def test_the_web_front_refuses_malformed_requests_with_a_reason(served: Served) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:  # an IP address
        async with http.post(f"{served.web}api/sign-in", data=b"{not json") as reply:
            body = await reply.json()
            assert reply.status == 400 and body["error"]["reason"] == "BAD_WEB_REQUEST"
            assert body["error"]["messages"]["ru"] and body["error"]["messages"]["en"]
        async with http.post(f"{served.web}api/sign-in", json={"name": 7, "secret": "x" * 20}) as reply:
            assert reply.status == 400 and (await reply.json())["error"]["reason"] == "BAD_WEB_REQUEST"
        async with http.get(f"{served.web}api/providers") as reply:  # the lobby's sign-in ways, before signing in
            assert await reply.json() == {"dev": True, "oidc": {"name": "Test ID", "url": "/auth/oidc"}}
        async with http.get(f"{served.web}api/games") as reply:  # no token: the server's own refusal
            assert reply.status == 401 and (await reply.json())["error"]["code"] == "UNAUTHENTICATED"
        async with http.post(f"{served.web}api/sign-in", json={"name": "web-eve", "secret": "eve-secret-0123456789"}):
            pass
        async with http.post(f"{served.web}api/tables", json={"game": "no-such-game"}) as reply:
            body = await reply.json()
            assert reply.status == 400 and body["error"]["code"] == "INVALID_ARGUMENT", body
        async with http.get(f"{served.web}api/tables/t0000000000000000/view?role=king") as reply:
            assert reply.status == 400 and (await reply.json())["error"]["reason"] == "BAD_WEB_REQUEST"
