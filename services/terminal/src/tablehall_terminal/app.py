"""The terminal client: one Textual app that plays (a seat) or watches (as a spectator) a table.

It follows the table's live view (projection WatchTable, resumed by the SDK after a drop), shows
the board, the players, whose turn it is with the clock counting down and the journal, and offers
the seat's legal moves (MatchService.GetTableView) as keys.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, ClassVar

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key
from textual.widgets import RichLog, Static

from tablehall_sdk import Client, Command, JournalLine, Role, TablehallError, Update
from tablehall_terminal import render
from tablehall_terminal.i18n import t
from tablehall_terminal.moves import Move, describe, offered_moves, with_amount
from tablehall_terminal.plans import PlayPlan, Seated, WatchPlan, play, watch
from tablehall_terminal.screens import AmountScreen, ChooseScreen


class TableApp(App[None]):
    CSS = """
    #status { height: auto; padding: 0 1; background: $boost; }
    #main { height: 1fr; }
    #board-box { width: 3fr; border: round $primary; }
    #side { width: 2fr; }
    #players { height: auto; border: round $primary; }
    #moves { height: auto; border: round $accent; }
    #journal { height: 1fr; border: round $primary; }
    #notice { height: auto; padding: 0 1; color: $warning; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit", "quit")]

    def __init__(self, client: Client, plan: PlayPlan | WatchPlan, lang: str) -> None:
        super().__init__()
        self.client = client
        self.plan = plan
        self.lang = lang
        self.table = ""
        self.seat: int | None = None
        self.update: Update | None = None
        self.legal: tuple[Command, ...] = ()
        self.moves: list[Move] = []
        self.journal_lines: list[JournalLine] = []
        self.notice = ""
        self.status_text = ""
        self.busy = False

    # ---- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with VerticalScroll(id="board-box"):
                yield Static(id="board")
            with Vertical(id="side"):
                yield Static(id="players")
                yield Static(id="moves")
                yield RichLog(id="journal", wrap=True, markup=False)
        yield Static(id="notice")

    def on_mount(self) -> None:
        self.title = t(self.lang, "title", game=getattr(self.plan, "game", ""))
        self.query_one("#board-box").border_title = t(self.lang, "board")
        self.query_one("#journal").border_title = t(self.lang, "journal")
        self.query_one("#players").border_title = t(self.lang, "players")
        self.query_one("#moves").border_title = t(self.lang, "moves")
        self.set_interval(0.5, self._draw_status)
        self.follow()

    # ---- following the table --------------------------------------------------------------
    def _say(self, key: str, params: Mapping[str, Any]) -> None:
        self._set_notice(t(self.lang, key, **params))

    def _set_notice(self, text: str) -> None:
        self.notice = text
        self.query_one("#notice", Static).update(text)

    @work(exclusive=True, group="follow")
    async def follow(self) -> None:
        try:
            seated: Seated = (
                await play(self.client, self.plan, self._say)
                if isinstance(self.plan, PlayPlan)
                else await watch(self.client, self.plan, self._say)
            )
            self.table, self.seat = seated.table, seated.seat
            role = Role.SPECTATOR if self.seat is None else Role.DEFAULT
            key = "watching" if self.seat is None else "playing"
            self._set_notice(t(self.lang, key, table=self.table, seat=self.seat))
            first = True
            async for update in self.client.watch(self.table, role=role):
                if first:
                    first = False
                    history = await self.client.journal(self.table, role)
                    self._add_journal([line for line in history if line.version <= update.version])
                await self._apply(update)
        except TablehallError as exc:
            self._set_notice(t(self.lang, "connection", text=exc.text(self.lang)))

    async def _apply(self, update: Update) -> None:
        self.update = update
        self._add_journal(list(update.journal))
        if self.seat is not None and not update.finished:
            view = await self.client.view(self.table)
            if view.version >= update.version:
                self.legal = view.legal
        else:
            self.legal = ()
        self._redraw()

    def _add_journal(self, lines: list[JournalLine]) -> None:
        log = self.query_one("#journal", RichLog)
        for line in lines:
            self.journal_lines.append(line)
            log.write(line.text(self.lang))

    # ---- drawing --------------------------------------------------------------------------
    def _redraw(self) -> None:
        update = self.update
        if update is None:
            return
        state = update.state
        self.query_one("#board", Static).update(render.board(state, self.lang))
        self.query_one("#players", Static).update(render.players(state, self.lang, self.seat))
        self.moves = offered_moves(self.legal, state, self.lang) if not update.finished else []
        if self.seat is None:
            text = t(self.lang, "watching", table=self.table)
        elif self.moves:
            text = "\n".join(f"{m.key}  {m.label}" for m in self.moves)
        else:
            text = t(self.lang, "no_moves")
        self.query_one("#moves", Static).update(f"{text}\n{t(self.lang, 'quit')}")
        self._draw_status()

    def _draw_status(self) -> None:
        update = self.update
        if update is None:
            return
        now_ms = int(time.time() * 1000)
        shown = render.status(update.state, update.decisions, now_ms, self.lang, update.finished, update.outcome)
        self.status_text = render.plain(shown)
        self.query_one("#status", Static).update(shown)

    # ---- moves ----------------------------------------------------------------------------
    def on_key(self, event: Key) -> None:
        if len(self.screen_stack) > 1:
            return  # a dialog is open
        pressed = event.character or event.key
        move = next((m for m in self.moves if m.key == pressed), None)
        if move is None or self.busy:
            return
        event.stop()
        if move.asks_amount:

            def bid(amount: int | None) -> None:
                if amount is not None:
                    self._play(with_amount(move.commands[0], amount))

            self.push_screen(AmountScreen(int(move.commands[0].args.get("amount", 10)), self.lang), bid)
        elif move.chooser:

            def chosen(index: int | None) -> None:
                if index is not None:
                    self._play(move.commands[index])

            state = self.update.state if self.update else {}
            items = [describe(c, state, self.lang) for c in move.commands]
            self.push_screen(ChooseScreen(move.label, items, self.lang), chosen)
        else:
            self._play(move.commands[0])

    @work(group="submit")
    async def _play(self, command: Command) -> None:
        if self.seat is None:
            return
        self.busy = True
        try:
            done = await self.client.submit(self.table, self.seat, command)
            if self.update is None or done.view.version >= self.update.version:
                self.legal = done.view.legal
                self._redraw()
            self._set_notice("")
        except TablehallError as exc:
            self._set_notice(t(self.lang, "refused", text=exc.text(self.lang)))
        finally:
            self.busy = False
