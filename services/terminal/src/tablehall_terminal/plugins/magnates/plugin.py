"""Магнаты on the shared screen: the 10×10 board (the clockwise track with its Banks, Companies
and special cells; the field with the Offices, Сити and the quarters), every piece, both dice, the
players' gold and net worth, the open decision and the keys.

Everything is read from one `Frame` (docs/rules/magnates.md §14, the view); the keys are built
from the frame's legal moves only. Cells are named as the rules page names them: files a..j
west→east, ranks 1..10 south→north, cell = 10 × (rank − 1) + file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from tablehall_sdk import Command
from tablehall_terminal.colours import seat_badge, seat_style
from tablehall_terminal.frame import Frame
from tablehall_terminal.plugin import Move, player_cells, players_table, spell_out, texts_of
from tablehall_terminal.plugins.magnates.texts import TEXTS

SIZE = 10
FILES = "abcdefghij"
LETTERS = {"king": "K", "queen": "Q", "rook": "R", "bishop": "B", "knight": "N"}
ARMY = ("queen", "rook", "bishop", "knight")
LEVELS = ("·", "¹", "²", "³")
WIDE_CELL = 6  # two rows a rank; the narrow board has one row a rank and cells of 4
GROUP_STYLES = {"city": "bold #ffd700", "sector": "", "quarter": "#87ceeb"}
PERIMETER = "on #262626"
KEYS: dict[str, str] = {
    "roll": "r",
    "buy_company": "b",
    "upgrade": "u",
    "arbitrage_buy": "a",
    "buy_piece": "p",
    "attack_king": "k",
    "end_stop": "e",
    "move_piece": "m",
    "pass_move": "x",
    "pay_fine": "f",
    "raid": "d",
}
# a stop's flag (the view's `stop`) -> the command that takes it
OFFERS = {
    "company": "buy_company",
    "upgrade": "upgrade",
    "arbitrage": "arbitrage_buy",
    "shop": "buy_piece",
    "attack": "attack_king",
}
CHOOSERS = {"upgrade", "arbitrage_buy", "buy_piece", "move_piece"}
ORDER = list(KEYS.values())


def cell_name(cell: int) -> str:
    return f"{FILES[cell % SIZE]}{cell // SIZE + 1}"


def piece_of(value: object) -> str:
    """A piece as the view names it: the command's enum (`PIECE_QUEEN`) or the view's `queen`."""
    return str(value or "").removeprefix("PIECE_").lower()


def is_perimeter(cell: int) -> bool:
    x, y = cell % SIZE, cell // SIZE
    return x in (0, SIZE - 1) or y in (0, SIZE - 1)


class MagnatesPlugin:
    game = "magnates"

    def text(self, lang: str, key: str, **params: object) -> str:
        return texts_of(TEXTS, lang, key, **params)

    # ---- what the view says ------------------------------------------------------------------
    @staticmethod
    def _players(frame: Frame) -> list[Mapping[str, Any]]:
        return list(frame.state.get("players") or [])

    @staticmethod
    def _companies(frame: Frame) -> dict[int, Mapping[str, Any]]:
        return {int(co["cell"]): co for co in frame.state.get("companies") or []}

    @staticmethod
    def _specials(frame: Frame) -> dict[int, str]:
        return {int(s["cell"]): str(s["kind"]) for s in frame.state.get("specials") or []}

    @staticmethod
    def _offices(frame: Frame) -> dict[int, int]:
        return {int(cell): int(p["seat"]) for p in frame.state.get("players") or [] for cell in p.get("offices") or []}

    @staticmethod
    def _standing(frame: Frame) -> dict[int, list[tuple[int, str]]]:
        """cell -> (seat, piece) of everything on the board."""
        here: dict[int, list[tuple[int, str]]] = {}
        for p in frame.state.get("players") or []:
            if not p.get("alive"):
                continue
            seat = int(p["seat"])
            if p.get("king_cell") is not None:
                here.setdefault(int(p["king_cell"]), []).append((seat, "king"))
            for kind, cell in (p.get("pieces") or {}).items():
                here.setdefault(int(cell), []).append((seat, str(kind)))
        return here

    def _mover(self, frame: Frame, cell: int) -> str:
        """The piece of the turn's player that stopped on `cell` (the view names it in a fine)."""
        named = str(frame.state.get("piece") or "")
        if named:
            return named
        turn = frame.state.get("turn")
        return next((kind for seat, kind in self._standing(frame).get(cell, []) if seat == turn), "piece")

    def seat_name(self, frame: Frame, seat: int) -> str:
        for p in self._players(frame):
            if p.get("seat") == seat:
                return str(p.get("name") or frame.name(seat))
        return frame.name(seat)

    def _what(self, frame: Frame, cell: int, lang: str) -> str:
        """The kind of a cell in words (Bank, Arbitrage, Company 300…)."""
        special = self._specials(frame).get(cell)
        if special:
            return self.text(lang, f"kind_{special}")
        company = self._companies(frame).get(cell)
        if company is not None:
            return self.text(lang, "kind_company", price=company.get("price"))
        return self.text(lang, "kind_field")

    # ---- status ------------------------------------------------------------------------------
    def headline(self, frame: Frame, lang: str) -> str:
        state = frame.state
        limit = state.get("round_limit")
        line = (
            self.text(lang, "round_of", round=state.get("round"), limit=limit)
            if limit
            else self.text(lang, "round", round=state.get("round"))
        )
        white, blue = state.get("white") or 0, state.get("blue") or 0
        dice = self.text(lang, "dice", white=white, blue=blue) if white else self.text(lang, "no_dice")
        extra = int(state.get("extra_moves") or 0)
        if white == 6 and extra < 2 and state.get("phase") == "king_stop":
            dice += " " + self.text(lang, "extra", extra=2 - extra)
        return f"{line} · {dice}"

    def details(self, frame: Frame, lang: str) -> list[Text]:
        state = frame.state
        phase = str(state.get("phase") or "")
        if phase == "over" or frame.finished:
            return []
        turn = int(state.get("turn") or 0)
        name = self.seat_name(frame, turn)
        stop = state.get("stop") or {}
        cell = int(stop.get("cell", -1)) if stop else -1
        where = cell_name(cell) if cell >= 0 else ""
        piece = self.text(lang, self._mover(frame, cell))
        if phase == "roll":
            line = self.text(lang, "wait_roll", name=name)
        elif phase == "king_stop":
            options = [self.text(lang, f"opt_{f}") for f in self._offered(frame, stop)]
            line = self.text(
                lang,
                "wait_king_stop",
                name=name,
                cell=where,
                what=self._what(frame, cell, lang),
                options=", ".join(options) or self.text(lang, "opt_none"),
            )
        elif phase == "move" and state.get("blue"):  # (between two turns a frame may show no dice)
            line = self.text(lang, "wait_move", name=name, blue=state.get("blue"))
        elif phase == "piece_stop":
            line = self.text(
                lang, "wait_piece_stop", name=name, piece=piece, cell=where, what=self._what(frame, cell, lang)
            )
        elif phase == "fine":
            company = self._companies(frame).get(cell) or {}
            owner = company.get("owner")
            line = self.text(
                lang,
                "wait_fine",
                name=name,
                piece=piece,
                cell=where,
                owner=self.seat_name(frame, int(owner)) if owner is not None else "—",
                fine=company.get("fine"),
                level=company.get("level"),
            )
        else:
            return []
        return [Text(line, style=f"bold {seat_style(turn)}", overflow="ellipsis", no_wrap=True)]

    def _offered(self, frame: Frame, stop: Mapping[str, Any]) -> list[str]:
        """What the King's stop offers: the seat's own legal moves say it; a spectator reads the
        stop's flags (the attack only where a lone enemy King stands)."""
        if frame.seat is not None and frame.seat == frame.state.get("turn"):
            kinds = {m.command.kind for m in frame.moves}
            return [flag for flag, kind in OFFERS.items() if kind in kinds]
        cell, turn = stop.get("cell"), frame.state.get("turn")
        lone = any(p.get("lone") and p.get("king_cell") == cell and p.get("seat") != turn for p in self._players(frame))
        return [flag for flag in OFFERS if stop.get(flag) and (flag != "attack" or lone)]

    def is_afk(self, frame: Frame, seat: int) -> bool:
        return any(p.get("seat") == seat and p.get("afk") for p in self._players(frame))

    def outcome(self, frame: Frame, lang: str) -> str:
        result = frame.outcome or {}
        code = str(result.get("reason") or frame.state.get("end_reason") or "")
        key = f"reason_{code}"
        reason = self.text(lang, key) if key in TEXTS["en"] else self.text(lang, "reason_other", reason=code)
        scores = result.get("scores") or frame.state.get("scores") or {}
        places = "; ".join(
            f"{i + 1}. "
            + ", ".join(
                f"{self.seat_name(frame, int(s))} {scores.get(str(s), scores.get(s, ''))}".strip() for s in place
            )
            for i, place in enumerate(result.get("places") or frame.state.get("places") or [])
        )
        return self.text(lang, "over", reason=reason, places=places)

    # ---- the board ---------------------------------------------------------------------------
    def board(self, frame: Frame, lang: str, width: int, height: int) -> RenderableType:
        if not frame.state.get("companies"):
            return Text("")
        wide = width >= 3 + SIZE * WIDE_CELL and height >= 2 * SIZE + 3
        cell_width = WIDE_CELL if wide else 4
        header = Text("   " + "".join(f.center(cell_width - 1) + " " for f in FILES), style="dim")
        lines = [header]
        for rank in range(SIZE - 1, -1, -1):
            rows = self._rank(frame, lang, rank, wide)
            for i, row in enumerate(rows):
                label = Text(f"{rank + 1:>2} " if i == 0 else "   ", style="dim")
                lines.append(label + row)
        legend_key = "legend" if width >= 60 and wide else "legend_short"
        lines.append(Text(self.text(lang, legend_key), style="dim", overflow="fold"))
        return Group(*lines)

    def _rank(self, frame: Frame, lang: str, rank: int, wide: bool) -> list[Text]:
        companies, specials, offices = self._companies(frame), self._specials(frame), self._offices(frame)
        standing = self._standing(frame)
        top, bottom = Text(), Text()
        for file in range(SIZE):
            cell = rank * SIZE + file
            company = companies.get(cell)
            background = PERIMETER if is_perimeter(cell) else ""
            owner = company.get("owner") if company else None
            what, what_style = self._label(lang, cell, company, specials, offices, wide)
            who = self._who(standing.get(cell, []))
            owned = Text()
            if company is not None and owner is not None:
                level = LEVELS[int(company.get("level") or 0)]
                owned = Text(f"{int(owner) + 1}{level}", style=seat_style(int(owner)))
            if wide:
                top.append(what.center(WIDE_CELL - 1)[: WIDE_CELL - 1], style=f"{what_style} {background}".strip())
                top.append(" ")
                below = owned + (Text(" ") if owned and who else Text()) + who
                below.truncate(WIDE_CELL - 1, pad=True)
                if background:
                    below.stylize(background)
                bottom.append_text(below)
                bottom.append(" ")
            else:
                shown = who if who else (owned if owned else Text(what, style=what_style))
                shown.truncate(3, pad=True)
                if background:
                    shown.stylize(background)
                top.append_text(shown)
                top.append(" ")
        return [top, bottom] if wide else [top]

    def _label(
        self,
        lang: str,
        cell: int,
        company: Mapping[str, Any] | None,
        specials: Mapping[int, str],
        offices: Mapping[int, int],
        wide: bool,
    ) -> tuple[str, str]:
        if cell in specials:
            kind = specials[cell]
            return self.text(lang, f"{kind}_wide" if wide else kind), "bold" if kind == "bank" else "italic"
        if company is not None:
            price = int(company.get("price") or 0)
            group = str(company.get("group") or "").split("-")[0]
            text = str(price) if wide or price < 1000 else f"{price // 1000}k{price % 1000 // 100}"
            return text, GROUP_STYLES.get(group, "")
        if cell in offices:
            seat = offices[cell]
            return f"{self.text(lang, 'office')}{seat + 1}", seat_style(seat)
        return "·", "dim"

    @staticmethod
    def _who(here: list[tuple[int, str]]) -> Text:
        """What stands on a cell: a piece's letter and its seat's digit (Kings may share a cell)."""
        if not here:
            return Text()
        seat, kind = here[0]
        shown = Text(LETTERS.get(kind, "?"), style=f"bold #000000 on {seat_style(seat)}").append_text(seat_badge(seat))
        for other, _ in here[1:]:
            shown.append_text(seat_badge(other))
        return shown

    # ---- players -----------------------------------------------------------------------------
    def players(self, frame: Frame, lang: str, width: int) -> RenderableType:
        state = frame.state
        wide = width >= 44
        columns: list[tuple[str, dict[str, Any]]] = [
            (self.text(lang, "col_cash"), {"justify": "right", "min_width": 5}),
            (self.text(lang, "col_worth"), {"justify": "right"}),
        ]
        if wide:
            columns += [(self.text(lang, "col_army"), {"width": 5}), (self.text(lang, "col_king"), {"width": 4})]
        table = players_table(self.text(lang, "col_player"), columns)
        turn = state.get("turn")
        for p in self._players(frame):
            seat = int(p["seat"])
            tags = [
                self.text(lang, tag)
                for tag, on in (
                    ("you", seat == frame.seat),
                    ("afk", p.get("afk")),
                    ("lone", p.get("lone")),
                    ("out", not p.get("alive")),
                )
                if on
            ]
            playing = seat == turn and bool(p.get("alive")) and not frame.finished
            badge, label = player_cells(seat, str(p.get("name")), playing=playing, me=seat == frame.seat, tags=tags)
            row: list[RenderableType] = [badge, label, str(p.get("cash", 0)), str(p.get("net_worth", 0))]
            if wide:
                pieces = p.get("pieces") or {}
                row.append("".join(LETTERS[k] if k in pieces else "·" for k in ARMY))
                king = p.get("king_cell")
                row.append(cell_name(int(king)) if king is not None else "—")
            table.add_row(*row)
        return table

    # ---- keys --------------------------------------------------------------------------------
    def describe(self, command: Command, frame: Frame, lang: str) -> str:
        state, kind, args = frame.state, command.kind, command.args
        companies = self._companies(frame)
        stop = state.get("stop") or {}
        here = int(stop.get("cell", -1)) if stop else -1
        if kind == "roll":
            return self.text(lang, "roll_")
        if kind == "buy_company":
            company = companies.get(here) or {}
            return self.text(lang, "buy_company", cell=cell_name(here), price=company.get("price", "?"))
        if kind in ("upgrade", "arbitrage_buy"):
            cell = int(args.get("cell", -1))
            company = companies.get(cell) or {}
            level = int(company.get("level") or 0)
            owner = company.get("owner")
            return self.text(
                lang,
                "upgrade_on" if kind == "upgrade" else "arbitrage_on",
                cell=cell_name(cell),
                price=company.get("price", "?"),
                level=level + 1 if kind == "upgrade" else level,
                owner=self.seat_name(frame, int(owner)) if owner is not None else "—",
            )
        if kind == "buy_piece":
            office = int(args.get("office", -1))
            piece = self.text(lang, piece_of(args.get("piece")))
            there = self._standing(frame).get(office, [])
            if there:
                seat, other = there[0]
                return self.text(
                    lang,
                    "buy_piece_displaces",
                    piece=piece,
                    office=cell_name(office),
                    owner=self.seat_name(frame, seat),
                    other=self.text(lang, other),
                )
            return self.text(lang, "buy_piece_on", piece=piece, office=cell_name(office))
        if kind == "move_piece":
            return self._describe_move(command, frame, lang)
        if kind in ("pay_fine", "raid"):
            company = companies.get(here) or {}
            owner = company.get("owner")
            return self.text(
                lang,
                kind,
                fine=company.get("fine", "?"),
                owner=self.seat_name(frame, int(owner)) if owner is not None else "—",
                piece=self.text(lang, self._mover(frame, here)),
                level=company.get("level", 0),
            )
        return self.text(lang, kind) if kind in TEXTS["en"] else kind

    def _describe_move(self, command: Command, frame: Frame, lang: str) -> str:
        seat = frame.state.get("turn")
        piece = piece_of(command.args.get("piece"))
        to = int(command.args.get("to", -1))
        me = next((p for p in self._players(frame) if p.get("seat") == seat), {})
        start = (me.get("pieces") or {}).get(piece)
        line = self.text(
            lang,
            "move_on",
            piece=self.text(lang, piece),
            start=cell_name(int(start)) if start is not None else "?",
            to=cell_name(to),
        )
        notes = []
        for other_seat, kind in self._standing(frame).get(to, []):
            if other_seat == seat:
                continue
            owner = self.seat_name(frame, other_seat)
            if kind == "king":
                notes.append(self.text(lang, "note_king", owner=owner))
            else:
                notes.append(self.text(lang, "note_duel", owner=owner, piece=self.text(lang, kind)))
        company = self._companies(frame).get(to)
        if company is not None and not is_perimeter(to):
            holder = company.get("owner")
            if holder is None:
                notes.append(self.text(lang, "note_buy", price=company.get("price")))
            elif holder != seat:
                name = self.seat_name(frame, int(holder))
                notes.append(self.text(lang, "note_fine", fine=company.get("fine"), owner=name))
        return " · ".join([line, *notes])

    def moves(self, frame: Frame, lang: str) -> list[Move]:
        groups: dict[str, list[Command]] = {}
        for legal in frame.moves:
            for command in spell_out(legal, limit=400):
                if command.kind in KEYS:
                    groups.setdefault(command.kind, []).append(command)
        moves = []
        for kind, commands in groups.items():
            key = KEYS[kind]
            if kind in CHOOSERS:
                if kind == "move_piece":
                    commands.sort(key=lambda c: (ARMY.index(piece_of(c.args.get("piece"))), int(c.args.get("to", 0))))
                    label = self.text(lang, "move_piece", blue=frame.state.get("blue"))
                else:
                    label = self.text(lang, kind)
                items = tuple(self.describe(c, frame, lang) for c in commands)
                moves.append(Move(key, label, tuple(commands), items=items))
            else:
                moves.append(Move(key, self.describe(commands[0], frame, lang), (commands[0],)))
        return sorted(moves, key=lambda m: ORDER.index(m.key))


PLUGIN = MagnatesPlugin()
