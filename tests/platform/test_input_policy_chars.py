"""The input policy's character classes answer as Unicode's categories do, for any text.

`has_control` and the identifier check take fast paths (a regular expression, an ASCII scan);
their answers must stay the categories' (Cc; L, N, M, P, S) whatever the text.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablehall_platform.errors import BadRequest
from tablehall_platform.input_policy import InputLimits, check_id, has_control

LIMITS = InputLimits()
# every code point but lone surrogates, with the ASCII range and its edges drawn often
texts = st.text(
    alphabet=st.one_of(st.characters(blacklist_categories=["Cs"]), st.characters(min_codepoint=0, max_codepoint=0xA0)),
    max_size=40,
)


@given(texts)
def test_has_control_is_category_cc(text: str) -> None:
    assert has_control(text) == any(unicodedata.category(ch) == "Cc" for ch in text)


@given(texts)
def test_an_id_is_letters_numbers_marks_punctuation_and_symbols(text: str) -> None:
    visible = all(unicodedata.category(ch)[0] in "LNMPS" for ch in text)
    if visible and len(text) <= LIMITS.max_id:
        assert check_id(text, "request_id", LIMITS) == text
    else:
        with pytest.raises(BadRequest):
            check_id(text, "request_id", LIMITS)


def test_edges_of_the_ascii_path() -> None:
    assert check_id("!~az09", "id", LIMITS) == "!~az09"
    for bad in (" ", "a b", "\x7f", "\x00", "\t"):
        with pytest.raises(BadRequest):
            check_id(bad, "id", LIMITS)
    assert has_control("\x9f") and has_control("\x00") and not has_control("\xa0")
