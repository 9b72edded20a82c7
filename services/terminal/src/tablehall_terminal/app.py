"""The terminal client: one Textual app that plays (a seat) or watches (as a spectator) a table of
any game, the game's part drawn by its plug-in (`tablehall_terminal.plugin`).

Always in sync: the live feed (projection WatchTable) is read as fast as it comes; it writes the
journal and marks the newest version known. A seat's screen shows the match's view (state, open
decisions, legal moves of ONE version), fetched again whenever a newer version is known; updates
that arrive during a fetch are coalesced into the next fetch (latest wins), never queued. Every
widget is redrawn from one `Frame` at a time, and a key acts on the moves of the frame on screen.
"""

from __future__ import annotations

import asyncio
import io
import math
import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from rich.console import Console, Group, RenderableType
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key, Resize
from textual.widgets import Static

from tablehall_sdk import ChatMessage, Client, Command, JournalLine, NotFound, Role, TablehallError, Update
from tablehall_terminal import frame as frames
from tablehall_terminal.colours import seat_style
from tablehall_terminal.frame import Frame
from tablehall_terminal.i18n import t
from tablehall_terminal.plans import PlayPlan, Seated, WatchPlan, play, watch
from tablehall_terminal.plugin import Move, NoPlugin, Plugin, load_plugin
from tablehall_terminal.screens import AmountScreen, ChatScreen, ChooseScreen, EntryScreen

JOURNAL_KEPT = 400
CHAT_POLL_S = 2.0
CHAT_KEY = "/"
START_WAIT_ATTEMPTS = 150  # 0.2 s apart: how long a just-started table may take to appear
PRESENCE_RETRY_S = 1.0


class Board(Static):
    """The plug-in's board, drawn again for the size it gets (the AFK banner, a resize)."""

    def on_resize(self, event: Resize) -> None:
        app = self.app
        if isinstance(app, TableApp):
            app.draw_board()


class TableApp(App[None]):
    CSS = """
    #title { height: 1; padding: 0 1; background: $primary-background; text-style: bold; }
    #status { height: auto; padding: 0 1; background: $boost; }
    #afk { height: auto; padding: 0 1; background: $error; color: $text; text-style: bold; display: none; }
    #main { height: 1fr; }
    #board { width: 3fr; height: 1fr; padding: 0 0 0 1; }
    #side { width: 2fr; }
    #players { height: auto; border-top: solid $primary; }
    #moves { height: auto; border-top: solid $accent; }
    #journal-box { height: 1fr; border-top: solid $primary; }
    #notice { height: auto; padding: 0 1; color: $warning; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit", "quit")]

    def __init__(self, client: Client, plan: PlayPlan | WatchPlan, lang: str, plugin: Plugin | None = None) -> None:
        super().__init__()
        self.client = client
        self.plan = plan
        self.lang = lang
        self.plugin = plugin
        self.table = ""
        self.seat: int | None = None
        self.names: tuple[str, ...] = ()
        self.game_title = getattr(plan, "game", "")
        self.frame: Frame | None = None  # what the screen shows: one version
        self.moves: list[Move] = []  # the keys of `frame`
        self.latest = 0  # the newest version the client knows of
        self.update: Update | None = None  # the newest update of the live feed
        self.journal_lines: list[JournalLine] = []
        self.chat_lines: list[ChatMessage] = []
        self._entries: list[Text] = []  # the journal panel: journal lines and chat, in arrival order
        self.notice = ""
        self.status_text = ""
        self.title_text = ""
        self.busy = False
        self.frames_shown = 0
        self._wanted = asyncio.Event()
        self._pending: Frame | None = None
        self._open_move: Move | None = None
        self.presence_held = False  # the seat's presence stream is open (from the first board shown)
        self.now_ms: Callable[[], int] = lambda: int(time.time() * 1000)  # the clock the countdown reads

    # ---- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="status")
        yield Static(id="afk")
        with Horizontal(id="main"):
            yield Board(id="board")
            with Vertical(id="side"):
                yield Static(id="players")
                yield Static(id="moves")
                with VerticalScroll(id="journal-box"):
                    yield Static(id="journal")
        yield Static(id="notice")

    def on_mount(self) -> None:
        self.query_one("#players").border_title = t(self.lang, "players")
        self.query_one("#journal-box").border_title = t(self.lang, "journal")
        self.query_one("#moves").border_title = t(self.lang, "moves")
        self.set_interval(0.5, self._draw_status)
        self.follow()

    def on_resize(self, event: Resize) -> None:
        self.call_after_refresh(self._redraw)

    # ---- following the table --------------------------------------------------------------
    def _say(self, key: str, params: Mapping[str, Any]) -> None:
        self._set_notice(t(self.lang, key, **params))

    def _set_notice(self, text: str) -> None:
        self.notice = text
        notice = self.query_one("#notice", Static)
        notice.update(text)
        notice.display = bool(text)

    @work(exclusive=True, group="follow")
    async def follow(self) -> None:
        try:
            seated: Seated = (
                await play(self.client, self.plan, self._say)
                if isinstance(self.plan, PlayPlan)
                else await watch(self.client, self.plan, self._say)
            )
            self.table, self.seat = seated.table, seated.seat
            lobby_table = await self.client.get_table(self.table)
            self.names = tuple(s.name for s in sorted(lobby_table.seats, key=lambda s: s.seat))
            if self.plugin is None:
                self.plugin = load_plugin(lobby_table.game)
            games = {g.id: g for g in await self.client.list_games()}
            info = games.get(lobby_table.game)
            self.game_title = info.name(self.lang) if info else lobby_table.game
            self._set_notice("")
            role = Role.SPECTATOR if self.seat is None else Role.DEFAULT
            self.follow_chat()
            if self.seat is not None:
                self.refresh_views()
            for attempt in range(START_WAIT_ATTEMPTS):
                try:
                    await self._follow_feed(role)
                    break
                except NotFound:
                    # a table just started: the match writes its first events a moment later
                    if self.update is not None or attempt == START_WAIT_ATTEMPTS - 1:
                        raise
                    await asyncio.sleep(0.2)
        except NoPlugin as exc:
            self._set_notice(t(self.lang, "no_plugin", game=exc.game))
        except TablehallError as exc:
            self._set_notice(t(self.lang, "connection", text=exc.text(self.lang)))

    async def _follow_feed(self, role: Role) -> None:
        first = True
        async for update in self.client.watch(self.table, role=role):
            if first:
                first = False
                history = await self.client.journal(self.table, role)
                self._add_journal([line for line in history if line.version <= update.version])
            self._add_journal(list(update.journal))
            self.update = update
            self.latest = max(self.latest, update.version)
            if self.seat is None:
                self._offer(frames.from_update(update, self.names))
            else:
                self._wanted.set()

    @work(exclusive=True, group="views")
    async def refresh_views(self) -> None:
        """The seat's view, fetched again whenever a newer version is known (latest wins)."""
        while True:
            await self._wanted.wait()
            self._wanted.clear()
            try:
                view = await self.client.view(self.table)
            except TablehallError as exc:
                self._set_notice(t(self.lang, "connection", text=exc.text(self.lang)))
                await asyncio.sleep(0.5)
                self._wanted.set()
                continue
            self._offer(frames.from_view(view, self.names))

    def _offer(self, frame: Frame) -> None:
        """A frame to show; several offered before the screen's next turn: the newest wins."""
        if self._pending is not None and self._pending.version > frame.version:
            return
        scheduled = self._pending is not None
        self._pending = frame
        if not scheduled:
            self.call_next(self._show_pending)

    def _show_pending(self) -> None:
        frame, self._pending = self._pending, None
        if frame is None or (self.frame is not None and frame.version < self.frame.version):
            return
        self.latest = max(self.latest, frame.version)
        self.frame = frame
        self.moves = self.plugin.moves(frame, self.lang) if self.plugin and frame.seat is not None else []
        self.frames_shown += 1
        self._redraw()
        self._close_stale_dialog()
        if frame.seat is not None and not frame.finished and not self.presence_held:
            self.presence_held = True
            self.hold_presence()

    @work(exclusive=True, group="presence")
    async def hold_presence(self) -> None:
        """Be present at the table once its board is on screen (the first clocks wait for it);
        quitting closes the stream, and the seat is absent (the table stands still without people)."""
        while self.frame is None or not self.frame.finished:
            try:
                async for _ in self.client.hold_presence(self.table):
                    pass
            except TablehallError:
                pass  # the server restarting, or the table over: look again shortly
            await asyncio.sleep(PRESENCE_RETRY_S)

    def _add_journal(self, lines: list[JournalLine]) -> None:
        self.journal_lines.extend(lines)
        self._add_log([Text(line.text(self.lang)) for line in lines])

    def _add_chat(self, messages: list[ChatMessage]) -> None:
        self.chat_lines.extend(messages)
        entries = []
        for m in messages:
            entry = Text("💬 ")
            entry.append(m.name or m.user_id, style=seat_style(m.seat) if m.seat is not None else "italic")
            entry.append(f": {m.text}")
            entries.append(entry)
        self._add_log(entries)

    def _add_log(self, entries: list[Text]) -> None:
        if not entries:
            return
        self._entries = [*self._entries, *entries][-JOURNAL_KEPT:]
        self.query_one("#journal", Static).update(Text("\n").join(self._entries))
        self.query_one("#journal-box", VerticalScroll).scroll_end(animate=False)

    @work(exclusive=True, group="chat")
    async def follow_chat(self) -> None:
        """The table's chat, read every CHAT_POLL_S seconds into the journal panel."""
        after = ""
        while True:
            try:
                messages, after = await self.client.chat(self.table, after=after)
                self._add_chat(messages)
            except TablehallError:
                pass  # the chat is not for this viewer (spectators when the host says no), or away
            await asyncio.sleep(CHAT_POLL_S)

    def _chat(self) -> None:
        def send(text: str | None) -> None:
            if text:
                self._send_chat(text)

        self.push_screen(ChatScreen(self.lang), send)

    @work(group="chat-send")
    async def _send_chat(self, text: str) -> None:
        try:
            await self.client.send_chat(self.table, text)
        except TablehallError as exc:
            self._set_notice(t(self.lang, "refused", text=exc.text(self.lang)))

    # ---- drawing --------------------------------------------------------------------------
    def _redraw(self) -> None:
        frame, plugin = self.frame, self.plugin
        if frame is None or plugin is None:
            return
        self._draw_status()
        self.draw_board()
        players = self.query_one("#players", Static)
        players.update(plugin.players(frame, self.lang, max(20, players.size.width)))
        self._draw_moves(frame)

    def draw_board(self) -> None:
        frame, plugin = self.frame, self.plugin
        if frame is None or plugin is None:
            return
        board = self.query_one("#board", Board)
        width, height = max(20, board.size.width - 1), max(5, board.size.height)
        board.update(plugin.board(frame, self.lang, width, height))

    def _draw_moves(self, frame: Frame) -> None:
        box = self.query_one("#moves", Static)
        if frame.seat is None:
            box.border_title = t(self.lang, "spectator")
            box.update(f"{t(self.lang, 'spectator_help')}\n{t(self.lang, 'chat_key')}\n{t(self.lang, 'quit_watch')}")
            return
        lines = [f"{m.key}  {m.label}" for m in self.moves] or [t(self.lang, "no_moves")]
        quit_text = t(self.lang, "quit_over" if frame.finished else "quit")
        box.update(Text("\n".join([*lines, t(self.lang, "chat_key"), quit_text])))

    def _draw_status(self) -> None:
        frame, plugin = self.frame, self.plugin
        title = t(self.lang, "title", game=self.game_title or "…", table=self.table.removeprefix("tables/"))
        if self.seat is not None:
            title += " · " + t(self.lang, "playing", seat=self.seat + 1)
        elif self.table:
            title += " · " + t(self.lang, "watching")
        if frame is not None:
            state = t(self.lang, "live", version=frame.version)
            if self.latest > frame.version:
                state = t(self.lang, "syncing", version=frame.version, latest=self.latest)
            title += " · " + state
        self.title_text = title
        if not self.default_screen.query("#title"):
            return  # the half-second timer fired while the app closes: its widgets are gone
        self.query_one("#title", Static).update(Text(title, no_wrap=True, overflow="ellipsis"))
        if frame is None or plugin is None:
            return
        shown = self._status(frame, plugin)
        self.status_text = _plain(shown)
        self.query_one("#status", Static).update(shown)
        afk = self.query_one("#afk", Static)
        if self.seat is not None and not frame.finished and plugin.is_afk(frame, self.seat):
            keys = ", ".join(m.key for m in self.moves)
            banner = t(self.lang, "afk", keys=keys) if keys else t(self.lang, "afk_no_key")
            afk.update(Text(banner, no_wrap=True, overflow="ellipsis"))
            afk.display = True
        else:
            afk.display = False

    def _status(self, frame: Frame, plugin: Plugin) -> RenderableType:
        if frame.finished:
            return Text(plugin.outcome(frame, self.lang), style="bold")
        line = Text(plugin.headline(frame, self.lang) + "   ")
        turn = [d for d in frame.decisions if not d.reaction]
        if turn:
            now_ms = self.now_ms()
            first = min(turn, key=lambda d: d.deadline_ms)
            seconds = max(0, math.ceil((first.deadline_ms - now_ms) / 1000))
            waiting = list(dict.fromkeys(d.seat for d in turn))
            names = Text(", ").join(Text(plugin.seat_name(frame, s), style=seat_style(s)) for s in waiting)
            line.append(t(self.lang, "waiting_for", names=""))
            line.append_text(names)
            line.append("   ⏱ " + t(self.lang, "clock", seconds=seconds), style="bold red" if seconds <= 5 else "bold")
        lines: list[RenderableType] = [line]
        mine = frame.my_decisions()
        if mine and self.moves and not (self.seat is not None and plugin.is_afk(frame, self.seat)):
            key = "reaction" if all(d.reaction for d in mine) else "your_decision"
            keys = "  ".join(f"[{m.key}] {m.label}" for m in self.moves[:4])
            lines.append(Text(t(self.lang, key, keys=keys), style="bold green", overflow="ellipsis", no_wrap=True))
        lines.extend(plugin.details(frame, self.lang))
        return Group(*lines)

    # ---- moves ----------------------------------------------------------------------------
    def _close_stale_dialog(self) -> None:
        """A dialog opened on an older frame whose move is gone (or changed) is closed."""
        if self._open_move is None or len(self.screen_stack) < 2:
            return
        if self._open_move not in self.moves:
            self._open_move = None
            self.pop_screen()
            self._set_notice(t(self.lang, "stale"))

    def on_key(self, event: Key) -> None:
        if len(self.screen_stack) > 1:
            return  # a dialog is open
        pressed = event.character or event.key
        if pressed == CHAT_KEY and self.table:
            event.stop()
            self._chat()
            return
        move = next((m for m in self.moves if m.key == pressed), None)
        if move is None and self.frame is not None and _typed(event) and pressed != "q":
            keys = " ".join(m.key for m in self.moves)
            self._set_notice(
                t(self.lang, "no_such_key", pressed=pressed, keys=keys) if keys else t(self.lang, "no_moves")
            )
            return
        if move is None or self.busy or self.frame is None:
            return
        event.stop()
        version = self.frame.version
        if move.amount is not None:
            amount = move.amount

            def bid(value: int | None) -> None:
                self._open_move = None
                if value is not None:
                    template = move.commands[0]
                    self._play(Command(template.game, template.kind, {**template.args, amount.field: value}), version)

            self._open_move = move
            self.push_screen(AmountScreen(amount.lo, amount.hi, self.lang), bid)
        elif move.chooser:

            def chosen(index: int | None) -> None:
                self._open_move = None
                if index is not None:
                    self._complete(move, index, version)

            self._open_move = move
            self.push_screen(ChooseScreen(move.label, move.items, self.lang), chosen)
        else:
            self._complete(move, 0, version)

    def _complete(self, move: Move, index: int, version: int) -> None:
        """Play the chosen command, after the values its `entry` asks for (if any) are typed."""
        entry = move.entry
        if entry is None:
            self._play(move.commands[index], version)
            return
        chosen = move.commands[index]

        def typed(values: tuple[Any, ...] | None) -> None:
            self._open_move = None
            if values is not None:
                self._play(entry.complete(chosen, values), version)

        self._open_move = move
        title = move.items[index] if index < len(move.items) else move.label
        self.push_screen(EntryScreen(title, entry), typed)

    @work(group="submit")
    async def _play(self, command: Command, version: int) -> None:
        """Play a command of the frame at `version`; the answer's view is shown if it is newer."""
        if self.seat is None:
            return
        self.busy = True
        try:
            done = await self.client.submit(self.table, self.seat, command)
            self._offer(frames.from_view(done.view, self.names))
            self._set_notice("")
        except TablehallError as exc:
            self._set_notice(t(self.lang, "refused", text=exc.text(self.lang)) + f" (v{version})")
            self._wanted.set()  # the screen may be behind: look again
        finally:
            self.busy = False


def _plain(renderable: RenderableType, width: int = 200) -> str:
    """A renderable as plain text (what the status says, for logs and tests)."""
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]


def _typed(event: Key) -> bool:
    """A printable key a person typed (not Tab, an arrow or a modifier)."""
    return bool(event.character) and len(event.character or "") == 1 and (event.character or "").isprintable()
