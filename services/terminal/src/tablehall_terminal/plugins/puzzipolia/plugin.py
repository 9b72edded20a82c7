"""Пузиполия on the shared screen: the board, the players, the status lines, the keys.

Everything is read from one `Frame` (docs/rules/puzzipolia.md, `view`); the keys are built from the
frame's legal moves only."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tablehall_sdk import Command
from tablehall_terminal.colours import seat_badge, seat_style
from tablehall_terminal.frame import Frame
from tablehall_terminal.plugin import Move, player_cells, players_table, spell_out, texts_of
from tablehall_terminal.plugins.puzzipolia.texts import ABBREVIATIONS, TEXTS
from tablehall_terminal.shorten import distinct_names

GROUP_COLOURS = {
    "brown": "#8b5a2b",
    "light_blue": "#87ceeb",
    "pink": "#ff69b4",
    "orange": "#ff8c00",
    "red": "#ff0000",
    "yellow": "#ffff00",
    "green": "#00a000",
    "dark_blue": "#4169e1",
    "teal": "#008080",
    "lime": "#32cd32",
    "silver": "#c0c0c0",
    "gold": "#ffd700",
}
# kind -> key; the three answers to offers share one key (a chooser)
KEYS: dict[str, str] = {
    "roll_for_order": "r",
    "roll": "r",
    "end_turn": "e",
    "pay_jail_fine": "j",
    "use_jail_card": "u",
    "buy": "b",
    "decline_buy": "x",
    "bid": "a",
    "pass_auction": "s",
    "pay_debt": "p",
    "collect_debt": "c",
    "build": "h",
    "sell_building": "l",
    "mortgage": "m",
    "unmortgage": "k",
    "accept_trade": "o",
    "decline_trade": "o",
    "withdraw_trade": "o",
    "propose_trade": "t",
    "propose_end": "v",
    "surrender": "z",
    "leave": "L",
}
CHOOSERS = {"build", "sell_building", "mortgage", "unmortgage", "propose_trade", "o", "leave"}
ORDER = list(dict.fromkeys(["6", "7", "y", "n", *KEYS.values()]))
NAME_MIN = 7  # the fewest columns a square's name gets (from 7 on, the classic board's names stay distinct)
CELL_MIN = NAME_MIN + 11  # the narrowest board cell: index, the name, owner, houses, tokens


def _square(state: Mapping[str, Any], index: int) -> Mapping[str, Any]:
    squares = state.get("squares") or []
    return squares[index] if 0 <= index < len(squares) else {}


class PuzzipoliaPlugin:
    game = "puzzipolia"

    def text(self, lang: str, key: str, **params: object) -> str:
        return texts_of(TEXTS, lang, key, **params)

    # ---- names ----------------------------------------------------------------------------
    def square_name(self, state: Mapping[str, Any], index: int, lang: str) -> str:
        square = _square(state, index)
        return str(square.get(lang) or square.get("en") or index)

    def seat_name(self, frame: Frame, seat: int) -> str:
        for p in frame.state.get("players") or []:
            if p.get("seat") == seat:
                return str(p.get("name") or frame.name(seat))
        return frame.name(seat)

    def _bundle(self, frame: Frame, bundle: Mapping[str, Any], lang: str) -> str:
        parts = [self.square_name(frame.state, int(i), lang) for i in bundle.get("lots", [])]
        if bundle.get("money"):
            parts.append(self.text(lang, "pupy", amount=bundle["money"]))
        parts.extend(self.text(lang, "card") for _ in bundle.get("cards", []))
        return ", ".join(parts) or self.text(lang, "nothing")

    # ---- status ---------------------------------------------------------------------------
    def headline(self, frame: Frame, lang: str) -> str:
        state = frame.state
        limit = state.get("round_limit")
        if limit:
            return self.text(lang, "round_of", round=state.get("round"), limit=limit)
        return self.text(lang, "round", round=state.get("round"))

    def details(self, frame: Frame, lang: str) -> list[Text]:
        state, lines = frame.state, []
        auction = state.get("auction")
        if auction:
            square = self.square_name(state, int(auction.get("square", 0)), lang)
            if auction.get("high_bidder") is not None:
                bidder = self.seat_name(frame, int(auction["high_bidder"]))
                text = self.text(lang, "auction", square=square, bid=auction.get("high_bid"), bidder=bidder)
            else:
                text = self.text(lang, "auction_none", square=square)
            lines.append(Text(text, style="bold"))
        described = [
            self.text(
                lang,
                "debt",
                debtor=self.seat_name(frame, int(d["debtor"])),
                amount=d.get("amount"),
                creditor=self.seat_name(frame, int(d["creditor"]))
                if d.get("creditor") is not None
                else self.text(lang, "bank"),
            )
            for d in state.get("debts") or []
        ]
        if described:
            lines.append(Text(self.text(lang, "debts", debts="; ".join(described)), style="yellow"))
        vote = state.get("vote")
        if vote:
            yes, voters = len(vote.get("yes") or []), len(vote.get("voters") or [])
            lines.append(Text(self.text(lang, "vote", yes=yes, voters=voters)))
        return lines

    def is_afk(self, frame: Frame, seat: int) -> bool:
        return any(p.get("seat") == seat and p.get("afk") for p in frame.state.get("players") or [])

    def outcome(self, frame: Frame, lang: str) -> str:
        result = frame.outcome or frame.state.get("result") or {}
        code = str(result.get("reason") or "")
        key = f"reason_{code}"
        reason = self.text(lang, key) if key in TEXTS["en"] else self.text(lang, "reason_other", reason=code)
        places = "; ".join(
            f"{i + 1}. {', '.join(self.seat_name(frame, int(s)) for s in place)}"
            for i, place in enumerate(result.get("places") or [])
        )
        return self.text(lang, "over", reason=reason, places=places)

    # ---- board ----------------------------------------------------------------------------
    def board(self, frame: Frame, lang: str, width: int, height: int) -> RenderableType:
        state = frame.state
        squares = list(state.get("squares") or [])
        if not squares:
            return Text("")
        rows_free = max(1, height - 1)  # a legend line under the board
        columns = max(1, min(max(1, width // CELL_MIN), math.ceil(len(squares) / rows_free)))
        columns = max(columns, 1)
        cell = width // columns - (1 if columns > 1 else 0)
        name_width = max(NAME_MIN, cell - 11)  # "NN " + name + " O⌂ 1234"
        names = distinct_names(
            [self.square_name(state, i, lang) for i in range(len(squares))], name_width, ABBREVIATIONS.get(lang)
        )
        here: dict[int, list[int]] = {}
        for p in state.get("players") or []:
            if p.get("status") == "playing":
                here.setdefault(int(p.get("position", 0)), []).append(int(p["seat"]))
        per_column = math.ceil(len(squares) / columns)
        grid = Table.grid(padding=(0, 1), expand=False)
        for _ in range(columns):
            grid.add_column(width=cell, no_wrap=True)
        cells = [self._cell(sq, names[i], here.get(i, []), name_width) for i, sq in enumerate(squares)]
        for row in range(per_column):
            grid.add_row(
                *(cells[c * per_column + row] if c * per_column + row < len(cells) else "" for c in range(columns))
            )
        legend = Text(self.text(lang, "legend"), style="dim", overflow="ellipsis", no_wrap=True)
        return Group(grid, legend) if rows_free >= per_column else grid

    def _cell(self, sq: Mapping[str, Any], name: str, seats: Sequence[int], name_width: int) -> Text:
        index = int(sq["index"])
        text = Text(f"{index:>2} ")
        text.append(name.ljust(name_width), style=GROUP_COLOURS.get(str(sq.get("group")), ""))
        text.append(" ")
        owner = sq.get("owner")
        if owner is not None:
            mark = "z" if sq.get("mortgaged") else str(int(owner) + 1)
            text.append(mark, style=seat_style(int(owner)) + (" dim" if sq.get("mortgaged") else " bold"))
        else:
            text.append(" ")
        buildings = int(sq.get("buildings") or 0)
        text.append("H" if sq.get("hotel") else ("⌂" * buildings if buildings else " "), style="bold")
        if seats:
            text.append(" ")
            for seat in seats:
                text.append_text(seat_badge(seat))
        return text

    # ---- players --------------------------------------------------------------------------
    def players(self, frame: Frame, lang: str, width: int) -> RenderableType:
        state = frame.state
        wide = width >= 44
        columns: list[tuple[str, dict[str, Any]]] = [
            (self.text(lang, "col_money"), {"justify": "right", "min_width": 5})
        ]
        if wide:
            columns += [
                (self.text(lang, "col_at"), {"width": 14}),
                (self.text(lang, "col_worth"), {"justify": "right"}),
            ]
        table = players_table(self.text(lang, "col_player"), columns)
        active = state.get("active_seat")
        squares = range(len(state.get("squares") or []))
        places = distinct_names([self.square_name(state, i, lang) for i in squares], 14, ABBREVIATIONS.get(lang))
        for p in state.get("players") or []:
            seat = int(p["seat"])
            tags = [
                self.text(lang, tag)
                for tag, on in (
                    ("you", seat == frame.seat),
                    ("afk", p.get("afk")),
                    ("jail", p.get("in_jail")),
                    ("out", p.get("status") != "playing"),
                )
                if on
            ]
            badge, label = player_cells(
                seat, str(p.get("name")), playing=seat == active, me=seat == frame.seat, tags=tags
            )
            row: list[RenderableType] = [badge, label, str(p.get("money", 0))]
            if wide:
                row += [places[int(p.get("position", 0))], str(p.get("net_worth", ""))]
            table.add_row(*row)
        return table

    # ---- keys -----------------------------------------------------------------------------
    def describe(self, command: Command, frame: Frame, lang: str) -> str:
        state, kind, args = frame.state, command.kind, command.args
        if kind in ("build", "sell_building", "mortgage", "unmortgage"):
            index = int(args.get("square", 0))
            square, name = _square(state, index), self.square_name(state, index, lang)
            price = int(square.get("price") or 0)
            half = price // 2
            if kind == "mortgage":
                return self.text(lang, "mortgage_on", square=name, amount=half)
            if kind == "unmortgage":
                return self.text(lang, "unmortgage_on", square=name, amount=half + (half + 9) // 10)
            if kind == "build":
                cost = (square.get("rent_card") or {}).get("house_cost", "?")
                return self.text(lang, "build_on", square=name, cost=cost)
            return self.text(lang, "sell_on", square=name)
        if kind == "buy":
            at = state.get("buy_square")
            lot = int(at) if at is not None else -1
            return self.text(
                lang, "buy", square=self.square_name(state, lot, lang), price=_square(state, lot).get("price", "?")
            )
        if kind == "choose_67":
            return self.text(lang, "choose_67_6" if args.get("steps") in ("STEPS67_SIX", 6) else "choose_67_7")
        if kind == "vote_end":
            return self.text(lang, "vote_yes" if args.get("answer") == "ANSWER_YES" else "vote_no")
        if kind in ("accept_trade", "decline_trade", "withdraw_trade"):
            return self._offer(command, frame, lang)
        if kind == "propose_trade":
            return self.text(
                lang,
                "trade_offer",
                to=self.seat_name(frame, int(args.get("to_seat", 0))),
                give=self._bundle(frame, args.get("give", {}), lang),
                get=self._bundle(frame, args.get("get", {}), lang),
            )
        if kind == "leave":
            return self.text(lang, "leave_confirm")
        return self.text(lang, kind)

    def _offer(self, command: Command, frame: Frame, lang: str) -> str:
        offer_id = int(command.args.get("offer_id", 0))
        offers = (frame.state.get("me") or {}).get("offers") or []
        offer = next((o for o in offers if int(o.get("id", -1)) == offer_id), None)
        if offer is None:
            return self.text(lang, "offer_unknown", offer_id=offer_id)
        mine = offer.get("proposer") == frame.seat
        give = self._bundle(frame, offer.get("give" if mine else "get") or {}, lang)
        get = self._bundle(frame, offer.get("get" if mine else "give") or {}, lang)
        return self.text(
            lang,
            command.kind,
            offer_id=offer_id,
            from_=self.seat_name(frame, int(offer.get("proposer", 0))),
            to=self.seat_name(frame, int(offer.get("recipient", 0))),
            give=give,
            get=get,
        )

    def moves(self, frame: Frame, lang: str) -> list[Move]:
        single: list[Move] = []
        groups: dict[str, list[Command]] = {}
        for legal in frame.moves:
            kind = legal.command.kind
            amount = next((p for p in legal.parameters if p.is_range), None)
            if amount is not None:  # a bid: the amount is asked for, within the range
                label = self.text(lang, "bid", lo=amount.lo, hi=amount.hi)
                single.append(Move(KEYS.get(kind, "a"), label, (legal.command,), amount=amount))
                continue
            for command in spell_out(legal):
                if kind == "choose_67":
                    key = "6" if command.args.get("steps") in ("STEPS67_SIX", 6) else "7"
                    single.append(Move(key, self.describe(command, frame, lang), (command,)))
                elif kind == "vote_end":
                    key = "y" if command.args.get("answer") == "ANSWER_YES" else "n"
                    single.append(Move(key, self.describe(command, frame, lang), (command,)))
                elif kind in KEYS:
                    groups.setdefault(KEYS[kind], []).append(command)
        moves = list(single)
        for key, commands in groups.items():
            kind = commands[0].kind
            if (key if key == "o" else kind) in CHOOSERS:
                label = self.text(lang, "offers" if key == "o" else kind)
                items = tuple(self.describe(c, frame, lang) for c in commands)
                moves.append(Move(key, label, tuple(commands), items=items))
            else:
                moves.append(Move(key, self.describe(commands[0], frame, lang), (commands[0],)))
        return sorted(moves, key=lambda m: ORDER.index(m.key) if m.key in ORDER else len(ORDER))


PLUGIN = PuzzipoliaPlugin()
