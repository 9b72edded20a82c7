"""The lobby's gRPC port: requests in, application calls, replies out."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc

from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall.match.v1 import match_pb2
from tablehall_lobby.app import LobbyApp
from tablehall_lobby.convert import game_to_proto, message_to_proto, table_to_proto
from tablehall_lobby.exposure import exposure, in_listing
from tablehall_lobby.identity import Actor, Identity
from tablehall_lobby.presence import PresenceHub
from tablehall_lobby.state import LobbyTable
from tablehall_platform.auth import current_principal
from tablehall_platform.errors import BadRequest
from tablehall_platform.names import options_from_json, parse_table
from tablehall_platform.table_access import Exposure
from tablehall_rules.registry import available_games

Ctx = Any  # grpc.aio.ServicerContext (grpc is untyped here)

# the lobby's AddBotRequest.difficulty -> BotAdded.difficulty (unspecified: easy)
BOT_DIFFICULTIES = {
    lobby_pb2.BOT_DIFFICULTY_UNSPECIFIED: "easy",
    lobby_pb2.BOT_DIFFICULTY_EASY: "easy",
    lobby_pb2.BOT_DIFFICULTY_STRONG: "strong",
}


class LobbyServicer(lobby_pb2_grpc.LobbyServiceServicer):  # type: ignore[misc]
    def __init__(self, app: LobbyApp, identity: Identity, presence: PresenceHub) -> None:
        self.app = app
        self.identity = identity
        self.presence = presence

    def _actor(self) -> Actor:
        return self.identity.actor()

    @staticmethod
    def _table(table: LobbyTable, actor: Actor) -> lobby_pb2.Table:
        return table_to_proto(table, exposure(table, actor))

    async def ListGames(self, request: lobby_pb2.ListGamesRequest, context: Ctx) -> lobby_pb2.ListGamesResponse:
        self._actor()
        return lobby_pb2.ListGamesResponse(games=[game_to_proto(g) for g in available_games()])

    async def CreateTable(self, request: lobby_pb2.CreateTableRequest, context: Ctx) -> lobby_pb2.CreateTableResponse:
        actor = self._actor()
        table = await self.app.create_table(
            actor,
            request.game,
            options_from_json(request.options_json),
            request.seat_count,
            request.private,
            request.pin,
            request.spectators_allowed if request.HasField("spectators_allowed") else True,
            request.request_id,
        )
        return lobby_pb2.CreateTableResponse(table=self._table(table, actor))

    async def ListTables(self, request: lobby_pb2.ListTablesRequest, context: Ctx) -> lobby_pb2.ListTablesResponse:
        actor = self._actor()
        page = await self.app.list_tables(request.game, request.include_started, request.page_size, request.page_token)
        shown = [(t, in_listing(t, actor)) for t in page.tables]
        return lobby_pb2.ListTablesResponse(
            tables=[table_to_proto(t, min(e, Exposure.LISTING)) for t, e in shown if e > Exposure.HIDDEN],
            next_page_token=page.next_token,
        )

    async def GetTable(self, request: lobby_pb2.GetTableRequest, context: Ctx) -> lobby_pb2.GetTableResponse:
        actor = self._actor()
        table = await self.app.get_table(parse_table(request.table))
        seen = exposure(table, actor)
        card = table_to_proto(table, seen)
        if table.private and seen == Exposure.FULL:  # the live PIN guard, not the last notice
            guard = await self.app.pins.guard(table.table_id)
            card.pin_failures, card.pin_locked_until_unix_ms = guard.failures, guard.locked_until_ms
        return lobby_pb2.GetTableResponse(table=card)

    async def UpdateOptions(
        self, request: lobby_pb2.UpdateOptionsRequest, context: Ctx
    ) -> lobby_pb2.UpdateOptionsResponse:
        actor = self._actor()
        table = await self.app.update_options(
            actor, parse_table(request.table), options_from_json(request.options_json), request.request_id
        )
        return lobby_pb2.UpdateOptionsResponse(table=self._table(table, actor))

    async def SetPrivacy(self, request: lobby_pb2.SetPrivacyRequest, context: Ctx) -> lobby_pb2.SetPrivacyResponse:
        actor = self._actor()
        table = await self.app.set_privacy(
            actor, parse_table(request.table), request.private, request.pin, request.request_id
        )
        return lobby_pb2.SetPrivacyResponse(table=self._table(table, actor))

    async def SetSpectatorPolicy(
        self, request: lobby_pb2.SetSpectatorPolicyRequest, context: Ctx
    ) -> lobby_pb2.SetSpectatorPolicyResponse:
        actor = self._actor()

        def flag(name: str) -> bool | None:
            return bool(getattr(request, name)) if request.HasField(name) else None

        table = await self.app.set_spectator_policy(
            actor,
            parse_table(request.table),
            flag("spectators_allowed"),
            flag("spectator_chat"),
            flag("bot_seats_to_spectators"),
            request.request_id,
        )
        return lobby_pb2.SetSpectatorPolicyResponse(table=self._table(table, actor))

    async def InvitePlayer(
        self, request: lobby_pb2.InvitePlayerRequest, context: Ctx
    ) -> lobby_pb2.InvitePlayerResponse:
        actor = self._actor()
        table = await self.app.invite(actor, parse_table(request.table), request.user_id, request.request_id)
        return lobby_pb2.InvitePlayerResponse(table=self._table(table, actor))

    async def JoinTable(self, request: lobby_pb2.JoinTableRequest, context: Ctx) -> lobby_pb2.JoinTableResponse:
        actor = self._actor()
        seat = request.seat if request.HasField("seat") else None
        table = await self.app.join(actor, parse_table(request.table), request.pin, seat, request.request_id)
        taken = table.seat_of(actor.user_id)
        return lobby_pb2.JoinTableResponse(table=self._table(table, actor), seat=-1 if taken is None else taken)

    async def LeaveSeat(self, request: lobby_pb2.LeaveSeatRequest, context: Ctx) -> lobby_pb2.LeaveSeatResponse:
        actor = self._actor()
        table = await self.app.leave(actor, parse_table(request.table), request.request_id)
        return lobby_pb2.LeaveSeatResponse(table=self._table(table, actor))

    async def EnterTable(self, request: lobby_pb2.EnterTableRequest, context: Ctx) -> lobby_pb2.EnterTableResponse:
        actor = self._actor()
        table = await self.app.enter(actor, parse_table(request.table), request.pin, request.request_id)
        return lobby_pb2.EnterTableResponse(table=self._table(table, actor))

    async def AddBot(self, request: lobby_pb2.AddBotRequest, context: Ctx) -> lobby_pb2.AddBotResponse:
        actor = self._actor()
        seat = request.seat if request.HasField("seat") else None
        difficulty = BOT_DIFFICULTIES.get(request.difficulty)
        if difficulty is None:
            raise BadRequest("UNKNOWN_DIFFICULTY", "Unknown bot difficulty.", ru="Неизвестная сложность бота.")
        table, added = await self.app.add_bot(actor, parse_table(request.table), seat, request.request_id, difficulty)
        return lobby_pb2.AddBotResponse(table=self._table(table, actor), seat=added)

    async def RemoveSeat(self, request: lobby_pb2.RemoveSeatRequest, context: Ctx) -> lobby_pb2.RemoveSeatResponse:
        actor = self._actor()
        table = await self.app.remove_seat(actor, parse_table(request.table), request.seat, request.request_id)
        return lobby_pb2.RemoveSeatResponse(table=self._table(table, actor))

    async def RemoveSpectator(
        self, request: lobby_pb2.RemoveSpectatorRequest, context: Ctx
    ) -> lobby_pb2.RemoveSpectatorResponse:
        actor = self._actor()
        table = await self.app.remove_spectator(actor, parse_table(request.table), request.user_id, request.request_id)
        return lobby_pb2.RemoveSpectatorResponse(table=self._table(table, actor))

    async def StartTable(self, request: lobby_pb2.StartTableRequest, context: Ctx) -> lobby_pb2.StartTableResponse:
        actor = self._actor()
        table, seed = await self.app.start(actor, parse_table(request.table), request.request_id)
        return lobby_pb2.StartTableResponse(table=self._table(table, actor), seed_sha256=seed)

    async def HandSeatToBot(
        self, request: lobby_pb2.HandSeatToBotRequest, context: Ctx
    ) -> lobby_pb2.HandSeatToBotResponse:
        actor = self._actor()
        table = await self.app.hand_to_bot(actor, parse_table(request.table), request.seat, request.request_id)
        return lobby_pb2.HandSeatToBotResponse(table=self._table(table, actor))

    async def ReclaimSeat(self, request: lobby_pb2.ReclaimSeatRequest, context: Ctx) -> lobby_pb2.ReclaimSeatResponse:
        actor = self._actor()
        table = await self.app.reclaim(actor, parse_table(request.table), request.request_id)
        return lobby_pb2.ReclaimSeatResponse(table=self._table(table, actor))

    async def TakeBotSeat(self, request: lobby_pb2.TakeBotSeatRequest, context: Ctx) -> lobby_pb2.TakeBotSeatResponse:
        actor = self._actor()
        table = await self.app.take_bot_seat(actor, parse_table(request.table), request.seat, request.request_id)
        return lobby_pb2.TakeBotSeatResponse(table=self._table(table, actor))

    async def CloseTable(self, request: lobby_pb2.CloseTableRequest, context: Ctx) -> lobby_pb2.CloseTableResponse:
        actor = self._actor()
        table = await self.app.close(actor, parse_table(request.table), request.request_id)
        return lobby_pb2.CloseTableResponse(table=self._table(table, actor))

    async def ProposeEndForAll(
        self, request: lobby_pb2.ProposeEndForAllRequest, context: Ctx
    ) -> lobby_pb2.ProposeEndForAllResponse:
        actor = self._actor()
        version, duplicate = await self.app.propose_end_for_all(actor, parse_table(request.table), request.request_id)
        return lobby_pb2.ProposeEndForAllResponse(version=version, duplicate=duplicate)

    async def HoldPresence(
        self, request: lobby_pb2.HoldPresenceRequest, context: Ctx
    ) -> AsyncIterator[lobby_pb2.PresenceUpdate]:
        actor = self._actor()
        async for tick in self.presence.hold(actor, parse_table(request.table)):
            yield lobby_pb2.PresenceUpdate(
                table=request.table,
                seat=tick.seat,
                present=tick.present,
                at_unix_ms=tick.at_ms,
                heartbeat=tick.heartbeat,
            )

    async def SubmitSeatCommand(
        self, request: lobby_pb2.SubmitSeatCommandRequest, context: Ctx
    ) -> match_pb2.SubmitCommandResponse:
        actor = self._actor()
        table_id = parse_table(request.table)
        command_id = self.app.command_id(table_id, actor, request.request_id)
        seat = await self.app.seat_for_play(actor, table_id)
        return await self.app.match.submit(table_id, seat, request.command, command_id)

    async def GetSeatView(self, request: lobby_pb2.GetSeatViewRequest, context: Ctx) -> match_pb2.GetTableViewResponse:
        actor = self._actor()
        table_id = parse_table(request.table)
        seat = await self.app.seat_for_play(actor, table_id)
        return await self.app.match.seat_view(table_id, seat)

    async def WatchTable(self, request: lobby_pb2.WatchTableRequest, context: Ctx) -> match_pb2.GetTableViewResponse:
        actor = self._actor()
        table = await self.app.watchable(actor, parse_table(request.table))
        return await self.app.match.spectator_view(table.table_id)

    async def SendChatMessage(
        self, request: lobby_pb2.SendChatMessageRequest, context: Ctx
    ) -> lobby_pb2.SendChatMessageResponse:
        actor = self._actor()
        message = await self.app.post_chat(actor, parse_table(request.table), request.text, request.request_id)
        return lobby_pb2.SendChatMessageResponse(message=message_to_proto(message))

    async def ListChatMessages(
        self, request: lobby_pb2.ListChatMessagesRequest, context: Ctx
    ) -> lobby_pb2.ListChatMessagesResponse:
        actor = self._actor()
        messages, token = await self.app.chat_page(
            actor, parse_table(request.table), request.page_token, request.page_size
        )
        return lobby_pb2.ListChatMessagesResponse(
            messages=[message_to_proto(m) for m in messages], next_page_token=token
        )


class IdentityServicer(lobby_pb2_grpc.IdentityServiceServicer):  # type: ignore[misc]
    def __init__(self, identity: Identity) -> None:
        self.identity = identity

    async def DevSignIn(self, request: lobby_pb2.DevSignInRequest, context: Ctx) -> lobby_pb2.DevSignInResponse:
        token, user_id = await self.identity.dev_sign_in(
            request.name, request.display_name, request.client_secret, context.peer() or ""
        )
        return lobby_pb2.DevSignInResponse(token=token, user_id=user_id)

    async def WhoAmI(self, request: lobby_pb2.WhoAmIRequest, context: Ctx) -> lobby_pb2.WhoAmIResponse:
        principal = current_principal.get()
        actor = self.identity.actor(principal)
        roles = sorted(principal.roles) if principal else []
        return lobby_pb2.WhoAmIResponse(user_id=actor.user_id, name=actor.name, roles=roles, operator=actor.is_operator)


LOBBY_SERVICE = lobby_pb2.DESCRIPTOR.services_by_name["LobbyService"].full_name
IDENTITY_SERVICE = lobby_pb2.DESCRIPTOR.services_by_name["IdentityService"].full_name
DEV_SIGN_IN = f"/{IDENTITY_SERVICE}/DevSignIn"


def registrations(lobby: LobbyServicer, identity: IdentityServicer) -> list[Any]:
    def add_lobby(server: grpc.aio.Server) -> str:
        lobby_pb2_grpc.add_LobbyServiceServicer_to_server(lobby, server)
        return str(LOBBY_SERVICE)

    def add_identity(server: grpc.aio.Server) -> str:
        lobby_pb2_grpc.add_IdentityServiceServicer_to_server(identity, server)
        return str(IDENTITY_SERVICE)

    return [add_lobby, add_identity]
