// Пузиполия: the ring of squares as SVG (owners, buildings, mortgages, tokens), the players, move labels.
import { h, s } from "../dom.js";
import { fill } from "../i18n.js";
import { GROUP_COLOURS, placesText, ringCell } from "./common.js";

const CELL = 64;

const WORDS = {
  en: {
    roll_for_order: "Roll for the order", roll: "Roll the dice", end_turn: "End the turn",
    pay_jail_fine: "Pay 50 to leave jail", use_jail_card: "Use the get-out-of-jail card",
    buy: "Buy {square} for {price}", decline_buy: "Decline (to auction)", bid: "Bid {amount}",
    pass_auction: "Pass the auction", build: "Build on {square}", sell_building: "Sell a building on {square}",
    mortgage: "Mortgage {square}", unmortgage: "Redeem {square}", pay_debt: "Pay the debt",
    collect_debt: "Sell and mortgage to pay the debt", surrender: "Surrender (bankrupt)",
    propose_trade: "Propose a trade", accept_trade: "Accept offer #{offer_id}", decline_trade: "Decline offer #{offer_id}",
    withdraw_trade: "Withdraw offer #{offer_id}", propose_end: "Propose to end the game", vote_end: "Vote: {yes}",
    leave: "Leave the game", round: "Round {round}", dice: "dice {dice}", money: "money", worth: "worth",
    jail: "in jail", out: "out", auction: "Auction: {square}, high bid {bid}", yes: "end", no: "play on",
    choose_67: "Move {steps}", you_give: "You give", you_get: "You get", trade_with: "Propose a trade to {name}…",
    propose: "Propose",
  },
  ru: {
    roll_for_order: "Бросить за очерёдность", roll: "Бросить кубики", end_turn: "Закончить ход",
    pay_jail_fine: "Заплатить 50 и выйти из тюрьмы", use_jail_card: "Карточка выхода из тюрьмы",
    buy: "Купить {square} за {price}", decline_buy: "Отказаться (на аукцион)", bid: "Ставка {amount}",
    pass_auction: "Выйти из аукциона", build: "Строить: {square}", sell_building: "Продать постройку: {square}",
    mortgage: "Заложить {square}", unmortgage: "Выкупить {square}", pay_debt: "Заплатить долг",
    collect_debt: "Продать и заложить, чтобы заплатить долг", surrender: "Сдаться (банкротство)",
    propose_trade: "Предложить обмен", accept_trade: "Принять №{offer_id}", decline_trade: "Отклонить №{offer_id}",
    withdraw_trade: "Отозвать №{offer_id}", propose_end: "Предложить закончить игру", vote_end: "Голос: {yes}",
    leave: "Покинуть игру", round: "Круг {round}", dice: "кубики {dice}", money: "деньги", worth: "капитал",
    jail: "в тюрьме", out: "выбыл", auction: "Аукцион: {square}, ставка {bid}", yes: "закончить", no: "играть дальше",
    choose_67: "Пройти {steps}", you_give: "Вы отдаёте", you_get: "Вы получаете", trade_with: "Предложить обмен: {name}…",
    propose: "Предложить",
  },
};

const w = (lang, key, params = {}) => fill(WORDS, lang, key, params);


function squareName(sq, lang) {
  return (lang === "ru" ? sq.ru : sq.en) || sq.key;
}

function wrap(text, width) {
  const words = text.split(/\s+/);
  const lines = [];
  let line = "";
  for (const word of words) {
    if ((line + " " + word).trim().length > width && line) { lines.push(line); line = word; }
    else line = (line + " " + word).trim();
  }
  if (line) lines.push(line);
  if (lines.length > 2) { lines.length = 2; lines[1] = lines[1].slice(0, width - 1) + "…"; }
  return lines.map((l) => (l.length > width ? l.slice(0, width - 1) + "…" : l));
}

function board(view, lang, { seatColour }) {
  const st = view.state;
  if (!st.squares || !st.players) return null;  // before the game is set up (an audit's first events)
  const n = st.squares.length;
  const side = n / 4;
  const size = (side + 1) * CELL;
  const narrow = window.innerWidth < 600;
  const svg = s("svg", { viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": "board", "data-testid": "pz-board" });
  svg.append(s("rect", { x: 0, y: 0, width: size, height: size, fill: "#e8f1e4" }));
  for (const sq of st.squares) {
    const [cx, cy] = ringCell(sq.index, n);
    const x = cx * CELL, y = cy * CELL;
    const g = s("g", {
      "data-testid": `sq-${sq.index}`, "data-owner": sq.owner ?? "", "data-buildings": sq.buildings ?? 0,
      "data-mortgaged": sq.mortgaged ? "1" : "0",
    });
    g.append(s("title", {}, `${squareName(sq, lang)}${sq.price ? ` · ${sq.price}` : ""}`));
    g.append(s("rect", { x, y, width: CELL, height: CELL, fill: sq.mortgaged ? "#d9d9d9" : "#fffdf6", stroke: "#555", "stroke-width": 1 }));
    if (sq.group) g.append(s("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: 9, fill: GROUP_COLOURS[sq.group] || "#999" }));
    if (narrow) g.append(s("text", { x: x + CELL / 2, y: y + 30, "font-size": 15, "text-anchor": "middle", fill: "#222" }, squareName(sq, lang).slice(0, 4)));
    else wrap(squareName(sq, lang), 11).forEach((line, k) =>
      g.append(s("text", { x: x + CELL / 2, y: y + 20 + k * 9, "font-size": 8, "text-anchor": "middle", fill: "#222" }, line)));
    if (sq.price && !narrow) g.append(s("text", { x: x + CELL / 2, y: y + 45, "font-size": 8, "text-anchor": "middle", fill: "#555" }, sq.price));
    if (sq.owner !== null && sq.owner !== undefined) {
      g.append(s("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, fill: "none", stroke: seatColour(sq.owner), "stroke-width": 3 }));
      g.append(s("text", { x: x + 5, y: y + 58, "font-size": 9, "font-weight": "bold", fill: seatColour(sq.owner) }, `#${sq.owner}`));
    }
    if (sq.buildings) {
      const label = sq.hotel ? "H" : "⌂".repeat(sq.buildings);
      g.append(s("text", { x: x + CELL - 4, y: y + 58, "font-size": 10, "text-anchor": "end", fill: sq.hotel ? "#b3261e" : "#0a6b0a" }, label));
    }
    svg.append(g);
  }
  // tokens: at their squares, side by side
  const here = new Map();
  for (const p of st.players) {
    if (p.status === "out" || p.status === "bankrupt") continue;
    const list = here.get(p.position) || [];
    list.push(p);
    here.set(p.position, list);
  }
  for (const [position, players] of here) {
    const [cx, cy] = ringCell(position, n);
    players.forEach((p, k) => {
      const x = cx * CELL + 10 + (k % 4) * 14, y = cy * CELL + 34 + Math.floor(k / 4) * 10;
      svg.append(s("g", { "data-testid": `token-${p.seat}`, "data-position": position },
        s("circle", { cx: x, cy: y, r: 6, fill: seatColour(p.seat), stroke: "#fff", "stroke-width": 1.5 }),
        s("text", { x, y: y + 3, "font-size": 8, "text-anchor": "middle", fill: "#fff", "font-weight": "bold" }, p.seat)));
    });
  }
  // the middle: round, dice, auction
  const mid = size / 2;
  const centre = [
    st.round ? w(lang, "round", { round: st.round_limit ? `${st.round}/${st.round_limit}` : st.round }) : "",
    st.dice && st.dice.length ? w(lang, "dice", { dice: st.dice.join(" + ") }) : "",
    st.auction ? w(lang, "auction", { square: squareName(st.squares[st.auction.square] || {}, lang), bid: st.auction.high_bid ?? st.auction.bid ?? 0 }) : "",
  ].filter(Boolean);
  centre.forEach((line, k) => svg.append(s("text", { x: mid, y: mid - 10 + k * (narrow ? 40 : 22), "font-size": narrow ? 32 : 16, "text-anchor": "middle", fill: "#234", "data-testid": k === 0 ? "pz-round" : null }, line)));
  return svg;
}

function players(view, lang, { seatColour }) {
  const st = view.state;
  if (!st.players) return h("span");
  return h("table", { class: "list" }, h("tbody", {}, st.players.map((p) => h("tr", {
    "data-testid": `player-${p.seat}`, "data-money": p.money, "data-position": p.position, "data-status": p.status,
  },
    h("td", {}, h("span", { class: "seat-dot", style: `background:${seatColour(p.seat)}` }), `#${p.seat} ${p.name}`, p.seat === view.seat ? " ★" : ""),
    h("td", {}, `${w(lang, "money")} ${p.money}`),
    h("td", { class: "muted" }, `${w(lang, "worth")} ${p.net_worth}`),
    h("td", { class: "muted" }, [p.in_jail ? w(lang, "jail") : "", p.status !== "active" && p.status !== "playing" ? p.status : ""].filter(Boolean).join(" "))))));
}

function moveLabel(kind, args, lang, view) {
  const sq = typeof args.square === "number" ? view.state.squares[args.square] : null;
  const params = { ...args, square: sq ? squareName(sq, lang) : args.square, price: sq ? sq.price : "" };
  if (kind === "vote_end") params.yes = args.yes ? w(lang, "yes") : w(lang, "no");
  if (kind === "bid" && typeof args.amount === "string") params.amount = args.amount;
  if (kind === "buy" && view.state.buy_square !== null && !sq) {
    const target = view.state.squares[view.state.buy_square];
    params.square = squareName(target, lang);
    params.price = target.price;
  }
  return w(lang, kind, params);
}

function headline(view, lang) {
  const st = view.state;
  return st.round ? w(lang, "round", { round: st.round_limit ? `${st.round}/${st.round_limit}` : st.round }) : "";
}

function outcome(view) {
  const result = view.state.result || view.outcome || {};
  return placesText(result.places, view.state.players) || JSON.stringify(result);
}

// a trade as two bundles: money and lots each side gives (the server's trade rules judge it)
function composer(move, view, lang, submit) {
  if (move.command.kind !== "propose_trade") return null;
  const st = view.state;
  const to = move.command.args.to_seat;
  const partner = st.players.find((p) => p.seat === to);
  const me = st.players.find((p) => p.seat === view.seat);
  if (!partner || !me) return null;
  const side = (owner, player, label) => {
    const money = h("input", { type: "number", min: 0, max: player.money, step: 1, value: 0, size: 6, "aria-label": `${label}: ${w(lang, "money")}`, "data-field": "money" });
    const lots = st.squares.filter((sq) => sq.owner === owner && !sq.buildings).map((sq) =>
      h("label", { class: "row" }, h("input", { type: "checkbox", value: sq.index, "data-lot": sq.index }), squareName(sq, lang)));
    const box = h("fieldset", {}, h("legend", {}, label), h("label", {}, `${w(lang, "money")} `, money), lots);
    box.read = () => {
      const bundle = { lots: [...box.querySelectorAll("[data-lot]:checked")].map((c) => Number(c.value)) };
      if (Number(money.value) > 0) bundle.money = Number(money.value);
      return bundle;
    };
    return box;
  };
  const give = side(view.seat, me, w(lang, "you_give"));
  const get = side(to, partner, w(lang, "you_get"));
  return h("details", { class: "move", "data-testid": `trade-${to}` },
    h("summary", {}, w(lang, "trade_with", { name: partner.name })),
    h("div", { class: "row" }, give, get,
      h("button", { type: "button", "data-testid": `trade-send-${to}`, onclick: () => submit("propose_trade", { to_seat: to, give: give.read(), get: get.read() }) }, w(lang, "propose"))));
}

export default { board, players, moveLabel, headline, outcome, composer };
