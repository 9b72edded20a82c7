"""The bot's moves travel on one SubmitCommands stream, answered as SubmitCommand answers them;
a stream that ended is opened again for the next move, and a repeat is still a repeat."""

from __future__ import annotations

from support.matchkit import Running, Tokens, new_table
from tablehall_bot.match_client import Answer, MatchClient

from tablehall.match.v1 import match_pb2


async def _bot_table(match: Running, tokens: Tokens) -> str:
    table = new_table()
    await match.stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game="puzzipolia",
            options_json="{}",
            seats=[match_pb2.Seat(seat=i, user_id=f"bot-{i}", name=f"Bot {i + 1}", is_bot=True) for i in (0, 1)],
            request_id="start",
        ),
        metadata=tokens("lobby", ("service",)),
    )
    return table.split("/")[1]


async def test_moves_on_one_stream_a_new_one_after_it_ended_and_refusals_as_answers(
    match: Running, tokens: Tokens
) -> None:
    table = await _bot_table(match, tokens)
    client = MatchClient(match.address, tokens("bot", ("service",)))
    try:
        view = await client.seat_view(table, 0)
        (key,) = [d.key for d in view.decisions if d.seat == 0]
        roll = next(c for c in view.legal if type(c).__name__ == "RollForOrder")
        assert await client.submit(table, "puzzipolia", 0, roll, "bot:a", [key]) is Answer.MADE
        first = client._moves
        assert first is not None
        assert await client.submit(table, "puzzipolia", 0, roll, "bot:a", [key]) is Answer.DUPLICATE
        assert client._moves is first  # the same stream
        await first.close()  # the stream ends (a server stopping, a dropped connection)
        assert first.ended
        # the decision was taken: the move chosen for it is refused as stale, on a new stream
        assert await client.submit(table, "puzzipolia", 0, roll, "bot:b", [key]) is Answer.STALE
        assert client._moves is not None and client._moves is not first and not client._moves.ended
        assert "DECISION_ALREADY_TAKEN" in client.last_error
        later = await client.seat_view(table, 1)
        assert later.version > view.version
        (key1,) = [d.key for d in later.decisions if d.seat == 1]
        roll1 = next(c for c in later.legal if type(c).__name__ == "RollForOrder")
        assert await client.submit(table, "puzzipolia", 1, roll1, "bot:c", [key1]) is Answer.MADE
        assert (await client.seat_view(table, 1)).version > later.version
    finally:
        await client.close()
