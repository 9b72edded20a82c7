"""A port that is taken is one line that names it and the setting that moves it."""

from __future__ import annotations

import socket


class PortInUse(Exception):
    """The port a server of ours should listen on is taken."""


def require_free(host: str, port: int, what: str, setting: str) -> None:
    """Raise `PortInUse` naming `setting` when `host:port` cannot be listened on."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC does: a closing socket is no owner
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise PortInUse(
                f"{what} port {host}:{port} is in use ({exc.strerror}): stop what listens there,"
                f" or choose another port with {setting}"
            ) from None
