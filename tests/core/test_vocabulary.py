"""Every reason code has a sentence, and totals read the same wherever they are shown."""

from __future__ import annotations

import pytest

from lsp_agents.core.model import Reason
from lsp_agents.core.vocabulary import REASONS, entry_size, explain, size_label


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
