"""The append guard refuses a NUL (real, or as the JSON escape jsonb refuses) and nothing else."""

from __future__ import annotations

import json

import pytest

from tablehall_eventstore import AppendRequest, InvalidAppend, NewEvent
from tablehall_eventstore.store import check_append, checked_texts


def _request(text: str) -> AppendRequest:
    payload = json.dumps({"name": text}).encode()
    return AppendRequest("s-1", 0, [NewEvent("E", 1, payload, {"actor": text})], command_id="c-1")


@pytest.mark.parametrize("text", ["\\u0000", "a\\\\u0000", "\\\\\\\\u0000b", "\\u00001"])
def test_backslashes_and_u0000_as_text_are_stored(text: str) -> None:
    check_append(_request(text))
    checked_texts(_request(text))


@pytest.mark.parametrize("text", ["\x00", "a\x00", "\\\x00"])
def test_a_real_nul_is_refused(text: str) -> None:
    with pytest.raises(InvalidAppend):
        check_append(_request(text))
    with pytest.raises(InvalidAppend):
        checked_texts(_request(text))


def test_the_json_escape_of_nul_is_refused_after_any_escaped_backslashes() -> None:
    for raw in (b'{"a": "\\u0000"}', b'{"a": "\\\\\\u0000"}'):
        request = AppendRequest("s-1", 0, [NewEvent("E", 1, raw)])
        with pytest.raises(InvalidAppend):
            checked_texts(request)
