"""The auditor's pinned key: the server's public export key, given or fetched once and kept.

`tablehall verify --file` trusts a file's signature only against this key (or `--key`): a
key embedded in the file proves nothing, since anybody can re-sign a forged file with a key
of their own. The key is kept in `TABLEHALL_TRUSTED_KEY_FILE`, else
`$XDG_CONFIG_HOME/tablehall/trusted-signing-key.pem` (else `~/.config/...`), mode 0600.
"""

from __future__ import annotations

import os
from pathlib import Path

from tablehall_audit.signing import key_id, load_public
from tablehall_sdk.client_secret import config_folder

FILE_NAME = "trusted-signing-key.pem"


class PinError(ValueError):
    """A key that cannot be pinned (unreadable, or another key is pinned already)."""


def trusted_key_file() -> Path:
    given = os.environ.get("TABLEHALL_TRUSTED_KEY_FILE")
    return Path(given) if given else config_folder() / FILE_NAME


def pinned_key() -> str | None:
    """The pinned public key (PEM), or None when none is pinned yet."""
    path = trusted_key_file()
    try:
        return path.read_text()
    except FileNotFoundError:
        return None


def pin(pem: str, *, replace: bool = False) -> str:
    """Keep `pem` as the trusted key; its key id. Another key already pinned needs `replace`."""
    try:
        new_id = key_id(load_public(pem))
    except ValueError as exc:
        raise PinError(f"not an Ed25519 public key in PEM: {exc}") from exc
    old = pinned_key()
    if old is not None and not replace:
        try:
            old_id = key_id(load_public(old))
        except ValueError:
            old_id = "unreadable"
        if old_id != new_id:
            raise PinError(
                f"key {old_id} is pinned already ({trusted_key_file()}); pass --replace to trust {new_id} instead"
            )
    path = trusted_key_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(path.name + ".new")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(pem if pem.endswith("\n") else pem + "\n")
    temporary.replace(path)  # never a half-written key
    return new_id
