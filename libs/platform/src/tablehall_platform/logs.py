"""structlog configured for JSON lines; contextvars carry table and command ids."""

from __future__ import annotations

import logging
import sys

import structlog


def configure_logging(level: str = "info", json: bool = True) -> None:
    numeric = logging.getLevelName(level.upper())
    if not isinstance(numeric, int):
        numeric = logging.INFO
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer()
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )


def describe(exc: BaseException) -> str:
    """What failed, for a log line: the exception's type, and its message when it has one.

    `str(exc)` alone is empty for many exceptions (a timeout, a closed connection).
    """
    message = str(exc)
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__
