"""A dice race: the platform's test game (not a product game)."""
