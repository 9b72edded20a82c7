"""The web front: a static page and a small JSON API, every call made through the SDK.

It holds no state of its own beyond the connection to the gRPC address: the person's token is
a cookie (HttpOnly, SameSite=Strict) handed back on every request and passed on as the bearer
token, so the services see exactly the caller a gRPC client would be, with the same checks,
redaction and refusal reasons.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
from aiohttp import web

from tablehall_sdk import Client, Command, FailedPrecondition, Role, TablehallError, Unauthenticated
from tablehall_web.live import Feed, update_view_json, view_json
from tablehall_web.signin import Oidc, SignInFailed, claims, providers_setting
from tablehall_web.wire import bad_request, error_body, field, http_status, plain

COOKIE = "tablehall_token"
OIDC_COOKIE = "tablehall_oidc"  # one sign-in attempt: state.nonce.verifier (ten minutes)
STATIC = Path(str(resources.files("tablehall_web") / "static"))
UPSTREAM: web.AppKey[Client] = web.AppKey("upstream", Client)
OIDC: web.AppKey[Oidc | None] = web.AppKey("oidc")
HTTP: web.AppKey[aiohttp.ClientSession] = web.AppKey("http", aiohttp.ClientSession)
ROLES = {"default": Role.DEFAULT, "seat": Role.SEAT, "spectator": Role.SPECTATOR, "auditor": Role.AUDITOR}
DIFFICULTIES = ("", "easy", "strong")
# the versions an audit page loads at most (a long game has thousands; the page shows the first)
HISTORY_LIMIT = 5000

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def refusals(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A refusal of the server (or of the front) as JSON with its reason and both texts."""
    try:
        return await handler(request)
    except TablehallError as error:
        return web.json_response(error_body(error), status=http_status(error))


def caller(request: web.Request) -> Client:
    token = request.cookies.get(COOKIE, "")
    if not token:
        raise Unauthenticated("TOKEN_MISSING", "Sign in first.", messages={"en": "Sign in first.", "ru": "Войдите."})
    return request.app[UPSTREAM].as_user(token)


async def body_of(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise bad_request("the body is not JSON", "тело запроса — не JSON") from None
    if not isinstance(body, dict):
        raise bad_request("the body must be a JSON object", "тело запроса должно быть объектом JSON")
    return body


def role_of(request: web.Request) -> Role:
    name = request.query.get("role", "default")
    if name not in ROLES:
        raise bad_request(f"unknown role {name!r}", f"неизвестная роль {name!r}")
    return ROLES[name]


def table_of(request: web.Request) -> str:
    return f"tables/{request.match_info['table']}"


# ---- pages --------------------------------------------------------------------
async def index(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


# ---- identity -----------------------------------------------------------------
async def sign_in(request: web.Request) -> web.StreamResponse:
    body = await body_of(request)
    name = field(body, "name", str)
    secret = field(body, "secret", str)
    if name is None or secret is None:
        raise bad_request("give a name and a client secret", "нужны имя и секрет клиента")
    upstream = request.app[UPSTREAM].as_user("")
    identity = await upstream.sign_in_dev(name, field(body, "display_name", str, "") or "", client_secret=secret)
    response = web.json_response({"user_id": identity.user_id, "name": name})
    response.set_cookie(COOKIE, identity.token, httponly=True, samesite="Strict", path="/")
    return response


async def sign_out(request: web.Request) -> web.StreamResponse:
    response = web.json_response({})
    response.del_cookie(COOKIE, path="/")
    return response


async def me(request: web.Request) -> web.StreamResponse:
    who = await caller(request).principal()
    return web.json_response({"user_id": who.user_id, "name": who.name, "operator": who.operator})


async def providers(request: web.Request) -> web.StreamResponse:
    """The sign-in ways the lobby accepts (its TABLEHALL_AUTH_PROVIDERS, which the page shares)."""
    oidc = request.app[OIDC]
    return web.json_response(
        {
            "dev": "dev" in providers_setting(),
            "oidc": {"name": oidc.name, "url": "/auth/oidc"} if oidc is not None else None,
        }
    )


def _base(request: web.Request) -> str:
    return f"{request.scheme}://{request.host}"


def _oidc_of(request: web.Request) -> Oidc:
    oidc = request.app[OIDC]
    if oidc is None:
        raise web.HTTPNotFound(text="OIDC sign-in is not configured")
    return oidc


async def oidc_start(request: web.Request) -> web.StreamResponse:
    oidc = _oidc_of(request)
    url, attempt = await oidc.authorize_url(request.app[HTTP], oidc.redirect_uri(_base(request)))
    response = web.HTTPFound(url)
    # Lax: the issuer sends the browser back by a cross-site navigation, which Strict would not carry
    response.set_cookie(OIDC_COOKIE, attempt, httponly=True, samesite="Lax", path="/auth", max_age=600)
    return response


async def oidc_callback(request: web.Request) -> web.StreamResponse:
    """The issuer's answer: the code exchanged for the ID token, which the lobby must accept."""
    oidc = _oidc_of(request)
    state, _, rest = request.cookies.get(OIDC_COOKIE, "").partition(".")
    nonce, _, verifier = rest.partition(".")
    try:
        if "error" in request.query:
            raise SignInFailed(request.query["error"])
        if not state or request.query.get("state") != state or not verifier:
            raise SignInFailed("STATE_MISMATCH")
        redirect_uri = oidc.redirect_uri(_base(request))
        token = await oidc.id_token(request.app[HTTP], request.query.get("code", ""), redirect_uri, verifier)
        if claims(token).get("nonce") != nonce:
            raise SignInFailed("NONCE_MISMATCH")
        await request.app[UPSTREAM].as_user(token).principal()  # the lobby verifies the token
    except SignInFailed as failure:
        return _signed_in(None, f"/#/signin-failed/{quote(str(failure), safe='')}")
    except TablehallError as refusal:
        return _signed_in(None, f"/#/signin-failed/{quote(refusal.reason or refusal.code, safe='')}")
    except aiohttp.ClientError:
        return _signed_in(None, "/#/signin-failed/ISSUER_UNREACHABLE")
    return _signed_in(token, "/#/")


def _signed_in(token: str | None, to: str) -> web.StreamResponse:
    response = web.HTTPFound(to)
    response.del_cookie(OIDC_COOKIE, path="/auth")
    if token is not None:
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/")
    return response


# ---- lobby --------------------------------------------------------------------
async def games(request: web.Request) -> web.StreamResponse:
    return web.json_response({"games": plain(await caller(request).list_games())})


async def tables(request: web.Request) -> web.StreamResponse:
    client = caller(request)
    page = await client.list_tables(
        request.query.get("game", ""),
        include_started=request.query.get("started") == "1",
        page_size=50,
        page_token=request.query.get("page_token", ""),
    )
    return web.json_response(plain(page))


async def create_table(request: web.Request) -> web.StreamResponse:
    body = await body_of(request)
    game = field(body, "game", str)
    if game is None:
        raise bad_request("name the game", "укажите игру")
    table = await caller(request).create_table(
        game,
        field(body, "options", dict, {}),
        seat_count=field(body, "seat_count", int, 0),
        private=field(body, "private", bool, False),
        pin=field(body, "pin", str, ""),
        request_id=field(body, "request_id", str, None),
    )
    return web.json_response({"table": plain(table)})


async def get_table(request: web.Request) -> web.StreamResponse:
    return web.json_response({"table": plain(await caller(request).get_table(table_of(request)))})


async def join(request: web.Request) -> web.StreamResponse:
    body = await body_of(request)
    table, seat = await caller(request).join(
        table_of(request),
        seat=field(body, "seat", int, None),
        pin=field(body, "pin", str, ""),
        request_id=field(body, "request_id", str, None),
    )
    return web.json_response({"table": plain(table), "seat": seat})


async def enter(request: web.Request) -> web.StreamResponse:
    """As a spectator (a private table: with its PIN)."""
    body = await body_of(request)
    table = await caller(request).enter(
        table_of(request), pin=field(body, "pin", str, ""), request_id=field(body, "request_id", str, None)
    )
    return web.json_response({"table": plain(table)})


async def reclaim(request: web.Request) -> web.StreamResponse:
    """Take the seat back from the bot the host handed it to."""
    body = await body_of(request)
    table = await caller(request).reclaim_seat(table_of(request), request_id=field(body, "request_id", str, None))
    return web.json_response({"table": plain(table)})


async def add_bot(request: web.Request) -> web.StreamResponse:
    body = await body_of(request)
    difficulty = field(body, "difficulty", str, "")
    if difficulty not in DIFFICULTIES:
        raise bad_request(f"unknown bot level {difficulty!r}", f"неизвестный уровень бота {difficulty!r}")
    table, seat = await caller(request).add_bot(
        table_of(request),
        seat=field(body, "seat", int, None),
        difficulty=difficulty,
        request_id=field(body, "request_id", str, None),
    )
    return web.json_response({"table": plain(table), "seat": seat})


async def start(request: web.Request) -> web.StreamResponse:
    body = await body_of(request)
    table, seed_sha256 = await caller(request).start(table_of(request), request_id=field(body, "request_id", str, None))
    return web.json_response({"table": plain(table), "seed_sha256": seed_sha256})


# ---- match --------------------------------------------------------------------
async def view(request: web.Request) -> web.StreamResponse:
    return web.json_response(view_json(await caller(request).view(table_of(request), role_of(request))))


async def submit(request: web.Request) -> web.StreamResponse:
    body = await body_of(request)
    seat, game, kind = field(body, "seat", int), field(body, "game", str), field(body, "kind", str)
    if seat is None or game is None or kind is None:
        raise bad_request("give the seat, the game and the command's kind", "нужны место, игра и вид команды")
    client = caller(request)
    command = Command(game, kind, field(body, "args", dict, {}))
    done = await client.submit(table_of(request), seat, command, request_id=field(body, "request_id", str, None))
    return web.json_response({"version": done.version, "duplicate": done.duplicate, "view": view_json(done.view)})


async def events(request: web.Request) -> web.StreamResponse:
    client, role = caller(request), role_of(request)
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )
    await response.prepare(request)
    await Feed(client, table_of(request), role, response).run()
    return response


async def journal(request: web.Request) -> web.StreamResponse:
    lines = await caller(request).journal(table_of(request), role_of(request))
    return web.json_response({"lines": plain(lines)})


async def chat(request: web.Request) -> web.StreamResponse:
    messages, after = await caller(request).chat(table_of(request), after=request.query.get("after", ""))
    return web.json_response({"messages": plain(messages), "after": after})


async def say(request: web.Request) -> web.StreamResponse:
    body = await body_of(request)
    text = field(body, "text", str)
    if text is None:
        raise bad_request("give the text", "нужен текст")
    message = await caller(request).send_chat(table_of(request), text, request_id=field(body, "request_id", str, None))
    return web.json_response({"message": plain(message)})


# ---- audit --------------------------------------------------------------------
async def history(request: web.Request) -> web.StreamResponse:
    """Every version of a finished table as the caller may see it: the state after each event
    (from the live view resumed at version 1), its journal lines and open decisions."""
    client, role, table = caller(request), role_of(request), table_of(request)
    now = await client.view(table, role)
    if not now.finished:
        raise FailedPrecondition(
            "MATCH_NOT_FINISHED",
            "Only finished tables are audited.",
            messages={"en": "Only finished tables are audited.", "ru": "Проверяются только оконченные столы."},
        )
    versions: list[dict[str, Any]] = []
    async for update in client.watch(table, from_version=1, role=role):
        versions.append(update_view_json(update) | {"journal": plain(update.journal)})
        if len(versions) >= HISTORY_LIMIT:
            break
    return web.json_response({"game": now.game, "seat": now.seat, "versions": versions, "outcome": plain(now.outcome)})


async def verify(request: web.Request) -> web.StreamResponse:
    return web.json_response({"verified": plain(await caller(request).verify(table_of(request)))})


async def export(request: web.Request) -> web.StreamResponse:
    content = await caller(request).export(table_of(request))
    name = request.match_info["table"]
    return web.Response(
        body=content,
        content_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}.tablehall.json"'},
    )


async def healthz(request: web.Request) -> web.StreamResponse:
    return web.json_response({"status": "ok"})


def make_app(grpc_address: str) -> web.Application:
    """The page and its API in front of the gRPC services at `grpc_address`."""
    app = web.Application(middlewares=[refusals])
    upstream = Client(grpc_address)
    app[UPSTREAM] = upstream
    app[OIDC] = Oidc.from_env()

    async def open_http(app: web.Application) -> None:
        app[HTTP] = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=15))

    async def close(app: web.Application) -> None:
        await upstream.close()
        await app[HTTP].close()

    app.on_startup.append(open_http)
    app.on_cleanup.append(close)
    t = "/api/tables/{table}"
    app.add_routes(
        [
            web.get("/", index),
            web.get("/healthz", healthz),
            web.static("/static", STATIC, append_version=False),
            web.post("/api/sign-in", sign_in),
            web.post("/api/sign-out", sign_out),
            web.get("/api/providers", providers),
            web.get("/auth/oidc", oidc_start),
            web.get("/auth/oidc/callback", oidc_callback),
            web.get("/api/me", me),
            web.get("/api/games", games),
            web.get("/api/tables", tables),
            web.post("/api/tables", create_table),
            web.get(t, get_table),
            web.post(f"{t}/join", join),
            web.post(f"{t}/enter", enter),
            web.post(f"{t}/reclaim", reclaim),
            web.post(f"{t}/bots", add_bot),
            web.post(f"{t}/start", start),
            web.get(f"{t}/view", view),
            web.post(f"{t}/commands", submit),
            web.get(f"{t}/events", events),
            web.get(f"{t}/journal", journal),
            web.get(f"{t}/chat", chat),
            web.post(f"{t}/chat", say),
            web.get(f"{t}/history", history),
            web.get(f"{t}/verify", verify),
            web.get(f"{t}/export", export),
        ]
    )
    return app
