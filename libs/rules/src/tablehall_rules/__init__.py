"""The Tablehall rules contract: what every game library implements."""

from tablehall_rules.afk import AFK_CLOCK_MS, BOTS_NEVER_AFK, AfkLadder
from tablehall_rules.bots import (
    Determinizable,
    HasBotPolicy,
    HasBotRanking,
    HasEvaluation,
    HasMovesPolicy,
    HasRandomMovesPolicy,
    HasRandomPolicy,
    HasRolloutPolicy,
    HasSearchHints,
    NoMove,
)
from tablehall_rules.codec import StructCodec, decode_state, encode_state, schema_version, type_name
from tablehall_rules.contract import (
    DecideContext,
    Game,
    Outcome,
    PendingDecision,
    SeatInfo,
    TableControl,
    Upcasters,
    Viewer,
)
from tablehall_rules.errors import (
    GameOver,
    IllegalCommand,
    InvalidCommand,
    InvalidOptions,
    NotYourTurn,
    RuleError,
    illegal,
    invalid,
)
from tablehall_rules.flow import Flow, clone
from tablehall_rules.journal import HasStandings, Journaled, JournalEntry, Lines
from tablehall_rules.jsonview import JsonView, json_shaped
from tablehall_rules.legal import Choice, IntRange, LegalMove, LegalMoves, Param, Rule
from tablehall_rules.nature import GameNature
from tablehall_rules.randomness import Draw, DrawSource, commitment, new_seed, verify_draws

__all__ = [
    "AFK_CLOCK_MS",
    "BOTS_NEVER_AFK",
    "AfkLadder",
    "Choice",
    "DecideContext",
    "Determinizable",
    "Draw",
    "DrawSource",
    "Flow",
    "Game",
    "GameNature",
    "GameOver",
    "HasBotPolicy",
    "HasBotRanking",
    "HasEvaluation",
    "HasMovesPolicy",
    "HasRandomMovesPolicy",
    "HasRandomPolicy",
    "HasRolloutPolicy",
    "HasSearchHints",
    "HasStandings",
    "IllegalCommand",
    "IntRange",
    "InvalidCommand",
    "InvalidOptions",
    "JournalEntry",
    "Journaled",
    "JsonView",
    "LegalMove",
    "LegalMoves",
    "Lines",
    "NoMove",
    "NotYourTurn",
    "Outcome",
    "Param",
    "PendingDecision",
    "Rule",
    "RuleError",
    "SeatInfo",
    "StructCodec",
    "TableControl",
    "Upcasters",
    "Viewer",
    "clone",
    "commitment",
    "decode_state",
    "encode_state",
    "illegal",
    "invalid",
    "json_shaped",
    "new_seed",
    "schema_version",
    "type_name",
    "verify_draws",
]
