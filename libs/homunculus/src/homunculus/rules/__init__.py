"""The rules of a turn, one module per topic."""
