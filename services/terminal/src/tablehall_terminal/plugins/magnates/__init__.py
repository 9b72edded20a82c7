"""Магнаты's terminal plug-in (registered as the entry point `tablehall.terminal_plugins`)."""

from tablehall_terminal.plugins.magnates.plugin import PLUGIN, MagnatesPlugin

__all__ = ["PLUGIN", "MagnatesPlugin"]
