"""This client's secret for development sign-in, kept in the user's config
folder (`$XDG_CONFIG_HOME/tablehall/client-secret`, else
`~/.config/tablehall/client-secret`), created with mode 0600 on first use.
The server binds a development name to the first secret that claims it."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

FILE_NAME = "client-secret"


def config_folder() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "tablehall"


def client_secret_of_this_user(folder: Path | None = None) -> str:
    """The secret in `folder` (default: the user's config folder), made if missing."""
    path = (folder or config_folder()) / FILE_NAME
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process of this user made it first
        else:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_urlsafe(32) + "\n")
    return path.read_text().strip()
