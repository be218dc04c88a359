"""Every quick fix `check` offers on the real-world corpus, applied alone to a copy of the repository's
files, loses no text: each line it removes is still in some file afterwards (normalised as
duplicates are compared). The audit is `benchmarks/fix_safety.py`'s, which prints the same per
repository; tests/analysis/test_fix_safety.py runs it on generated workspaces.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import fix_safety

pytestmark = pytest.mark.skipif(not (fix_safety.CORPUS / "repos").is_dir(),
                                reason=f"the real-world corpus is not at {fix_safety.CORPUS} (../shared/realworld)")


def test_no_fix_offered_on_the_corpus_loses_text() -> None:
    audits = fix_safety.audit_corpus()
    offered = [(name, a) for name, items in audits.items() for a in items]
    assert offered, "the corpus offers no fix: nothing was audited"
    losing = [f"{name}: {a.finding['path']}:{a.finding['range']['start']['line'] + 1} {a.finding['fix']['title']}: "
              + "; ".join(a.lost) for name, a in offered if a.lost]
    assert not losing, "fixes that delete text no file holds afterwards:\n" + "\n".join(losing)
