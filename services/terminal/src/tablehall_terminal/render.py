"""Пузиполия's view (see docs/rules/puzzipolia.md, `view`) as Rich renderables: the board with
owners and houses, the players with their money, and the status line with whose turn and the clock."""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from tablehall_sdk import Decision
from tablehall_terminal.i18n import t
from tablehall_terminal.moves import seat_name, square_name

COLOURS = ("red", "green", "blue", "magenta", "cyan", "yellow", "bright_red", "bright_green")
GROUP_COLOURS = {
    "brown": "#8b5a2b",
    "light_blue": "#87ceeb",
    "pink": "#ff69b4",
    "orange": "#ff8c00",
    "red": "red",
    "yellow": "yellow",
    "green": "green",
    "dark_blue": "#4169e1",
    "teal": "#008080",
    "lime": "#32cd32",
    "silver": "#c0c0c0",
    "gold": "#ffd700",
}


def plain(renderable: RenderableType, width: int = 160) -> str:
    """A renderable as plain text (what the screen says, for logs and tests)."""
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]


def seat_style(seat: int) -> str:
    return COLOURS[seat % len(COLOURS)]


def _houses(square: Mapping[str, Any], lang: str) -> str:
    if square.get("hotel"):
        return t(lang, "hotel")
    count = int(square.get("buildings") or 0)
    return "⌂" * count


def _board_half(state: Mapping[str, Any], squares: Sequence[Mapping[str, Any]], lang: str) -> Table:
    table = Table(expand=True, show_edge=False, pad_edge=False, box=None)
    table.add_column("#", justify="right", width=2)
    table.add_column(t(lang, "col_square"), ratio=3, no_wrap=True, overflow="ellipsis")
    table.add_column(t(lang, "col_owner"), ratio=2, no_wrap=True, overflow="ellipsis")
    table.add_column(t(lang, "col_houses"), width=6)
    table.add_column(t(lang, "col_here"), width=6)
    positions: dict[int, list[int]] = {}
    for p in state.get("players") or []:
        if p.get("status") == "playing":
            positions.setdefault(int(p.get("position", 0)), []).append(int(p["seat"]))
    for sq in squares:
        index = int(sq["index"])
        name = Text(square_name(state, index, lang), style=GROUP_COLOURS.get(str(sq.get("group")), ""))
        owner = sq.get("owner")
        owner_text = Text(seat_name(state, int(owner)), style=seat_style(int(owner))) if owner is not None else Text("")
        if sq.get("mortgaged"):
            owner_text.append(f" ({t(lang, 'mortgaged')})", style="dim")
        here = Text(" ".join("●" for _ in positions.get(index, [])))
        for i, seat in enumerate(positions.get(index, [])):
            here.stylize(seat_style(seat), i * 2, i * 2 + 1)
        table.add_row(str(index), name, owner_text, _houses(sq, lang), here)
    return table


def board(state: Mapping[str, Any], lang: str) -> RenderableType:
    squares = list(state.get("squares") or [])
    if not squares:
        return Text("")
    half = math.ceil(len(squares) / 2)
    grid = Table.grid(expand=True, padding=(0, 2))
    grid.add_column(ratio=1)
    grid.add_column(ratio=1)
    grid.add_row(_board_half(state, squares[:half], lang), _board_half(state, squares[half:], lang))
    return grid


def players(state: Mapping[str, Any], lang: str, me: int | None) -> RenderableType:
    table = Table(expand=True, box=None)
    table.add_column(t(lang, "col_player"), no_wrap=True)
    table.add_column(t(lang, "col_money"), justify="right")
    table.add_column(t(lang, "col_at"), no_wrap=True, overflow="ellipsis")
    table.add_column(t(lang, "col_worth"), justify="right")
    active = state.get("active_seat")
    for p in state.get("players") or []:
        seat = int(p["seat"])
        name = Text(("▶ " if seat == active else "  ") + str(p.get("name")), style=seat_style(seat))
        tags = []
        if seat == me:
            tags.append(t(lang, "you"))
        if p.get("is_bot"):
            tags.append(t(lang, "bot"))
        if p.get("in_jail"):
            tags.append(t(lang, "jail"))
        if p.get("status") != "playing":
            tags.append(t(lang, "out"))
        if tags:
            name.append(f" ({', '.join(tags)})", style="dim")
        table.add_row(
            name,
            str(p.get("money", 0)),
            square_name(state, int(p.get("position", 0)), lang),
            str(p.get("net_worth", "")),
        )
    return table


def _places(state: Mapping[str, Any], outcome: Mapping[str, Any] | None) -> str:
    places = (outcome or {}).get("places") or ((state.get("result") or {}).get("places")) or []
    return "; ".join(f"{i + 1}. {', '.join(seat_name(state, int(s)) for s in place)}" for i, place in enumerate(places))


def status(
    state: Mapping[str, Any],
    decisions: Sequence[Decision],
    now_ms: int,
    lang: str,
    finished: bool,
    outcome: Mapping[str, Any] | None,
) -> RenderableType:
    """Round, whose turn with the clock counting down, the auction, debts, the vote; or the result."""
    lines: list[Text] = []
    if finished:
        reason = str((outcome or {}).get("reason") or (state.get("result") or {}).get("reason") or "")
        lines.append(Text(t(lang, "over", reason=reason, places=_places(state, outcome)), style="bold"))
        return Group(*lines)
    limit = state.get("round_limit")
    head = (
        t(lang, "round_of", round=state.get("round"), limit=limit)
        if limit
        else t(lang, "round", round=state.get("round"))
    )
    line = Text(head + "   ")
    active = state.get("active_seat")
    if active is not None:
        line.append(t(lang, "turn", name=seat_name(state, int(active))), style=f"bold {seat_style(int(active))}")
    if decisions:
        first = min(decisions, key=lambda d: d.deadline_ms)
        seconds = max(0, math.ceil((first.deadline_ms - now_ms) / 1000))
        waiting = ", ".join(dict.fromkeys(seat_name(state, d.seat) for d in decisions))
        line.append("   " + t(lang, "waiting_for", names=waiting) + "   ")
        line.append("⏱ " + t(lang, "clock", seconds=seconds), style="bold red" if seconds <= 5 else "bold")
    lines.append(line)
    auction = state.get("auction")
    if auction:
        square = square_name(state, int(auction.get("square", 0)), lang)
        if auction.get("high_bidder") is not None:
            bidder = seat_name(state, int(auction["high_bidder"]))
            lines.append(Text(t(lang, "auction", square=square, bid=auction.get("high_bid"), bidder=bidder)))
        else:
            lines.append(Text(t(lang, "auction_none", square=square)))
    debts = state.get("debts") or []
    if debts:
        described = [
            t(
                lang,
                "debt",
                debtor=seat_name(state, int(d["debtor"])),
                amount=d.get("amount"),
                creditor=seat_name(state, int(d["creditor"])) if d.get("creditor") is not None else t(lang, "bank"),
            )
            for d in debts
        ]
        lines.append(Text(t(lang, "debts", debts="; ".join(described)), style="yellow"))
    vote = state.get("vote")
    if vote:
        lines.append(Text(t(lang, "vote", yes=len(vote.get("yes") or []), voters=len(vote.get("voters") or []))))
    return Group(*lines)
