"""Гомункул's terminal plug-in (registered as the entry point `tablehall.terminal_plugins`)."""

from tablehall_terminal.plugins.homunculus.plugin import PLUGIN, HomunculusPlugin

__all__ = ["PLUGIN", "HomunculusPlugin"]
