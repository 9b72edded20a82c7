"""What a game adds to the shared screen: a plug-in (board renderer, key map, command builders
from the legal-move descriptors, its texts in ru/en), found by game id.

Discovery, in order:
1. the entry point group `tablehall.terminal_plugins` (`<game id> = "<module>:PLUGIN"`), as
   `services/terminal/pyproject.toml` registers Пузиполия's;
2. the module `<game package>.terminal` next to the game, the game package being the one the game
   registry (`tablehall_rules.registry`, the same one the server uses) loads the game from; this is
   how the platform's test game (`tests/testgame/terminal.py`) is found.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Protocol, runtime_checkable

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tablehall_sdk import Command, LegalMove, Parameter
from tablehall_terminal.colours import seat_badge, seat_style
from tablehall_terminal.frame import Frame

ENTRY_POINT_GROUP = "tablehall.terminal_plugins"


@dataclass(frozen=True)
class Entry:
    """Values the player types one at a time (a contour, cell by cell) that complete the command.

    `parse` reads one typed value (None: not a value, the dialog says `problem`); `complete`
    builds the command from the chosen one and the values entered, at least `least` of them.
    The server judges the result: the client checks only that each value is one (a cell)."""

    prompt: str
    problem: str
    parse: Callable[[str], Any | None]
    show: Callable[[Any], str]
    complete: Callable[[Command, tuple[Any, ...]], Command]
    least: int = 1


@dataclass(frozen=True)
class Move:
    """One key on screen: what it says and the commands behind it.

    Several commands: a chooser lists `items` (each says what its command does). `amount`: the
    command's integer parameter is asked for (a bid) within its range. `entry`: after the choice,
    values are typed to complete the command (`Entry`)."""

    key: str
    label: str
    commands: tuple[Command, ...]
    items: tuple[str, ...] = ()
    amount: Parameter | None = None
    entry: Entry | None = None

    @property
    def chooser(self) -> bool:
        return len(self.commands) > 1 or bool(self.items)


@runtime_checkable
class Plugin(Protocol):
    """A game's part of the terminal client. Every method reads one frame only."""

    game: str

    def text(self, lang: str, key: str, **params: object) -> str:
        """The plug-in's own words (ru/en)."""
        ...

    def headline(self, frame: Frame, lang: str) -> str:
        """A short line of where the game stands (e.g. "Round 2 of 3")."""
        ...

    def details(self, frame: Frame, lang: str) -> list[Text]:
        """Lines under the status (an auction, the debts, a vote)."""
        ...

    def board(self, frame: Frame, lang: str, width: int, height: int) -> RenderableType:
        """The board in `width` columns, fitting `height` rows where it can."""
        ...

    def players(self, frame: Frame, lang: str, width: int) -> RenderableType: ...

    def moves(self, frame: Frame, lang: str) -> list[Move]:
        """The seat's keys, built from the frame's legal moves only."""
        ...

    def seat_name(self, frame: Frame, seat: int) -> str: ...

    def is_afk(self, frame: Frame, seat: int) -> bool:
        """Whether the seat plays on the short (AFK) clocks."""
        ...

    def outcome(self, frame: Frame, lang: str) -> str:
        """The result in words (why it ended, the places)."""
        ...


class NoPlugin(LookupError):
    def __init__(self, game: str) -> None:
        super().__init__(game)
        self.game = game


def load_plugin(game: str) -> Plugin:
    """The terminal plug-in of `game` (see the module's docstring); NoPlugin when there is none."""
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name == game:
            return _checked(ep.load(), game)
    try:
        from tablehall_rules.registry import game_module

        module = importlib.import_module(f"{game_module(game)}.terminal")
    except Exception as exc:  # no such game here, or no plug-in beside it
        raise NoPlugin(game) from exc
    return _checked(getattr(module, "PLUGIN", None), game)


def _checked(plugin: Any, game: str) -> Plugin:
    if not isinstance(plugin, Plugin) or plugin.game != game:
        raise NoPlugin(game)
    return plugin


def spell_out(move: LegalMove, limit: int = 200) -> Iterator[Command]:
    """The commands a descriptor admits (a rule's examples), at most `limit`."""
    names = [p.field for p in move.parameters]
    for combo in itertools.islice(itertools.product(*(p.options() for p in move.parameters)), limit):
        yield move.build(**dict(zip(names, combo, strict=True)))


def texts_of(table: Mapping[str, Mapping[str, str]], lang: str, key: str, **params: object) -> str:
    """`key` in `lang` (else English) from a plug-in's table, formatted."""
    text = table.get(lang, table["en"]).get(key) or table["en"][key]
    return text.format(**params) if params else text


def players_table(player_header: str, columns: Sequence[tuple[str, Mapping[str, Any]]]) -> Table:
    """The players panel's table: a badge column, the player's name, then the game's own columns
    (header, rich column options)."""
    table = Table(box=None, expand=True, padding=(0, 1), show_edge=False, pad_edge=False)
    table.add_column(" ", width=2, no_wrap=True)
    table.add_column(player_header, ratio=1, no_wrap=True, overflow="ellipsis")
    for header, options in columns:
        table.add_column(header, no_wrap=True, **options)
    return table


def player_cells(
    seat: int, name: str, *, playing: bool, me: bool, tags: Sequence[str], style: str | None = None
) -> tuple[Text, Text]:
    """A player's badge (▶ while it plays, the seat's digit) and name with its tags, the name in the
    seat's colour unless the game gives the player one of its own (`style`)."""
    badge = Text("▶" if playing else " ", style="bold")
    badge.append_text(seat_badge(seat))
    label = Text(name, style=(style or seat_style(seat)) + (" bold" if me else ""))
    return badge, Text.assemble(label, *(Text(f" [{tag}]", style="yellow") for tag in tags))
