"""Seat colours: one per seat, none of them a board group's colour, each shown with the seat's
digit so that seats differ even without colour."""

from __future__ import annotations

from rich.text import Text

# chosen apart from the group colours of the games' boards (reds, yellows, greens, blues, pinks,
# oranges, browns, teal, silver, gold)
SEAT_COLOURS = ("#ffffff", "#af87ff", "#00ffff", "#d7af87", "#ff5fd7", "#87ff00", "#5f87ff", "#ffaf5f")


def seat_style(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_badge(seat: int) -> Text:
    """The seat's digit (seat + 1) on its colour."""
    return Text(str((seat + 1) % 10), style=f"bold #000000 on {seat_style(seat)}")
