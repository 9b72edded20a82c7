"""Гомункул is not a workspace member of the lock yet (not registered until complete): its
source is put on the path here for its tests."""

import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "libs" / "homunculus" / "src"
if str(SRC) not in sys.path:
    sys.path.insert(0, str(SRC))
