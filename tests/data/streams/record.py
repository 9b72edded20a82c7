"""Record finished tables of every game through the real services and export them signed.

    .venv/bin/python tests/data/streams/record.py --out tests/data/streams [--only NAME ...]

Starts `tablehall up --no-demo` (lobby, match, timer, bot, projection, publisher) on a fresh
database of the local PostgreSQL (or whatever `find_servers` finds) and its own NATS prefix,
plays the scenarios below with scripted people (development sign-in, the SDK, the lobby's gRPC
API) and the bot service's bots, exports each finished table with `tablehall export`, writes the
server's public key with `tablehall signing-key`, checks every file with `tablehall verify --file`
and writes README.md with what each file holds. The files are the test data of
tests/audit/test_recorded_streams.py: streams written by the code of the day, kept so that later
code proves it still replays and verifies them.

A person's moves: the game's own bot policy on the person's view (never quitting on its own),
so games end by their rules in a few rounds; what a scenario needs (presence dropped, a seat
handed to a bot, clocks left to run out, a removal, a close) it does explicitly.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests"))

from support.people import OPERATOR, ScriptFailed, Stage, run_cli, serving  # noqa: E402

from tablehall_audit.export import read_export_file  # noqa: E402
from tablehall_sdk import FailedPrecondition, InvalidArgument  # noqa: E402

KEY_FILE = "signing-key.pub.pem"

# ---- the scenarios -----------------------------------------------------------------------
# Each plays one table to its end and returns its name; DESCRIPTIONS say what each holds.

Scenario = Callable[[Stage], Awaitable[str]]


async def puzzipolia_handover(stage: Stage) -> str:
    ann, ben = await stage.person("ann"), await stage.person("ben")
    options = {"decision_clock_s": 20, "round_limit": 2, "start_money": 1500}
    table = await stage.table(ann, "puzzipolia", options, ["ann", "ben", "bot"])
    await ann.present(table)
    await ben.present(table)
    both = asyncio.gather(ann.play(table, 0, 2), ben.play(table, 1, 2))
    await both
    await ben.away(table)  # Ben's connection drops
    await ann.hand_to_bot(table, 1)  # the host hands his seat to a bot, which plays it
    await asyncio.gather(ann.play(table, 0, 2), ben.until_bot_played(table, 1, 2))
    await ben.present(table)  # Ben is back and takes his seat again
    await ben.reclaim(table)
    await asyncio.gather(ann.idle(table, 0, 2), ben.play(table, 1, 2))  # Ann lets her clock run out
    await asyncio.gather(ann.play(table, 0), ben.play(table, 1))  # to the round limit
    return table


async def puzzipolia_removed_host_end(stage: Stage) -> str:
    ann, ben = await stage.person("ann"), await stage.person("ben")
    options = {"decision_clock_s": 60, "round_limit": 6}
    table = await stage.table(ann, "puzzipolia", options, ["ann", "ben", "bot"])
    await ann.present(table)
    await ben.present(table)
    await asyncio.gather(ann.play(table, 0, 3), ben.play(table, 1, 3))
    await ben.away(table)
    await ann.remove_seat(table, 1)  # an absent player removed by the host
    await ann.play(table, 0, 2)
    await ann.propose_end(table)  # ■: only a bot plays on, so the game ends at once
    await ann.until_finished(table)
    return table


async def dragons_handover(stage: Stage) -> str:
    ann = await stage.person("ann")
    table = await stage.table(ann, "dragons", {"decision_clock_s": 15}, ["ann", "bot"])
    await ann.present(table)
    await ann.play(table, 0, 4)
    await ann.away(table)
    await ann.hand_to_bot(table, 0)  # the host hands her own seat to a bot while away
    await ann.until_bot_played(table, 0, 2)
    await ann.present(table)
    await ann.reclaim(table)
    await ann.idle(table, 0, 3)  # the clock runs out (then the AFK ladder's short clocks)
    await ann.play(table, 0)  # to the end of round 22
    return table


async def dragons_removed(stage: Stage) -> str:
    ann = await stage.person("ann")
    table = await stage.table(ann, "dragons", {"decision_clock_s": 60}, ["ann", "bot"])
    await ann.present(table)
    await ann.play(table, 0, 6)
    # the host removes the bot: the removed seat loses. Today the match's removal ends the game
    # before the lobby records it, so the lobby refuses its own event (MATCH_FINISHED) and the
    # stream holds the game's removal without the lobby's BotRemoved: recorded as it is.
    try:
        await ann.remove_seat(table, 1)
    except grpc.aio.AioRpcError as exc:
        if exc.code() != grpc.StatusCode.FAILED_PRECONDITION or "over" not in (exc.details() or ""):
            raise
    await ann.until_finished(table)
    return table


async def dragons_closed(stage: Stage) -> str:
    ann, oper = await stage.person("ann"), await stage.person(OPERATOR)
    table = await stage.table(ann, "dragons", {"decision_clock_s": 60}, ["ann", "bot"])
    await ann.present(table)
    await ann.play(table, 0, 6)
    await oper.close_table(table)  # an operator closes the running table
    await ann.until_finished(table)
    return table


async def magnates_handover(stage: Stage) -> str:
    ann, ben = await stage.person("ann"), await stage.person("ben")
    table = await stage.table(ann, "magnates", {"round_limit": 3, "clock_ms": 4000}, ["ann", "ben", "bot"])
    await ann.present(table)
    await ben.present(table)
    await asyncio.gather(ann.play(table, 0, 2), ben.play(table, 1, 2))
    await ben.away(table)
    await ann.hand_to_bot(table, 1)
    await asyncio.gather(ann.play(table, 0, 2), ben.until_bot_played(table, 1, 2))
    await ben.present(table)
    await ben.reclaim(table)
    await asyncio.gather(ann.play(table, 0, 2), ben.idle(table, 1, 3))  # Ben's clock runs out
    await asyncio.gather(ann.play(table, 0), ben.play(table, 1))  # to the round limit
    return table


async def magnates_removed_closed(stage: Stage) -> str:
    ann, ben, oper = await stage.person("ann"), await stage.person("ben"), await stage.person(OPERATOR)
    table = await stage.table(ann, "magnates", {"round_limit": 10, "clock_ms": 60_000}, ["ann", "ben", "bot"])
    await ann.present(table)
    await ben.present(table)
    await asyncio.gather(ann.play(table, 0, 3), ben.play(table, 1, 3))
    await ben.away(table)
    await ann.remove_seat(table, 1)  # an absent player removed by the host: eliminated
    await ann.play(table, 0, 3)
    await oper.close_table(table)  # an operator closes the running table
    await ann.until_finished(table)
    return table


async def homunculus_ffa(stage: Stage) -> str:
    ann = await stage.person("ann")
    table = await stage.table(ann, "homunculus", {"clock_ms": 5000}, ["ann", "bot", "bot", "bot"])
    await ann.present(table)
    await ann.play(table, 0, 4)
    await ann.away(table)  # the game has no rule for presence today: only the lobby's fact
    await ann.present(table)
    await ann.idle(table, 0, 3)  # the clock runs out
    await ann.play(table, 0, 4)
    await ann.remove_seat(table, 1)  # the host removes two bots: out of the game
    await ann.remove_seat(table, 3)
    await ann.play(table, 0, 2)
    view = await ann.client.view(table)
    surrender = next((c for c in view.legal if c.kind == "surrender"), None)
    if surrender is not None and not view.finished:  # Ann gives up: the last one standing wins
        with contextlib.suppress(FailedPrecondition, InvalidArgument):
            await ann.client.submit(table, 0, surrender)
    await ann.until_finished(table)
    return table


async def homunculus_teams(stage: Stage) -> str:
    ann, ben, oper = await stage.person("ann"), await stage.person("ben"), await stage.person(OPERATOR)
    # 2-on-2: seats 0+2 (Ann and Ben) against 1+3 (bots)
    table = await stage.table(ann, "homunculus", {"teams": True, "clock_ms": 5000}, ["ann", "bot", "ben", "bot"])
    await ann.present(table)
    await ben.present(table)
    await asyncio.gather(ann.play(table, 0, 3), ben.play(table, 2, 3))
    await ben.away(table)
    await ann.hand_to_bot(table, 2)  # the lobby hands it over; the game has no rule for it today
    await ann.play(table, 0, 2)
    await ben.present(table)
    await ben.reclaim(table)
    await asyncio.gather(ann.play(table, 0, 3), ben.idle(table, 2, 2))
    await oper.close_table(table)
    await ann.until_finished(table)
    return table


SCENARIOS: dict[str, Scenario] = {
    "puzzipolia-handover": puzzipolia_handover,
    "puzzipolia-removed-host-end": puzzipolia_removed_host_end,
    "dragons-handover": dragons_handover,
    "dragons-removed": dragons_removed,
    "dragons-closed": dragons_closed,
    "magnates-handover": magnates_handover,
    "magnates-removed-closed": magnates_removed_closed,
    "homunculus-ffa": homunculus_ffa,
    "homunculus-teams": homunculus_teams,
}

DESCRIPTIONS: dict[str, str] = {
    "puzzipolia-handover": (
        "Ann (host) and Ben with one bot, 20 s clocks, round limit 2. Ben's presence stream drops, "
        "the host hands his seat to a bot, the bot plays it, Ben holds presence again and reclaims "
        "it; Ann leaves her clocks to run out for a while; the game ends at the round limit."
    ),
    "puzzipolia-removed-host-end": (
        "Ann (host) and Ben with one bot, round limit 6. Ben drops out and the host removes him; "
        "the host proposes the end for all (■): with no other person playing, the vote passes at "
        "once and the game ends."
    ),
    "dragons-handover": (
        "Ann (host) against a bot, 15 s clocks. Ann's presence drops, she hands her own seat to a "
        "bot, which plays it, comes back and reclaims it; she leaves her clocks to run out for a "
        "while (the AFK ladder's short clocks follow); then she plays to the end of round 22."
    ),
    "dragons-removed": (
        "Ann (host) against a bot; after a few moves the host removes the bot, which loses. The "
        "match's removal ends the game before the lobby records it, so the lobby refuses its own "
        "BotRemoved (MATCH_FINISHED) and the stream has the game's removal without the lobby's fact: "
        "what today's code writes."
    ),
    "dragons-closed": "Ann (host) against a bot; an operator closes the running table.",
    "magnates-handover": (
        "Ann (host) and Ben with one bot, 4 s clocks, round limit 3. Ben drops, his seat is handed "
        "to a bot and reclaimed; he leaves his clocks to run out for a while; the game ends at the "
        "round limit."
    ),
    "magnates-removed-closed": (
        "Ann (host) and Ben with one bot. Ben drops out and the host removes him (eliminated); "
        "an operator closes the running table."
    ),
    "homunculus-ffa": (
        "Ann (host) and three bots, free-for-all, 5 s clocks. Ann's presence drops and comes back "
        "(the game has no rule for it: lobby events only); she leaves her clock to run out; the host "
        "removes two bots; Ann surrenders and the last one standing wins."
    ),
    "homunculus-teams": (
        "2-on-2: Ann (host) and Ben (seats 0, 2) against two bots (1, 3), 5 s clocks. Ben drops, "
        "his seat is handed to a bot and reclaimed (lobby events only: the game has no rule for "
        "it); he leaves his clock to run out; an operator closes the table."
    ),
}


# ---- the server, the exports and the README -----------------------------------------------


# the lobby's facts about the people at a table (in the table's stream, beside the game's events)
LOBBY_FACTS = ("PresenceChanged", "SeatHandedToBot", "SeatReclaimed", "PlayerRemoved", "BotRemoved", "TableClosed")


@dataclass(frozen=True)
class Holds:
    """What one file holds, counted from its events."""

    events: int
    lobby: Counter[str]  # the lobby's facts by type
    table_commands: Counter[str]  # the game's system commands (presence, controller, removal, close, ■) by type
    game_events: Counter[str]  # the game's events that record those (PresenceChanged, ControllerChanged, ...)
    timeouts: int  # commands the timer sent when a clock ran out (the game's default move)
    end: str  # the outcome's reason


def holds(data: bytes) -> Holds:
    copy = read_export_file(data).copy
    lobby: Counter[str] = Counter()
    game_events: Counter[str] = Counter()
    commands: dict[str, dict[str, Any]] = {}
    for event in copy.events:
        prefix, _, tag = event.type.partition(".")
        if prefix == "lobby" and tag in LOBBY_FACTS:
            lobby[tag] += 1
        elif prefix not in ("lobby", "match") and ("Presence" in tag or "Controller" in tag or "Afk" in tag):
            game_events[tag] += 1
        if "command" in event.metadata:
            commands.setdefault(str(event.metadata.get("command_id")), event.metadata)
    table_commands = Counter(str(m["command"].get("type")) for m in commands.values() if m.get("seat") is None)
    table_commands.pop("None", None)
    timeouts = sum(1 for m in commands.values() if m.get("timeout"))
    ended = next(e for e in copy.events if e.type == "match.Ended")
    outcome = json.loads(ended.payload)["outcome"]
    end = str(outcome.get("reason", "?")) if isinstance(outcome, dict) else "?"
    return Holds(len(copy.events), lobby, table_commands, game_events, timeouts, end)


def commit_of_code() -> str:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--", "libs", "services"], cwd=ROOT, capture_output=True, text=True
    )
    return head.stdout.strip() + (
        " (with uncommitted changes under libs/ or services/)" if dirty.stdout.strip() else ""
    )


README_HEAD = """# Recorded streams

Finished tables of every game, written through the real services by the code of commit
`{commit}` (recorded {date}), exported with the product's own export (`tablehall export TABLE
--out FILE`, format `tablehall-table/2`, Ed25519-signed by the recording server's key). They are
kept so that later code proves it still reads, replays and verifies the streams of today:
`tests/audit/test_recorded_streams.py` checks every `*.json` here (the signature against
`{key}`, `verify_stream`: hash chain, seed, every draw recomputed, every command re-decided, and
the match's own loading path rebuilding the same state as replaying the events one by one).

`{key}`: the public key of the recording server (key id `{key_id}`).

## How they were recorded

`.venv/bin/python tests/data/streams/record.py --out tests/data/streams` (this README is its
output too). PostgreSQL and NATS are found as `tablehall up` finds them; the recording uses a
database and a NATS prefix of its own, dropped at the end. It runs `tablehall up --no-demo`
(lobby, match, timer, bot, projection, publisher; easy bots), plays each scenario with scripted
people through the SDK and the lobby's gRPC API (a person's moves: the game's bot policy on the
person's view, never quitting on its own), exports each table with `tablehall export`, writes
the server's public key (`tablehall signing-key`) and checks each file with `tablehall verify
--file F --key {key}`. Re-recording replaces every file and the key together: the tables
differ from run to run (new seeds, bots' choices), the scenarios do not. `--only NAME` records
some scenarios with a new key: give it another `--out`.

## The files

Counts: the lobby's facts (`lobby.*` events in the table's stream), the game's table commands
(system commands the match decided for the platform: presence, controller, removal, close, the
host's ■; none where the game has no rule), the game's events about presence/controller/AFK, and
timeouts (commands the timer sent when a clock ran out: the game's default move).

"""


def _listed(counts: Counter[str]) -> str:
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items())) or "none"


def readme_section(name: str, size: int, held: Holds) -> str:
    return (
        f"### `{name}.json` ({size // 1024} KB, {held.events} events, ends: {held.end})\n\n"
        f"{DESCRIPTIONS[name]}\n\n"
        f"- lobby facts: {_listed(held.lobby)}\n"
        f"- the game's table commands: {_listed(held.table_commands)}\n"
        f"- the game's presence/controller/AFK events: {_listed(held.game_events)}\n"
        f"- timeouts: {held.timeouts}\n"
    )


async def record(out: Path, chosen: Mapping[str, Scenario], work: Path) -> str:
    """Play and export the chosen scenarios; the id of the key that signed the files."""
    async with serving(work) as (address, env):
        printed = await asyncio.to_thread(run_cli, ["signing-key"], env, work, "signing-key")
        pem = "".join(line + "\n" for line in printed.splitlines() if not line.startswith("#"))
        await asyncio.to_thread((out / KEY_FILE).write_text, pem)
        channel = grpc.aio.insecure_channel(address)
        stage = Stage(address, channel, env, work)
        try:
            for name, scenario in chosen.items():
                started = time.monotonic()
                table = await scenario(stage)
                print(f"{name}: {table} finished in {time.monotonic() - started:.0f} s", flush=True)
                export = ["export", table, "--out", str(out / f"{name}.json")]
                await asyncio.to_thread(run_cli, export, env, work, f"export-{name}")
        finally:
            await stage.close()
            await channel.close()
    return printed.splitlines()[0].removeprefix("# key id ").split()[0]


def check_and_describe(out: Path, chosen: Mapping[str, Scenario], key_id: str) -> None:
    """`tablehall verify --file` on each file with the kept key; README.md when all were recorded."""
    sections = []
    for name in chosen:
        path = out / f"{name}.json"
        verify = [
            sys.executable,
            "-m",
            "tablehall_cli.main",
            "verify",
            "--file",
            str(path),
            "--key",
            str(out / KEY_FILE),
        ]
        verdict = subprocess.run(verify, capture_output=True, text=True, check=False)
        if verdict.returncode != 0:
            raise ScriptFailed(f"{path.name} does not verify:\n{verdict.stdout}{verdict.stderr}")
        data = path.read_bytes()
        held = holds(data)
        print(f"{path.name}: {len(data)} bytes, {held}", flush=True)
        sections.append(readme_section(name, len(data), held))
    if set(chosen) == set(SCENARIOS):
        date = datetime.date.today().isoformat()
        head = README_HEAD.format(commit=commit_of_code(), date=date, key=KEY_FILE, key_id=key_id)
        (out / "README.md").write_text(head + "\n".join(sections))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    parser.add_argument(
        "--only", nargs="*", choices=sorted(SCENARIOS), default=[], help="record only these (with a new key)"
    )
    args = parser.parse_args()
    out: Path = args.out.resolve()
    chosen = {name: SCENARIOS[name] for name in (args.only or SCENARIOS)}
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tablehall-record-") as folder:
        work = Path(folder)
        work.chmod(0o755)  # an embedded PostgreSQL runs as another user
        key_id = asyncio.run(record(out, chosen, work))
    check_and_describe(out, chosen, key_id)


if __name__ == "__main__":
    main()
