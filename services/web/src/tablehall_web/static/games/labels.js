// Games whose boards the page does not draw yet: their moves' names in both languages, so the
// generic buttons read as moves (the arguments follow in brackets).
import { fill } from "../i18n.js";

const HOMUNCULUS = {
  en: {
    play_card: "Play a card", place_domino: "Place a tile", draw_card: "Draw a card", exchange_card: "Exchange a card",
    keep_card: "Keep the drawn card", free_move: "Free move", end_turn: "End the turn", say_uno: "«Uno!»",
    catch_uno: "«Catch!»", surrender: "Surrender", buy_item: "Buy in the shop", use_item: "Use an item",
    roll_dice: "Try for doubles", pay_fine: "Pay 5 to leave", use_pass: "Use the pass", buy_lot: "Buy the lot",
    decline_lot: "Decline the lot", bid: "Bid", pass_bid: "Pass the auction", build: "Build", mortgage: "Mortgage",
    redeem: "Redeem", offer_trade: "Offer a trade", answer_trade: "Answer the trade",
  },
  ru: {
    play_card: "Сыграть карту", place_domino: "Положить плитку", draw_card: "Взять карту", exchange_card: "Обменять карту",
    keep_card: "Оставить взятую карту", free_move: "Свободный ход", end_turn: "Закончить ход", say_uno: "«Уно!»",
    catch_uno: "«Поймать»", surrender: "Сдаться", buy_item: "Купить в лавке", use_item: "Применить предмет",
    roll_dice: "Бросить на дубль", pay_fine: "Заплатить 5 и выйти", use_pass: "Использовать пропуск", buy_lot: "Купить участок",
    decline_lot: "Отказаться от участка", bid: "Ставка", pass_bid: "Выйти из аукциона", build: "Строить", mortgage: "Заложить",
    redeem: "Выкупить", offer_trade: "Предложить обмен", answer_trade: "Ответить на обмен",
  },
};

const DRAGONS = {
  en: {
    place_start: "Place the start die", place_die: "Place the die", chess_move: "Chess move", place_domino: "Place a domino",
    discard_die: "Discard the die", place_black: "Place the black die", take_domino: "Take the domino",
  },
  ru: {
    place_start: "Поставить стартовый кубик", place_die: "Поставить кубик", chess_move: "Шахматный ход", place_domino: "Положить домино",
    discard_die: "Сбросить кубик", place_black: "Поставить чёрный кубик", take_domino: "Взять домино",
  },
};

function labelled(words) {
  return {
    board: () => null,
    moveLabel: (kind, args, lang) => {
      const name = fill(words, lang, kind);
      if (!name) return null;
      const shown = Object.entries(args).map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`);
      return shown.length ? `${name} (${shown.join(", ")})` : name;
    },
  };
}

export const homunculus = labelled(HOMUNCULUS);
export const dragons = labelled(DRAGONS);
