"""Duels and raids.

Duel: both roll a die and add power (Queen 2, Rook/Bishop/Knight 1, King 0); the higher wins,
the defender wins ties; the loser is lost and the bank pays the winner's owner half the loser's
price. A defeated King eliminates its owner and the winner takes its cash.
Raid: attacker die + power against the owner's die + the Company's level; strictly higher takes
the Company with its level; otherwise the raider is lost (and no fine is paid).
"""

from __future__ import annotations

from magnates import events as e
from magnates import tables
from magnates.flow import Flow
from magnates.rules.elimination import eliminate
from magnates.state import BANK


def duel(flow: Flow, attacker: int, attacker_piece: str, defender: int, defender_piece: str) -> bool:
    a_roll, d_roll = flow.die(), flow.die()
    won = a_roll + tables.POWER[attacker_piece] > d_roll + tables.POWER[defender_piece]
    flow.emit(e.DuelFought(attacker, attacker_piece, defender, defender_piece, a_roll, d_roll, won))
    winner, loser, lost = (attacker, defender, defender_piece) if won else (defender, attacker, attacker_piece)
    prize = tables.PIECE_PRICE[lost] // 2
    if prize:
        flow.emit(e.Paid(BANK, winner, prize, "duel"))
    if lost == "king":
        cash = flow.state.players[loser].cash
        if cash > 0:
            flow.emit(e.Paid(loser, winner, cash, "takeover"))
        eliminate(flow, loser, "king")
    else:
        flow.emit(e.PieceLost(loser, lost, "duel"))
    return won


def raid(flow: Flow, seat: int, piece: str, cell: int) -> bool:
    owner = flow.state.owner[cell]
    a_roll, o_roll = flow.die(), flow.die()
    success = a_roll + tables.POWER[piece] > o_roll + flow.state.level[cell]
    flow.emit(e.RaidFought(seat, piece, cell, owner, a_roll, o_roll, success))
    if success:
        flow.emit(e.CompanyChanged(cell, seat, flow.state.level[cell], "raid"))
    else:
        flow.emit(e.PieceLost(seat, piece, "raid"))
    return success
