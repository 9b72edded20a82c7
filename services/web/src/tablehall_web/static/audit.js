// A finished table, audited: a slider over its versions (the board and the state after each),
// what happened at each, the verification result, a chart of each seat's worth, the export file.
import { h, s, api, ApiError } from "./dom.js";
import { t } from "./i18n.js";
import { pluginFor, seatColour } from "./games/index.js";
import { playersOf } from "./table.js";

// a seat's score in a version: net worth where the game has it, else its money
function worth(player) {
  for (const key of ["net_worth", "money", "cash", "gold", "score"]) if (typeof player[key] === "number") return player[key];
  return null;
}

function chart(versions, lang) {
  const width = 640, height = 200, pad = 30;
  const seats = new Map();
  versions.forEach((v, i) => playersOf(v.state).forEach((p) => {
    const value = worth(p);
    if (value === null) return;
    (seats.get(p.seat) || seats.set(p.seat, { name: p.name, points: [] }).get(p.seat)).points.push([i, value]);
  }));
  const all = [...seats.values()].flatMap((x) => x.points.map(([, y]) => y));
  if (!all.length) return h("p", { class: "muted" }, "—");
  const lo = Math.min(...all), hi = Math.max(...all, lo + 1);
  const X = (i) => pad + (i / Math.max(1, versions.length - 1)) * (width - 2 * pad);
  const Y = (y) => height - pad - ((y - lo) / (hi - lo)) * (height - 2 * pad);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t(lang, "chart"), "data-testid": "chart" },
    s("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, stroke: "#888" }),
    s("text", { x: 2, y: Y(hi) + 4, "font-size": 10 }, hi), s("text", { x: 2, y: Y(lo) + 4, "font-size": 10 }, lo));
  // the rounds along the axis: a tick where each begins (every few labelled, so they never crowd)
  const starts = [];
  versions.forEach((v, i) => {
    const round = v.state && typeof v.state.round === "number" ? v.state.round : null;
    if (round !== null && (!starts.length || starts[starts.length - 1][1] !== round)) starts.push([i, round]);
  });
  const every = Math.max(1, Math.ceil(starts.length / 12));
  starts.forEach(([i, round], n) => {
    svg.append(s("line", { x1: X(i), y1: height - pad, x2: X(i), y2: height - pad + 4, stroke: "#888", "data-round": round }));
    if (n % every === 0) svg.append(s("text", { x: X(i), y: height - pad + 14, "font-size": 10, "text-anchor": "middle" }, round));
  });
  if (starts.length) svg.append(s("text", { x: width - pad, y: height - 2, "font-size": 10, "text-anchor": "end" }, t(lang, "round")));
  for (const [seat, line] of seats) {
    svg.append(s("polyline", { points: line.points.map(([i, y]) => `${X(i)},${Y(y)}`).join(" "), fill: "none", stroke: seatColour(seat), "stroke-width": 2, "data-seat": seat, "data-last": line.points[line.points.length - 1][1] }));
  }
  const legend = h("div", { class: "row" }, [...seats].map(([seat, line]) => h("span", {}, h("span", { class: "seat-dot", style: `background:${seatColour(seat)}` }), line.name)));
  return h("div", {}, svg, legend);
}

export function openAudit(main, { id, app, gameTitle, auditor }) {
  const lang = app.lang;
  const notice = h("p", { class: "notice", "data-testid": "notice", role: "alert" });
  main.replaceChildren(h("p", { class: "muted" }, t(lang, "connecting")), notice);
  const refusal = (where, error) => {
    where.textContent = error instanceof ApiError ? t(lang, "refused", { text: error.text(lang), reason: error.reason }) : String(error);
  };
  (async () => {
    let history;
    try { history = await api("GET", `/api/tables/${id}/history${auditor ? "?role=auditor" : ""}`); } catch (error) { refusal(notice, error); return; }
    const versions = history.versions;
    const plugin = pluginFor(history.game);
    const verify = h("p", { class: "status", "data-testid": "verify" }, "…");
    api("GET", `/api/tables/${id}/verify`).then(({ verified: v }) => {
      verify.textContent = v.verified
        ? t(lang, "verified", { events: v.events_checked, commands: v.commands_checked, draws: v.draws_checked, version: v.version })
        : t(lang, "not_verified", { message: v.message, version: v.version });
      verify.dataset.verified = v.verified ? "1" : "0";
    }).catch((error) => refusal(verify, error));
    const exportNotice = h("span", { class: "notice", "data-testid": "export-notice" });
    const download = h("button", { type: "button", "data-testid": "export", onclick: async () => {
      const response = await fetch(`/api/tables/${id}/export`, { credentials: "same-origin" });
      if (!response.ok) { const body = await response.json().catch(() => ({})); refusal(exportNotice, new ApiError(response.status, body.error || {})); return; }
      const url = URL.createObjectURL(await response.blob());
      const link = h("a", { href: url, download: `${id}.tablehall.json` });
      document.body.append(link); link.click(); link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } }, t(lang, "export"));
    const slider = h("input", { type: "range", min: 0, max: Math.max(0, versions.length - 1), value: Math.max(0, versions.length - 1), step: 1, id: "audit-slider", "aria-label": t(lang, "event"), "data-testid": "audit-slider", style: "width: 100%" });
    const at = h("span", { class: "status", "data-testid": "audit-version" });
    const board = h("div", { class: "board card", "data-testid": "board" });
    const players = h("div", { class: "card", "data-testid": "players" });
    const happened = h("ol", { class: "journal", "data-testid": "audit-journal" });
    const acted = h("p", { class: "muted", "data-testid": "audit-acted" });
    // who acted at a version: the seats whose decision was open just before it (the API names no actor)
    const nameIn = (state, seat) => {
      const player = playersOf(state).find((p) => p.seat === seat);
      return (player && player.name) || (Array.isArray(state.names) && state.names[seat]) || `#${seat}`;
    };
    const show = () => {
      const v = versions[Number(slider.value)];
      if (!v) return;
      const view = { ...v, moves: [], legal: [] };
      main.dataset.version = String(v.version);
      at.textContent = `v${v.version} (${Number(slider.value) + 1}/${versions.length})`;
      board.replaceChildren(plugin.board(view, lang, { seatColour, submit: () => {} }) || h("pre", { style: "white-space: pre-wrap; font-size: .75rem" }, JSON.stringify(v.state, null, 1)));
      players.replaceChildren(plugin.players ? plugin.players(view, lang, { seatColour }) : "");
      happened.replaceChildren(...v.journal.map((line) => h("li", {}, line[lang] || line.en)));
      const before = versions[Number(slider.value) - 1];
      const seats = before ? [...new Set(before.decisions.map((d) => d.seat))] : [];
      acted.textContent = seats.length ? t(lang, "acted", { who: seats.map((seat) => nameIn(v.state, seat)).join(", ") }) : "";
      acted.dataset.seats = seats.join(",");
    };
    slider.addEventListener("input", show);
    main.dataset.role = auditor ? "auditor" : "default";
    // operators may see the table as the auditor does (every hand, every hidden thing)
    const roles = app.operator ? h("div", { class: "row", role: "radiogroup", "aria-label": t(lang, "view_as"), "data-testid": "audit-role" },
      h("span", {}, `${t(lang, "view_as")}:`),
      h("a", { href: `#/audit/${id}`, role: "radio", "aria-checked": auditor ? "false" : "true", class: auditor ? "" : "current", "data-testid": "as-player" }, t(lang, "as_player")),
      h("a", { href: `#/audit/${id}/auditor`, role: "radio", "aria-checked": auditor ? "true" : "false", class: auditor ? "current" : "", "data-testid": "as-auditor" }, t(lang, "as_auditor"))) : null;
    main.replaceChildren(...[
      h("h2", { "data-testid": "title" }, `${t(lang, "audit")}: ${gameTitle(history.game)} · ${id.slice(0, 8)}`), roles,
      verify, h("div", { class: "row" }, download, exportNotice), notice,
      h("section", { class: "card" }, h("div", { class: "row" }, h("label", { for: "audit-slider" }, t(lang, "event")), at), slider, acted, happened),
      h("div", { class: "play" }, board, h("div", {}, players, h("section", { class: "card" }, h("h3", {}, t(lang, "chart")), chart(versions, lang)))),
    ].filter(Boolean));  // (no role switch for a player: nothing in its place)
    show();
  })();
  return () => {};
}
