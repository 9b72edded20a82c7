"""Гомункул's table actions through the match service's gRPC API: a player who drops is absent
and AFK (its clock the AFK ladder's 2 seconds), a bot takes the seat and gives it back, the host
removes a player; and a table loaded from a snapshot stored before the ladder knew absence."""

from __future__ import annotations

import json

import msgspec
from support.matchkit import Running, Tokens, control, start_seated

from tablehall.match.v1 import match_pb2
from tablehall_match.live_table import SNAPSHOT_TYPE
from tablehall_rules import AFK_CLOCK_MS
from tablehall_stream.names import stream_id

USERS = ("alice", "bob", "carol")


async def _view(match: Running, tokens: Tokens, table: str) -> dict[str, object]:
    view = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
    seen: dict[str, object] = json.loads(view.view.view_json)
    return seen


async def test_presence_hand_over_hand_back_and_removal_through_the_match(match: Running, tokens: Tokens) -> None:
    table = await start_seated(match, tokens, "homunculus", USERS)
    turn = int(str((await _view(match, tokens, table))["turn"]))
    gone = await control(match, tokens, table, "p0", presence=match_pb2.SetPresence(seat=turn, present=False))
    afk = (await _view(match, tokens, table))["afk"]
    assert isinstance(afk, dict) and afk["absent"][turn] and afk["afk"][turn]
    live = match.service.app.tables[table.split("/")[1]]
    assert any(d.seat == turn and d.clock_ms == AFK_CLOCK_MS for d in live.game.pending(live.state))
    bot = await control(match, tokens, table, "c0", controller=match_pb2.SetController(seat=turn, by_bot=True))
    afk = (await _view(match, tokens, table))["afk"]
    assert isinstance(afk, dict) and afk["by_bot"][turn] and not afk["afk"][turn]
    back = await control(match, tokens, table, "c1", controller=match_pb2.SetController(seat=turn, by_bot=False))
    other = (turn + 1) % 3
    out = await control(match, tokens, table, "r0", remove=match_pb2.RemovePlayer(seat=other))
    assert gone < bot < back < out
    stream = stream_id(table.split("/")[1])
    types = [e.type for e in await match.store.read_stream(stream) if e.type.startswith("homunculus.")]
    assert types.count("homunculus.PresenceChanged") == 1 and types.count("homunculus.ControllerChanged") == 2
    alive = (await _view(match, tokens, table))["alive"]
    assert isinstance(alive, list) and not alive[other]


async def test_a_snapshot_stored_before_the_ladder_knew_absence_loads(match: Running, tokens: Tokens) -> None:
    table = await start_seated(match, tokens, "homunculus", USERS)
    version = await control(match, tokens, table, "p0", presence=match_pb2.SetPresence(seat=1, present=False))
    table_id = table.split("/")[1]
    live = match.service.app.tables[table_id]
    await match.service.app.host.snapshots_saved()  # the match's own, which would overwrite ours
    snapshot = msgspec.json.decode(live.snapshot())
    del snapshot["state"]["afk"]["absent"]  # as Гомункул stored its ladder before the kit
    await match.store.save_snapshot(live.stream_id, version, msgspec.json.encode(snapshot), state_type=SNAPSHOT_TYPE)
    match.service.app.evict(table_id)
    afk = (await _view(match, tokens, table))["afk"]
    assert isinstance(afk, dict) and afk["absent"] == [False, False, False]
    assert match.service.app.tables[table_id].last_snapshot_version == version  # loaded from the snapshot
    back = await control(match, tokens, table, "p1", presence=match_pb2.SetPresence(seat=2, present=False))
    assert back == version + 1
