"""`lsp-agents check` on the real-world corpus: every finding must be labelled, and labelled true.

The corpus (`../shared/realworld`, 22 public repositories' instruction files) is materialised
and checked by the same code as `benchmarks/realworld.py`; `labels.json` beside this file holds
the verdict on every finding, judged as each repository's maintainer would. A new finding fails
until someone judges it, and a finding judged false fails until it is gone: precision cannot
regress silently.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "realworld.py"
_spec = importlib.util.spec_from_file_location("realworld_benchmark", BENCHMARK)
realworld = sys.modules[_spec.name] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(realworld)

pytestmark = pytest.mark.skipif(not (realworld.CORPUS / "repos").is_dir(),
                                reason=f"the real-world corpus is not at {realworld.CORPUS} (../shared/realworld)")


@pytest.fixture(scope="module")
def judged() -> list:
    findings, _times = realworld.corpus_findings()
    return findings


def test_every_finding_is_labelled(judged) -> None:
    unlabelled = [realworld.stub(j) for j in judged if j.verdict is None]
    assert not unlabelled, "findings nobody has judged (add them to tests/realworld/labels.json):\n" + json.dumps(
        unlabelled, indent=2, ensure_ascii=False)


def test_no_finding_is_labelled_false(judged) -> None:
    wrong = [f"{j.repository}: {j.finding['path']}:{j.finding['range']['start']['line'] + 1} {j.finding['code']}: {j.reason}"
             for j in judged if j.verdict == "false"]
    assert not wrong, "findings judged wrong are reported again:\n" + "\n".join(wrong)


def test_labels_are_well_formed() -> None:
    labels = json.loads(realworld.LABELS.read_text(encoding="utf-8"))
    keys = [realworld.label_key(label) for label in labels]
    assert len(keys) == len(set(keys)), "a finding is labelled twice"
    for label in labels:
        assert label["verdict"] in ("true", "false") and label["reason"].strip(), label
        assert label["repository"] in realworld.repositories(), label


def test_no_true_finding_is_lost(judged) -> None:
    """A finding judged true that is no longer reported is recall lost: drop its label only on purpose."""
    reported = {j.key for j in judged}
    lost = [label for label in json.loads(realworld.LABELS.read_text(encoding="utf-8"))
            if label["verdict"] == "true" and realworld.label_key(label) not in reported]
    assert not lost, "true findings no longer reported:\n" + json.dumps(lost, indent=2, ensure_ascii=False)
