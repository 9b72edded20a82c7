// One table, live: the board, players, my moves, clocks, journal and chat, from the server-sent feed.
import { h, api, ApiError, requestId } from "./dom.js";
import { t } from "./i18n.js";
import { pluginFor, seatColour } from "./games/index.js";

// a game's players when its view lists them as objects with a seat (not every game does)
export function playersOf(state) {
  return Array.isArray(state.players) ? state.players.filter((p) => p && typeof p === "object") : [];
}

// whether a seat plays on the short (AFK) clocks: its player's `afk`, else the game's AFK ladder
function afkOf(state, seat) {
  const player = playersOf(state).find((p) => p.seat === seat);
  if (player) return Boolean(player.afk);
  const ladder = state.afk || state.ladder;
  return Boolean(ladder && Array.isArray(ladder.afk) && ladder.afk[seat]);
}

export function openTable(main, { id, spectator, app, gameTitle }) {
  const role = spectator ? "spectator" : "default";
  const lang = () => app.lang;
  const ui = {
    title: h("h2", { "data-testid": "title" }),
    live: h("span", { class: "muted", "data-testid": "live" }, t(lang(), "connecting")),
    status: h("p", { class: "status", "data-testid": "status" }),
    clock: h("span", { class: "muted", "data-testid": "clock" }),
    banner: h("div", { class: "banner", "data-testid": "afk", hidden: true }),
    board: h("div", { class: "board card", "data-testid": "board" }),
    players: h("div", { class: "card", "data-testid": "players" }),
    moves: h("div", { class: "moves", "data-testid": "moves" }),
    notice: h("p", { class: "notice", "data-testid": "notice", role: "alert" }),
    journal: h("ol", { class: "journal", "data-testid": "journal" }),
    chat: h("ol", { class: "journal", "data-testid": "chat" }),
    outcome: h("p", { class: "status", "data-testid": "outcome", hidden: true }),
  };
  const chatInput = h("input", { type: "text", maxlength: 500, "aria-label": t(lang(), "chat"), "data-testid": "chat-input" });
  const chatForm = h("form", { class: "row", onsubmit: async (e) => {
    e.preventDefault();
    if (!chatInput.value.trim()) return;
    try { await api("POST", `/api/tables/${id}/chat`, { text: chatInput.value, request_id: requestId() }); chatInput.value = ""; await loadChat(); }
    catch (error) { refusal(error); }
  } }, chatInput, h("button", { type: "submit" }, t(lang(), "say")));
  main.replaceChildren(
    h("div", { class: "row" }, ui.title, ui.live),
    h("div", { class: "row" }, ui.status, ui.clock), ui.outcome, ui.banner,
    h("div", { class: "play" },
      h("div", {}, ui.board),
      h("div", {},
        ui.players,
        h("section", { class: "card" }, h("h3", {}, t(lang(), "moves")), ui.moves, ui.notice),
        h("section", { class: "card" }, h("h3", {}, t(lang(), "journal")), ui.journal),
        h("section", { class: "card" }, h("h3", {}, t(lang(), "chat")), ui.chat, chatForm))));

  let shown = null;  // the view on screen: only a newer one replaces it
  let afk = false;  // my seat plays on the short clocks (the game's view says)
  let byBot = false;  // a bot plays my seat (the lobby says)
  let decisions = [];
  const lines = new Map();  // version -> journal lines of that version
  let chatAfter = "";
  let busy = false;
  // the game's forms, by the move they compose: a move offered again (after a version without it)
  // gets back its form as it was left, open and filled in
  const composers = new Map();

  function refusal(error) {
    ui.notice.textContent = error instanceof ApiError
      ? t(lang(), "refused", { text: error.text(lang()), reason: error.reason })
      : String(error);
  }

  function nameOf(view, seat) {
    const player = playersOf(view.state).find((p) => p.seat === seat);
    return (player && player.name) || (Array.isArray(view.state.names) && view.state.names[seat]) || `#${seat}`;
  }

  function render(view) {
    if (shown && view.version <= shown.version) return;  // never an older state than the one on screen
    shown = view;
    decisions = view.decisions;
    draw(view);
  }

  function draw(view) {
    const plugin = pluginFor(view.game);
    main.dataset.version = String(view.version);
    main.dataset.seat = view.seat === null ? "" : String(view.seat);
    ui.title.textContent = `${gameTitle(view.game)} · ${id.slice(0, 8)} · ${view.seat === null ? t(lang(), "spectator") : `${t(lang(), "seat")} ${view.seat}`}`;
    ui.live.textContent = `${t(lang(), "live")} · v${view.version}${spectator && delay && !view.finished ? ` · ${t(lang(), "delayed", { n: delay })}` : ""}`;
    ui.live.dataset.delay = String(spectator ? delay : 0);
    const mine = view.seat !== null && view.decisions.some((d) => d.seat === view.seat);
    const waiting = [...new Set(view.decisions.map((d) => d.seat))].map((s) => nameOf(view, s)).join(", ");
    const headline = plugin.headline ? plugin.headline(view, lang()) : "";
    ui.status.textContent = [headline, view.finished ? t(lang(), "finished") : mine ? t(lang(), "your_move") : waiting ? t(lang(), "waiting_for", { who: waiting }) : ""].filter(Boolean).join(" · ");
    afk = view.seat !== null && !view.finished && afkOf(view.state, view.seat);
    drawBanner();
    ui.board.replaceChildren(plugin.board(view, lang(), { seatColour, submit }) || fallbackBoard(view));
    ui.players.replaceChildren(plugin.players ? plugin.players(view, lang(), { seatColour }) : genericPlayers(view));
    ui.players.hidden = !plugin.players && !playersOf(view.state).length;  // a game whose view lists no players
    ui.moves.replaceChildren(...moveControls(view, plugin));
    const onBoard = mine && !view.finished && view.moves.some((m) => (plugin.boardKinds || []).includes(m.command.kind));
    if (!ui.moves.childElementCount) ui.moves.append(h("span", { class: "muted" }, t(lang(), onBoard ? "on_board" : "no_moves")));
    ui.outcome.hidden = !view.finished;
    ui.outcome.replaceChildren(...(view.finished ? [`${t(lang(), "finished")}: ${plugin.outcome ? plugin.outcome(view, lang()) : JSON.stringify(view.outcome)} `,
      h("a", { href: `#/audit/${id}`, "data-testid": "audit-link" }, t(lang(), "audit"))] : []));
    tick();
  }

  // the AFK banner: a bot playing my seat is taken back by its button; short clocks end with my next move
  let bannerKey = "";
  function drawBanner() {
    ui.banner.hidden = !(afk || byBot);
    // keyed by what it shows: a view that changes only `afk` while a bot plays keeps the button
    const key = `${byBot ? "bot" : afk ? "afk" : ""}:${lang()}`;
    if (key === bannerKey) return;  // the same banner: its button stays where the pointer is
    bannerKey = key;
    ui.banner.replaceChildren(byBot
      ? h("span", { class: "row" }, t(lang(), "bot_plays"), h("button", { type: "button", class: "primary", "data-testid": "take-back", onclick: takeBack }, t(lang(), "take_back")))
      : t(lang(), "afk_next"));
  }

  async function takeBack() {
    try {
      const { table } = await api("POST", `/api/tables/${id}/reclaim`, { request_id: requestId() });
      ui.notice.textContent = "";
      seated(table);
    } catch (error) { refusal(error); }
  }

  // the lobby's word on my seat (a bot may play it)
  function seated(table) {
    const mine = table.seats.find((s) => s.user_id === app.me);
    byBot = Boolean(mine && mine.played_by_bot && table.status === "PLAYING");
    drawBanner();
  }

  let delay = 0;  // a spectator's: the table's spectator delay in events (shown beside the version)
  async function loadTable() {
    if (spectator) {
      if (delay === 0) {
        try { delay = Number((await api("GET", `/api/tables/${id}`)).table.options.spectator_delay || 0); } catch { /* none shown */ }
        if (delay && shown) draw(shown);
      }
      return;
    }
    try { seated((await api("GET", `/api/tables/${id}`)).table); } catch { /* the table page goes on without it */ }
  }

  function fallbackBoard(view) {
    return h("div", {}, h("p", { class: "muted" }, t(lang(), "board_missing")),
      h("details", {}, h("summary", {}, t(lang(), "state")), h("pre", { style: "white-space: pre-wrap; font-size: .75rem" }, JSON.stringify(view.state, null, 1))));
  }

  function genericPlayers(view) {
    const players = playersOf(view.state);
    const numeric = (p) => Object.entries(p).filter(([k, v]) => typeof v === "number" && k !== "seat" && k !== "position");
    return h("table", { class: "list" }, h("tbody", {}, players.map((p) => h("tr", { "data-testid": `player-${p.seat}` },
      h("td", {}, h("span", { class: "seat-dot", style: `background:${seatColour(p.seat)}` }), p.name || `#${p.seat}`),
      h("td", {}, numeric(p).map(([k, v]) => `${k} ${v}`).join(" · "))))));
  }

  function moveControls(view, plugin) {
    if (view.seat === null || view.finished) return [];
    const controls = [];
    const onBoard = new Set(plugin.boardKinds || []);  // moves the game's board makes by clicking
    for (const move of view.moves) {
      const { kind, args } = move.command;
      if (onBoard.has(kind)) continue;
      const label = (values) => (plugin.moveLabel && plugin.moveLabel(kind, { ...args, ...values }, lang(), view)) || `${kind} ${Object.keys({ ...args, ...values }).length ? JSON.stringify({ ...args, ...values }) : ""}`;
      const params = move.parameters;
      // a parameter of an engine rule: the game's own form where it has one (e.g. a trade's two
      // bundles; a half-filled form survives the others' moves); without one, its examples, and
      // nothing when it has none
      if (params.some((p) => p.rule)) {
        const key = JSON.stringify(move.command);
        const composed = composers.get(key) || (plugin.composer && plugin.composer(move, view, lang(), submit));
        if (composed) { controls.push(composed); composers.set(key, composed); continue; }
        if (params.some((p) => p.step === 0 && !p.values.length)) continue;
      }
      if (!params.length) {
        controls.push(h("button", { type: "button", class: "move", "data-testid": `move-${kind}`, "data-command": JSON.stringify({ kind, args }), onclick: () => submit(kind, args) }, label({})));
        continue;
      }
      if (params.length === 1 && params[0].step === 0 && params[0].values.length <= 16) {
        const p = params[0];
        for (const value of p.values) {
          const full = { ...args, [p.field]: value };
          controls.push(h("button", { type: "button", class: "move", "data-testid": `move-${kind}`, "data-command": JSON.stringify({ kind, args: full }), onclick: () => submit(kind, full) }, label({ [p.field]: value })));
        }
        continue;
      }
      const inputs = params.map((p) => {
        if (p.step > 0) {
          const input = h("input", { type: "number", min: p.lo, max: p.hi, step: p.step, value: p.lo, size: 6, "aria-label": p.field, "data-field": p.field });
          input.read = () => Number(input.value);
          return input;
        }
        const select = h("select", { "aria-label": p.field, "data-field": p.field }, p.values.map((v, i) => h("option", { value: String(i) }, typeof v === "object" ? JSON.stringify(v) : String(v))));
        select.read = () => p.values[Number(select.value)];
        return select;
      });
      const go = () => {
        const values = {};
        inputs.forEach((input, i) => { values[params[i].field] = input.read(); });
        submit(kind, { ...args, ...values });
      };
      controls.push(h("span", { class: "move", "data-testid": `move-${kind}` }, h("span", {}, label(Object.fromEntries(params.map((p) => [p.field, p.step > 0 ? `${p.lo}–${p.hi}` : "…"])))), inputs,
        h("button", { type: "button", "data-testid": `go-${kind}`, onclick: go }, t(lang(), "go"))));
    }
    return controls;
  }

  async function submit(kind, args) {
    if (!shown || busy) return;
    busy = true;
    const acted = shown;
    try {
      const reply = await api("POST", `/api/tables/${id}/commands`, { seat: acted.seat, game: acted.game, kind, args, request_id: requestId() });
      ui.notice.textContent = "";
      render(reply.view);
    } catch (error) {
      refusal(error);
      ui.notice.textContent += ` (v${acted.version})`;
      try { render(await api("GET", `/api/tables/${id}/view?role=${role}`)); } catch { /* the feed brings the next one */ }
    } finally { busy = false; }
  }

  function addLines(version, entries) {
    if (lines.has(version)) return;
    lines.set(version, entries);
    const sorted = [...lines.keys()].sort((a, b) => a - b);
    ui.journal.replaceChildren(...sorted.flatMap((v) => lines.get(v).map((line) => h("li", { "data-version": v }, line[lang()] || line.en))));
    ui.journal.scrollTop = ui.journal.scrollHeight;
  }

  function tick() {
    const open = decisions.filter((d) => d.deadline_ms > 0).sort((a, b) => a.deadline_ms - b.deadline_ms);
    if (!open.length || (shown && shown.finished)) { ui.clock.textContent = ""; return; }
    const left = Math.max(0, Math.ceil((open[0].deadline_ms - Date.now()) / 1000));
    ui.clock.textContent = `${shown ? nameOf(shown, open[0].seat) : ""}: ${t(lang(), "clock", { s: left })}`;
  }

  async function loadChat() {
    try {
      const reply = await api("GET", `/api/tables/${id}/chat?after=${encodeURIComponent(chatAfter)}`);
      for (const m of reply.messages) ui.chat.append(h("li", {}, `${m.name}: ${m.text}`));
      chatAfter = reply.after;
    } catch { /* spectators of a table whose chat is closed to them */ }
  }

  const source = new EventSource(`/api/tables/${id}/events?role=${role}`);
  source.addEventListener("journal", (event) => {
    const data = JSON.parse(event.data);
    addLines(data.version, data.lines);
    if (!shown || data.version >= shown.version) decisions = data.decisions;
    if (data.lines.some((l) => l.code && l.code.includes("chat"))) loadChat();
  });
  source.addEventListener("view", (event) => render(JSON.parse(event.data)));
  source.addEventListener("failure", (event) => {
    const data = JSON.parse(event.data);
    refusal(new ApiError(0, data.error));
  });
  source.addEventListener("error", () => { ui.live.textContent = `${t(lang(), "connecting")}${shown ? ` · v${shown.version}` : ""}`; });
  api("GET", `/api/tables/${id}/journal?role=${role}`).then((reply) => {
    const byVersion = new Map();
    for (const line of reply.lines) (byVersion.get(line.version) || byVersion.set(line.version, []).get(line.version)).push(line);
    for (const [v, entries] of byVersion) addLines(v, entries);
  }).catch(() => {});
  loadChat();
  loadTable();
  const clock = setInterval(tick, 500);
  const chatPoll = setInterval(() => { loadChat(); loadTable(); }, 5000);
  let narrow = window.innerWidth < 600;
  const resized = () => {  // a board drawn for another width (a phone turned, a window resized)
    if (shown && narrow !== (window.innerWidth < 600)) { narrow = !narrow; draw(shown); }
  };
  window.addEventListener("resize", resized);
  return () => { source.close(); clearInterval(clock); clearInterval(chatPoll); window.removeEventListener("resize", resized); };
}
