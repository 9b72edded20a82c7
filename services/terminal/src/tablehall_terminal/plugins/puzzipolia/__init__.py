"""Пузиполия's terminal plug-in (registered as the entry point `tablehall.terminal_plugins`)."""

from tablehall_terminal.plugins.puzzipolia.plugin import PLUGIN, PuzzipoliaPlugin

__all__ = ["PLUGIN", "PuzzipoliaPlugin"]
