"""A frame: what one viewer is shown of one version of a table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tablehall_projection.access import Role
from tablehall_rules import PendingDecision
from tablehall_rules.disclosure import visible_decisions
from tablehall_stream.fold import TableFold, viewer_of
from tablehall_stream.journal_lines import JournalLine


@dataclass
class Frame:
    table_id: str
    version: int
    role: Role
    game: str
    view: dict[str, Any]
    journal: list[JournalLine]
    decisions: list[PendingDecision]
    finished: bool
    outcome: dict[str, Any] | None
    # the version this change follows: `version - 1`, or earlier for a change of a whole command
    since: int
    # adapters memoise their encoding here: one encoding per frame, shared by every watcher
    wire: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    # when the match decided the command this live frame shows (unix seconds; None: a frame
    # rendered for one watcher, a snapshot or a catch-up): its delay is measured from there
    decided_at: float | None = field(default=None, compare=False, repr=False)


def render(fold: TableFold, role: Role, lines: Sequence[JournalLine], since: int | None = None) -> Frame:
    """The frame of `fold`'s current version for `role` (`lines`: the journal of the versions after
    `since`, by default the previous one); redaction is the game's `view`."""
    started = fold.started is not None and fold.state is not None
    return Frame(
        table_id=fold.table_id,
        version=fold.version,
        role=role,
        game=fold.game_id,
        view=fold.view(role.name, role.seat),
        journal=[line for line in lines if line.visible_to(role.name, role.seat)],
        decisions=visible_decisions(fold.game.pending(fold.state), viewer_of(role.name, role.seat))
        if started and fold.ended is None
        else [],
        finished=fold.ended is not None,
        outcome=fold.ended.outcome if fold.ended is not None else None,
        since=fold.version - 1 if since is None else since,
    )
