"""The Neovim smoke test (scripts/nvim-smoke.sh) as part of the suite, when Neovim is installed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "nvim-smoke.sh"


@pytest.mark.skipif(shutil.which("nvim") is None, reason="nvim is not installed (Debian: apt-get install neovim)")
def test_neovim_hover_command_and_diagnostics() -> None:
    result = subprocess.run(
        [str(SCRIPT)], capture_output=True, text=True, timeout=120, env={**os.environ, "LSP_AGENTS_PYTHON": sys.executable}
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ALL PASS" in result.stdout
