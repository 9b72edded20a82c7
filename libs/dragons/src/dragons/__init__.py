"""Драконы играют не только в покер (`dragons`): the pure rules engine (see docs/rules/dragons.md)."""
