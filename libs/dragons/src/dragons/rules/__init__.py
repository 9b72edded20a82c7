"""One module per topic of the rules.

- `setup`: options and the start ring; `rounds`: the five dice of a round, its turns and the
  domino choice; `turn`: a turn's uses of a die (place, chess move, domino, discard, black die);
- `placement`: where a die or a domino may go (rules 1-4); `combos`: straights and fours;
  `chess`: a die's moves as its piece; `contour`: the rule `contour` and its example cycles, found
  around `pockets` and pruned by `enclosure`;
- `end`: the end, final scores and places; `table`: what the rules add to the platform's table
  commands (removal, closing, hand-over).

The board's geometry (cells, sides, neighbours, line windows) is `dragons.board`.
"""
