"""Table control: the platform's generic table actions (presence, bot hand-over and hand-back,
removal, the host's proposal to end, closing), each submitted as the game's own system command
for the table; a game with no rule for one leaves the table as it is."""

from __future__ import annotations

import msgspec

from tablehall_match.hosting import TableHost
from tablehall_match.submitting import Submitter
from tablehall_platform.auth import Principal
from tablehall_platform.errors import BadRequest, PermissionDenied, Refused
from tablehall_rules import TableControl


def control_command(game: object, action: str, seat: int, flag: bool, reason: str) -> msgspec.Struct | None:
    """The game's own system command for a generic table action (None: the game has no rule for it)."""
    if not isinstance(game, TableControl):
        return None
    if action == "presence":
        return game.presence_command(seat, flag)
    if action == "controller":
        return game.controller_command(seat, flag)
    if action == "remove":
        return game.remove_command(seat)
    if action == "host_propose_end":
        return game.host_end_command(seat if seat >= 0 else None)
    if action == "close":
        return game.close_command(reason)
    return None


class TableActions:
    def __init__(self, host: TableHost, submitter: Submitter) -> None:
        self.host = host
        self.submitter = submitter

    async def control(
        self,
        principal: Principal,
        table_id: str,
        action: str,
        request_id: str,
        seat: int = -1,
        flag: bool = False,
        reason: str = "",
    ) -> tuple[int, bool, bool]:
        """A generic table action (presence, controller, remove, host_propose_end, close);
        (version, duplicate, applied). For host_propose_end, `seat` is the host's seat or -1."""
        allowed = principal.is_service or (action == "close" and principal.is_operator)
        if not allowed:
            raise PermissionDenied(
                "NOT_ALLOWED",
                "Only the table's services (or an operator, to close) may do this.",
                ru="Это могут только службы стола (закрыть — оператор).",
            )
        live = await self.host.table(table_id)
        seatless = action == "close" or (action == "host_propose_end" and seat == -1)
        if not seatless and not 0 <= seat < len(live.seats):
            raise BadRequest("NO_SUCH_SEAT", f"Seat {seat} does not exist.", ru="Такого места нет.")
        command = control_command(live.game, action, seat, flag, reason)
        if command is None:
            return live.version, False, False
        # who plays a seat is the platform's fact too: the bot service may act only there
        facts = {"controller": {"seat": seat, "by_bot": flag}} if action == "controller" else None
        try:
            result = await self.submitter.submit(principal, table_id, None, command, request_id, facts=facts)
        except Refused as refusal:
            if refusal.reason != "NOTHING_HAPPENED":
                raise
            # the seat is already so (a bot's own seat taken by a person, a presence told twice)
            return live.version, False, False
        return result.version, result.duplicate, True
