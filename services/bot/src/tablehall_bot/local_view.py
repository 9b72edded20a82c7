"""A bot seat's view and legal commands rendered in the bot from the table's folded state.

The match renders the same from the same state (`game.view`, `game.legal`), but asking it costs a
gRPC call, the view encoded to JSON and decoded again, and the legal moves to protobuf and back:
about a millisecond of a move. Rendered here, the view is made JSON-shaped (`to_builtins` with
string keys: what decoding the match's JSON gives; a game's `JsonView` is that already) so a bot's
policy reads the same data either way.
The legal moves stay the game's descriptors (`SeatView.moves`): an easy bot whose game decides on
them never spells them out; any other player reads `SeatView.legal`, the commands the match's
protobuf would have carried.
"""

from __future__ import annotations

from tablehall_bot.match_client import SeatView
from tablehall_bot.seats import TableSeats
from tablehall_rules import Viewer, json_shaped
from tablehall_rules.disclosure import visible_decisions


def folded_view(table: str, seats: TableSeats, seat: int, now_ms: int) -> SeatView | None:
    """`seat`'s view at the version folded in `seats`; None where no game state is folded (not
    started, ended, or a stream this process could not fold) or the fold stands between two events
    of one command (relayed events are folded as they come, one message at a time)."""
    fold = seats.game_fold
    if fold is None or not seats.at_command_end or fold.started is None or fold.state is None or fold.ended is not None:
        return None
    game, state, viewer = fold.game, fold.state, Viewer.of_seat(seat)
    return SeatView(
        table=table,
        game=game.id,
        version=fold.version,
        seat=seat,
        view=json_shaped(game.view(state, viewer)),
        decisions=visible_decisions(game.pending(state), viewer),
        finished=False,
        moves=game.legal(state, seat, now_ms),
    )
