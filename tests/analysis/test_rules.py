"""`RULES` names every finding code of the catalogue once, with the module that makes it."""

from __future__ import annotations

import inspect
from collections import Counter

from lsp_agents.core.analysis.codes import CODES
from lsp_agents.core.analysis.rules import AGGREGATORS, RULES, TOGETHER, Made


def test_rules_and_the_catalogue_have_the_same_codes() -> None:
    counted = Counter(rule.code for rule in RULES)
    assert [code for code, count in counted.items() if count > 1] == []
    assert set(counted) == set(CODES)


def test_each_rule_names_a_module_that_writes_its_code() -> None:
    silent = [rule.code for rule in RULES if not any(f'"{rule.code}"' in inspect.getsource(m) for m in rule.modules)]
    assert silent == []


def test_cascade_rules_have_facts_and_each_fact_one_aggregation() -> None:
    assert [rule.code for rule in RULES if (rule.made is Made.FROM_FACTS) != bool(rule.facts)] == []
    facts = [source.fact for rule in RULES for source in rule.facts]
    assert sorted(facts) == sorted({*AGGREGATORS, *TOGETHER})
    assert len(facts) == len(set(facts))
