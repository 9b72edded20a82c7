// Магнаты: the 10×10 board as SVG from the view alone (Companies, special cells, Offices, every
// King and piece); a piece with moves is clicked, then one of its highlighted target cells.
import { h, s } from "../dom.js";
import { fill } from "../i18n.js";
import { placesText } from "./common.js";

const SIZE = 10;
const CELL = 60;
const FILES = "abcdefghij";
const GLYPHS = { king: "♚", queen: "♛", rook: "♜", bishop: "♝", knight: "♞" };
const SPECIAL = { bank: "Bank", investment: "Inv", arbitrage: "Arb", subsidy: "Subs", sanction: "Sanc", corner: "" };

const WORDS = {
  en: {
    roll: "Roll the White and the Blue die", buy_company: "Buy {cell} for {price}", upgrade: "Upgrade {cell}",
    arbitrage_buy: "Buy {cell} (arbitrage)", buy_piece: "Buy back the {piece} onto {office}",
    attack_king: "Attack the lone King here", end_stop: "Done here", move_piece: "{piece} → {to}",
    pass_move: "Move no piece", pay_fine: "Pay the fine", raid: "Raid instead",
    round: "Round {round}", dice: "White {white} · Blue {blue}", cash: "gold", worth: "worth", out: "out",
    queen: "Queen", rook: "Rook", bishop: "Bishop", knight: "Knight", pick: "Click a highlighted piece, then its target",
  },
  ru: {
    roll: "Бросить Белый и Синий кубики", buy_company: "Купить {cell} за {price}", upgrade: "Улучшить {cell}",
    arbitrage_buy: "Купить {cell} (арбитраж)", buy_piece: "Выкупить фигуру «{piece}» в {office}",
    attack_king: "Атаковать одинокого Короля здесь", end_stop: "Готово", move_piece: "{piece} → {to}",
    pass_move: "Не ходить фигурой", pay_fine: "Заплатить штраф", raid: "Рейд вместо штрафа",
    round: "Круг {round}", dice: "Белый {white} · Синий {blue}", cash: "золото", worth: "капитал", out: "выбыл",
    queen: "Ферзь", rook: "Ладья", bishop: "Слон", knight: "Конь", pick: "Нажмите подсвеченную фигуру, затем её цель",
  },
};

const w = (lang, key, params = {}) => fill(WORDS, lang, key, params);

const cellName = (cell) => `${FILES[cell % SIZE]}${Math.floor(cell / SIZE) + 1}`;
const pieceOf = (value) => String(value || "").replace(/^PIECE_/, "").toLowerCase();
const xy = (cell) => [(cell % SIZE) * CELL, (SIZE - 1 - Math.floor(cell / SIZE)) * CELL];

let picked = null;  // the piece whose targets are shown: survives redraws of the same turn

function board(view, lang, { seatColour, submit }) {
  const st = view.state;
  if (!st.companies || !st.players) return null;  // before the game is set up (an audit's first events)
  const svg = s("svg", { viewBox: `0 0 ${SIZE * CELL} ${SIZE * CELL}`, role: "img", "aria-label": "board", "data-testid": "mg-board" });
  const companies = new Map(st.companies.map((c) => [c.cell, c]));
  const specials = new Map(st.specials.map((c) => [c.cell, c.kind]));
  const offices = new Map();
  for (const p of st.players) for (const o of p.offices) offices.set(o, p.seat);
  // my piece moves from the spelled-out legal commands: piece -> target cells
  const moves = new Map();
  for (const c of view.legal || []) {
    if (c.kind !== "move_piece") continue;
    const piece = pieceOf(c.args.piece);
    (moves.get(piece) || moves.set(piece, []).get(piece)).push(c);
  }
  if (picked && !moves.has(picked)) picked = null;
  const targets = new Map((picked ? moves.get(picked) : []).map((c) => [Number(c.args.to), c]));
  for (let cell = 0; cell < SIZE * SIZE; cell++) {
    const [x, y] = xy(cell);
    const x0 = cell % SIZE, y0 = Math.floor(cell / SIZE);
    const perimeter = x0 === 0 || y0 === 0 || x0 === SIZE - 1 || y0 === SIZE - 1;
    const company = companies.get(cell);
    const g = s("g", { "data-testid": `cell-${cell}`, "data-owner": company && company.owner !== null ? company.owner : "", "data-level": company ? company.level : "" });
    g.append(s("title", {}, `${cellName(cell)}${company ? ` · ${company.name} · ${company.price}` : ""}`));
    g.append(s("rect", { x, y, width: CELL, height: CELL, fill: targets.has(cell) ? "#ffe08a" : perimeter ? "#e9e4d6" : (x0 + y0) % 2 ? "#f7f3ea" : "#efe9dc", stroke: "#999", "stroke-width": 0.5 }));
    if (company) {
      if (company.owner !== null) g.append(s("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, fill: "none", stroke: seatColour(company.owner), "stroke-width": 3 }));
      g.append(s("text", { x: x + 4, y: y + 12, "font-size": 9, fill: "#444" }, company.price));
      if (company.owner !== null) g.append(s("text", { x: x + CELL - 4, y: y + 12, "font-size": 9, "text-anchor": "end", fill: seatColour(company.owner), "font-weight": "bold" }, `#${company.owner}·${company.level}`));
    } else if (specials.has(cell)) {
      g.append(s("text", { x: x + CELL / 2, y: y + 12, "font-size": 9, "text-anchor": "middle", fill: "#2f5fb3" }, SPECIAL[specials.get(cell)] ?? specials.get(cell)));
    }
    if (offices.has(cell)) g.append(s("text", { x: x + 4, y: y + CELL - 4, "font-size": 8, fill: seatColour(offices.get(cell)) }, `o${offices.get(cell)}`));
    if (targets.has(cell)) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("data-target", "1");
      const go = () => { const c = targets.get(cell); picked = null; submit(c.kind, c.args); };
      g.addEventListener("click", go);
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") go(); });
    }
    svg.append(g);
  }
  for (const p of st.players) {
    if (!p.alive) continue;
    const army = [["king", p.king_cell], ...Object.entries(p.pieces)];
    army.forEach(([piece, cell], k) => {
      if (cell === null || cell === undefined || cell < 0) return;
      const [x, y] = xy(cell);
      const mine = view.seat === p.seat && moves.has(piece);
      const g = s("g", { "data-testid": `piece-${p.seat}-${piece}`, "data-cell": cell, "data-movable": mine ? "1" : null, tabindex: mine ? 0 : null, role: mine ? "button" : null },
        s("circle", { cx: x + CELL / 2, cy: y + CELL / 2 + 4, r: 16, fill: mine ? (picked === piece ? "#ffb703" : "#fff3c4") : "#fff", stroke: seatColour(p.seat), "stroke-width": 2.5 }),
        s("text", { x: x + CELL / 2, y: y + CELL / 2 + 11, "font-size": 20, "text-anchor": "middle", fill: seatColour(p.seat) }, GLYPHS[piece] || "?"));
      if (mine) {
        const pick = () => { picked = picked === piece ? null : piece; board.redraw && board.redraw(); };
        g.addEventListener("click", pick);
        g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") pick(); });
      }
      svg.append(g);
    });
  }
  const wrap = h("div", {}, svg, moves.size ? h("p", { class: "muted" }, w(lang, "pick")) : null);
  board.redraw = () => wrap.replaceWith(board(view, lang, { seatColour, submit }));
  return wrap;
}

function players(view, lang, { seatColour }) {
  if (!view.state.players) return h("span");
  return h("table", { class: "list" }, h("tbody", {}, view.state.players.map((p) => h("tr", { "data-testid": `player-${p.seat}`, "data-cash": p.cash, "data-king": p.king_cell ?? "" },
    h("td", {}, h("span", { class: "seat-dot", style: `background:${seatColour(p.seat)}` }), `#${p.seat} ${p.name}`, p.seat === view.seat ? " ★" : ""),
    h("td", {}, `${w(lang, "cash")} ${p.cash}`), h("td", { class: "muted" }, `${w(lang, "worth")} ${p.net_worth}`),
    h("td", { class: "muted" }, p.alive ? Object.keys(p.pieces).map((k) => GLYPHS[k]).join("") : w(lang, "out"))))));
}

function moveLabel(kind, args, lang, view) {
  const st = view.state;
  const here = st.stop ? st.stop.cell : -1;
  const company = st.companies.find((c) => c.cell === (args.cell ?? here)) || {};
  return w(lang, kind, {
    cell: cellName(args.cell ?? here), price: company.price ?? "", piece: w(lang, pieceOf(args.piece)) || args.piece,
    office: typeof args.office === "number" ? cellName(args.office) : "", to: typeof args.to === "number" ? cellName(args.to) : args.to,
  });
}

function headline(view, lang) {
  const st = view.state;
  const round = w(lang, "round", { round: st.round_limit ? `${st.round}/${st.round_limit}` : st.round });
  return st.white ? `${round} · ${w(lang, "dice", { white: st.white, blue: st.blue })}` : round;
}

function outcome(view) {
  return placesText(view.state.places, view.state.players);
}

export default { board, players, moveLabel, headline, outcome };
