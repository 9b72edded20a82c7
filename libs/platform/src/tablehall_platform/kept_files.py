"""A file made once and then kept: secrets and keys a server makes on first start."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path


def kept_file(path: Path, make: Callable[[], bytes]) -> bytes:
    """The contents of `path`, written from `make()` (readable by its owner only) when missing.

    Made with O_EXCL, so two processes starting at once still agree on one file; a reader
    that finds a file just made by another waits for its contents.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass  # another process made it first: use theirs
    else:
        with os.fdopen(fd, "wb") as out:
            out.write(make())
    for _ in range(100):  # a writer that just made the file may not have written it yet
        data = path.read_bytes()
        if data.strip():
            return data
        time.sleep(0.01)
    raise ValueError(f"the file {path} is empty")
