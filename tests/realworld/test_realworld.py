"""`lsp-agents check` on the real-world corpora: every finding labelled, the precision targets met,
and no true finding lost.

The corpora (`benchmarks/corpora.py`) are materialised and checked by the same code as
`benchmarks/realworld.py`. Each corpus that has a labels file is held to its labels: a new
finding fails until a reviewer judges it (tests/realworld/LABELLING.md), no finding of a code on
by default may be judged false, the hints must keep their low share of false findings, and a
finding judged true that disappears is recall lost. Precision cannot regress silently.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
_spec = importlib.util.spec_from_file_location("realworld_benchmark", BENCHMARKS / "realworld.py")
realworld = sys.modules[_spec.name] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(realworld)
corpora = sys.modules["corpora"]
import cli_process  # noqa: E402 - tests/, on the path pytest is given
import fix_safety  # noqa: E402 - found through the sys.path line above

# The held-back half is scored by benchmarks/realworld.py at the end of a round, never gated on:
# a test on it would invite tuning to it.
HELD_BACK = {"test"}
LABELLED = [name for name in corpora.NAMES if corpora.corpus(name, Path("/nonexistent")).labels.is_file()]
CHECKED = [name for name in LABELLED if name not in HELD_BACK]


@pytest.fixture(scope="session")
def unpacked(tmp_path_factory) -> Path:
    """The checked halves, unpacked once for the whole run: pytest-xdist's workers share the run's
    folder, the one above their own temporary folders (`unpack` takes turns)."""
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent
    return corpora.unpack(run / "realworld-corpus", CHECKED)


@pytest.mark.slow  # starts first: checking a corpus is the longest step of the run
@pytest.mark.parametrize("name", CHECKED)
def test_corpus_holds_to_its_labels(name, unpacked, tmp_path_factory) -> None:
    """The corpus checked once (one test, so that one worker checks it), then held to its labels
    by each rule below; every rule broken is reported."""
    chosen = corpora.corpus(name, unpacked)
    if not chosen.available():
        pytest.skip(f"the corpus {chosen.name} is not at {chosen.repos}")
    found, _times, trees = realworld.corpus_findings(chosen, tmp_path_factory.mktemp(chosen.name), cli=forked_cli)
    rules = (every_finding_is_labelled, no_finding_shown_by_default_is_false, no_true_finding_is_lost, no_fix_loses_text)
    broken = [f"{rule.__name__}: {message}" for rule in rules if (message := rule(chosen, found, trees))]
    assert not broken, "\n\n".join(broken)


def forked_cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return cli_process.run(args, env=env, timeout=600)


def every_finding_is_labelled(chosen: corpora.Corpus, found: list, _trees: dict) -> str | None:
    unlabelled = [realworld.stub(j) for j in found if j.verdict is None]
    if not unlabelled:
        return None
    return f"findings nobody has judged (add them to {chosen.labels}):\n" + json.dumps(unlabelled, indent=2, ensure_ascii=False)


def no_finding_shown_by_default_is_false(_chosen: corpora.Corpus, found: list, _trees: dict) -> str | None:
    """No finding of a code on by default (what a user sees without asking) is judged false, and
    fewer than FALSE_HINTS_TARGET of the hints are. A false hint may still be reported (no finding
    is tuned away one by one), but it counts against that share."""
    default = realworld.DefaultSet.of(found)

    def listed(items: list) -> str:
        return "\n".join(
            f"{j.repository}: {j.finding['path']}:{j.finding['range']['start']['line'] + 1} {j.finding['code']}: {j.reason}"
            for j in items
        )

    false = [j for j in found if j.verdict == "false"]
    shown = [j for j in false if realworld.CODES[j.finding["code"]].on_by_default]
    if shown:
        return f"false findings of codes on by default:\n{listed(shown)}"
    if default.false_hint_share >= realworld.FALSE_HINTS_TARGET:
        return f"hints: {default.false_hints}/{default.hints} false; false findings:\n{listed(false)}"
    return None


def no_true_finding_is_lost(chosen: corpora.Corpus, found: list, _trees: dict) -> str | None:
    """A finding judged true that is no longer reported is recall lost: drop its label only on purpose."""
    reported = {key for j in found for key in j.keys}
    lost = [
        label
        for label in json.loads(chosen.labels.read_text(encoding="utf-8"))
        if label["verdict"] == "true" and realworld.label_key(label) not in reported
    ]
    return "true findings no longer reported:\n" + json.dumps(lost, indent=2, ensure_ascii=False) if lost else None


def no_fix_loses_text(_chosen: corpora.Corpus, found: list, trees: dict) -> str | None:
    """Every quick fix offered, applied alone to a copy of the repository's files, removes only
    lines some file still holds afterwards (normalised as duplicates are compared)."""
    offered = [
        (name, a)
        for name, tree in trees.items()
        for a in fix_safety.audit([j.finding for j in found if j.repository == name], fix_safety.Files(tree))
    ]
    losing = [
        f"{name}: {a.finding['path']}:{a.finding['range']['start']['line'] + 1} {a.finding['fix']['title']}: " + "; ".join(a.lost)
        for name, a in offered
        if a.lost
    ]
    return "fixes that delete text no file holds afterwards:\n" + "\n".join(losing) if losing else None


@pytest.mark.parametrize("name", LABELLED)
def test_labels_are_well_formed(name, unpacked) -> None:
    chosen = corpora.corpus(name, unpacked)
    labels = json.loads(chosen.labels.read_text(encoding="utf-8"))
    keys = [realworld.label_key(label) for label in labels]
    assert len(keys) == len(set(keys)), "a finding is labelled twice"
    for label in labels:
        assert label["verdict"] in realworld.VERDICTS and label["reason"].strip(), label
        assert label["repository"] in chosen.members, label


def test_codes_on_by_default_earned_their_place() -> None:
    """A code is on by default only when the blind labels of the corpora give it at least
    DEFAULT_PRECISION, each repository weighing at most DEFAULT_REPOSITORY_WEIGHT findings, over at
    least DEFAULT_DECIDED decided findings in DEFAULT_REPOSITORIES repositories (codes.py, README)."""
    from lsp_agents.core.analysis.codes import CODES, EarnedPlace

    labels = [label for name in LABELLED for label in json.loads(corpora.corpus(name, Path("/nonexistent")).labels.read_text())]
    for code in (c for c, entry in CODES.items() if entry.on_by_default):
        place = EarnedPlace.of((label["repository"], label["verdict"]) for label in labels if label["code"] == code)
        assert place.earned, f"{code}: {place}"


def test_one_repository_does_not_earn_a_place() -> None:
    """Many alike findings of one repository weigh as DEFAULT_REPOSITORY_WEIGHT findings."""
    from lsp_agents.core.analysis.codes import DEFAULT_REPOSITORIES, DEFAULT_REPOSITORY_WEIGHT, EarnedPlace

    spread = [(f"repo-{i}", "true") for i in range(DEFAULT_REPOSITORIES)] + [("repo-0", "false")]
    many = [("big", "true")] * 200 + [(f"repo-{i}", v) for i in range(DEFAULT_REPOSITORIES) for v in ("true", "false")]
    assert EarnedPlace.of(spread * DEFAULT_REPOSITORY_WEIGHT).earned
    place = EarnedPlace.of(many)
    assert place.true / place.decided > 0.9 and not place.earned
    assert EarnedPlace.of([("one", "true")] * 100).repositories == 1 and not EarnedPlace.of([("one", "true")] * 100).earned
