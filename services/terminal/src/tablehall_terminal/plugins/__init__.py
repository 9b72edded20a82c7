"""The terminal plug-ins shipped with the client (one sub-package per game)."""
