// Драконы: the round board of 333 cells as SVG from the view (dice with their faces, dominoes,
// the start ring, the open contour) and the turn played on it from the legal-move descriptors:
// a rolled die, then a highlighted cell (place it) or one of your dice (then its target: a
// chess move), or a tile of your hand (then its two cells); a move that may close a contour
// asks for it: click its dice in order (or take a suggested one), then declare it.
import { h, s } from "../dom.js";
import { fill } from "../i18n.js";
import { actionable, dieIcon, gridCoords, offered, param, pips, placesText, tileIcon } from "./common.js";

const R2 = 104;  // the disk: x² + y² ≤ 104
const COORDS = gridCoords((x, y) => x * x + y * y <= R2, -10, 10);
const CELL_OF = new Map(COORDS.map(([x, y], cell) => [`${x},${y}`, cell]));
const C = 30;  // a cell's side in the drawing
const PAD = 6;
const SIZE = 21 * C + 2 * PAD;
const COLOUR = { red: "#c62828", blue: "#1f5fbf", black: "#1b1b1b" };
const TILE = { red: "#f6c9c3", blue: "#c8d8f4" };
const HALF = { red: "#f9e7e4", blue: "#e4ecf8" };
const SEAT_COLOUR = ["red", "blue"];
// the marked ring around the centre: red's NW, N, NE, E; blue's SE, S, SW, W
const START = { red: [[-1, 1], [0, 1], [1, 1], [1, 0]], blue: [[1, -1], [0, -1], [-1, -1], [-1, 0]] };
const BOARD_KINDS = ["place_start", "place_die", "chess_move", "place_domino", "place_black"];
const PIECE = ["", "pawn", "knight", "bishop", "rook", "queen", "king"];

const WORDS = {
  en: {
    place_start: "Place the start die on {cell}", place_die: "Place a {face} on {cell}", chess_move: "Move {origin} → {target}",
    place_domino: "Lay {first}|{second}", discard_die: "Discard the {face} (no use for it)", place_black: "Place the black die on {cell}",
    take_domino: "Take a domino", no_domino: "No domino",
    round: "Round {round}/{rounds}", turn: "turn {n}/5", setup: "The start ring", black: "The black die", domino: "Dominoes", over: "Over",
    rolled: "Rolled", your_tiles: "Your tiles", none: "—", score: "score", dice_left: "dice left", tiles: "tiles", set: "set",
    king: "king-six on board", no_king: "no king-six", black_left: "black dice left: {n}",
    pick_die: "Choose one of your rolled dice.",
    pick_cell: "The {face}: click a highlighted cell to place it, one of your dice to move it as a {piece}, or a tile of your hand.",
    pick_target: "Click a highlighted target of the die on {cell} (again: another die).",
    pick_first: "Click the cell for the {first} half of the tile.", pick_second: "Click the cell for the {second} half.",
    pick_start: "Place your start die ({face}) on a highlighted cell of the ring.", pick_black: "Place the black die ({face}) inside the contour.",
    promote: "The pawn becomes:", contour: "A contour: click your dice around the region in order, the new one included ({n} so far, sum {sum}).",
    contour_needed: "This move needs a contour.", declare: "Declare the contour", undo: "Undo", clear: "Clear",
    without: "Without a contour", cancel: "Cancel", suggestion: "Suggested {n}", legend: "Yellow: a place for the die · orange: a combination · violet: only with a contour · ◌: a contour is possible",
    piece_pawn: "pawn", piece_knight: "knight", piece_bishop: "bishop", piece_rook: "rook", piece_queen: "queen", piece_king: "king",
    final: "final {score}",
  },
  ru: {
    place_start: "Поставить стартовый кубик на {cell}", place_die: "Поставить {face} на {cell}", chess_move: "Ход {origin} → {target}",
    place_domino: "Положить {first}|{second}", discard_die: "Сбросить {face} (ему нет хода)", place_black: "Поставить чёрный кубик на {cell}",
    take_domino: "Взять доминошку", no_domino: "Не брать",
    round: "Круг {round}/{rounds}", turn: "ход {n}/5", setup: "Стартовое кольцо", black: "Чёрный кубик", domino: "Доминошки", over: "Конец",
    rolled: "Брошены", your_tiles: "Ваши доминошки", none: "—", score: "очки", dice_left: "кубиков", tiles: "доминошек", set: "в наборе",
    king: "шестёрка-король на поле", no_king: "нет шестёрки-короля", black_left: "чёрных кубиков: {n}",
    pick_die: "Выберите один из брошенных кубиков.",
    pick_cell: "{face}: нажмите подсвеченную клетку, чтобы поставить кубик, свой кубик, чтобы сходить им как {piece}, или доминошку из руки.",
    pick_target: "Нажмите подсвеченную цель кубика на {cell} (ещё раз — другой кубик).",
    pick_first: "Нажмите клетку для половинки {first}.", pick_second: "Нажмите клетку для половинки {second}.",
    pick_start: "Поставьте стартовый кубик ({face}) на подсвеченную клетку кольца.", pick_black: "Поставьте чёрный кубик ({face}) внутрь контура.",
    promote: "Пешка становится:", contour: "Контур: нажимайте свои кубики вокруг области по порядку, новый тоже (выбрано {n}, сумма {sum}).",
    contour_needed: "Этому ходу нужен контур.", declare: "Объявить контур", undo: "Назад", clear: "Сначала",
    without: "Без контура", cancel: "Отмена", suggestion: "Вариант {n}", legend: "Жёлтая — место для кубика · оранжевая — комбинация · фиолетовая — только с контуром · ◌ — возможен контур",
    piece_pawn: "пешка", piece_knight: "конь", piece_bishop: "слон", piece_rook: "ладья", piece_queen: "ферзь", piece_king: "король",
    final: "итог {score}",
  },
};

const w = (lang, key, params = {}) => fill(WORDS, lang, key, params);
const cellName = (cell) => (COORDS[cell] ? COORDS[cell].join(",") : String(cell));
const at = (args, key) => args[key] ?? 0;  // a proto field left out of the JSON is its zero

// the choice in progress, kept across redraws of one decision (a new decision starts afresh)
let pick = fresh("");

function fresh(key) {
  return { key, face: null, origin: null, tile: null, first: null, promo: null, contour: null };
}

// what the descriptors allow with the rolled number `face` (see docs/rules/dragons.md «Legal moves»)
function analyse(moves, face) {
  const place = new Map();  // cell -> {kinds, needsContour}
  const placeCycles = new Map();  // cell -> example contours
  const chess = new Map();  // origin -> target -> {quiet, promotions, cycles: promotion -> contours}
  const tiles = new Map();  // "first|second" -> {first, second, pairs: "a,b" -> {a, b, needsContour, cycles}}
  const entry = (origin, target) => {
    const targets = chess.get(origin) || chess.set(origin, new Map()).get(origin);
    return targets.get(target) || targets.set(target, { quiet: false, promotions: [], cycles: new Map() }).get(target);
  };
  for (const m of moves) {
    const { kind, args } = m.command;
    if (kind === "place_die" && at(args, "face") === face) {
      const cell = param(m, "cell");
      if (!cell) { placeCycles.set(at(args, "cell"), offered(param(m, "contour"))); continue; }
      const needsContour = cell.rule === "corner:contour";
      const kinds = cell.rule.startsWith("corner:") && !needsContour ? cell.rule.slice(7) : "";
      for (const c of offered(cell)) if (!place.has(c) || place.get(c).needsContour) place.set(c, { kinds, needsContour });
    } else if (kind === "chess_move" && offered(param(m, "face")).includes(face)) {
      const origin = at(args, "origin");
      const target = param(m, "target");
      const promotion = param(m, "promotion");
      if (target) for (const t of target.values) entry(origin, t).quiet = true;
      else if (promotion) entry(origin, at(args, "target")).promotions = promotion.values;
      else entry(origin, at(args, "target")).cycles.set(at(args, "promotion"), offered(param(m, "contour")));
    } else if (kind === "place_domino" && offered(param(m, "face")).includes(face)) {
      const first = at(args, "first"), second = at(args, "second");
      const key = `${first}|${second}`;
      const tile = tiles.get(key) || tiles.set(key, { first, second, pairs: new Map() }).get(key);
      const pair = (a, b) => tile.pairs.get(`${a},${b}`) || tile.pairs.set(`${a},${b}`, { a, b, needsContour: false, cycles: [], known: false }).get(`${a},${b}`);
      const cells = param(m, "cells");
      if (cells) {
        for (const [a, b] of cells.values) {
          const p = pair(a, b);
          if (!p.known) p.needsContour = cells.rule === "corner:contour";
          else if (cells.rule !== "corner:contour") p.needsContour = false;
          p.known = true;
        }
      } else {
        const [a, b] = args.cells || [];
        pair(a, b).cycles = offered(param(m, "contour"));
      }
    }
  }
  return { place, placeCycles, chess, tiles };
}

function board(view, lang, { submit }) {
  const st = view.state;
  if (!Array.isArray(st.pieces) || !Array.isArray(st.players)) return null;  // before the set-up (an audit's first event)
  const wrap = h("div", { class: "dragons", "data-testid": "dg-wrap" });
  const key = `${view.table}:${st.turn_seq}:${st.phase}:${st.active_seat}`;
  if (pick.key !== key) pick = fresh(key);
  const redraw = () => wrap.replaceChildren(...draw(view, lang, submit, redraw));
  redraw();
  return wrap;
}

function draw(view, lang, submit, redraw) {
  const st = view.state;
  const mine = view.seat === null ? null : SEAT_COLOUR[view.seat];
  const moves = view.finished ? [] : view.moves || [];
  const kinds = new Set(moves.map((m) => m.command.kind));
  const rolled = view.seat === null ? [] : [...new Set((st.rolled[view.seat] || []))].sort((a, b) => a - b);
  const turn = kinds.has("place_die") || kinds.has("chess_move") || kinds.has("place_domino");
  if (turn && (pick.face === null || !rolled.includes(pick.face))) pick.face = rolled.length ? rolled[0] : null;
  const choice = turn && pick.face !== null ? analyse(moves, pick.face) : null;
  const go = (kind, args) => { pick = fresh(pick.key); submit(kind, args); };
  const pieces = new Map(st.pieces.map((p) => [p.cell, p]));
  const ownCell = (cell) => { const p = pieces.get(cell); return p && (p.owner === mine || p.owner === "black"); };

  // what a click on each cell does now, and how it is marked
  const actions = new Map();  // cell -> {mark, label, act}
  const mark = (cell, kindOf, label, act) => actions.set(cell, { mark: kindOf, label, act });
  const decide = (move, fresh, optional, cycles) => {
    if (!optional || cycles.length) { pick.contour = { ...move, fresh, optional, cycles, path: [] }; redraw(); return; }
    go(move.kind, { ...move.args, contour: [] });
  };
  if (pick.contour) {
    const path = pick.contour.path;
    for (const cell of [...pick.contour.fresh, ...st.pieces.filter((p) => ownCell(p.cell) && p.cell !== pick.contour.origin).map((p) => p.cell)]) {
      const index = path.indexOf(cell);
      mark(cell, index >= 0 ? "path" : "own", cellName(cell), () => {
        if (index >= 0 && index === path.length - 1) path.pop();
        else if (index < 0) path.push(cell);
        redraw();
      });
    }
  } else if (kinds.has("place_start") || kinds.has("place_black")) {
    for (const m of moves) {
      if (m.command.kind !== "place_start" && m.command.kind !== "place_black") continue;
      for (const cell of offered(param(m, "cell"))) mark(cell, "place", w(lang, m.command.kind, { cell: cellName(cell) }), () => go(m.command.kind, { cell }));
    }
  } else if (choice) {
    const face = pick.face;
    if (pick.tile) {
      const tile = choice.tiles.get(pick.tile);
      if (!tile) pick.tile = null;
      else if (pick.first === null) {
        for (const p of tile.pairs.values()) mark(p.a, "place", `${cellName(p.a)}: ${tile.first}`, () => { pick.first = p.a; redraw(); });
      } else {
        mark(pick.first, "picked", cellName(pick.first), () => { pick.first = null; redraw(); });
        for (const p of tile.pairs.values()) {
          if (p.a !== pick.first) continue;
          mark(p.b, p.needsContour ? "contour" : "place", `${cellName(p.b)}: ${tile.second}`, () => decide(
            { kind: "place_domino", args: { face, first: tile.first, second: tile.second, cells: [p.a, p.b] } },
            [p.a, p.b], !p.needsContour, p.cycles));
        }
      }
    }
    if (!pick.tile) {
      if (pick.origin === null) {
        for (const [cell, info] of choice.place) {
          const cycles = choice.placeCycles.get(cell) || [];
          mark(cell, info.needsContour ? "contour" : info.kinds ? "combo" : "place", w(lang, "place_die", { face, cell: cellName(cell) }),
            () => decide({ kind: "place_die", args: { face, cell } }, [cell], !info.needsContour, cycles));
          if (cycles.length) actions.get(cell).closes = true;
        }
      }
      for (const [origin, targets] of choice.chess) {
        mark(origin, pick.origin === origin ? "picked" : "piece", `${cellName(origin)}: ${w(lang, `piece_${PIECE[(pieces.get(origin) || {}).face]}`) || ""}`,
          () => { pick.origin = pick.origin === origin ? null : origin; pick.promo = null; redraw(); });
      }
      for (const [target, t] of (pick.origin !== null && choice.chess.get(pick.origin)) || []) {
        const from = pick.origin;
        mark(target, "place", w(lang, "chess_move", { origin: cellName(from), target: cellName(target) }), () => {
          if (t.promotions.length) { pick.promo = { origin: from, target, t }; redraw(); return; }
          decide({ kind: "chess_move", args: { face, origin: from, target, promotion: 0 }, origin: from }, [target], true, t.cycles.get(0) || []);
        });
        if (t.cycles.size) actions.get(target).closes = true;
      }
    }
  }

  const svg = s("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, role: "group", "aria-label": "board", "data-testid": "dg-board" });
  svg.append(s("circle", { cx: SIZE / 2, cy: SIZE / 2, r: SIZE / 2 - 1, fill: "#fbf8f1", stroke: "#b9b1a0", "stroke-width": 2 }));
  // the viewer's half at the bottom: blue's for seat 1, else red's (the board turned, not mirrored)
  const flip = view.seat !== 1;
  const origin = (cell) => {
    const [x, y] = COORDS[cell];
    return flip ? [PAD + (10 - x) * C, PAD + (10 + y) * C] : [PAD + (10 + x) * C, PAD + (10 - y) * C];
  };
  const centre = (cell) => { const [x, y] = origin(cell); return [x + C / 2, y + C / 2]; };
  const starts = new Map();
  for (const [colour, cells] of Object.entries(START)) for (const [x, y] of cells) starts.set(CELL_OF.get(`${x},${y}`), colour);
  const top = [];  // marks drawn over the pieces
  COORDS.forEach(([, y], cell) => {
    const [x0, y0] = origin(cell);
    const piece = pieces.get(cell);
    const g = s("g", {
      "data-testid": `dc-${cell}`, "data-owner": piece ? piece.owner : "", "data-face": piece ? piece.face : "",
      "data-domino": piece && piece.domino !== null ? piece.domino : "",
    });
    g.append(s("title", {}, `${cellName(cell)}${piece ? ` · ${piece.owner} ${piece.face}` : ""}`));
    const action = actions.get(cell);
    const fills = { place: "#ffe08a", combo: "#ffb347", contour: "#d9c2ff" };
    if (action && fills[action.mark]) g.append(s("rect", { x: x0, y: y0, width: C, height: C, fill: fills[action.mark] }));
    else if (y === 0) {  // the neutral border row, two-coloured: each half's colour on its side
      g.append(s("rect", { x: x0, y: y0, width: C, height: C, fill: "#efe9dc" }),
        s("path", { d: `M${x0},${y0} h${C} l${-C},${C} z`, fill: HALF[flip ? "blue" : "red"], stroke: "none" }),
        s("path", { d: `M${x0 + C},${y0} v${C} h${-C} z`, fill: HALF[flip ? "red" : "blue"], stroke: "none" }));
    } else {
      g.append(s("rect", { x: x0, y: y0, width: C, height: C, fill: y > 0 ? HALF.red : HALF.blue }));
    }
    g.append(s("rect", { x: x0, y: y0, width: C, height: C, fill: "none", stroke: y === 0 ? "#a99f8a" : "#cfc6b4", "stroke-width": y === 0 ? 1 : 0.6 }));
    if (starts.has(cell)) g.append(s("circle", { cx: x0 + C / 2, cy: y0 + C / 2, r: C * 0.42, fill: "none", stroke: COLOUR[starts.get(cell)], "stroke-width": 1.2, "stroke-dasharray": "3 2" }));
    if (action) {
      g.setAttribute("data-target", action.mark);
      actionable(g, action.label, action.act);
      const ring = { x: x0 + 1.5, y: y0 + 1.5, width: C - 3, height: C - 3, rx: 4, fill: "none", "pointer-events": "none" };
      const strong = ["picked", "path", "piece"].includes(action.mark);
      top.push(s("rect", { ...ring, stroke: strong ? "#b35900" : action.mark === "own" ? "#2e7d32" : "#c99a00", "stroke-width": action.mark === "picked" || action.mark === "path" ? 3 : 2 }));
      if (action.closes) top.push(s("circle", { cx: x0 + C / 2, cy: y0 + C / 2, r: C * 0.3, fill: "none", stroke: "#6a3fb5", "stroke-width": 1.5, "stroke-dasharray": "2 2", "pointer-events": "none" }));
    }
    svg.append(g);
  });
  const layer = s("g", { "pointer-events": "none" });
  for (const d of st.dominoes || []) {
    const colour = SEAT_COLOUR[d.seat];
    const [a, b] = d.cells.map(origin);
    const x = Math.min(a[0], b[0]), y = Math.min(a[1], b[1]);
    const wide = a[1] === b[1];
    layer.append(s("rect", { x: x + 2, y: y + 2, width: (wide ? 2 * C : C) - 4, height: (wide ? C : 2 * C) - 4, rx: 5, fill: TILE[colour], stroke: COLOUR[colour], "stroke-width": 2 }));
    if (wide) layer.append(s("line", { x1: x + C, y1: y + 5, x2: x + C, y2: y + C - 5, stroke: COLOUR[colour], "stroke-width": 1.2 }));
    else layer.append(s("line", { x1: x + 5, y1: y + C, x2: x + C - 5, y2: y + C, stroke: COLOUR[colour], "stroke-width": 1.2 }));
    d.cells.forEach((cell, k) => { const [cx, cy] = origin(cell); layer.append(...pips(cx + 4, cy + 4, C - 8, d.pips[k], COLOUR[colour])); });
  }
  const composing = pick.contour;
  const die = (cell, owner, face, ghost) => {
    const [x, y] = origin(cell);
    layer.append(s("g", { opacity: ghost ? 0.6 : 1 }, s("rect", { x: x + 3, y: y + 3, width: C - 6, height: C - 6, rx: 5, fill: COLOUR[owner], stroke: owner === "black" ? "#888" : "#fff", "stroke-width": 1, "stroke-dasharray": ghost ? "3 2" : null }),
      pips(x + 3, y + 3, C - 6, face, "#fff")));
  };
  for (const p of st.pieces) {
    if (p.domino !== null || (composing && composing.origin === p.cell)) continue;  // a die being moved is shown at its target
    die(p.cell, p.owner, p.face, false);
  }
  if (composing) for (const cell of composing.fresh) die(cell, mine, freshFace(composing, cell, pieces), true);
  // a contour: the open one (its black die goes inside) or the one being composed
  const contour = pick.contour ? { cells: pick.contour.path, seat: view.seat, inside: [] } : st.contour;
  if (contour && contour.cells.length) {
    const colour = "#6a1b9a";  // apart from both sides' colours, over a white edge
    for (const cell of contour.inside || []) { const [x, y] = origin(cell); layer.append(s("rect", { x: x + 1, y: y + 1, width: C - 2, height: C - 2, fill: colour, opacity: 0.15 })); }
    const points = contour.cells.map((cell) => centre(cell).join(",")).join(" ");
    const shape = pick.contour ? "polyline" : "polygon";
    layer.append(s(shape, { points, fill: "none", stroke: "#fff", "stroke-width": 6, "stroke-linejoin": "round", opacity: 0.9 }),
      s(shape, { points, fill: "none", stroke: colour, "stroke-width": 3, "stroke-linejoin": "round", "data-testid": "dg-contour" }));
    if (pick.contour && contour.cells.length >= 3) {  // the link that closes it, when declared
      const [[x1, y1], [x2, y2]] = [centre(contour.cells[contour.cells.length - 1]), centre(contour.cells[0])];
      layer.append(s("line", { x1, y1, x2, y2, stroke: colour, "stroke-width": 2, "stroke-dasharray": "4 3", opacity: 0.7 }));
    }
    if (pick.contour) contour.cells.forEach((cell, k) => {
      const [cx, cy] = centre(cell);
      layer.append(s("circle", { cx: cx + C * 0.3, cy: cy - C * 0.3, r: 6, fill: "#fff", stroke: colour }), s("text", { x: cx + C * 0.3, y: cy - C * 0.3 + 3.5, "font-size": 9, "text-anchor": "middle", fill: colour }, k + 1));
    });
  }
  svg.append(layer, s("g", { "pointer-events": "none" }, top));
  return [svg, tray(view, lang, { choice, rolled, kinds, go, redraw, pieces })];
}

// under the board: the rolled dice, the hand's tiles, what to click next, the contour and promotion choices
function tray(view, lang, { choice, rolled, kinds, go, redraw, pieces }) {
  const st = view.state;
  const parts = [];
  const dice = st.players.map((p) => {
    const colour = SEAT_COLOUR[p.seat];
    const faces = st.rolled[p.seat] || [];
    const mineNow = p.seat === view.seat && choice;
    return h("div", { class: "row", "data-testid": `dg-rolled-${p.seat}` },
      h("span", { class: "muted" }, `${p.name}:`),
      faces.length ? faces.map((face) => mineNow
        ? h("button", { type: "button", class: `die${pick.face === face ? " picked" : ""}`, "aria-pressed": pick.face === face ? "true" : "false", "aria-label": String(face), "data-testid": `dg-face-${face}`, "data-face": face,
          onclick: () => { pick = { ...fresh(pick.key), face }; redraw(); } }, dieIcon(face, COLOUR[colour], "#fff"))
        : h("span", { "data-face": face }, dieIcon(face, COLOUR[colour], "#fff", 22))) : h("span", { class: "muted" }, w(lang, "none")));
  });
  parts.push(h("div", { class: "dg-rolled" }, h("strong", {}, `${w(lang, "rolled")} `), dice));
  const me = st.me;
  if (me) {
    const colour = SEAT_COLOUR[view.seat];
    parts.push(h("div", { class: "row", "data-testid": "dg-hand" }, h("strong", {}, `${w(lang, "your_tiles")}: `),
      me.hand.length ? me.hand.map(([a, b]) => {
        const key = `${a}|${b}`;
        const usable = choice && !pick.contour && choice.tiles.has(key);
        return usable
          ? h("button", { type: "button", class: `tile${pick.tile === key ? " picked" : ""}`, "aria-pressed": pick.tile === key ? "true" : "false", "aria-label": `${a}|${b}`, "data-testid": `dg-tile-${a}-${b}`, "data-tile": key,
            onclick: () => { pick = { ...fresh(pick.key), face: pick.face, tile: pick.tile === key ? null : key }; redraw(); } }, tileIcon(a, b, TILE[colour], COLOUR[colour]))
          : h("span", { "data-tile": key }, tileIcon(a, b, TILE[colour], COLOUR[colour], 20));
      }) : h("span", { class: "muted" }, w(lang, "none"))));
  }
  if (Array.isArray(st.hands)) {  // the auditor sees every hand
    parts.push(h("div", { "data-testid": "dg-hands" }, st.players.map((p) => h("div", { class: "row", "data-seat": p.seat },
      h("span", { class: "muted" }, `${p.name}:`), (st.hands[p.seat] || []).map(([a, b]) => h("span", { "data-tile": `${a}|${b}` },
        tileIcon(a, b, TILE[SEAT_COLOUR[p.seat]], COLOUR[SEAT_COLOUR[p.seat]], 20)))))));
  }
  const hint = h("p", { class: "hint", "data-testid": "dg-hint" });
  if (pick.contour) {
    const c = pick.contour;
    const sum = c.path.reduce((total, cell) => total + (c.fresh.includes(cell) ? freshFace(c, cell, pieces) : (pieces.get(cell) || {}).face ?? 0), 0);
    hint.textContent = `${c.optional ? "" : `${w(lang, "contour_needed")} `}${w(lang, "contour", { n: c.path.length, sum })}`;
    parts.push(hint, h("div", { class: "row", "data-testid": "dg-contour-panel" },
      h("button", { type: "button", class: "primary", "data-testid": "dg-declare", disabled: c.path.length < 4, onclick: () => go(c.kind, { ...c.args, contour: [...c.path] }) }, w(lang, "declare")),
      h("button", { type: "button", "data-testid": "dg-undo", onclick: () => { c.path.pop(); redraw(); } }, w(lang, "undo")),
      h("button", { type: "button", onclick: () => { c.path.length = 0; redraw(); } }, w(lang, "clear")),
      c.cycles.map((cycle, k) => h("button", { type: "button", "data-testid": `dg-suggest-${k}`, onclick: () => { c.path.splice(0, c.path.length, ...cycle); redraw(); } }, w(lang, "suggestion", { n: k + 1 }))),
      c.optional ? h("button", { type: "button", "data-testid": "dg-without", onclick: () => go(c.kind, { ...c.args, contour: [] }) }, w(lang, "without")) : null,
      h("button", { type: "button", onclick: () => { pick.contour = null; redraw(); } }, w(lang, "cancel"))));
  } else if (pick.promo) {
    const { origin, target, t } = pick.promo;
    parts.push(h("div", { class: "row", "data-testid": "dg-promotion" }, h("span", {}, w(lang, "promote")),
      t.promotions.map((n) => h("button", { type: "button", "data-testid": `dg-promote-${n}`, onclick: () => {
        const cycles = t.cycles.get(n) || [];
        const move = { kind: "chess_move", args: { face: pick.face, origin, target, promotion: n }, origin };
        if (cycles.length) { pick.contour = { ...move, fresh: [target], optional: true, cycles, path: [] }; pick.promo = null; redraw(); }
        else go("chess_move", { ...move.args, contour: [] });
      } }, `${n} · ${w(lang, `piece_${PIECE[n]}`)}`)),
      h("button", { type: "button", onclick: () => { pick.promo = null; redraw(); } }, w(lang, "cancel"))));
  } else if (kinds.has("place_start")) {
    hint.textContent = w(lang, "pick_start", { face: st.setup_face ?? "" });
    parts.push(h("div", { class: "row" }, st.setup_face ? dieIcon(st.setup_face, COLOUR[SEAT_COLOUR[view.seat]], "#fff") : null, hint));
  } else if (kinds.has("place_black")) {
    hint.textContent = w(lang, "pick_black", { face: st.contour ? st.contour.face : "" });
    parts.push(h("div", { class: "row" }, st.contour ? dieIcon(st.contour.face, COLOUR.black, "#fff") : null, hint));
  } else if (choice) {
    if (pick.tile) {
      const [first, second] = pick.tile.split("|");
      hint.textContent = pick.first === null ? w(lang, "pick_first", { first }) : w(lang, "pick_second", { second });
    } else if (pick.origin !== null) hint.textContent = w(lang, "pick_target", { cell: cellName(pick.origin) });
    else hint.textContent = w(lang, "pick_cell", { face: pick.face, piece: w(lang, `piece_${PIECE[pick.face]}`) });
    parts.push(hint, h("p", { class: "muted" }, w(lang, "legend")));
  }
  return h("div", { class: "tray" }, parts);
}

// the number a cell of the composed move will hold (the die placed, the die moved or promoted, a half of the tile)
function freshFace(c, cell, pieces) {
  if (c.kind === "place_domino") return cell === c.args.cells[0] ? c.args.first : c.args.second;
  if (c.kind === "chess_move") return c.args.promotion || (pieces.get(c.args.origin) || {}).face;
  return c.args.face;
}

function players(view, lang) {
  const st = view.state;
  if (!Array.isArray(st.players)) return h("span");
  return h("table", { class: "list" }, h("tbody", {}, st.players.map((p) => h("tr", {
    "data-testid": `player-${p.seat}`, "data-score": p.score, "data-dice": p.dice_left, "data-hand": p.hand_size,
  },
    h("td", {}, h("span", { class: "seat-dot", style: `background:${COLOUR[p.colour]}` }), `#${p.seat} ${p.name}`, p.seat === view.seat ? " ★" : ""),
    h("td", {}, `${w(lang, "score")} ${p.score}`),
    h("td", { class: "muted" }, `${w(lang, "dice_left")} ${p.dice_left} · ${w(lang, "tiles")} ${p.hand_size} · ${w(lang, "set")} ${p.set_left}`),
    h("td", { class: "muted" }, p.king_on_board ? w(lang, "king") : w(lang, "no_king"))))));
}

function moveLabel(kind, args, lang) {
  if (kind === "take_domino") return w(lang, args.take ? "take_domino" : "no_domino");
  if (kind === "discard_die") return w(lang, "discard_die", { face: at(args, "face") });
  const cellOf = (key) => (typeof args[key] === "number" ? cellName(args[key]) : args[key] ?? "…");
  return w(lang, kind, { face: args.face ?? "…", cell: cellOf("cell"), origin: cellOf("origin"), target: cellOf("target"), first: at(args, "first"), second: at(args, "second") });
}

function headline(view, lang) {
  const st = view.state;
  if (st.phase === "setup") return w(lang, "setup");
  const parts = [w(lang, "round", { round: st.round, rounds: st.rounds })];
  if (st.phase === "turn") parts.push(w(lang, "turn", { n: st.turn_index + 1 }));
  if (st.phase === "black") parts.push(w(lang, "black"));
  if (st.phase === "domino") parts.push(w(lang, "domino"));
  parts.push(w(lang, "black_left", { n: st.black_left }));
  return parts.join(" · ");
}

function outcome(view, lang) {
  const result = view.state.result || {};
  const finals = (view.state.players || []).map((p) => `${p.name} ${w(lang, "final", { score: (result.final || [])[p.seat] ?? p.score })}`).join(", ");
  return [placesText(result.places, view.state.players), finals].filter(Boolean).join(" · ");
}

export default { board, players, moveLabel, headline, outcome, boardKinds: BOARD_KINDS };
