"""The small dialogs: choose one of several moves, type a bid, say something in the chat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList

from tablehall_terminal.i18n import t


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
