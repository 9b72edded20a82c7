"""Гомункул on the shared screen: the 160-cell cross, the hand, the tiles, opened cells and their
numbers, the players with gold and items, the ring and the shop, and the keys.

Everything is read from one `Frame` (docs/rules/homunculus.md §7 «view»); the keys are built
from the frame's legal moves only. The shop's prices, names and effects and the ring's square
names and money come from the view (`shop`, `ring_squares`): the client knows no rule. Cells are numbered as the wire format says
(proto/tablehall/homunculus/v1: the 14×14 cross less its 3×3 corners, south to north, west to
east within a row; files a–n, ranks 1–14)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tablehall_sdk import Command
from tablehall_terminal.colours import seat_badge, seat_style
from tablehall_terminal.frame import Frame
from tablehall_terminal.plugin import Move, spell_out, texts_of
from tablehall_terminal.plugins.homunculus.texts import CARD_GLYPHS, PLAIN_WORDS, TEXTS
from tablehall_terminal.shorten import CLASSIC_ABBREVIATIONS, distinct_names

SIZE, CORNER = 14, 3
FILES = "abcdefghijklmn"
PIECES = {1: "P", 2: "N", 3: "B", 4: "R", 5: "Q", 6: "K"}
HALVES = "⓪①②③④⑤⑥"
KEYS: dict[str, str] = {
    "play_card": "c",
    "place_domino": "d",
    "draw_card": "g",
    "exchange_card": "x",
    "keep_card": "k",
    "free_move": "f",
    "end_turn": "e",
    "say_uno": "u",
    "catch_uno": "p",
    "buy_item": "b",
    "use_item": "i",
    "roll_dice": "r",
    "pay_fine": "y",
    "use_pass": "v",
    "buy_lot": "l",
    "decline_lot": "n",
    "bid": "a",
    "pass_bid": "s",
    "build": "h",
    "mortgage": "m",
    "redeem": "w",
    "offer_trade": "t",
    "answer_trade": "o",
    "surrender": "z",
}
ORDER = list(KEYS.values())
CHOOSERS = {
    "play_card",
    "place_domino",
    "exchange_card",
    "free_move",
    "buy_item",
    "use_item",
    "build",
    "mortgage",
    "redeem",
    "offer_trade",
    "answer_trade",
}
CHOOSER_LIMIT = 400  # commands a chooser lists (tile placements can be many more)
WIDE_NAMES, NARROW_NAMES = 16, 10  # a ring square's name on a wide / narrow board pane


def _on_cross(x: int, y: int) -> bool:
    edge = SIZE - CORNER
    return not ((x < CORNER or x >= edge) and (y < CORNER or y >= edge))


COORDS: tuple[tuple[int, int], ...] = tuple((x, y) for y in range(SIZE) for x in range(SIZE) if _on_cross(x, y))
CELL_AT: dict[tuple[int, int], int] = {xy: i for i, xy in enumerate(COORDS)}
CENTRE = frozenset(CELL_AT[(x, y)] for x in range(3, 11) for y in range(3, 11))


def cell_name(cell: int) -> str:
    if not 0 <= cell < len(COORDS):
        return str(cell)
    x, y = COORDS[cell]
    return f"{FILES[x]}{y + 1}"


def _keyed(mapping: Mapping[Any, Any] | None) -> dict[int, Any]:
    """A JSON object keyed by cells (string keys on the wire) with int keys."""
    return {int(k): v for k, v in (mapping or {}).items()}


class HomunculusPlugin:
    game = "homunculus"

    def text(self, lang: str, key: str, **params: object) -> str:
        return texts_of(TEXTS, lang, key, **params)

    # ---- the view's catalogue: the shop's items and the ring's squares -----------------------
    def shop_item(self, state: Mapping[str, Any], item: str) -> Mapping[str, Any]:
        for entry in state.get("shop") or []:
            if isinstance(entry, Mapping) and entry.get("item") == item:
                return entry
        return {}

    def item_name(self, state: Mapping[str, Any], lang: str, item: str) -> str:
        entry = self.shop_item(state, item)
        return str(entry.get(lang) or entry.get("en") or item)

    def item_offer(self, state: Mapping[str, Any], lang: str, item: str, effect: bool = False) -> str:
        """«Boots (5)», with the effect when asked: what the view says of the item."""
        entry = self.shop_item(state, item)
        text = self.text(lang, "item", item=self.item_name(state, lang, item), price=entry.get("price", "?"))
        said = entry.get(f"effect_{lang}") or entry.get("effect_en")
        return f"{text}: {said}" if effect and said else text

    def square(self, state: Mapping[str, Any], index: int) -> Mapping[str, Any]:
        squares = state.get("ring_squares") or []
        entry = squares[index] if 0 <= index < len(squares) else {}
        return entry if isinstance(entry, Mapping) else {}

    def square_name(self, state: Mapping[str, Any], lang: str, index: int) -> str:
        entry = self.square(state, index)
        return str(entry.get(lang) or entry.get("en") or index)

    def short_names(self, state: Mapping[str, Any], lang: str, width: int, plain: bool = False) -> list[str]:
        """Every square's name in at most `width` characters, the names kept distinct: the
        classic ring's long words abbreviated («Baltic Av.», «Reading RR»), or with `plain`
        left out where the rest still tells the lot («Baltic», «Reading RR»)."""
        words = {**CLASSIC_ABBREVIATIONS.get(lang, {}), **(PLAIN_WORDS.get(lang, {}) if plain else {})}
        names = [
            " ".join(w2 for w in self.square_name(state, lang, i).split() if (w2 := words.get(w, w)))
            for i in range(len(state.get("ring_squares") or []))
        ]
        return distinct_names(names, width, words)

    def _lots(self, state: Mapping[str, Any], lang: str, lots: Any) -> str:
        return ", ".join(self.square_name(state, lang, int(x)) for x in lots or []) or "—"

    def colour_name(self, lang: str, colour: int) -> str:
        key = f"colour_{colour}"
        return self.text(lang, key) if key in TEXTS["en"] else str(colour)

    def card(self, lang: str, card: Sequence[Any] | None) -> str:
        if not card:
            return self.text(lang, "none")
        colour, value = int(card[0]), str(card[1])
        return CARD_GLYPHS.get(value, value) + self.colour_name(lang, colour)

    def _colour_style(self, state: Mapping[str, Any], colour: int) -> str:
        arms = list(state.get("arms") or [])
        return seat_style(arms.index(colour)) if colour in arms else "dim"

    def _card_text(self, state: Mapping[str, Any], lang: str, card: Sequence[Any]) -> Text:
        return Text(self.card(lang, card), style=self._colour_style(state, int(card[0])) + " bold")

    # ---- names and status -------------------------------------------------------------------
    def seat_name(self, frame: Frame, seat: int) -> str:
        return frame.name(seat)

    def headline(self, frame: Frame, lang: str) -> str:
        state = frame.state
        phase = "over" if state.get("finished") else str(state.get("phase") or "action")
        key = f"phase_{phase}"
        shown = self.text(lang, key) if key in TEXTS["en"] else phase
        return self.text(lang, "headline", round=int(state.get("round_no") or 0) + 1, phase=shown)

    def details(self, frame: Frame, lang: str) -> list[Text]:
        state, lines = frame.state, []
        deck = state.get("deck") or {}
        lines.append(
            Text(
                self.text(
                    lang,
                    "top",
                    card=self.card(lang, deck.get("top")),
                    colour=self.colour_name(lang, int(state.get("colour", -1))),
                    draw=deck.get("draw_size", 0),
                    discard=deck.get("discard_size", 0),
                    bazaar=(state.get("bazaar") or {}).get("size", 0),
                    mines=state.get("mine_count", 0),
                )
            )
        )
        uno = state.get("uno")
        if uno:
            lines.append(
                Text(self.text(lang, "uno", name=self.seat_name(frame, int(uno["seat"]))), style="bold yellow")
            )
        if state.get("skips") or state.get("next_draws"):
            lines.append(Text(self.text(lang, "skips", skips=state.get("skips", 0), draws=state.get("next_draws", 0))))
        lines += self._ring_details(frame, lang)
        if int(state.get("quiet_rounds") or 0) >= 20:
            lines.append(Text(self.text(lang, "quiet", quiet=state.get("quiet_rounds")), style="yellow"))
        return lines

    def is_afk(self, frame: Frame, seat: int) -> bool:
        afk = (frame.state.get("afk") or {}).get("afk") or []
        return seat < len(afk) and bool(afk[seat])

    def outcome(self, frame: Frame, lang: str) -> str:
        result = frame.outcome or {}
        code = str(result.get("reason") or frame.state.get("end_reason") or "")
        key = f"reason_{code}"
        reason = self.text(lang, key) if key in TEXTS["en"] else self.text(lang, "reason_other", reason=code)
        places = "; ".join(
            f"{i + 1}. {', '.join(self.seat_name(frame, int(s)) for s in place)}"
            for i, place in enumerate(result.get("places") or frame.state.get("places") or [])
        )
        return self.text(lang, "over", reason=reason, places=places)

    # ---- board --------------------------------------------------------------------------------
    def board(self, frame: Frame, lang: str, width: int, height: int) -> RenderableType:
        state = frame.state
        if "pieces" not in state:
            return Text("")
        step = 3 if width >= 3 + SIZE * 3 + 1 else 2
        pieces = _keyed(state.get("pieces"))
        numbers = _keyed(state.get("numbers"))
        opened = {int(c) for c in state.get("opened") or []}
        halves: dict[int, tuple[int, int]] = {}
        for tile in state.get("dominoes") or []:
            _, owner, first, second, cell_a, cell_b = (int(v) for v in tile[:6])
            halves[cell_a], halves[cell_b] = (first, owner), (second, owner)
        mines = {int(m[0]): m[1] for m in state.get("mines") or []}
        wounded = list(state.get("wounded") or [])
        lines: list[Text] = []
        header = Text("   ")
        for f in FILES:
            header.append(f.ljust(step), style="dim")
        header.no_wrap = True
        lines.append(header)
        for y in range(SIZE - 1, -1, -1):
            line = Text(f"{y + 1:>2} ", style="dim")
            for x in range(SIZE):
                cell = CELL_AT.get((x, y))
                shown = self._cell(cell, pieces, halves, numbers, opened, mines, wounded)
                piece = pieces.get(cell) if cell is not None else None
                if step == 3 and piece is not None:  # room for the owner's digit
                    shown.append(str(int(piece[1]) + 1), style=seat_style(int(piece[1])))
                line.append_text(shown)
                line.append(" " * (step - len(shown.plain)))
            lines.append(line)
        lines += self._below(frame, lang, width, max(0, height - len(lines)))
        return Group(*lines)

    def _cell(
        self,
        cell: int | None,
        pieces: Mapping[int, Any],
        halves: Mapping[int, tuple[int, int]],
        numbers: Mapping[int, int],
        opened: set[int],
        mines: Mapping[int, Any],
        wounded: Sequence[bool],
    ) -> Text:
        if cell is None:
            return Text(" ")
        piece = pieces.get(cell)
        if piece is not None:
            kind, side = int(piece[0]), int(piece[1])
            glyph = PIECES.get(kind, "?")
            if kind == 6 and side < len(wounded) and wounded[side]:
                glyph = "k"
            return Text(glyph, style=f"bold {seat_style(side)}")
        if cell in halves:
            pips, owner = halves[cell]
            return Text(HALVES[pips] if 0 <= pips < len(HALVES) else str(pips), style=seat_style(owner))
        if cell in mines:
            return Text("*", style="bold red")
        if cell in opened:
            n = int(numbers.get(cell, 0))
            return Text(str(n), style="bold yellow") if n else Text(" ")
        return Text("░", style="dim") if cell in CENTRE else Text("·", style="dim")

    def _below(self, frame: Frame, lang: str, width: int, room: int) -> list[Text]:
        """The lines under the board, as many as there is room for: the hand, the tiles, the
        ring, the shop, the legend."""
        state = frame.state
        out: list[Text] = []
        seat = frame.seat
        if seat is not None and 0 <= seat < len(state.get("hands") or []):
            hand = Text(self.text(lang, "hand") + ": ", style="bold")
            for card in sorted(state["hands"][seat], key=lambda c: (int(c[0]), str(c[1]))):
                hand.append_text(self._card_text(state, lang, card)).append(" ")
            drawn = state.get("drawn")
            if drawn:
                hand.append("(" + self.text(lang, "drawn", card=self.card(lang, drawn)) + ")", style="italic")
            out.append(hand)
            tiles = Text(self.text(lang, "tiles") + ": ", style="bold")
            own = (state.get("domino_hands") or [[]])[seat] if seat < len(state.get("domino_hands") or []) else []
            tiles.append(" ".join(f"[{int(t[0])}|{int(t[1])}]" for t in own) or self.text(lang, "none"))
            out.append(tiles)
        shop = self._shop(frame, lang)
        out += self._ring(frame, lang, width, room - len(out) - (1 if shop is not None else 0))
        if shop is not None:
            out.append(shop)
        if seat is not None:
            out.append(Text(self.text(lang, "card_legend"), style="dim"))  # what `BS`, `⊘E` in the hand stand for
        out.append(Text(self.text(lang, "legend"), style="dim"))
        for line in out:
            line.no_wrap, line.overflow = True, "ellipsis"
        return out[:room] if room < len(out) else out

    def _ring(self, frame: Frame, lang: str, width: int, room: int) -> list[Text]:
        """The Monopoly ring from the view's `ring`, squares named by the view's `ring_squares`:
        the tokens (seat digit and square, the Dungeon marked), the dice and the bank, then the
        lots of each owner (houses [1]-[4], a hotel [H], a mortgage [z]): one line per owner
        when `room` lets them, else all owners on one line."""
        state = frame.state
        ring = state.get("ring")
        if not isinstance(ring, Mapping) or not ring.get("positions"):
            return []
        short = self.short_names(state, lang, WIDE_NAMES if width >= 70 else NARROW_NAMES)
        names = [self.short_names(state, lang, WIDE_NAMES), *(self.short_names(state, lang, w, True) for w in (12, 8))]

        def name(index: int, among: list[str] = short) -> str:
            return among[index] if 0 <= index < len(among) else str(index)

        line = Text(self.text(lang, "ring") + ": ", style="bold")
        dungeon = list(ring.get("dungeon") or [])
        alive = list(state.get("alive") or [])
        at: dict[tuple[int, bool], list[int]] = {}  # (square, held in the Dungeon) -> seats
        for seat, square in enumerate(ring.get("positions") or []):
            if seat >= len(alive) or alive[seat]:
                jailed = seat < len(dungeon) and int(dungeon[seat]) >= 0
                at.setdefault((int(square), jailed), []).append(seat)
        for (square, jailed), seats in sorted(at.items(), key=lambda kv: kv[1]):
            for k, seat in enumerate(seats):
                line.append("," if k else "").append_text(seat_badge(seat))
            line.append(" " + name(square))
            if jailed:  # in the Dungeon, not only visiting its square
                line.append(f" ({self.text(lang, 'ring_held')})", style="yellow")
            line.append("  ")
        dice = list(ring.get("dice") or [])
        if len(dice) == 2:
            line.append(self.text(lang, "ring_dice", a=dice[0], b=dice[1]) + " · ")
        line.append(self.text(lang, "ring_bank", houses=ring.get("houses_bank"), hotels=ring.get("hotels_bank")))
        owners = [int(o) for o in ring.get("owners") or []]
        held: dict[int, list[int]] = {}
        for index, owner in enumerate(owners):
            if owner >= 0:
                held.setdefault(owner, []).append(index)
        if not held:
            return [line, Text(self.text(lang, "ring_lots") + ": " + self.text(lang, "ring_no_lots"), style="dim")]
        buildings = [int(b) for b in ring.get("buildings") or []]
        mortgaged = list(ring.get("mortgaged") or [])

        def lot(index: int, among: list[str]) -> str:
            mark = ""
            if index < len(mortgaged) and mortgaged[index]:
                mark = "[" + self.text(lang, "ring_mortgaged_mark") + "]"
            elif index < len(buildings) and buildings[index]:
                mark = "[H]" if buildings[index] == 5 else f"[{buildings[index]}]"
            return name(index, among) + mark

        def listed(lots: list[int], sep: str, room: int) -> str:
            """The lots with the widest names that fit `room` (else the narrowest, cut)."""
            texts = [sep.join(lot(i, among) for i in lots) for among in names]
            return next((t for t in texts if len(t) <= room), texts[-1])

        out = [line]
        label = self.text(lang, "ring_lots")
        if room >= 1 + len(held):  # a line per owner
            for owner, lots in sorted(held.items()):
                row = Text(label + " ", style="bold")
                row.append_text(seat_badge(owner)).append(" ")
                row.append(listed(lots, ", ", width - len(label) - 4), style=seat_style(owner))
                out.append(row)
            return out
        row = Text(label + ":", style="bold")  # all owners on one line
        share = max(8, (width - len(label) - 2) // len(held) - 3)
        for owner, lots in sorted(held.items()):
            row.append(" ")
            row.append_text(seat_badge(owner)).append(" ")
            row.append(listed(lots, ",", share), style=seat_style(owner))
        out.append(row)
        return out

    def _ring_details(self, frame: Frame, lang: str) -> list[Text]:
        ring = frame.state.get("ring")
        if not isinstance(ring, Mapping):
            return []
        lines: list[Text] = []
        state = frame.state
        auction = ring.get("auction")
        if isinstance(auction, Mapping):
            index = int(auction.get("square", -1))
            square = self.text(
                lang,
                "ring_lot",
                name=self.square_name(state, lang, index),
                price=self.square(state, index).get("price", "?"),
            )
            if int(auction.get("high_bidder", -1)) >= 0:
                bidder = self.seat_name(frame, int(auction["high_bidder"]))
                text = self.text(lang, "ring_auction", square=square, bid=auction.get("high_bid"), bidder=bidder)
            else:
                text = self.text(lang, "ring_auction_none", square=square)
            lines.append(Text(text, style="bold"))
        index = int(ring.get("buy_square", -1))
        if index >= 0:
            name = self.seat_name(frame, int(state.get("turn", 0)))
            square, price = self.square_name(state, lang, index), self.square(state, index).get("price", "?")
            lines.append(Text(self.text(lang, "ring_buy", name=name, square=square, price=price)))
        offer = ring.get("offer")
        if isinstance(offer, Mapping):
            lines.append(
                Text(
                    self.text(
                        lang,
                        "ring_offer",
                        from_=self.seat_name(frame, int(offer.get("proposer", 0))),
                        to=self.seat_name(frame, int(offer.get("to", 0))),
                        give=self._lots(state, lang, offer.get("give_lots")),
                        give_gold=offer.get("give_gold", 0),
                        get=self._lots(state, lang, offer.get("get_lots")),
                        get_gold=offer.get("get_gold", 0),
                    )
                )
            )
        return lines

    def _shop(self, frame: Frame, lang: str) -> Text | None:
        buyable = [m.command.args.get("item") for m in frame.moves if m.command.kind == "buy_item"]
        if not buyable:
            return None
        line = Text(self.text(lang, "shop") + ": ", style="bold")
        line.append(" ".join(self.item_offer(frame.state, lang, str(i)) for i in buyable))
        return line

    # ---- players ------------------------------------------------------------------------------
    def players(self, frame: Frame, lang: str, width: int) -> RenderableType:
        state = frame.state
        wide = width >= 44
        table = Table(box=None, expand=True, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column(" ", width=2, no_wrap=True)
        table.add_column(self.text(lang, "col_player"), ratio=2, no_wrap=True, overflow="ellipsis", min_width=9)
        table.add_column(self.text(lang, "col_gold"), justify="right", no_wrap=True)
        table.add_column(self.text(lang, "col_cards"), justify="right", no_wrap=True)
        if wide:
            table.add_column(self.text(lang, "col_tiles"), justify="right", no_wrap=True)
            table.add_column(self.text(lang, "col_items"), ratio=1, no_wrap=True, overflow="ellipsis")
        alive = list(state.get("alive") or [])
        gold = list(state.get("gold") or [])
        cards = list(state.get("hand_sizes") or [])
        tiles = list(state.get("domino_hand_sizes") or [])
        inventory = list(state.get("inventory") or [])
        wounded = list(state.get("wounded") or [])
        arms = list(state.get("arms") or [])
        for seat in range(int(state.get("players") or len(alive))):
            badge = Text("▶" if seat == state.get("turn") and not state.get("finished") else " ", style="bold")
            badge.append_text(seat_badge(seat))
            name = Text(self.seat_name(frame, seat), style=seat_style(seat) + (" bold" if seat == frame.seat else ""))
            if seat < len(arms):
                name.append(f" ({self.colour_name(lang, int(arms[seat]))})", style="dim")
            tags = [
                self.text(lang, tag)
                for tag, on in (
                    ("you", seat == frame.seat),
                    ("afk", self.is_afk(frame, seat)),
                    ("wounded", seat < len(wounded) and wounded[seat]),
                    ("out", seat < len(alive) and not alive[seat]),
                )
                if on
            ]
            label = Text.assemble(name, *(Text(f" [{tag}]", style="yellow") for tag in tags))
            row: list[RenderableType] = [badge, label, str(gold[seat] if seat < len(gold) else 0)]
            row.append(str(cards[seat] if seat < len(cards) else 0))
            if wide:
                row.append(str(tiles[seat] if seat < len(tiles) else 0))
                items = inventory[seat] if seat < len(inventory) else []
                row.append(", ".join(self.item_name(state, lang, str(i)) for i in items))
            table.add_row(*row)
        return table

    # ---- keys ---------------------------------------------------------------------------------
    def describe(self, command: Command, frame: Frame, lang: str) -> str:
        """What a command does, in words. Fields left out on the wire are proto3's defaults: 0,
        or -1 ("none") for the optional cells and colour of `play_card`."""
        kind, args = command.kind, command.args

        def num(name: str, unset: int = 0) -> int:
            return int(args.get(name, unset))

        if kind in ("play_card", "exchange_card"):
            text = self.card(lang, [num("colour"), args.get("value", "")])
            if kind == "play_card" and num("origin", -1) >= 0:
                moved = {"origin": cell_name(num("origin", -1)), "target": cell_name(num("target", -1))}
                text = self.text(lang, "card_move", card=text, **moved)
            if kind == "play_card" and num("choose_colour", -1) >= 0:
                text += self.text(lang, "card_colour", colour=self.colour_name(lang, num("choose_colour", -1)))
            return text
        if kind == "place_domino":
            cells = [int(x) for x in args.get("cells") or [-1, -1]]
            return self.text(
                lang,
                "tile_at",
                low=num("low"),
                high=num("high"),
                a=cell_name(cells[0]),
                b=cell_name(cells[-1]),
            )
        if kind == "free_move":
            return self.text(
                lang, "card_move", card="→", origin=cell_name(num("origin")), target=cell_name(num("target"))
            )
        state = frame.state
        if kind == "buy_item":
            return self.item_offer(state, lang, str(args.get("item")), effect=True)
        if kind == "use_item":
            item = self.item_name(state, lang, str(args.get("item")))
            origin, target, colour = num("origin"), num("target"), num("colour")
            if origin >= 0 and target >= 0:
                return self.text(lang, "item_at", item=item, origin=cell_name(origin), target=cell_name(target))
            if origin >= 0:
                return self.text(lang, "item_on", item=item, cell=cell_name(origin))
            if colour >= 0:
                return self.text(lang, "item_colour", item=item, colour=self.colour_name(lang, colour))
            return item
        if kind in ("build", "mortgage", "redeem"):
            square = self.square(state, num("square"))
            cost = square.get({"build": "house_cost", "mortgage": "mortgage", "redeem": "redeem"}[kind], "?")
            return self.text(lang, f"{kind}_on", square=self.square_name(state, lang, num("square")), cost=cost)
        if kind == "answer_trade":
            return self.text(lang, "accept" if args.get("accept") else "decline")
        if kind == "offer_trade":
            return self.text(
                lang,
                "trade",
                to=self.seat_name(frame, num("to")),
                give=self._lots(state, lang, args.get("give_lots")),
                give_gold=num("give_gold"),
                get=self._lots(state, lang, args.get("get_lots")),
                get_gold=num("get_gold"),
            )
        return self.text(lang, kind) if kind in TEXTS["en"] else kind

    def moves(self, frame: Frame, lang: str) -> list[Move]:
        groups: dict[str, list[Command]] = {}
        moves: list[Move] = []
        for legal in frame.moves:
            kind = legal.command.kind
            if kind not in KEYS:
                continue
            amount = next((p for p in legal.parameters if p.is_range), None)
            if amount is not None:  # a bid: the amount is asked for, within the range
                label = self.text(lang, kind, lo=amount.lo, hi=amount.hi)
                moves.append(Move(KEYS[kind], label, (legal.command,), amount=amount))
                continue
            groups.setdefault(kind, []).extend(spell_out(legal, CHOOSER_LIMIT))
        for kind, commands in groups.items():
            commands = commands[:CHOOSER_LIMIT]
            if kind in CHOOSERS and (len(commands) > 1 or kind in ("buy_item", "use_item")):
                items = tuple(self.describe(c, frame, lang) for c in commands)
                moves.append(Move(KEYS[kind], self.text(lang, kind), tuple(commands), items=items))
            elif commands:
                label = self.text(lang, kind) if kind not in CHOOSERS else self.describe(commands[0], frame, lang)
                moves.append(Move(KEYS[kind], label, (commands[0],)))
        return sorted(moves, key=lambda m: ORDER.index(m.key))


PLUGIN = HomunculusPlugin()
