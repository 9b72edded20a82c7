// The page's own words in both languages; the server's texts (journal, refusals) come in both already.
const WORDS = {
  en: {
    sign_in: "Sign in", name: "Your name", dev_provider: "Development sign-in", sign_out: "Sign out",
    games: "Games", new_table: "New table", seats: "Seats", create: "Create", private: "Private",
    pin: "PIN", my_tables: "My tables", open_tables: "Open tables", none: "none yet", open: "Open",
    watch: "Watch", join: "Sit down", add_bot: "Add a bot", start: "Start", level: "Level",
    easy: "easy", strong: "strong", free: "free", bot: "bot", you: "you", host: "host",
    waiting: "Waiting for players", status: "Status", seat: "Seat", spectator: "spectator",
    your_move: "Your move", waiting_for: "Waiting for {who}", moves: "Your moves", no_moves: "No move of yours now", on_board: "Make your move on the board",
    journal: "Journal", chat: "Chat", say: "Send", refused: "Refused: {text} ({reason})",
    finished: "Game over", players: "Players", live: "live", connecting: "connecting…",
    clock: "{s} s left",
    board_missing: "This game's board is not drawn in the web client yet; the moves below play it.",
    state: "The state (JSON)", go: "Play", money: "money", worth: "worth", here: "at",
    seats_of: "{n} seats", table: "Table", game: "Game",
    audit: "Audit", event: "After event", chart: "Net worth by event", export: "Download the export file",
    verified: "Verified: {events} events, {commands} commands re-decided, {draws} draws recomputed (to v{version})",
    not_verified: "NOT verified at v{version}: {message}",
    refresh: "Refresh", by_address: "A table by its address", table_address: "address or id of a table", share: "A private table: share its address and PIN",
    sign_in_with: "Sign in with {name}", sign_in_failed: "Sign-in failed: {reason}", no_provider: "This server takes no sign-in here.",
    private_table: "A private table: its PIN", view_as: "View", as_player: "as you may see it", as_auditor: "as the auditor (everything)",
    bot_plays: "A bot plays your seat (handed over while you were away).", take_back: "Take my seat back",
    afk_next: "AFK: your seat is on short clocks until you move yourself: your next move gives it back.",
    spectator_delay: "Spectator delay (events)", spectator_delay_hint: "Spectators see the table this many events behind, until its end.",
    status_WAITING: "waiting", status_PLAYING: "playing", status_FINISHED: "finished", status_STARTING: "starting", status_CLOSED: "closed",
    acted: "Who acted: {who}", round: "round", delayed: "watching {n} events behind",
  },
  ru: {
    sign_in: "Войти", name: "Ваше имя", dev_provider: "Вход для разработки", sign_out: "Выйти",
    games: "Игры", new_table: "Новый стол", seats: "Места", create: "Создать", private: "Закрытый",
    pin: "PIN", my_tables: "Мои столы", open_tables: "Открытые столы", none: "пока нет", open: "Открыть",
    watch: "Смотреть", join: "Сесть", add_bot: "Добавить бота", start: "Начать", level: "Уровень",
    easy: "лёгкий", strong: "сильный", free: "свободно", bot: "бот", you: "вы", host: "хозяин",
    waiting: "Ждём игроков", status: "Статус", seat: "Место", spectator: "зритель",
    your_move: "Ваш ход", waiting_for: "Ждём: {who}", moves: "Ваши ходы", no_moves: "Сейчас у вас нет хода", on_board: "Ходите на поле",
    journal: "Журнал", chat: "Чат", say: "Отправить", refused: "Отказ: {text} ({reason})",
    finished: "Игра окончена", players: "Игроки", live: "в эфире", connecting: "подключение…",
    clock: "осталось {s} с",
    board_missing: "Поле этой игры веб-клиент пока не рисует; ходы ниже её играют.",
    state: "Состояние (JSON)", go: "Ход", money: "деньги", worth: "капитал", here: "на",
    seats_of: "мест: {n}", table: "Стол", game: "Игра",
    audit: "Проверка", event: "После события", chart: "Капитал по событиям", export: "Скачать файл выгрузки",
    verified: "Проверено: событий {events}, команд пересчитано {commands}, бросков пересчитано {draws} (до v{version})",
    not_verified: "НЕ проверено на v{version}: {message}",
    refresh: "Обновить", by_address: "Стол по адресу", table_address: "адрес или id стола", share: "Закрытый стол: передайте его адрес и PIN",
    sign_in_with: "Войти через {name}", sign_in_failed: "Вход не удался: {reason}", no_provider: "Здесь на этот сервер не войти.",
    private_table: "Закрытый стол: его PIN", view_as: "Вид", as_player: "как видно вам", as_auditor: "аудитора (всё)",
    bot_plays: "Ваше место играет бот (передано, пока вас не было).", take_back: "Вернуть моё место",
    afk_next: "AFK: у вашего места короткие часы, пока вы не сходите сами: ваш следующий ход вернёт место.",
    spectator_delay: "Задержка для зрителей (событий)", spectator_delay_hint: "Зрители видят стол на столько событий позже, до его конца.",
    status_WAITING: "ждёт игроков", status_PLAYING: "идёт", status_FINISHED: "окончен", status_STARTING: "начинается", status_CLOSED: "закрыт",
    acted: "Ходил(и): {who}", round: "круг", delayed: "с задержкой в {n} событий",
  },
};

// the games' option names (their schemas give keys and bounds, no titles for people); an
// option not named here is shown by its key with spaces
const OPTION_WORDS = {
  en: { decision_clock_s: "Seconds to decide", clock_ms: "Clock (ms)", round_limit: "Rounds (0: no limit)", start_money: "Starting money", teams: "Teams (2 on 2)" },
  ru: { decision_clock_s: "Секунд на решение", clock_ms: "Часы (мс)", round_limit: "Кругов (0: без предела)", start_money: "Стартовые деньги", teams: "Команды (2 на 2)" },
};

export function optionLabel(lang, key, title) {
  return fill(OPTION_WORDS, lang, key) ?? (title || key.replaceAll("_", " "));
}

export function initialLang() {
  const saved = localStorage.getItem("tablehall.lang");
  if (saved === "ru" || saved === "en") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("ru") ? "ru" : "en";
}

// `key` of `words` ({en: {...}, ru: {...}}) in `lang` (else English) with {name}s filled in; null if unknown
export function fill(words, lang, key, params = {}) {
  const text = (words[lang] && words[lang][key]) || words.en[key];
  if (!text) return null;
  return text.replace(/\{(\w+)\}/g, (_, k) => (k in params ? String(params[k]) : `{${k}}`));
}

export function t(lang, key, params = {}) {
  return fill(WORDS, lang, key, params) ?? key;
}
