"""The `pycon` examples in docs/games.md run as doctests (one session, in order), so they stay true."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

GAMES_MD = Path(__file__).resolve().parents[2] / "docs" / "games.md"
BLOCK = re.compile(r"```pycon\n(.*?)```", re.DOTALL)


def test_the_examples_in_games_md_are_true() -> None:
    text = GAMES_MD.read_text(encoding="utf-8")
    blocks = list(BLOCK.finditer(text))
    assert len(blocks) >= 2, "docs/games.md lost its examples"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    session: dict[str, object] = {}
    for block in blocks:
        line = text.count("\n", 0, block.start(1))
        test = parser.get_doctest(block.group(1), session, "docs/games.md", str(GAMES_MD), line)
        assert test.examples, f"the block at line {line} has no >>> lines"
        runner.run(test, clear_globs=False)
        session = test.globs  # the next block goes on from this one's names
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in docs/games.md fail (printed above)"
