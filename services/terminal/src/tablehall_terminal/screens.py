"""The small dialogs: choose one of several moves, type a bid, say something in the chat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList

from tablehall_terminal.i18n import t
from tablehall_terminal.plugin import Entry


class ChooseScreen(ModalScreen[int | None]):
    """A list of choices; Enter picks one (its index), Esc cancels (None)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]
    DEFAULT_CSS = """
    ChooseScreen { align: center middle; }
    ChooseScreen > Vertical { width: 90%; height: auto; max-height: 24; border: round $accent; background: $panel; }
    """

    def __init__(self, title: str, items: Sequence[str], lang: str) -> None:
        super().__init__()
        self.title_text = title
        self.items = list(items)
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"{self.title_text} — {t(self.lang, 'choose')}")
            yield OptionList(*self.items, id="choices")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        self.dismiss(None)


class AmountScreen(ModalScreen[int | None]):
    """A bid: a whole number from `lo` to `hi` (the legal move's range), pre-filled with `lo`."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]
    DEFAULT_CSS = """
    AmountScreen { align: center middle; }
    AmountScreen > Vertical { width: 64; max-width: 95%; height: auto; border: round $accent; background: $panel; }
    """

    def __init__(self, lo: int, hi: int, lang: str) -> None:
        super().__init__()
        self.lo, self.hi = lo, hi
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(t(self.lang, "bid_prompt", lo=self.lo, hi=self.hi))
            yield Input(value=str(self.lo), type="integer", id="amount")
            yield Label("", id="problem")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            amount = int(event.value)
        except ValueError:
            amount = -1
        if not self.lo <= amount <= self.hi:
            self.query_one("#problem", Label).update(t(self.lang, "bid_bad", lo=self.lo, hi=self.hi))
            return
        self.dismiss(amount)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChatScreen(ModalScreen[str | None]):
    """One chat message (1-500 characters); Enter sends it, Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]
    DEFAULT_CSS = """
    ChatScreen { align: center bottom; }
    ChatScreen > Vertical { width: 100%; height: auto; border: round $accent; background: $panel; }
    """

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(t(self.lang, "chat_prompt"))
            yield Input(max_length=500, id="chat")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


class EntryScreen(ModalScreen[tuple[Any, ...] | None]):
    """Values typed one at a time (`plugin.Entry`): Enter adds one, an empty Enter finishes (with
    at least `entry.least`), `-` takes the last one back, Esc cancels (None)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", show=False)]
    DEFAULT_CSS = """
    EntryScreen { align: center bottom; }
    EntryScreen > Vertical { width: 100%; height: auto; border: round $accent; background: $panel; }
    """

    def __init__(self, title: str, entry: Entry) -> None:
        super().__init__()
        self.title_text = title
        self.entry = entry
        self.values: list[Any] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.title_text)
            yield Label(self.entry.prompt)
            yield Label("", id="entered")
            yield Input(max_length=40, id="value")
            yield Label("", id="problem")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def _show(self, problem: str = "") -> None:
        self.query_one("#entered", Label).update("→ " + " ".join(self.entry.show(v) for v in self.values))
        self.query_one("#problem", Label).update(problem)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if not text:
            if len(self.values) >= self.entry.least:
                self.dismiss(tuple(self.values))
            return
        if text == "-":
            self.values = self.values[:-1]
            self._show()
            return
        value = self.entry.parse(text)
        if value is None:
            self._show(self.entry.problem)
            return
        self.values.append(value)
        self._show()

    def action_cancel(self) -> None:
        self.dismiss(None)
