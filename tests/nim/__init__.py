"""Ним: the platform's sixth game, used only by the tests, built on the game kit."""
