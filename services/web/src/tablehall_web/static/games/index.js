// Each game's drawing for the page, by game id; a game without one is played from the generic parts.
import dragons from "./dragons.js";
import homunculus from "./homunculus.js";
import magnates from "./magnates.js";
import puzzipolia from "./puzzipolia.js";

const PLUGINS = { puzzipolia, magnates, dragons, homunculus };

// one colour per seat, apart from the boards' group colours; the seat's number is always shown too
export const SEAT_COLOURS = ["#1b1b1b", "#7b4fd6", "#0097a7", "#a07040", "#d6339c", "#5a9e00", "#3355cc", "#e07b00"];

export function seatColour(seat) {
  return SEAT_COLOURS[((seat % SEAT_COLOURS.length) + SEAT_COLOURS.length) % SEAT_COLOURS.length];
}

export function pluginFor(game) {
  return PLUGINS[game] || { board: () => null };
}
