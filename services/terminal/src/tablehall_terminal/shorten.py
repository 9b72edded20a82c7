"""Names that fit a width without becoming ambiguous: known abbreviations first, then the longest
word is cut (with a dot), never the last word while another can give way."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

# the classic Monopoly ring's long words, per language (Пузиполия's board, Гомункул's ring)
CLASSIC_ABBREVIATIONS: dict[str, dict[str, str]] = {
    "en": {"Avenue": "Av.", "Place": "Pl.", "Railroad": "RR", "Company": "Co.", "Community": "Comm."},
    "ru": {
        "проспект": "пр.",
        "Проспект": "Пр.",
        "Площадь": "Пл.",
        "площадь": "пл.",
        "Святого": "Св.",
        "Железная": "Ж.",
        "железная": "ж.",
        "дорога": "д.",
    },
}


def shorten(name: str, width: int, abbreviations: Mapping[str, str] | None = None) -> str:
    """`name` in at most `width` characters (width >= 1)."""
    if len(name) <= width:
        return name
    words = [(abbreviations or {}).get(w, w) for w in name.split() if w not in ("—", "-", "/", "&")]
    while words and len(" ".join(words)) > width:
        cuttable = [i for i in range(len(words)) if len(words[i].rstrip(".")) > 1]
        if not cuttable:
            break
        # the longest word but the last gives way first (the last word tells squares apart)
        i = max(cuttable[:-1] or cuttable, key=lambda k: (len(words[k]), -k))
        words[i] = words[i].rstrip(".")[:-1] + "."
    text = " ".join(words)
    if len(text) > width:
        text = text.replace(" ", "")
    return text if len(text) <= width else text[: max(1, width - 1)] + "…"


def distinct_names(names: Sequence[str], width: int, abbreviations: Mapping[str, str] | None = None) -> list[str]:
    """Each name shortened to `width`; names that differ stay different (the shorter ones that
    would collide keep more letters, at the cost of a cut mark)."""
    short = [shorten(n, width, abbreviations) for n in names]
    seen: dict[str, str] = {}
    for i, (full, s) in enumerate(zip(names, short, strict=True)):
        other = seen.get(s)
        if other is not None and other != full:
            short[i] = _tail_kept(full, width)
        seen.setdefault(short[i], full)
    return short


def _tail_kept(name: str, width: int) -> str:
    """`…` and the end of the name (where two colliding names differ)."""
    return "…" + name[-(width - 1) :] if len(name) > width else name
