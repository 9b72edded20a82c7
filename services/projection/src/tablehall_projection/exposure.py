"""A table summary cut down to what a caller may see of it
(`tablehall_platform.table_access.Exposure`)."""

from __future__ import annotations

import dataclasses

from tablehall_platform.table_access import Exposure, visible_version
from tablehall_projection.queries import Summary


def shown(summary: Summary, exposure: Exposure) -> Summary:
    if exposure == Exposure.FULL:
        return summary
    if exposure == Exposure.SPECTATOR:
        version = visible_version(True, summary.version, summary.spectator_delay, summary.finished)
        head = version == summary.version
        return dataclasses.replace(summary, version=version, last_event_type=summary.last_event_type if head else "")
    if exposure == Exposure.LISTING:  # the lobby card: who sits where, no progress
        return dataclasses.replace(summary, version=0, last_event_type="", ended_at_ms=0, lobby={})
    return dataclasses.replace(
        summary,
        rules_version="",
        seats=[],
        options={},
        version=0,
        spectator_delay=0,
        started_at_ms=0,
        ended_at_ms=0,
        lobby={"private": True},
        last_event_type="",
    )
