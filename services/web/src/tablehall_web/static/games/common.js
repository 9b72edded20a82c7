// What the games' drawings share.
import { s } from "../dom.js";

// the colours of the lot groups of a Monopoly ring (Пузиполия, Гомункул's ring)
export const GROUP_COLOURS = {
  brown: "#8b5a2b", light_blue: "#87ceeb", pink: "#ff69b4", orange: "#ff8c00", red: "#e02020",
  yellow: "#f2d600", green: "#00a000", dark_blue: "#4169e1", teal: "#008080", lime: "#32cd32",
  silver: "#c0c0c0", gold: "#ffd700",
  transport: "#555", utility: "#8a8a8a",
};

// the cell of square `i` on a ring of `n` squares (n/4 a side): 0 at the bottom right, clockwise by the bottom
export function ringCell(i, n) {
  const side = n / 4;
  if (i <= side) return [side - i, side];
  if (i <= 2 * side) return [0, side - (i - side)];
  if (i <= 3 * side) return [i - 2 * side, 0];
  return [side, i - 3 * side];
}

// places as the games give them (one entry per place, a list of seats where several share it) in words
export function placesText(places, players) {
  const name = (seat) => ((players || []).find((p) => p.seat === seat) || {}).name || `#${seat}`;
  return (places || []).map((entry, k) => `${k + 1}. ${[].concat(entry).map(name).join(", ")}`).join("; ");
}

// the cells of a board as tablehall_boards.grid numbers them: south to north, west to east in a row
export function gridCoords(onBoard, lo, hi) {
  const coords = [];
  for (let y = lo; y <= hi; y++) for (let x = lo; x <= hi; x++) if (onBoard(x, y)) coords.push([x, y]);
  return coords;
}

// an SVG element made a button: it takes focus, and a click, Enter or Space acts
export function actionable(el, label, act) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.addEventListener("click", act);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); }
  });
  return el;
}

// where a die's pips sit for each number (a domino's blank half has none), in a unit square
const PIPS = {
  0: [], 1: [[0.5, 0.5]], 2: [[0.27, 0.27], [0.73, 0.73]], 3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
  6: [[0.27, 0.25], [0.73, 0.25], [0.27, 0.5], [0.73, 0.5], [0.27, 0.75], [0.73, 0.75]],
};

// the pips of `number` on a square at (x, y) of side `size`
export function pips(x, y, size, number, fill) {
  return (PIPS[number] || []).map(([px, py]) => s("circle", { cx: x + px * size, cy: y + py * size, r: Math.max(1.2, size * 0.09), fill }));
}

// a die face as a small SVG of its own (the rolled dice, a hand's tiles)
export function dieIcon(number, fill, pipFill, size = 28) {
  return s("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, "aria-hidden": "true", class: "die-icon" },
    s("rect", { x: 1, y: 1, width: size - 2, height: size - 2, rx: size * 0.18, fill, stroke: "#333", "stroke-width": 1 }),
    pips(1, 1, size - 2, number, pipFill));
}

// a domino tile low|high as a small SVG (side by side)
export function tileIcon(first, second, fill, pipFill, size = 26) {
  return s("svg", { viewBox: `0 0 ${2 * size} ${size}`, width: 2 * size, height: size, "aria-hidden": "true", class: "die-icon" },
    s("rect", { x: 1, y: 1, width: 2 * size - 2, height: size - 2, rx: size * 0.15, fill, stroke: "#333", "stroke-width": 1 }),
    s("line", { x1: size, y1: 3, x2: size, y2: size - 3, stroke: "#333", "stroke-width": 1 }),
    pips(1, 1, size - 2, first, pipFill), pips(size + 1, 1, size - 2, second, pipFill));
}

// a parameter of a descriptor by its field
export function param(move, field) {
  return move.parameters.find((p) => p.field === field) || null;
}

// the values a parameter offers: a choice's values, or a rule's examples
export function offered(p) {
  return p ? p.values : [];
}
