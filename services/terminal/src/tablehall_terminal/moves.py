"""The legal commands of the player's seat as keys: one key per kind of move; a kind with several
choices (build where, mortgage which, which trade) opens a list, a bid asks for the amount."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tablehall_sdk import Command
from tablehall_terminal.i18n import t

# kind -> key; kinds sharing a key form one chooser (offers)
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
    "build": "h",
    "sell_building": "l",
    "mortgage": "m",
    "unmortgage": "k",
    "pay_debt": "p",
    "collect_debt": "c",
    "surrender": "z",
    "propose_trade": "t",
    "accept_trade": "o",
    "decline_trade": "o",
    "withdraw_trade": "o",
    "propose_end": "v",
    "leave": "L",
}
CHOOSERS = {"build", "sell_building", "mortgage", "unmortgage", "propose_trade", "o", "leave"}
ORDER = list(dict.fromkeys([*KEYS.values(), "6", "7", "y", "n"]))


@dataclass(frozen=True)
class Move:
    """One key: what it says and the commands behind it (several: a chooser)."""

    key: str
    label: str
    commands: tuple[Command, ...]
    chooser: bool = False
    asks_amount: bool = False


def square_name(state: Mapping[str, Any], index: int, lang: str) -> str:
    squares = state.get("squares") or []
    if 0 <= index < len(squares):
        return str(squares[index].get(lang) or squares[index].get("en") or index)
    return str(index)


def seat_name(state: Mapping[str, Any], seat: int) -> str:
    for p in state.get("players") or []:
        if p.get("seat") == seat:
            return str(p.get("name") or seat)
    return str(seat)


def _bundle(state: Mapping[str, Any], bundle: Mapping[str, Any], lang: str) -> str:
    parts = [square_name(state, int(i), lang) for i in bundle.get("lots", [])]
    if bundle.get("money"):
        parts.append(t(lang, "pupy", amount=bundle["money"]))
    parts.extend(str(card) for card in bundle.get("cards", []))
    return ", ".join(parts) or t(lang, "nothing")


def describe(command: Command, state: Mapping[str, Any], lang: str) -> str:
    """One command in words (the items of a chooser, the label of a single move)."""
    kind, args = command.kind, command.args
    if kind in ("build", "sell_building", "mortgage", "unmortgage"):
        key = {"build": "build_on", "sell_building": "sell_on"}.get(kind, f"{kind}_on")
        return t(lang, key, square=square_name(state, int(args.get("square", 0)), lang))
    if kind == "buy":
        index = state.get("buy_square")
        index = int(index) if index is not None else -1
        price = (state.get("squares") or [{}] * (index + 1))[index].get("price", "?") if index >= 0 else "?"
        return t(lang, "buy", square=square_name(state, index, lang), price=price)
    if kind == "bid":
        return t(lang, "bid", amount=args.get("amount", 10))
    if kind == "choose_67":
        return t(lang, "choose_67_6" if args.get("steps") in ("STEPS67_SIX", 6) else "choose_67_7")
    if kind == "vote_end":
        return t(lang, "vote_yes" if args.get("answer") == "ANSWER_YES" else "vote_no")
    if kind in ("accept_trade", "decline_trade", "withdraw_trade"):
        return t(lang, kind, offer_id=args.get("offer_id", 0))
    if kind == "propose_trade":
        return t(
            lang,
            "trade_offer",
            to=seat_name(state, int(args.get("to_seat", 0))),
            give=_bundle(state, args.get("give", {}), lang),
            get=_bundle(state, args.get("get", {}), lang),
        )
    if kind == "leave":
        return t(lang, "leave_confirm")
    return t(lang, kind)


def offered_moves(legal: Sequence[Command], state: Mapping[str, Any], lang: str) -> list[Move]:
    """The keys for these legal commands, in a stable order."""
    groups: dict[str, list[Command]] = {}
    single: list[Move] = []
    for command in legal:
        if command.kind == "choose_67":
            key = "6" if command.args.get("steps") in ("STEPS67_SIX", 6) else "7"
            single.append(Move(key, describe(command, state, lang), (command,)))
        elif command.kind == "vote_end":
            key = "y" if command.args.get("answer") == "ANSWER_YES" else "n"
            single.append(Move(key, describe(command, state, lang), (command,)))
        elif command.kind in KEYS:
            groups.setdefault(KEYS[command.kind], []).append(command)
    moves = list(single)
    for key, commands in groups.items():
        kind = commands[0].kind
        chooser_name = "o" if key == "o" else kind
        if chooser_name in CHOOSERS:
            label = t(lang, "offers" if key == "o" else kind)
            moves.append(Move(key, label, tuple(commands), chooser=True))
        else:
            first = commands[0]
            moves.append(Move(key, describe(first, state, lang), (first,), asks_amount=kind == "bid"))
    return sorted(moves, key=lambda m: ORDER.index(m.key) if m.key in ORDER else len(ORDER))


def with_amount(command: Command, amount: int) -> Command:
    """The bid command with the player's amount."""
    return Command(command.game, command.kind, {**dict(command.args), "amount": amount})
