"""The read models, each with its own checkpoint (see `projector`)."""

from __future__ import annotations

from tablehall_eventstore import EventStore
from tablehall_projection.models.journal import JournalModel
from tablehall_projection.models.standings import StandingsModel
from tablehall_projection.models.tables import TablesModel
from tablehall_projection.projector import ReadModel

NAMES = ("tables", "journal", "standings")


def build_models(store: EventStore) -> dict[str, ReadModel]:
    models: list[ReadModel] = [TablesModel(), JournalModel(store), StandingsModel(store)]
    return {m.name: m for m in models}
