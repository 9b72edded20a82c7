"""The shared screen's own words in Russian and English (a game's words are its plug-in's), and
which language to speak."""

from __future__ import annotations

from collections.abc import Mapping

LANGS = ("en", "ru")

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "{game} — table {table}",
        "signing_in": "Signing in as {name}…",
        "creating": "Creating a table with {bots} bots…",
        "starting": "Starting the game…",
        "watching": "Watching as a spectator",
        "playing": "You are seat {seat}",
        "turn": "Turn: {name}",
        "clock": "{seconds}s",
        "waiting_for": "Waiting for: {names}",
        "your_decision": "Your move — keys: {keys}",
        "reaction": "You may react now: {keys}",
        "afk": "AFK: your seat is on 2-second clocks. Any move key gives it back: {keys}",
        "afk_no_key": "AFK: your seat is on 2-second clocks. Your next move gives it back.",
        "no_moves": "No moves for you now.",
        "no_such_key": "«{pressed}» is no move now. Your keys: {keys}",
        "moves": "Your moves",
        "spectator": "Spectator",
        "spectator_help": "You are watching: no moves here.",
        "quit": "q  quit the client (your seat stays)",
        "quit_watch": "q  stop watching",
        "quit_over": "q  quit the client",
        "chat_key": "/  chat",
        "chat_prompt": "Say to the table (Enter to send, Esc to cancel)",
        "players": "Players",
        "board": "Board",
        "journal": "Journal",
        "bid_prompt": "Your bid ({lo}–{hi}; Enter to bid, Esc to cancel)",
        "bid_bad": "A bid is a whole number from {lo} to {hi}.",
        "choose": "Choose (Enter), Esc to cancel",
        "refused": "Refused: {text}",
        "stale": "The table moved on while you chose: choose again.",
        "connection": "Connection: {text}",
        "live": "live · v{version}",
        "syncing": "updating · v{version} → v{latest}",
        "no_plugin": "The terminal client has no plug-in for the game {game!r}.",
        "unknown_game": "The server offers no game {game!r}. It offers:{games}",
        "games": "The games {server} offers (tablehall play GAME):",
        "bad_bots": "{game}: --bots must be {lo} to {hi}.",
        "no_flag": "--{flag}: the game {game} has no such option.",
        "unknown_option": "Unknown option {option!r}.",
        "bad_option": "Option {option}: {value} is not allowed; it takes {allowed}.",
        "any_integer": "a whole number",
        "options_of": "The options of {game}:",
        "no_options": "The game {game} has no options.",
        "default": "default",
    },
    "ru": {
        "title": "{game} — стол {table}",
        "signing_in": "Вход как {name}…",
        "creating": "Создаём стол с ботами: {bots}…",
        "starting": "Начинаем игру…",
        "watching": "Вы зритель",
        "playing": "Ваше место {seat}",
        "turn": "Ход: {name}",
        "clock": "{seconds} с",
        "waiting_for": "Ждём: {names}",
        "your_decision": "Ваш ход — клавиши: {keys}",
        "reaction": "Можно ответить сейчас: {keys}",
        "afk": "AFK: часы вашего места — 2 секунды. Любой ход вернёт место: {keys}",
        "afk_no_key": "AFK: у вашего места часы по 2 секунды. Ваш следующий ход вернёт место.",
        "no_moves": "Сейчас у вас нет ходов.",
        "no_such_key": "«{pressed}» — сейчас не ход. Ваши клавиши: {keys}",
        "moves": "Ваши ходы",
        "spectator": "Зритель",
        "spectator_help": "Вы смотрите: ходов здесь нет.",
        "quit": "q  выйти из клиента (место остаётся)",
        "quit_watch": "q  перестать смотреть",
        "quit_over": "q  выйти из клиента",
        "chat_key": "/  чат",
        "chat_prompt": "Сообщение столу (Enter — отправить, Esc — отмена)",
        "players": "Игроки",
        "board": "Поле",
        "journal": "Журнал",
        "bid_prompt": "Ваша ставка ({lo}–{hi}; Enter — ставить, Esc — отмена)",
        "bid_bad": "Ставка — целое число от {lo} до {hi}.",
        "choose": "Выберите (Enter), Esc — отмена",
        "refused": "Отказ: {text}",
        "stale": "Пока вы выбирали, на столе всё изменилось: выберите снова.",
        "connection": "Связь: {text}",
        "live": "на связи · v{version}",
        "syncing": "обновляем · v{version} → v{latest}",
        "no_plugin": "У терминального клиента нет модуля для игры {game!r}.",
        "unknown_game": "Сервер не предлагает игру {game!r}. Есть:{games}",
        "games": "Игры сервера {server} (tablehall play ИГРА):",
        "bad_bots": "{game}: --bots — от {lo} до {hi}.",
        "no_flag": "--{flag}: у игры {game} нет такой настройки.",
        "unknown_option": "Неизвестная настройка {option!r}.",
        "bad_option": "Настройка {option}: {value} нельзя; можно {allowed}.",
        "any_integer": "целое число",
        "options_of": "Настройки игры {game}:",
        "no_options": "У игры {game} нет настроек.",
        "default": "по умолчанию",
    },
}


def pick_lang(arg: str | None, environ: Mapping[str, str]) -> str:
    """`--lang` when given, else the locale: LC_ALL, then LC_MESSAGES, then LANG starting with "ru"."""
    if arg:
        if arg not in LANGS:
            raise ValueError(f"--lang must be one of {', '.join(LANGS)}")
        return arg
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    return "en"


def t(lang: str, key: str, **params: object) -> str:
    text = TEXT.get(lang, TEXT["en"]).get(key) or TEXT["en"][key]
    return text.format(**params) if params else text
