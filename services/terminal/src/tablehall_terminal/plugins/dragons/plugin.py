"""Драконы играют не только в покер on the shared screen: the round board, the players, the keys.

Everything is read from one `Frame` (docs/rules/dragons.md, «The view» and «Legal moves»). The
board is the documented disk of 333 cells (x² + y² ≤ 104, numbered south to north, west to east
within a row); red's half is drawn on top, the border row y = 0 in the middle. The keys are built
from the frame's legal-move descriptors only: where a die may go, why a corner placement is
allowed, the contours the engine offers as examples; a contour the player enters cell by cell is
sent as typed and judged by the server (the rule `contour`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from tablehall_sdk import Command
from tablehall_terminal.frame import Frame
from tablehall_terminal.plugin import Entry, Move, player_cells, players_table, spell_out, texts_of
from tablehall_terminal.plugins.dragons.texts import PIECES, TEXTS

RADIUS2 = 104
SPAN = 10
ROWS = 2 * SPAN + 1
COLOURS = ("red", "blue")
MARK = {"red": "r", "blue": "b", "black": "#"}
DOMINO_MARK = {"red": "R", "blue": "B"}
STYLE = {"red": "bold #ffffff on #c00000", "blue": "bold #ffffff on #0040d0", "black": "bold #ffffff on #000000"}
HALF_STYLE = {1: "#ff8080 on #2a0000", -1: "#80a0ff on #00002a"}  # free cells of red's / blue's half
BORDER_STYLES = ("#ff8080 on #3a003a", "#80a0ff on #3a003a")  # the two-coloured border row
KEYS = {"place_start": "s", "place_black": "b", "chess_move": "m", "place_domino": "d", "discard_die": "x"}
LABELS = {
    "place_start": "place_start",
    "place_black": "black",
    "chess_move": "chess",
    "place_domino": "domino",
    "discard_die": "discard",
}
ORDER = ["s", "1", "2", "3", "4", "5", "6", "c", "m", "d", "b", "y", "n", "x"]
ITEMS_MAX = 600  # a chooser lists at most this many commands
CELL_RE = re.compile(r"^\s*\(?\s*(-?\d+)\s*[,; ]\s*(-?\d+)\s*\)?\s*$")


@cache
def coords() -> tuple[tuple[int, int], ...]:
    """The board's cells by number: (x, y), south to north, west to east within a row."""
    return tuple((x, y) for y in range(-SPAN, SPAN + 1) for x in range(-SPAN, SPAN + 1) if x * x + y * y <= RADIUS2)


@cache
def numbers() -> dict[tuple[int, int], int]:
    return {xy: i for i, xy in enumerate(coords())}


def name(cell: int) -> str:
    """A cell as the journal names it: `x,y`."""
    table = coords()
    if not 0 <= cell < len(table):
        return str(cell)
    x, y = table[cell]
    return f"{x},{y}"


def parse_cell(text: str) -> int | None:
    """`x,y` (or `x y`, `(x, y)`) of a board cell, else None."""
    found = CELL_RE.match(text)
    if not found:
        return None
    return numbers().get((int(found.group(1)), int(found.group(2))))


def _ints(values: Any) -> list[int]:
    return [int(v) for v in values or []]


class DragonsPlugin:
    game = "dragons"

    def text(self, lang: str, key: str, **params: object) -> str:
        return texts_of(TEXTS, lang, key, **params)

    def piece(self, lang: str, face: int) -> str:
        return PIECES.get(lang, PIECES["en"]).get(face, str(face))

    # ---- names and status ----------------------------------------------------------------
    def seat_name(self, frame: Frame, seat: int) -> str:
        for p in frame.state.get("players") or []:
            if p.get("seat") == seat:
                return str(p.get("name") or frame.name(seat))
        return frame.name(seat)

    def headline(self, frame: Frame, lang: str) -> str:
        state = frame.state
        phase = state.get("phase")
        if phase == "setup":
            return self.text(lang, "headline_setup")
        if phase == "over":
            return self.text(lang, "headline_over")
        rolled = state.get("rolled") or [[], []]
        red, blue = (" ".join(str(f) for f in rolled[i]) or "–" for i in (0, 1))
        return self.text(lang, "headline", round=state.get("round"), rounds=state.get("rounds"), red=red, blue=blue)

    def details(self, frame: Frame, lang: str) -> list[Text]:
        return []  # what a phase adds is drawn under the board (the status stays short at 80×24)

    def is_afk(self, frame: Frame, seat: int) -> bool:
        return any(p.get("seat") == seat and p.get("afk") for p in frame.state.get("players") or [])

    def outcome(self, frame: Frame, lang: str) -> str:
        result = frame.outcome or frame.state.get("result") or {}
        code = str(result.get("reason") or "")
        key = f"reason_{code}"
        reason = self.text(lang, key) if key in TEXTS["en"] else self.text(lang, "reason_other")
        scores = ", ".join(f"{self.seat_name(frame, i)} {_number(s)}" for i, s in sorted(final_scores(frame).items()))
        places = "; ".join(
            f"{i + 1}. {', '.join(self.seat_name(frame, int(s)) for s in place)}"
            for i, place in enumerate(result.get("places") or [])
        )
        return self.text(lang, "over", reason=reason, scores=scores, places=places)

    # ---- board ----------------------------------------------------------------------------
    def board(self, frame: Frame, lang: str, width: int, height: int) -> RenderableType:
        state = frame.state
        wide = width >= 4 + 3 * ROWS
        step = 3 if wide else 2
        at: dict[tuple[int, int], Mapping[str, Any]] = {
            (int(p["x"]), int(p["y"])): p for p in state.get("pieces") or []
        }
        contour = state.get("contour") or {}
        inside = {coords()[c] for c in _ints(contour.get("inside")) if 0 <= c < len(coords())}
        ring = {coords()[c] for c in _ints(contour.get("cells")) if 0 <= c < len(coords())}
        lines: list[Text] = []
        header = height >= ROWS + 2
        if header and wide:
            top = Text("    ")
            for x in range(-SPAN, SPAN + 1):
                top.append(f"{x:>2} "[:step], style="dim")
            lines.append(top)
        for y in range(SPAN, -SPAN - 1, -1):
            row = Text(f"{y:>3} ", style="dim")
            for x in range(-SPAN, SPAN + 1):
                row.append_text(self._cell(x, y, at, inside, ring, step))
            lines.append(row)
        extra = self._under(frame, lang)
        room = max(0, height - len(lines))
        lines.extend(extra[:room])
        return Group(*lines)

    def _cell(
        self,
        x: int,
        y: int,
        at: Mapping[tuple[int, int], Mapping[str, Any]],
        inside: set[tuple[int, int]],
        ring: set[tuple[int, int]],
        step: int,
    ) -> Text:
        if x * x + y * y > RADIUS2:
            return Text(" " * step)
        piece = at.get((x, y))
        if piece is None:
            style = HALF_STYLE[1 if y > 0 else -1] if y != 0 else BORDER_STYLES[(x + SPAN) % 2]
            mark = "*" if (x, y) in inside else ("=" if y == 0 else "·")
            return Text(f"{mark:<{step}}" if step == 2 else f" {mark} ", style=style)
        owner = str(piece.get("owner"))
        face = int(piece.get("face") or 0)
        domino = piece.get("domino") is not None
        mark = DOMINO_MARK.get(owner, "?") if domino else MARK.get(owner, "?")
        style = STYLE.get(owner, "")
        if domino:
            style = style.replace("bold #ffffff", "bold #ffff00")
        if (x, y) in ring:
            style += " underline"
        text = f"{mark}{face}"
        if step == 3:
            east = at.get((x + 1, y))
            joined = domino and east is not None and east.get("domino") == piece.get("domino")
            text += "=" if joined else " "
        return Text(text, style=style)

    def _under(self, frame: Frame, lang: str) -> list[Text]:
        """The lines under the board: the round's order, an open contour, the black dice, the legend."""
        state = frame.state
        out: list[Text] = []
        order = state.get("round_order") or []
        if state.get("phase") in ("turn", "black") and order:
            names = " ".join(self.text(lang, COLOURS[int(s)])[0].upper() for s in order)
            turn = int(state.get("turn_index") or 0) + 1
            out.append(Text(self.text(lang, "order", order=names, turn=turn, turns=len(order))))
        contour = state.get("contour")
        if contour:
            colour = self.text(lang, COLOURS[int(contour.get("seat", 0))])
            size = len(contour.get("cells") or [])
            line = self.text(lang, "contour", colour=colour.capitalize(), size=size, face=contour.get("face"))
            out.append(Text(line, style="bold"))
        out.append(Text(self.text(lang, "black_left", n=state.get("black_left")), style="dim"))
        out.append(Text(self.text(lang, "legend"), style="dim", overflow="ellipsis", no_wrap=True))
        return out

    # ---- players --------------------------------------------------------------------------
    def players(self, frame: Frame, lang: str, width: int) -> RenderableType:
        state = frame.state
        wide = width >= 40
        columns: list[tuple[str, dict[str, Any]]] = [
            (self.text(lang, "col_score"), {"justify": "right"}),
            (self.text(lang, "col_dice"), {"justify": "right"}),
            (self.text(lang, "col_dominoes"), {"justify": "right"}),
        ]
        if wide:
            columns.append((self.text(lang, "col_king"), {"justify": "center"}))
        table = players_table(self.text(lang, "col_player"), columns)
        active = state.get("active_seat")
        final = final_scores(frame)  # once over, the score column is the result's (the end rules applied)
        for p in state.get("players") or []:
            seat = int(p["seat"])
            colour = str(p.get("colour") or COLOURS[seat % 2])
            tags = [self.text(lang, tag) for tag, on in (("you", seat == frame.seat), ("afk", p.get("afk"))) if on]
            badge, label = player_cells(
                seat, str(p.get("name")), playing=seat == active, me=False, tags=tags, style=STYLE.get(colour)
            )
            score = final.get(seat, p.get("score", 0)) if final else p.get("score", 0)
            row: list[RenderableType] = [badge, label, _number(int(score)), str(p.get("dice_left", ""))]
            row.append(str(p.get("hand_size", 0)))
            if wide:
                row.append("♔6" if p.get("king_on_board") else "–")
            table.add_row(*row)
        me = state.get("me")
        if not isinstance(me, Mapping):
            return table
        hand = [f"[{a}|{b}]" for a, b in me.get("hand") or []]
        line = self.text(lang, "hand", tiles=" ".join(hand)) if hand else self.text(lang, "hand_empty")
        return Group(table, Text(line, style="bold"))

    # ---- keys -----------------------------------------------------------------------------
    def _cells(self, cells: Sequence[int]) -> str:
        return " ".join(name(c) for c in cells)

    def _points(self, frame: Frame, cycle: Sequence[int], placed: Mapping[int, int]) -> int:
        faces = {int(p["cell"]): int(p.get("face") or 0) for p in frame.state.get("pieces") or []}
        faces.update(placed)
        return sum(faces.get(c, 0) for c in cycle)

    def _die_item(self, frame: Frame, lang: str, command: Command, rule: str) -> str:
        args = command.args
        cell = int(args.get("cell", 0))
        cycle = _ints(args.get("contour"))
        if cycle:
            points = self._points(frame, cycle, {cell: int(args.get("face", 0))})
            return self.text(
                lang, "on_contour", cell=name(cell), size=len(cycle), points=points, cells=self._cells(cycle)
            )
        if rule.startswith("corner:"):
            combos = ", ".join(self.text(lang, f"combo_{k}") for k in rule.removeprefix("corner:").split("+"))
            return self.text(lang, "on_corner", cell=name(cell), combos=combos)
        return self.text(lang, "on", cell=name(cell))

    def _extra(self, frame: Frame, lang: str, command: Command, placed: Mapping[int, int], rule: str) -> str:
        cycle = _ints(command.args.get("contour"))
        extra = ""
        if rule.startswith("corner:") and rule != "corner:contour":
            extra += ", " + ", ".join(self.text(lang, f"combo_{k}") for k in rule.removeprefix("corner:").split("+"))
        if cycle:
            extra += self.text(lang, "closing", size=len(cycle), points=self._points(frame, cycle, placed))
        return extra

    def moves(self, frame: Frame, lang: str) -> list[Move]:
        groups: dict[str, list[tuple[Command, str]]] = {}
        contour_faces: list[int] = []
        tiles: dict[tuple[int, int], list[int]] = {}  # dominoes in hand -> the numbers that may be given up
        for legal in frame.moves:
            kind = legal.command.kind
            if kind == "place_domino":
                tile = (int(legal.command.args.get("first", 0)), int(legal.command.args.get("second", 0)))
                faces = next((p.options() for p in legal.parameters if p.field == "face"), ())
                tiles.setdefault(tile, [])
                tiles[tile] += [int(f) for f in faces if int(f) not in tiles[tile]]
            rule = next((p.rule for p in legal.parameters if p.rule and p.field in ("cell", "cells")), "")
            if kind == "place_die":
                face = int(legal.command.args.get("face", 0))
                key = str(face)
                if any(p.field == "contour" and p.rule for p in legal.parameters) and face not in contour_faces:
                    contour_faces.append(face)
            elif kind == "take_domino":
                key = "y" if legal.command.args.get("answer") == "DOMINO_ANSWER_TAKE" else "n"
            else:
                key = KEYS.get(kind, "")
            if not key:
                continue
            for command in spell_out(legal):
                groups.setdefault(key, []).append((command, rule))
        moves = [self._move(frame, lang, key, found) for key, found in groups.items()]
        if contour_faces and int(frame.state.get("black_left") or 0) > 0:
            moves.append(self._entry_move(lang, sorted(contour_faces), tiles))
        return sorted(moves, key=lambda m: ORDER.index(m.key) if m.key in ORDER else len(ORDER))

    def _move(self, frame: Frame, lang: str, key: str, found: list[tuple[Command, str]]) -> Move:
        found = list({(c.key(), rule): (c, rule) for c, rule in found}.values())[:ITEMS_MAX]
        commands = tuple(command for command, _ in found)
        kind = commands[0].kind
        if kind == "take_domino":
            return Move(key, self.text(lang, "take" if key == "y" else "decline"), commands[:1])
        items = tuple(self._item(frame, lang, command, rule) for command, rule in found)
        if kind == "place_die":
            face = int(commands[0].args.get("face", 0))
            label = self.text(lang, "place", face=face, piece=self.piece(lang, face))
        else:
            label = self.text(lang, LABELS.get(kind, kind))
        return Move(key, label, commands, items=items)

    def _item(self, frame: Frame, lang: str, command: Command, rule: str) -> str:
        args, kind = command.args, command.kind
        if kind == "place_start":
            return self.text(lang, "start_on", cell=name(int(args.get("cell", 0))))
        if kind == "place_black":
            contour = frame.state.get("contour") or {}
            return self.text(lang, "black_on", face=contour.get("face", "?"), cell=name(int(args.get("cell", 0))))
        if kind == "place_die":
            return self._die_item(frame, lang, command, rule)
        if kind == "discard_die":
            return self.text(lang, "discard_item", face=args.get("face", 0))
        if kind == "chess_move":
            origin, target = int(args.get("origin", 0)), int(args.get("target", 0))
            faces = {int(p["cell"]): int(p.get("face") or 0) for p in frame.state.get("pieces") or []}
            piece = faces.get(origin, 0)
            promotion = int(args.get("promotion", 0))
            extra = self.text(lang, "promote", face=promotion) if promotion else ""
            extra += self._extra(frame, lang, command, {target: promotion or piece, origin: 0}, "")
            return self.text(
                lang,
                "chess_item",
                face=args.get("face", 0),
                piece=f"{self.piece(lang, piece)} {piece}",
                origin=name(origin),
                target=name(target),
                extra=extra,
            )
        if kind == "place_domino":
            cells = _ints(args.get("cells"))
            first, second = int(args.get("first", 0)), int(args.get("second", 0))
            a, b = (name(cells[0]), name(cells[1])) if len(cells) == 2 else ("?", "?")
            placed = dict(zip(cells, (first, second), strict=False))
            return self.text(
                lang,
                "domino_item",
                face=args.get("face", 0),
                first=first,
                second=second,
                a=a,
                b=b,
                extra=self._extra(frame, lang, command, placed, rule),
            )
        return kind

    def _entry_move(self, lang: str, faces: list[int], tiles: Mapping[tuple[int, int], list[int]]) -> Move:
        """`c`: a contour typed cell by cell: a die (the first cell is where it goes) or a domino
        from the hand (the first two cells are its halves', then the cycle)."""
        commands = [Command(self.game, "place_die", {"face": f}) for f in faces]
        items = [self.text(lang, "enter_with", face=f) for f in faces]
        for (first, second), given in sorted(tiles.items()):
            for f in sorted(given):
                commands.append(Command(self.game, "place_domino", {"face": f, "first": first, "second": second}))
                items.append(self.text(lang, "enter_domino", face=f, first=first, second=second))

        def complete(command: Command, cells: tuple[Any, ...]) -> Command:
            if command.kind == "place_domino":
                return Command(
                    command.game, command.kind, {**command.args, "cells": list(cells[:2]), "contour": list(cells[2:])}
                )
            return Command(command.game, command.kind, {**command.args, "cell": cells[0], "contour": list(cells)})

        entry = Entry(
            prompt=self.text(lang, "entry_prompt"),
            problem=self.text(lang, "entry_bad"),
            parse=parse_cell,
            show=lambda cell: name(int(cell)),
            complete=complete,
            least=4,
        )
        return Move("c", self.text(lang, "enter_contour"), tuple(commands), items=tuple(items), entry=entry)


PLUGIN = DragonsPlugin()


def final_scores(frame: Frame) -> dict[int, int]:
    """Each seat's final score once the game is over (after the end rules), else nothing."""
    result = frame.outcome or frame.state.get("result") or {}
    final: Any = (frame.state.get("result") or {}).get("final") or result.get("final") or result.get("scores") or []
    if not final:
        return {}
    pairs = final.items() if isinstance(final, Mapping) else enumerate(final)
    return {int(k): int(v) for k, v in pairs}


def _number(n: int) -> str:
    """A score as a person writes it: a true minus sign."""
    return f"−{-n}" if n < 0 else str(n)
