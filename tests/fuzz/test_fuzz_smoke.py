"""A small run of the fuzz harness in `make test` (the long one is `make fuzz`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HARNESS = Path(__file__).resolve().parent / "fuzz_rpcs.py"


def test_three_hundred_fuzzed_requests_leave_every_honest_table_alone() -> None:
    done = subprocess.run(
        [sys.executable, str(HARNESS), "--requests", "300", "--seconds", "120", "--seed", "13", "--concurrency", "8"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "fuzz: clean" in done.stdout
    assert "honest commands committed: 0," not in done.stdout
