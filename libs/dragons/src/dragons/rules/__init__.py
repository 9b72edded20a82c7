"""One module per topic of the rules: set-up, rounds, a turn's uses of a die, the end, the table."""
