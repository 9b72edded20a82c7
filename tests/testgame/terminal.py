"""The test game's terminal plug-in (found by the convention `<game package>.terminal`): a score
line per seat, the target, and the keys r (roll), p (pass) and c (call a six)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from tablehall_terminal.colours import seat_badge, seat_style
from tablehall_terminal.frame import Frame
from tablehall_terminal.plugin import Move, spell_out, texts_of

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "headline": "Race to {target}",
        "roll": "roll the die",
        "pass": "pass",
        "call": "call the six!",
        "six": "{name} rolled a six: it may be called",
        "score": "score",
        "secret": "secret",
        "over": "Race over: {places}",
        "afk": "AFK",
        "you": "you",
        "team": "team {team}",
    },
    "ru": {
        "headline": "Гонка до {target}",
        "roll": "бросить кость",
        "pass": "пас",
        "call": "поймать шестёрку!",
        "six": "{name} выбросил шестёрку: её можно поймать",
        "score": "очки",
        "secret": "тайна",
        "over": "Гонка окончена: {places}",
        "afk": "AFK",
        "you": "вы",
        "team": "команда {team}",
    },
}
KEYS = {"roll": "r", "pass": "p", "call": "c"}


class DiceRacePlugin:
    game = "testgame"

    def text(self, lang: str, key: str, **params: object) -> str:
        return texts_of(TEXTS, lang, key, **params)

    def seat_name(self, frame: Frame, seat: int) -> str:
        return frame.name(seat)

    def headline(self, frame: Frame, lang: str) -> str:
        return self.text(lang, "headline", target=frame.state.get("target"))

    def details(self, frame: Frame, lang: str) -> list[Text]:
        six_by = int(frame.state.get("six_by", -1))
        return [Text(self.text(lang, "six", name=self.seat_name(frame, six_by)))] if six_by >= 0 else []

    def is_afk(self, frame: Frame, seat: int) -> bool:
        afk = frame.state.get("afk") or []
        return seat < len(afk) and bool(afk[seat])

    def outcome(self, frame: Frame, lang: str) -> str:
        places = (frame.outcome or {}).get("places") or frame.state.get("places") or []
        named = "; ".join(
            f"{i + 1}. {', '.join(self.seat_name(frame, int(s)) for s in place)}" for i, place in enumerate(places)
        )
        return self.text(lang, "over", places=named)

    def board(self, frame: Frame, lang: str, width: int, height: int) -> RenderableType:
        state = frame.state
        target = max(1, int(state.get("target") or 1))
        bar = max(4, width - 12)
        table = Table.grid(padding=(0, 1))
        table.add_column(width=2)
        table.add_column(width=bar, no_wrap=True)
        table.add_column(justify="right", width=7)
        for seat, score in enumerate(state.get("scores") or []):
            filled = min(bar, bar * int(score) // target)
            line = Text("█" * filled, style=seat_style(seat)).append("·" * (bar - filled), style="dim")
            table.add_row(seat_badge(seat), line, f"{score}/{target}")
        return table

    def players(self, frame: Frame, lang: str, width: int) -> RenderableType:
        state = frame.state
        table = Table(box=None, expand=True, show_edge=False, pad_edge=False)
        table.add_column(" ", width=2)
        table.add_column("", ratio=1, no_wrap=True, overflow="ellipsis")
        table.add_column(self.text(lang, "score"), justify="right", no_wrap=True)
        secrets = state.get("secrets") or []
        for seat, score in enumerate(state.get("scores") or []):
            badge = Text("▶" if seat == state.get("turn") else " ").append_text(seat_badge(seat))
            tags = [self.text(lang, "you")] if seat == frame.seat else []
            if self.is_afk(frame, seat):
                tags.append(self.text(lang, "afk"))
            name = Text(self.seat_name(frame, seat), style=seat_style(seat))
            name.append("".join(f" [{x}]" for x in tags), style="yellow")
            secret = secrets[seat] if seat < len(secrets) else None
            if secret is not None:
                name.append(f" ({self.text(lang, 'secret')} {secret})", style="dim")
            table.add_row(badge, name, str(score))
        return table

    def moves(self, frame: Frame, lang: str) -> list[Move]:
        moves = []
        for legal in frame.moves:
            for command in spell_out(legal):
                key = KEYS.get(command.kind)
                if key is not None:
                    moves.append(Move(key, self.text(lang, command.kind), (command,)))
        return sorted(moves, key=lambda m: "rpc".index(m.key))


PLUGIN = DiceRacePlugin()
