// Гомункул: the 160-cell cross as SVG from the view (armies, tiles, opened cells with their
// numbers, the mines this viewer may see, shields), the ring of 40 lots beside it, the hand of
// cards, the tiles, the shop and the inventory; a move is made on the board from the legal-move
// descriptors: a card, then one of its pieces and a highlighted target (a wild card: then the
// colour); a tile, then its two cells; an item, then its cell(s). «Уно!» / «Поймать» are
// buttons over the board while their window is open.
import { h, s } from "../dom.js";
import { fill } from "../i18n.js";
import { GROUP_COLOURS, actionable, gridCoords, offered, param, pips, placesText, ringCell, tileIcon } from "./common.js";

const SIZE = 14, ARM = 3;
const COORDS = gridCoords((x, y) => (ARM <= x && x < SIZE - ARM) || (ARM <= y && y < SIZE - ARM), 0, SIZE - 1);
const C = 40, PAD = 4, SIDE = SIZE * C + 2 * PAD;
// the armies' (and the cards') colours by arm: south, west, north, east
const ARM_COLOUR = ["#c62828", "#2e7d32", "#1565c0", "#d99a00"];
const GLYPH = { 1: "♟", 2: "♞", 3: "♝", 4: "♜", 5: "♛", 6: "♚" };
const CARD_GLYPH = { pawn: "♟", knight: "♞", bishop: "♝", rook: "♜", queen: "♛", king: "♚", skip: "⊘", reverse: "⇄", draw2: "+2", wild: "★", wild4: "+4" };
const NUMBER_COLOUR = ["", "#1e5bb8", "#2e7d32", "#c62828", "#283593", "#6d1b1b", "#00838f", "#222", "#777"];
// items used on the board (their other field a cell), and those chosen otherwise
const CELL_ITEMS = new Set(["boots", "teleport", "castling", "sledgehammer", "mine", "detector", "shield", "resurrection", "probe"]);
const BOARD_KINDS = ["play_card", "place_domino", "free_move", "use_item", "buy_item", "say_uno", "catch_uno"];

const WORDS = {
  en: {
    play_card: "Play {card}", place_domino: "Lay {low}|{high}", draw_card: "Draw a card", exchange_card: "Exchange {card} (10 in hand)",
    keep_card: "Keep the card drawn", free_move: "Free move", end_turn: "End the turn", say_uno: "«Uno!»", catch_uno: "«Catch!»",
    surrender: "Surrender", buy_item: "Buy {item} ({price})", use_item: "Use {item}", roll_dice: "Try for doubles (Dungeon)",
    pay_fine: "Pay 5 and leave the Dungeon", use_pass: "Use the pass card", buy_lot: "Buy {square} for {price}", decline_lot: "Decline (auction)",
    bid: "Bid {amount}", pass_bid: "Pass the auction", build: "Build on {square}", mortgage: "Mortgage {square}", redeem: "Redeem {square}",
    offer_trade: "Offer a trade to {name}…", answer_trade: "{answer} the offer", accept: "Accept", decline: "Decline",
    colour_0: "red (south)", colour_1: "green (west)", colour_2: "blue (north)", colour_3: "yellow (east)", colour_wild: "wild",
    pawn: "pawn", knight: "knight", bishop: "bishop", rook: "rook", queen: "queen", king: "king", skip: "skip", reverse: "reverse",
    draw2: "+2", wild: "wild", wild4: "wild +4",
    round: "Round {round}", phase_action: "the action", phase_continue: "one more action (linked)", phase_after_draw: "play the drawn card or keep it",
    phase_free_move: "the free move", phase_buy: "a free lot", phase_auction: "an auction", phase_dungeon: "the Dungeon",
    quiet: "{n}/30 rounds without a capture", top: "Top", colour: "colour", deck: "deck {n}", discard: "discard {n}", bazaar: "bazaar {n}",
    mines: "mines {n}", hand: "Your cards", tiles: "Your tiles", drawn: "drawn", none: "—", shop: "Shop", inventory: "Your items",
    gold: "gold", cards: "cards", tiles_n: "tiles", out: "out", wounded: "wounded", afk: "AFK", buy: "Buy", use: "Use", choose_colour: "The colour:",
    pick: "Choose a card, a tile or an item (or draw).", pick_piece: "{card}: click one of your highlighted pieces.",
    pick_target: "Click a highlighted target.", pick_first: "Click the cell for the {low} half.", pick_second: "Click the cell for the {high} half.",
    pick_cell: "{item}: click a highlighted cell.", pick_free: "The free move: a piece, then its target.", cancel: "Cancel",
    ring: "Ring", dice: "dice {a}+{b}", auction: "Auction: {square}, high bid {bid}", offer: "{from} offers {to}: {give} + {give_gold} gold for {get} + {get_gold} gold",
    you_give: "You give", you_get: "You get", send: "Offer", bank: "bank: {houses} houses, {hotels} hotels", dungeon: "in the Dungeon",
    reason_kings: "one side is left", reason_strength: "30 rounds without a capture: army strength",
  },
  ru: {
    play_card: "Сыграть {card}", place_domino: "Положить {low}|{high}", draw_card: "Взять карту", exchange_card: "Обменять {card} (10 на руке)",
    keep_card: "Оставить взятую карту", free_move: "Свободный ход", end_turn: "Закончить ход", say_uno: "«Уно!»", catch_uno: "«Поймать»",
    surrender: "Сдаться", buy_item: "Купить: {item} ({price})", use_item: "Применить: {item}", roll_dice: "Бросить на дубль (Темница)",
    pay_fine: "Заплатить 5 и выйти из Темницы", use_pass: "Использовать пропуск", buy_lot: "Купить {square} за {price}", decline_lot: "Отказаться (аукцион)",
    bid: "Ставка {amount}", pass_bid: "Выйти из аукциона", build: "Строить: {square}", mortgage: "Заложить {square}", redeem: "Выкупить {square}",
    offer_trade: "Предложить сделку: {name}…", answer_trade: "{answer} предложение", accept: "Принять", decline: "Отклонить",
    colour_0: "красный (юг)", colour_1: "зелёный (запад)", colour_2: "синий (север)", colour_3: "жёлтый (восток)", colour_wild: "дикая",
    pawn: "пешка", knight: "конь", bishop: "слон", rook: "ладья", queen: "ферзь", king: "король", skip: "пропуск", reverse: "разворот",
    draw2: "+2", wild: "дикая", wild4: "дикая +4",
    round: "Круг {round}", phase_action: "действие", phase_continue: "ещё действие (сцепка)", phase_after_draw: "сыграть взятую карту или оставить",
    phase_free_move: "свободный ход", phase_buy: "свободный участок", phase_auction: "аукцион", phase_dungeon: "Темница",
    quiet: "кругов без взятий: {n}/30", top: "Сверху", colour: "цвет", deck: "колода {n}", discard: "сброс {n}", bazaar: "базар {n}",
    mines: "мин {n}", hand: "Ваши карты", tiles: "Ваши кости", drawn: "взята", none: "—", shop: "Лавка", inventory: "Ваши вещи",
    gold: "золото", cards: "карт", tiles_n: "костей", out: "выбыл", wounded: "ранен", afk: "AFK", buy: "Купить", use: "Применить", choose_colour: "Цвет:",
    pick: "Выберите карту, кость или вещь (или возьмите карту).", pick_piece: "{card}: нажмите свою подсвеченную фигуру.",
    pick_target: "Нажмите подсвеченную цель.", pick_first: "Нажмите клетку для половинки {low}.", pick_second: "Нажмите клетку для половинки {high}.",
    pick_cell: "{item}: нажмите подсвеченную клетку.", pick_free: "Свободный ход: фигура, затем её цель.", cancel: "Отмена",
    ring: "Кольцо", dice: "кубики {a}+{b}", auction: "Аукцион: {square}, ставка {bid}", offer: "{from} предлагает {to}: {give} + {give_gold} золота за {get} + {get_gold} золота",
    you_give: "Вы отдаёте", you_get: "Вы получаете", send: "Предложить", bank: "банк: домов {houses}, отелей {hotels}", dungeon: "в Темнице",
    reason_kings: "осталась одна сторона", reason_strength: "30 кругов без взятий: сила армий",
  },
};

const w = (lang, key, params = {}) => fill(WORDS, lang, key, params);
const FILES = "abcdefghijklmn";
const cellName = (cell) => (COORDS[cell] ? `${FILES[COORDS[cell][0]]}${COORDS[cell][1] + 1}` : String(cell));
const cardKey = (colour, value) => `${colour}|${value}`;
const nameOf = (st, seat) => (st.names && st.names[seat]) || `#${seat}`;

function cardName(lang, colour, value) {
  return colour < 0 ? w(lang, value) : `${w(lang, value)}, ${w(lang, `colour_${colour}`)}`;
}

function itemName(st, lang, item) {
  const entry = (st.shop || []).find((x) => x.item === item);
  return entry ? entry[lang] || entry.en : item;
}

function squareName(st, lang, square) {
  const sq = (st.ring_squares || [])[square];
  return sq ? sq[lang] || sq.en : `#${square}`;
}

// a card as a small SVG: its colour (a wild card four-coloured) and its value's sign
export function cardIcon(colour, value, width = 30) {
  const height = Math.round(width * 1.4);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, width, height, "aria-hidden": "true", class: "die-icon" });
  if (colour < 0) {
    ARM_COLOUR.forEach((c, k) => svg.append(s("rect", { x: (k % 2) * width / 2, y: Math.floor(k / 2) * height / 2, width: width / 2, height: height / 2, fill: c })));
    svg.append(s("rect", { x: 0.5, y: 0.5, width: width - 1, height: height - 1, rx: 4, fill: "none", stroke: "#222" }));
  } else svg.append(s("rect", { x: 0.5, y: 0.5, width: width - 1, height: height - 1, rx: 4, fill: ARM_COLOUR[colour], stroke: "#222" }));
  svg.append(s("text", { x: width / 2, y: height / 2 + width * 0.22, "font-size": width * 0.62, "text-anchor": "middle", fill: "#fff", stroke: "#222", "stroke-width": 0.6, "paint-order": "stroke" }, CARD_GLYPH[value] || "?"));
  return svg;
}

// the choice in progress, kept across redraws of one decision
let pick = fresh("");
let shopOpen = false;
let ringOpen = null;  // null: as the screen and the phase suggest

function fresh(key) {
  return { key, card: null, tile: null, item: null, origin: null, first: null, colourFor: null };
}

// the descriptors, grouped as the board and the tray offer them
function index(moves) {
  const out = { cards: new Map(), tiles: new Map(), items: new Map(), free: [], buys: new Map(), reactions: [] };
  for (const m of moves) {
    const { kind, args } = m.command;
    if (kind === "play_card") {
      const key = cardKey(args.colour ?? 0, args.value);
      (out.cards.get(key) || out.cards.set(key, []).get(key)).push(m);
    } else if (kind === "place_domino") out.tiles.set(`${args.low ?? 0}|${args.high ?? 0}`, m);
    else if (kind === "use_item") (out.items.get(args.item) || out.items.set(args.item, []).get(args.item)).push(m);
    else if (kind === "free_move") out.free.push(m);
    else if (kind === "buy_item") out.buys.set(args.item, m);
    else if (kind === "say_uno" || kind === "catch_uno") out.reactions.push(m);
  }
  return out;
}

// the piece a descriptor moves: PlayCard's origin is optional (absent: none), the others' a plain
// number (absent: cell 0; -1: none)
function originOf(m) {
  const { kind, args } = m.command;
  return kind === "play_card" ? args.origin ?? -1 : args.origin ?? 0;
}

// piece moves among descriptors: origin -> [{target, move}] (a descriptor fixes its origin, a `target` choice)
function pieceMoves(moves) {
  const out = new Map();
  for (const m of moves) {
    const targets = param(m, "target");
    const origin = originOf(m);
    if (!targets || origin < 0) continue;
    for (const target of targets.values) (out.get(origin) || out.set(origin, []).get(origin)).push({ target, move: m });
  }
  return out;
}

function board(view, lang, { submit }) {
  const st = view.state;
  if (!st.pieces || !Array.isArray(st.arms)) return null;
  const wrap = h("div", { class: "homunculus", "data-testid": "hm-wrap" });
  const key = `${view.table}:${st.decision_no}:${st.phase}:${st.turn}`;
  if (pick.key !== key) pick = fresh(key);
  const redraw = () => wrap.replaceChildren(...draw(view, lang, submit, redraw));
  redraw();
  return wrap;
}

function draw(view, lang, submit, redraw) {
  const st = view.state;
  const moves = view.finished ? [] : view.moves || [];
  const ix = index(moves);
  const go = (kind, args) => { pick = fresh(pick.key); submit(kind, args); };
  const actions = new Map();  // cell -> {mark, label, act}
  const mark = (cell, kind, label, act) => actions.set(cell, { mark: kind, label, act });
  // a chosen move's target, then (a wild card) its colour
  const finish = (m, values) => {
    if (param(m, "choose_colour")) { pick.colourFor = { m, values }; redraw(); return; }
    go(m.command.kind, { ...m.command.args, ...values });
  };
  const pieces = (movesOf) => {
    const found = pieceMoves(movesOf);
    for (const [origin] of found) mark(origin, pick.origin === origin ? "picked" : "piece", cellName(origin), () => { pick.origin = pick.origin === origin ? null : origin; redraw(); });
    for (const { target, move } of found.get(pick.origin) || []) mark(target, "target", `${cellName(pick.origin)} → ${cellName(target)}`, () => finish(move, { target }));
  };
  if (pick.colourFor) {
    // nothing on the board: the colour is chosen in the tray
  } else if (pick.card && ix.cards.has(pick.card)) {
    pieces(ix.cards.get(pick.card));
  } else if (pick.tile && ix.tiles.has(pick.tile)) {
    const m = ix.tiles.get(pick.tile);
    const pairs = offered(param(m, "cells"));
    if (pick.first === null) for (const [a] of pairs) mark(a, "target", cellName(a), () => { pick.first = a; redraw(); });
    else {
      mark(pick.first, "picked", cellName(pick.first), () => { pick.first = null; redraw(); });
      for (const [a, b] of pairs) if (a === pick.first) mark(b, "target", cellName(b), () => go("place_domino", { ...m.command.args, cells: [a, b] }));
    }
  } else if (pick.item && CELL_ITEMS.has(pick.item) && ix.items.has(pick.item)) {
    const uses = ix.items.get(pick.item);
    if (uses.some((m) => originOf(m) >= 0 && param(m, "target"))) pieces(uses);
    else for (const m of uses) {
      const field = param(m, "target") ? "target" : "origin";
      for (const cell of offered(param(m, field))) mark(cell, "target", `${itemName(st, lang, pick.item)}: ${cellName(cell)}`, () => go("use_item", { ...m.command.args, [field]: cell }));
    }
  } else if (ix.free.length) {
    pieces(ix.free);
  }

  const arm = view.seat !== null && st.arms[view.seat] !== undefined ? st.arms[view.seat] : 0;
  const at = (cell) => {  // the viewer's arm at the bottom
    const [x, y] = COORDS[cell];
    const [col, row] = [[x, 13 - y], [13 - y, 13 - x], [13 - x, y], [y, x]][arm];
    return [PAD + col * C, PAD + row * C];
  };
  const opened = new Set(st.opened || []);
  const numbers = st.numbers || {};
  const mines = new Map((st.mines || []).map(([cell, owner]) => [cell, owner]));
  const detected = new Set(st.detected || []);
  const shields = new Set(st.shields || []);
  const tiles = new Map();
  for (const [id, owner, first, second, a, b] of st.dominoes || []) { tiles.set(a, id); tiles.set(b, id); }
  const svg = s("svg", { viewBox: `0 0 ${SIDE} ${SIDE}`, role: "group", "aria-label": "board", "data-testid": "hm-board" });
  const top = [];
  COORDS.forEach(([x, y], cell) => {
    const [x0, y0] = at(cell);
    const piece = st.pieces[cell];
    const centre = x >= 3 && x <= 10 && y >= 3 && y <= 10;
    const g = s("g", {
      "data-testid": `hc-${cell}`, "data-piece": piece ? `${piece[0]}:${piece[1]}` : "", "data-open": opened.has(cell) ? "1" : "0",
      "data-number": opened.has(cell) && numbers[cell] !== undefined ? numbers[cell] : "", "data-tile": tiles.has(cell) ? tiles.get(cell) : "",
      "data-mine": mines.has(cell) ? (mines.get(cell) ?? "nobody") : detected.has(cell) ? "detected" : "",
    });
    g.append(s("title", {}, cellName(cell)));
    const action = actions.get(cell);
    const dark = (x + y) % 2 === 0;
    const base = opened.has(cell) ? (dark ? "#e9e4d8" : "#f7f4ec") : centre ? (dark ? "#b9b3a6" : "#c8c2b5") : (dark ? "#d8d0bd" : "#ece6d7");
    const fills = { target: "#ffe08a", piece: "#fff3c4", picked: "#ffb703" };
    g.append(s("rect", { x: x0, y: y0, width: C, height: C, fill: action ? fills[action.mark] : base, stroke: "#a39a86", "stroke-width": 0.5 }));
    if (action) {
      g.setAttribute("data-target", action.mark);
      actionable(g, action.label, action.act);
      top.push(s("rect", { x: x0 + 1.5, y: y0 + 1.5, width: C - 3, height: C - 3, rx: 4, fill: "none", stroke: action.mark === "picked" ? "#b35900" : "#c99a00", "stroke-width": action.mark === "piece" ? 1.5 : 2.5 }));
    }
    svg.append(g);
  });
  const layer = s("g", { "pointer-events": "none" });
  for (const cell of opened) {
    const n = numbers[cell];
    if (!n || st.pieces[cell] || tiles.has(cell)) continue;
    const [x0, y0] = at(cell);
    layer.append(s("text", { x: x0 + C / 2, y: y0 + C * 0.68, "font-size": C * 0.5, "font-weight": "bold", "text-anchor": "middle", fill: NUMBER_COLOUR[n] || "#222" }, n));
  }
  for (const [cell, owner] of mines) {
    const [x0, y0] = at(cell);
    const colour = owner === null ? "#333" : ARM_COLOUR[st.arms[owner]];
    layer.append(s("circle", { cx: x0 + C * 0.78, cy: y0 + C * 0.22, r: C * 0.14, fill: colour, stroke: "#fff", "stroke-width": 1 }),
      s("text", { x: x0 + C * 0.78, y: y0 + C * 0.27, "font-size": C * 0.2, "text-anchor": "middle", fill: "#fff" }, "✹"));
  }
  for (const cell of detected) {
    if (mines.has(cell)) continue;
    const [x0, y0] = at(cell);
    layer.append(s("circle", { cx: x0 + C * 0.78, cy: y0 + C * 0.22, r: C * 0.14, fill: "#888", stroke: "#fff", "stroke-width": 1 }),
      s("text", { x: x0 + C * 0.78, y: y0 + C * 0.28, "font-size": C * 0.2, "text-anchor": "middle", fill: "#fff" }, "?"));
  }
  for (const [, owner, first, second, a, b] of st.dominoes || []) {
    const colour = ARM_COLOUR[st.arms[owner]] || "#555";
    const [pa, pb] = [at(a), at(b)];
    const x = Math.min(pa[0], pb[0]), y = Math.min(pa[1], pb[1]);
    const wide = pa[1] === pb[1];
    layer.append(s("rect", { x: x + 3, y: y + 3, width: (wide ? 2 * C : C) - 6, height: (wide ? C : 2 * C) - 6, rx: 6, fill: "#fffdf5", stroke: colour, "stroke-width": 3 }));
    [[pa, first], [pb, second]].forEach(([[cx, cy], n]) => layer.append(...pips(cx + 7, cy + 7, C - 14, n, colour)));
  }
  for (const [cellKey, [kind, side]] of Object.entries(st.pieces)) {
    const cell = Number(cellKey);
    const [x0, y0] = at(cell);
    const colour = ARM_COLOUR[st.arms[side]] || "#555";
    if (shields.has(cell)) layer.append(s("circle", { cx: x0 + C / 2, cy: y0 + C / 2, r: C * 0.46, fill: "none", stroke: "#5c6bc0", "stroke-width": 2.5, "stroke-dasharray": "5 2" }));
    layer.append(s("text", { x: x0 + C / 2, y: y0 + C * 0.8, "font-size": C * 0.8, "text-anchor": "middle", fill: colour, stroke: "#fff", "stroke-width": 1.5, "paint-order": "stroke" }, GLYPH[kind] || "?"));
    if (kind === 6 && st.wounded[side]) layer.append(s("text", { x: x0 + C * 0.85, y: y0 + C * 0.35, "font-size": C * 0.35, "text-anchor": "middle", fill: "#c62828", "font-weight": "bold" }, "+"));
  }
  svg.append(layer, s("g", { "pointer-events": "none" }, top));
  return [reactionBar(view, lang, ix, go), svg, tray(view, lang, { ix, go, redraw }), ring(view, lang)];
}

// «Уно!» and «Поймать»: shown while their window is open for this seat
function reactionBar(view, lang, ix, go) {
  if (!ix.reactions.length) return h("span", { hidden: true });
  return h("div", { class: "reactions row", "data-testid": "hm-reactions", role: "group" },
    ix.reactions.map((m) => h("button", { type: "button", class: "primary big", "data-testid": `hm-${m.command.kind}`, onclick: () => go(m.command.kind, m.command.args) }, w(lang, m.command.kind))),
    view.state.uno ? h("span", { class: "muted" }, nameOf(view.state, view.state.uno.seat)) : null);
}

function tray(view, lang, { ix, go, redraw }) {
  const st = view.state;
  const parts = [];
  const me = view.seat;
  const topCard = st.deck && st.deck.top;
  parts.push(h("div", { class: "row", "data-testid": "hm-table" },
    topCard ? h("span", { class: "row", "data-testid": "hm-top", "data-card": cardKey(topCard[0], topCard[1]) }, `${w(lang, "top")}: `, cardIcon(topCard[0], topCard[1], 24)) : null,
    h("span", { "data-testid": "hm-colour", "data-colour": st.colour }, `${w(lang, "colour")}: `, h("span", { class: "seat-dot", style: `background:${ARM_COLOUR[st.colour] || "#888"}` }), w(lang, `colour_${st.colour}`) || ""),
    h("span", { class: "muted" }, [st.direction > 0 ? "↻" : "↺", w(lang, "deck", { n: st.deck ? st.deck.draw_size : 0 }), w(lang, "discard", { n: st.deck ? st.deck.discard_size : 0 }),
      w(lang, "bazaar", { n: st.bazaar ? st.bazaar.size : 0 }), w(lang, "mines", { n: st.mine_count }), w(lang, "quiet", { n: st.quiet_rounds })].join(" · "))));
  if (pick.colourFor) {
    const { m, values } = pick.colourFor;
    parts.push(h("div", { class: "row", "data-testid": "hm-colours" }, h("span", {}, w(lang, "choose_colour")),
      offered(param(m, "choose_colour")).map((colour) => h("button", { type: "button", "data-testid": `hm-colour-${colour}`, onclick: () => go(m.command.kind, { ...m.command.args, ...values, choose_colour: colour }) },
        h("span", { class: "seat-dot", style: `background:${ARM_COLOUR[colour]}` }), w(lang, `colour_${colour}`))),
      h("button", { type: "button", onclick: () => { pick.colourFor = null; redraw(); } }, w(lang, "cancel"))));
  }
  if (me !== null && Array.isArray(st.hands) && st.hands[me]) {
    const choose = (key) => {
      const ms = ix.cards.get(key);
      if (pick.card === key) { pick = fresh(pick.key); redraw(); return; }
      pick = { ...fresh(pick.key), card: key };
      const direct = ms.length === 1 && !param(ms[0], "target") ? ms[0] : null;  // a card without a piece to move
      if (direct) finish(direct);
      else redraw();
    };
    const finish = (m) => {
      if (param(m, "choose_colour")) { pick.colourFor = { m, values: {} }; redraw(); return; }
      go(m.command.kind, m.command.args);
    };
    const card = ([colour, value], drawn) => {
      const key = cardKey(colour, value);
      const playable = ix.cards.has(key) && !pick.colourFor;
      const label = cardName(lang, colour, value);
      return playable
        ? h("button", { type: "button", class: `hcard${pick.card === key ? " picked" : ""}`, "aria-pressed": pick.card === key ? "true" : "false", "aria-label": label, title: label, "data-card": key, "data-playable": "1", "data-drawn": drawn ? "1" : null, onclick: () => choose(key) }, cardIcon(colour, value))
        : h("span", { class: "hcard", title: label, "data-card": key, "data-drawn": drawn ? "1" : null }, cardIcon(colour, value, 24));
    };
    parts.push(h("div", { class: "row", "data-testid": "hm-hand" }, h("strong", {}, `${w(lang, "hand")}: `),
      st.hands[me].length ? st.hands[me].map((c) => card(c, false)) : h("span", { class: "muted" }, w(lang, "none")),
      st.drawn ? [h("span", { class: "muted" }, `· ${w(lang, "drawn")}: `), card(st.drawn, true)] : null));
    const tiles = (st.domino_hands || [])[me] || [];
    parts.push(h("div", { class: "row", "data-testid": "hm-tiles" }, h("strong", {}, `${w(lang, "tiles")}: `),
      tiles.length ? tiles.map(([low, high]) => {
        const key = `${low}|${high}`;
        return ix.tiles.has(key) && !pick.colourFor
          ? h("button", { type: "button", class: `tile${pick.tile === key ? " picked" : ""}`, "aria-pressed": pick.tile === key ? "true" : "false", "aria-label": key, "data-tile": key, "data-testid": `hm-tile-${low}-${high}`,
            onclick: () => { pick = { ...fresh(pick.key), tile: pick.tile === key ? null : key }; redraw(); } }, tileIcon(low, high, "#fffdf5", "#333"))
          : h("span", { "data-tile": key }, tileIcon(low, high, "#fffdf5", "#333", 20));
      }) : h("span", { class: "muted" }, w(lang, "none"))));
  }
  if (Array.isArray(st.hands_all)) {  // the auditor sees every hand of cards and tiles
    parts.push(h("div", { "data-testid": "hm-hands" }, st.hands_all.map((hand, p) => h("div", { class: "row", "data-seat": p },
      h("span", { class: "muted" }, `${nameOf(st, p)}:`), hand.map(([colour, value]) => h("span", { "data-card": cardKey(colour, value) }, cardIcon(colour, value, 20))),
      ((st.domino_hands_all || [])[p] || []).map(([low, high]) => h("span", { "data-tile": `${low}|${high}` }, tileIcon(low, high, "#fffdf5", "#333", 18)))))));
  }
  const hint = hintText(view, lang, ix);
  if (hint) parts.push(h("p", { class: "hint", "data-testid": "hm-hint" }, hint,
    pick.card || pick.tile || pick.item ? h("button", { type: "button", style: "margin-left:.5rem", onclick: () => { pick = fresh(pick.key); redraw(); } }, w(lang, "cancel")) : null));
  if (me !== null) parts.push(inventory(view, lang, ix, go, redraw), shop(view, lang, ix, go));
  return h("div", { class: "tray" }, parts);
}

function hintText(view, lang, ix) {
  if (pick.colourFor) return "";
  if (pick.card) {
    const [colour, value] = pick.card.split("|");
    return w(lang, "pick_piece", { card: cardName(lang, Number(colour), value) }) + (pick.origin !== null ? ` ${w(lang, "pick_target")}` : "");
  }
  if (pick.tile) {
    const [low, high] = pick.tile.split("|");
    return pick.first === null ? w(lang, "pick_first", { low }) : w(lang, "pick_second", { high });
  }
  if (pick.item) return w(lang, "pick_cell", { item: itemName(view.state, lang, pick.item) });
  if (ix.free.length) return w(lang, "pick_free");
  if (ix.cards.size || ix.tiles.size) return w(lang, "pick");
  return "";
}

function inventory(view, lang, ix, go, redraw) {
  const st = view.state;
  const owned = (st.inventory || [])[view.seat] || [];
  if (!owned.length) return h("span", { hidden: true });
  return h("div", { class: "row", "data-testid": "hm-inventory" }, h("strong", {}, `${w(lang, "inventory")}: `), owned.map((item) => {
    const uses = ix.items.get(item) || [];
    const name = itemName(st, lang, item);
    if (!uses.length) return h("span", { class: "chip", "data-item": item }, name);
    const use = () => {
      const choice = uses[0].parameters[0];
      if (!choice) { go("use_item", uses[0].command.args); return; }
      pick = { ...fresh(pick.key), item: pick.item === item ? null : item };
      redraw();
    };
    // an item whose choice is not a cell (a colour, a player): one button per value
    const choice = pick.item === item && !CELL_ITEMS.has(item) ? uses[0].parameters[0] : null;
    const values = choice ? choice.values.map((v) => h("button", { type: "button", "data-testid": `hm-use-${item}-${v}`, onclick: () => go("use_item", { ...uses[0].command.args, [choice.field]: v }) },
      choice.field === "colour" ? w(lang, `colour_${v}`) : nameOf(st, v))) : [];
    return h("span", { class: "row" }, h("button", { type: "button", class: pick.item === item ? "picked" : "", "aria-pressed": pick.item === item ? "true" : "false", "data-testid": `hm-use-${item}`, "data-item": item, onclick: use }, `${w(lang, "use")}: ${name}`), values);
  }));
}

function shop(view, lang, ix, go) {
  const st = view.state;
  if (!ix.buys.size && !shopOpen) return h("span", { hidden: true });
  const gold = st.gold[view.seat];
  const box = h("details", { class: "shop", "data-testid": "hm-shop", open: shopOpen, ontoggle: () => { shopOpen = box.open; } },
    h("summary", {}, `${w(lang, "shop")} · ${w(lang, "gold")} ${gold}`),
    h("ul", { class: "shop-list" }, (st.shop || []).map((entry) => {
      const m = ix.buys.get(entry.item);
      return h("li", { "data-item": entry.item },
        m ? h("button", { type: "button", "data-testid": `hm-buy-${entry.item}`, onclick: () => go("buy_item", m.command.args) }, `${w(lang, "buy")} · ${entry.price}`)
          : h("span", { class: "muted price" }, String(entry.price)),
        h("strong", {}, ` ${entry[lang] || entry.en}`), h("span", { class: "muted" }, ` — ${entry[`effect_${lang}`] || entry.effect_en}`));
    })));
  return box;
}

// the ring of 40 lots: owners, buildings, mortgages, the tokens, the dice, an auction, an offer
function ring(view, lang) {
  const st = view.state;
  const r = st.ring;
  if (!r || !st.ring_squares) return h("span");
  const n = st.ring_squares.length, side = n / 4, cell = 34, size = (side + 1) * cell;
  const svg = s("svg", { viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": w(lang, "ring"), "data-testid": "hm-ring", class: "ring" });
  st.ring_squares.forEach((sq, i) => {
    const [cx, cy] = ringCell(i, n);
    const x = cx * cell, y = cy * cell;
    const owner = r.owners[i];
    const g = s("g", { "data-testid": `lot-${i}`, "data-owner": owner, "data-buildings": r.buildings[i], "data-mortgaged": r.mortgaged[i] ? "1" : "0" });
    g.append(s("title", {}, `${sq[lang] || sq.en}${sq.price ? ` · ${sq.price}` : ""}`));
    g.append(s("rect", { x, y, width: cell, height: cell, fill: r.mortgaged[i] ? "#d9d9d9" : "#fffdf6", stroke: "#777", "stroke-width": 0.6 }));
    if (sq.group) g.append(s("rect", { x: x + 1, y: y + 1, width: cell - 2, height: 6, fill: GROUP_COLOURS[sq.group] || "#999" }));
    if (owner >= 0) g.append(s("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, fill: "none", stroke: ARM_COLOUR[st.arms[owner]], "stroke-width": 2.5 }));
    const short = { start: "GO", dungeon: "▦", to_dungeon: "→▦", chance: "?", chest: "▣", tax: "$", free_parking: "P", gates: "≡", utility: "ϟ" }[sq.kind];
    if (short) g.append(s("text", { x: x + cell / 2, y: y + cell * 0.62, "font-size": 11, "text-anchor": "middle", fill: "#444" }, short));
    else if (sq.price) g.append(s("text", { x: x + cell / 2, y: y + cell * 0.62, "font-size": 9, "text-anchor": "middle", fill: "#555" }, sq.price));
    if (r.buildings[i]) g.append(s("text", { x: x + cell - 3, y: y + cell - 3, "font-size": 9, "text-anchor": "end", fill: r.buildings[i] === 5 ? "#b3261e" : "#0a6b0a", "font-weight": "bold" }, r.buildings[i] === 5 ? "H" : "⌂".repeat(r.buildings[i])));
    svg.append(g);
  });
  const here = new Map();
  (r.positions || []).forEach((square, p) => { if (st.alive[p]) (here.get(square) || here.set(square, []).get(square)).push(p); });
  for (const [square, list] of here) {
    const [cx, cy] = ringCell(square, n);
    list.forEach((p, k) => svg.append(s("circle", { cx: cx * cell + 7 + (k % 3) * 10, cy: cy * cell + cell - 7 - Math.floor(k / 3) * 10, r: 4.5, fill: ARM_COLOUR[st.arms[p]], stroke: "#fff", "stroke-width": 1, "data-testid": `token-${p}`, "data-position": square })));
  }
  const lines = [];
  if (r.dice && r.dice.length) lines.push(w(lang, "dice", { a: r.dice[0], b: r.dice[1] }));
  if (r.auction) lines.push(w(lang, "auction", { square: squareName(st, lang, r.auction.square), bid: r.auction.high_bid }));
  lines.push(w(lang, "bank", { houses: r.houses_bank, hotels: r.hotels_bank }));
  lines.forEach((line, k) => svg.append(s("text", { x: size / 2, y: size / 2 - 12 + k * 16, "font-size": 12, "text-anchor": "middle", fill: "#234" }, line)));
  const parts = [svg];
  if (r.offer) {
    const o = r.offer;
    const lots = (list) => list.map((q) => squareName(st, lang, q)).join(", ") || w(lang, "none");
    parts.push(h("p", { class: "status", "data-testid": "hm-offer" }, w(lang, "offer", { from: nameOf(st, o.proposer), to: nameOf(st, o.to), give: lots(o.give_lots), give_gold: o.give_gold, get: lots(o.get_lots), get_gold: o.get_gold })));
  }
  // folded on a phone unless the ring is what the turn is about (the user's own choice kept)
  const open = ringOpen ?? (window.innerWidth >= 600 || ["buy", "auction", "dungeon"].includes(st.phase) || Boolean(r.offer));
  const box = h("details", { class: "ring-box", "data-testid": "hm-ring-box", open },
    h("summary", { onclick: () => { ringOpen = !box.open; } }, w(lang, "ring")), parts);
  return box;
}

function players(view, lang) {
  const st = view.state;
  if (!Array.isArray(st.arms)) return h("span");
  return h("table", { class: "list" }, h("tbody", {}, st.arms.map((arm, p) => h("tr", {
    "data-testid": `player-${p}`, "data-gold": st.gold[p], "data-cards": st.hand_sizes[p], "data-tiles": st.domino_hand_sizes[p], "data-alive": st.alive[p] ? "1" : "0",
  },
    h("td", {}, h("span", { class: "seat-dot", style: `background:${ARM_COLOUR[arm]}` }), `#${p} ${nameOf(st, p)}`, p === view.seat ? " ★" : "", p === st.turn && !st.finished ? " ◀" : ""),
    h("td", {}, `${w(lang, "gold")} ${st.gold[p]}`),
    h("td", { class: "muted" }, `${w(lang, "cards")} ${st.hand_sizes[p]} · ${w(lang, "tiles_n")} ${st.domino_hand_sizes[p]}`),
    h("td", { class: "muted" }, [
      !st.alive[p] ? w(lang, "out") : "", st.wounded[p] ? w(lang, "wounded") : "", st.afk && st.afk.afk[p] ? w(lang, "afk") : "",
      st.ring && st.ring.dungeon && st.ring.dungeon[p] >= 0 ? w(lang, "dungeon") : "",
      ((st.inventory || [])[p] || []).map((item) => itemName(st, lang, item)).join(", "),
    ].filter(Boolean).join(" · "))))));
}

function moveLabel(kind, args, lang, view) {
  const st = view.state;
  const square = typeof args.square === "number" ? args.square : kind === "buy_lot" ? st.ring.buy_square : null;
  const params = {
    card: args.value ? cardName(lang, args.colour ?? 0, args.value) : "", low: args.low ?? 0, high: args.high ?? 0,
    item: args.item ? itemName(st, lang, args.item) : "", price: square !== null && st.ring_squares[square] ? st.ring_squares[square].price : "",
    square: square !== null ? squareName(st, lang, square) : "", amount: args.amount ?? "", name: nameOf(st, args.to ?? 0),
    answer: w(lang, args.accept ? "accept" : "decline"),
  };
  if (kind === "buy_item") params.price = ((st.shop || []).find((x) => x.item === args.item) || {}).price ?? "";
  return w(lang, kind, params);
}

function headline(view, lang) {
  const st = view.state;
  const phase = w(lang, `phase_${st.phase}`);
  return [w(lang, "round", { round: st.round_no + 1 }), phase].filter(Boolean).join(" · ");
}

function outcome(view, lang) {
  const st = view.state;
  const people = st.arms.map((_, p) => ({ seat: p, name: nameOf(st, p) }));
  const reason = w(lang, `reason_${st.end_reason}`);
  return [placesText(st.places, people), reason].filter(Boolean).join(" · ");
}

// a trade as two bundles: the lots and gold each side gives (the engine judges the offer)
function composer(move, view, lang, submit) {
  if (move.command.kind !== "offer_trade") return null;
  const st = view.state;
  const to = move.command.args.to ?? 0;
  const side = (owner, label, testid) => {
    const gold = h("input", { type: "number", min: 0, max: st.gold[owner], step: 1, value: 0, size: 5, "aria-label": `${label}: ${w(lang, "gold")}`, "data-field": "gold" });
    const lots = st.ring.owners.map((o, q) => (o === owner ? q : -1)).filter((q) => q >= 0).map((q) =>
      h("label", { class: "row" }, h("input", { type: "checkbox", value: q, "data-lot": q }), squareName(st, lang, q)));
    const box = h("fieldset", { "data-testid": testid }, h("legend", {}, label), h("label", {}, `${w(lang, "gold")} `, gold), lots);
    box.read = () => ({ lots: [...box.querySelectorAll("[data-lot]:checked")].map((c) => Number(c.value)), gold: Number(gold.value) || 0 });
    return box;
  };
  const give = side(view.seat, w(lang, "you_give"), `trade-give-${to}`);
  const get = side(to, w(lang, "you_get"), `trade-get-${to}`);
  return h("details", { class: "move", "data-testid": `trade-${to}` },
    h("summary", {}, w(lang, "offer_trade", { name: nameOf(st, to) })),
    h("div", { class: "row" }, give, get, h("button", { type: "button", "data-testid": `trade-send-${to}`, onclick: () => {
      const a = give.read(), b = get.read();
      submit("offer_trade", { to, give_lots: a.lots, get_lots: b.lots, give_gold: a.gold, get_gold: b.gold });
    } }, w(lang, "send"))));
}

export default { board, players, moveLabel, headline, outcome, composer, boardKinds: BOARD_KINDS };
