"""Драконы's terminal plug-in (registered as the entry point `tablehall.terminal_plugins`)."""

from tablehall_terminal.plugins.dragons.plugin import PLUGIN, DragonsPlugin

__all__ = ["PLUGIN", "DragonsPlugin"]
