"""Гомункул (`homunculus`): four-army chess on the cross with cards, dominoes and mines.

A pure rules library (no I/O, no clock, randomness only through `ctx.rng`). This first part
covers the board and armies, the cards, the dominoes and the minesweeper; the Monopoly ring,
gold beyond capture rewards, the shop, debts, the round die and the 30-round rule are not
implemented yet (see `docs/rules/homunculus.md`). `homunculus.game.GAME` is the
`tablehall_rules.Game` object, registered as the `tablehall.games` entry point `homunculus`.
"""
