"""Every reason code has a sentence, and totals read the same wherever they are shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lsp_agents.core.model import Reason
from lsp_agents.core.vocabulary import GLOSSARY, REASONS, entry_size, explain, size_label

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def _section(heading: str) -> str:
    return README.split(f"\n{heading}\n", 1)[1].split("\n#", 1)[0]


@pytest.mark.parametrize("reason", list(Reason))
def test_every_reason_has_a_sentence(reason: Reason) -> None:
    sentence = explain(reason)
    assert sentence == REASONS[reason] and sentence != str(reason) and not sentence.endswith(".")


def test_unknown_codes_and_no_reason() -> None:
    assert explain("some-future-code") == "some-future-code"
    assert explain(None) == "not loaded"


def test_labels() -> None:
    assert size_label({"files": 1, "bytes": 578, "tokens": 145}) == "1 file · 578 B · ~145 tokens"
    assert size_label({"files": 12, "bytes": 32_768, "tokens": 8_192}) == "12 files · 32,768 B · ~8,192 tokens"
    cut = {"bytes": 500, "tokens": 125, "size": 578, "truncated_at": 500}
    assert entry_size(cut) == "500 B · ~125 tokens (cut at byte 500 of 578)"
    assert entry_size({**cut, "truncated_at": None}) == "500 B · ~125 tokens"


def test_the_readme_glossary_is_the_one_every_front_end_uses() -> None:
    rows = re.findall(r"^\| \*\*(.+?)\*\* \| (.+) \|$", _section("### Glossary"), re.M)
    assert rows == [(term, meaning + (f" (JSON: `{name}`)" if name else "")) for term, meaning, name in GLOSSARY]


def test_the_readme_explains_every_reason_with_its_sentence() -> None:
    rows = re.findall(r"^\| `([a-z-]+)` \| (.+) \|$", _section("### Reasons"), re.M)
    assert rows == [(reason.value, sentence) for reason, sentence in REASONS.items()]
