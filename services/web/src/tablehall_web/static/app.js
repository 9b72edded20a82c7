// Tablehall's page: sign-in, lobby, a table's waiting room; play and watch are in table.js.
import { h, api, ApiError, requestId } from "./dom.js";
import { initialLang, optionLabel, t } from "./i18n.js";
import { openAudit } from "./audit.js";
import { openTable } from "./table.js";

// entered: private tables this page entered as a spectator with their PIN
const app = { lang: initialLang(), me: null, operator: false, name: "", games: [], close: null, entered: new Set() };
const main = document.getElementById("main");

function secret() {
  let value = localStorage.getItem("tablehall.secret");
  if (!value) {
    value = requestId() + requestId();
    localStorage.setItem("tablehall.secret", value);
  }
  return value;
}

function gameTitle(id) {
  const game = app.games.find((g) => g.id === id);
  return game ? game.title[app.lang] || game.title.en || id : id;
}

function showError(where, error) {
  where.textContent = error instanceof ApiError ? `${error.text(app.lang)} (${error.reason})` : String(error);
}

// ---- sign-in ------------------------------------------------------------------
async function signInScreen(failed) {
  const notice = h("p", { class: "notice", "data-testid": "notice" }, failed ? t(app.lang, "sign_in_failed", { reason: failed }) : "");
  const ways = await api("GET", "/api/providers").catch(() => ({ dev: true, oidc: null }));
  const parts = [];
  if (ways.oidc) {
    parts.push(h("section", { class: "card" }, h("h2", {}, t(app.lang, "sign_in")),
      h("a", { href: ways.oidc.url, class: "button primary", "data-testid": "sign-in-oidc" }, t(app.lang, "sign_in_with", { name: ways.oidc.name }))));
  }
  if (ways.dev) {
    const name = h("input", { id: "name", name: "name", autocomplete: "username", required: true, maxlength: 64, "data-testid": "name" });
    parts.push(h("form", { class: "form card", onsubmit: async (e) => {
      e.preventDefault();
      try {
        const reply = await api("POST", "/api/sign-in", { name: name.value.trim(), secret: secret() });
        localStorage.setItem("tablehall.name", reply.name);
        if (location.hash.startsWith("#/signin-failed")) goTo("#/");
        else await route();  // where the person was going (an address shared with them)
      } catch (error) { showError(notice, error); }
    } },
      h("h2", {}, t(app.lang, "dev_provider")),
      h("label", { for: "name" }, t(app.lang, "name"), name),
      h("button", { type: "submit", class: "primary", "data-testid": "sign-in" }, t(app.lang, "sign_in"))));
    name.value = localStorage.getItem("tablehall.name") || "";
  }
  if (!parts.length) parts.push(h("p", { class: "muted" }, t(app.lang, "no_provider")));
  main.replaceChildren(...parts, notice);
  const first = main.querySelector("input, a.button");
  if (first) first.focus();
}

// ---- lobby --------------------------------------------------------------------
function optionInputs(schema) {
  const inputs = [];
  for (const [key, prop] of Object.entries((schema && schema.properties) || {})) {
    const label = optionLabel(app.lang, key, prop.title);
    let input;
    if (prop.type === "boolean") {
      input = h("input", { type: "checkbox", name: key, checked: prop.default === true });
      input.read = () => input.checked;
    } else if (Array.isArray(prop.enum)) {
      input = h("select", { name: key }, prop.enum.map((v) => h("option", { value: String(v), selected: v === prop.default }, String(v))));
      input.read = () => prop.enum.find((v) => String(v) === input.value);
    } else if (prop.type === "integer" || prop.type === "number") {
      input = h("input", { type: "number", name: key, min: prop.minimum, max: prop.maximum, step: prop.type === "integer" ? 1 : "any", value: prop.default ?? "" });
      input.read = () => (input.value === "" ? undefined : Number(input.value));
    } else if (prop.type === "string") {
      input = h("input", { type: "text", name: key, value: prop.default ?? "" });
      input.read = () => (input.value === "" ? undefined : input.value);
    } else continue;  // a shape the form does not offer: the server's default applies
    input.dataset.option = key;
    inputs.push(h("label", { title: prop.description || "" }, label, input));
  }
  return inputs;
}

// the table's own options (the platform's, not the game's schema): spectators' delay in events
function tableOptionInputs() {
  const input = h("input", { type: "number", name: "spectator_delay", min: 0, max: 1000, step: 1, value: "", size: 5, placeholder: "0" });
  input.read = () => (input.value === "" ? undefined : Number(input.value));
  input.dataset.option = "spectator_delay";
  return [h("label", { title: t(app.lang, "spectator_delay_hint") }, t(app.lang, "spectator_delay"), input)];
}

function gameCard(game) {
  const notice = h("p", { class: "notice" });
  const seats = h("select", { name: "seats", "data-testid": `seats-${game.id}` });
  for (let n = game.min_seats; n <= game.max_seats; n++) seats.append(h("option", { value: n, selected: n === game.max_seats }, n));
  const options = [...optionInputs(game.options_schema), ...tableOptionInputs()];
  const privateBox = h("input", { type: "checkbox", name: "private" });
  const pin = h("input", { type: "text", name: "pin", inputmode: "numeric", maxlength: 12, size: 6 });
  const form = h("form", { class: "form", "data-testid": `create-${game.id}`, onsubmit: async (e) => {
    e.preventDefault();
    const values = {};
    for (const label of options) {
      const input = label.querySelector("[data-option]");
      const value = input.read();
      if (value !== undefined) values[input.dataset.option] = value;
    }
    try {
      const reply = await api("POST", "/api/tables", {
        game: game.id, seat_count: Number(seats.value), options: values,
        private: privateBox.checked, pin: pin.value, request_id: requestId(),
      });
      location.hash = `#/table/${reply.table.name.split("/")[1]}`;
    } catch (error) { showError(notice, error); }
  } },
    h("label", {}, t(app.lang, "seats"), seats), options,
    h("label", {}, t(app.lang, "private"), privateBox), h("label", {}, t(app.lang, "pin"), pin),
    h("button", { type: "submit", class: "primary" }, t(app.lang, "create")));
  return h("section", { class: "card", "data-game": game.id },
    h("h3", {}, `${game.title[app.lang] || game.title.en} `, h("span", { class: "muted" }, `${game.min_seats}–${game.max_seats}`)),
    h("details", {}, h("summary", {}, t(app.lang, "new_table")), form), notice);
}

// to a route of the page (the same one again: drawn again)
function goTo(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

// a PIN field for a private table the caller is not a member of, and what it is for
function pinField(id) {
  return h("input", { type: "password", inputmode: "numeric", autocomplete: "off", maxlength: 64, size: 6, "aria-label": t(app.lang, "pin"), "data-testid": `pin-${id}`, placeholder: t(app.lang, "pin") });
}

async function withPin(id, pin, how, notice) {
  try {
    if (how === "join") { await api("POST", `/api/tables/${id}/join`, { pin: pin.value, request_id: requestId() }); goTo(`#/table/${id}`); }
    else { await api("POST", `/api/tables/${id}/enter`, { pin: pin.value, request_id: requestId() }); app.entered.add(id); goTo(`#/watch/${id}`); }
  } catch (error) { showError(notice, error); }
}

function tableRow(table) {
  const id = table.name.split("/")[1];
  const seated = table.seats.some((s) => s.user_id === app.me);
  const actions = seated || table.host_user_id === app.me
    ? h("a", { href: `#/table/${id}` }, t(app.lang, "open"))
    : h("span", { class: "row" },
      table.status === "WAITING" ? h("a", { href: `#/table/${id}` }, t(app.lang, "join")) : null,
      h("a", { href: `#/watch/${id}` }, t(app.lang, "watch")));
  const audit = table.status === "FINISHED" ? h("a", { href: `#/audit/${id}`, "data-testid": "audit-link" }, t(app.lang, "audit")) : null;
  return h("tr", { "data-table": id },
    h("td", {}, `${gameTitle(table.game)}${table.private ? " 🔒" : ""}`), h("td", { class: "wide-only" }, id.slice(0, 8)), h("td", {}, t(app.lang, `status_${table.status}`)),
    h("td", {}, table.seats.map((s) => s.name || "·").join(", ")), h("td", { class: "row" }, actions, audit));
}

// a table by its address or id (a private table is listed to its members only: the host shares its address)
function openById() {
  const input = h("input", { type: "text", size: 22, "aria-label": t(app.lang, "table_address"), placeholder: t(app.lang, "table_address"), "data-testid": "table-address" });
  return h("form", { class: "row", onsubmit: (e) => {
    e.preventDefault();
    const found = input.value.trim().match(/t[0-9a-f]{15,}/);
    if (found) location.hash = `#/table/${found[0]}`;
  } }, input, h("button", { type: "submit", "data-testid": "open-address" }, t(app.lang, "open")));
}

async function lobbyScreen() {
  const games = await api("GET", "/api/games");
  app.games = games.games;
  const mineBox = h("section", { class: "card", "data-testid": "my-tables" });
  const othersBox = h("section", { class: "card", "data-testid": "open-tables" });
  const list = (rows) => rows.length
    ? h("div", { class: "scroll" }, h("table", { class: "list" }, h("tbody", {}, rows.map((r) => tableRow(r)))))
    : h("p", { class: "muted" }, t(app.lang, "none"));
  // the tables as the lobby lists them now (the list is read again on demand: a PIN being typed stays)
  const load = async () => {
    const page = await api("GET", "/api/tables?started=1");
    const mine = page.tables.filter((tb) => tb.host_user_id === app.me || tb.seats.some((s) => s.user_id === app.me));
    const others = page.tables.filter((tb) => !mine.includes(tb));
    const refresh = h("button", { type: "button", "data-testid": "refresh", onclick: load }, t(app.lang, "refresh"));
    mineBox.replaceChildren(h("h2", {}, t(app.lang, "my_tables")), list(mine));
    othersBox.replaceChildren(h("div", { class: "row" }, h("h2", {}, t(app.lang, "open_tables")), refresh), list(others));
  };
  main.replaceChildren(h("section", { "data-testid": "games" }, h("h2", {}, t(app.lang, "games")), app.games.map(gameCard)), mineBox, othersBox,
    h("section", { class: "card" }, h("h2", {}, t(app.lang, "by_address")), openById()));
  await load();
}

// ---- a table before it starts ----------------------------------------------------
async function waitingRoom(id) {
  const notice = h("p", { class: "notice", "data-testid": "notice" });
  const box = h("section", { class: "card", "data-testid": "waiting" });
  main.replaceChildren(box, notice);
  let stopped = false;
  app.close = () => { stopped = true; };
  const act = async (path, body) => {
    try { await api("POST", `/api/tables/${id}/${path}`, { ...body, request_id: requestId() }); notice.textContent = ""; await draw(); }
    catch (error) { showError(notice, error); }
  };
  const level = h("select", { "data-testid": "bot-level" },
    h("option", { value: "easy" }, t(app.lang, "easy")), h("option", { value: "strong" }, t(app.lang, "strong")));
  let drawn = "";
  async function draw() {
    const { table } = await api("GET", `/api/tables/${id}`);
    const seated = table.seats.some((s) => s.user_id === app.me);
    const host = table.host_user_id === app.me;
    // a private table shows a non-member only its card: the PIN first (to sit down, or to watch)
    if (table.private && !seated && !host && !app.entered.has(id)) return "pin";
    if (table.status !== "WAITING") return "started";
    const free = table.seats.filter((s) => !s.user_id).length;
    // redrawn only when something changed: a button being clicked (or focused) stays in place
    const shown = JSON.stringify([table, app.lang]);
    if (shown === drawn) return "waiting";
    drawn = shown;
    box.replaceChildren(
      h("h2", {}, `${gameTitle(table.game)} — ${t(app.lang, "waiting")}`),
      table.private && host ? h("p", { class: "row" }, `🔒 ${t(app.lang, "share")}`,
        h("input", { type: "text", readonly: true, size: 40, value: location.href, "data-testid": "share-address", "aria-label": t(app.lang, "share") })) : null,
      h("table", { class: "list" }, h("tbody", {}, table.seats.map((s) => h("tr", { "data-seat": s.seat },
        h("td", {}, `${t(app.lang, "seat")} ${s.seat}`),
        h("td", {}, s.user_id ? `${s.name}${s.is_bot ? ` (${t(app.lang, "bot")})` : ""}${s.user_id === app.me ? ` (${t(app.lang, "you")})` : ""}` : t(app.lang, "free")),
        h("td", {}, !s.user_id && !seated ? h("button", { type: "button", onclick: () => act("join", { seat: s.seat }) }, t(app.lang, "join")) : null))))),
      h("div", { class: "row" },
        host && free ? [h("label", {}, `${t(app.lang, "level")} `, level), h("button", { type: "button", "data-testid": "add-bot", onclick: () => act("bots", { difficulty: level.value }) }, t(app.lang, "add_bot"))] : null,
        host ? h("button", { type: "button", class: "primary", "data-testid": "start", onclick: () => act("start", {}) }, t(app.lang, "start")) : null));
    return "waiting";
  }
  while (!stopped) {
    let state = "waiting";
    try { state = await draw(); } catch (error) { showError(notice, error); }
    if (state === "pin") { pinScreen(id, box, notice); return false; }
    if (state === "started") return true;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return false;
}

// a private table opened by its address: its PIN, to sit down or to watch
function pinScreen(id, box, notice) {
  const pin = pinField(id);
  box.replaceChildren(h("h2", {}, `🔒 ${t(app.lang, "private_table")}`),
    h("form", { class: "form", onsubmit: (e) => { e.preventDefault(); withPin(id, pin, "join", notice); } },
      h("label", {}, t(app.lang, "pin"), pin),
      h("button", { type: "submit", class: "primary", "data-testid": "pin-join" }, t(app.lang, "join")),
      h("button", { type: "button", "data-testid": "pin-watch", onclick: () => withPin(id, pin, "watch", notice) }, t(app.lang, "watch"))));
  pin.focus();
}

// ---- routes -----------------------------------------------------------------------
async function route() {
  if (app.close) { app.close(); app.close = null; }
  const [, kind, id, extra] = location.hash.split("/");
  try {
    const who = await api("GET", "/api/me");
    app.me = who.user_id;
    app.operator = who.operator;
    if (who.name) localStorage.setItem("tablehall.name", who.name);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      app.me = null; renderWho(); await signInScreen(kind === "signin-failed" ? decodeURIComponent(id || "") : ""); return;
    }
    throw error;
  }
  renderWho();
  if (!app.games.length) app.games = (await api("GET", "/api/games")).games;
  if (kind === "audit" && id) {
    app.close = openAudit(main, { id, app, gameTitle, auditor: extra === "auditor" });
    return;
  }
  if ((kind === "table" || kind === "watch") && id) {
    if (kind === "table" && !(await waitingRoom(id))) return;
    app.close = openTable(main, { id, spectator: kind === "watch", app, gameTitle });
    return;
  }
  await lobbyScreen();
}

function renderWho() {
  const who = document.getElementById("who");
  const name = localStorage.getItem("tablehall.name") || "";
  who.replaceChildren(app.me ? h("span", {}, `${name} `, h("button", { type: "button", onclick: async () => {
    await api("POST", "/api/sign-out", {}); app.me = null; await route();
  } }, t(app.lang, "sign_out"))) : "");
  document.documentElement.lang = app.lang;
  document.getElementById("lang").textContent = app.lang === "ru" ? "EN" : "RU";
}

document.getElementById("lang").addEventListener("click", () => {
  app.lang = app.lang === "ru" ? "en" : "ru";
  localStorage.setItem("tablehall.lang", app.lang);
  route();
});
window.addEventListener("hashchange", () => route());
route();
