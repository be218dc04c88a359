"""Every finding code of `codes.toml`, with the module that makes it and how: `RULES`.

Findings are made in one of three ways. A file's own findings (`ON_FILE`) are made when the file
is analysed, from its content, its place or what the cascades did with it. Cascade findings
(`FROM_FACTS`) start as facts of each unit (harness, launch directory), which an aggregator
merges per file; the duplicate facts of one file are compared with each other, so they are
aggregated together. Workspace findings (`ON_WORKSPACE`) are made once per analysis, from the
config files or the agent definitions. The Analyzer's table of aggregators is derived from here,
and a test holds `RULES` to `codes.toml`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from types import ModuleType

from lsp_agents.core.analysis import (
    budget,
    config,
    definitions,
    duplicates,
    globs,
    hygiene,
    imports,
    limits,
    placement,
    shadowing,
)
from lsp_agents.core.analysis.facts import Aggregator


class Made(enum.Enum):
    ON_FILE = "on-file"
    FROM_FACTS = "from-facts"
    ON_WORKSPACE = "on-workspace"


@dataclass(frozen=True, slots=True)
class FactSource:
    """Facts of one code, and what turns a file's facts of that code into findings."""

    fact: str
    aggregate: Aggregator
    together: bool = False  # aggregated in one call with the file's other `together` facts


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    made: Made
    modules: tuple[ModuleType, ...]  # where its findings are made
    facts: tuple[FactSource, ...] = ()


def _facts(code: str, module: ModuleType, aggregate: Aggregator, *facts: str) -> Rule:
    return Rule(code, Made.FROM_FACTS, (module,), tuple(FactSource(fact, aggregate) for fact in facts or (code,)))


def _on_file(code: str, *modules: ModuleType) -> Rule:
    return Rule(code, Made.ON_FILE, modules)


def _on_workspace(code: str, module: ModuleType) -> Rule:
    return Rule(code, Made.ON_WORKSPACE, (module,))


_IMPORTED = imports.aggregate_imports

RULES: tuple[Rule, ...] = (
    _facts("shadowed-file", shadowing, shadowing.aggregate_shadowed),
    # Files a harness skips (shadowing, the probe of a read) and rule files saved where none looks.
    _on_file("unreachable-file", shadowing, placement),
    _facts("shadowed-section", shadowing, shadowing.aggregate_sections),
    Rule(
        "duplicate-instruction",
        Made.FROM_FACTS,
        (duplicates, imports),
        (
            FactSource("duplicate-instruction", duplicates.aggregate_items, together=True),
            FactSource("import-duplicate", _IMPORTED),  # a file imported where it also loads on its own
        ),
    ),
    Rule(
        "near-duplicate-instruction",
        Made.FROM_FACTS,
        (duplicates,),
        (FactSource("near-duplicate-instruction", duplicates.aggregate_items, together=True),),
    ),
    _facts("duplicate-file", duplicates, duplicates.aggregate_file),
    _facts("truncated", budget, budget.aggregate_truncated),
    _on_file("oversized", budget),
    _facts("import-not-found", imports, _IMPORTED),
    _facts("import-cycle", imports, _IMPORTED),
    _facts("import-too-deep", imports, _IMPORTED),
    _facts("import-outside-workspace", imports, _IMPORTED),
    _facts("import-not-expanded", imports, _IMPORTED),
    _on_file("glob-matches-nothing", globs),
    _on_file("invalid-frontmatter", globs),
    _on_file("missing-apply-to", globs),
    _on_workspace("invalid-config", config),
    _on_file("deprecated-filename", hygiene),
    _on_file("empty-file", hygiene),
    _on_file("path-only-file", hygiene),
    _on_file("unreadable-file", hygiene),
    _on_file("hidden-unicode", hygiene),
    _on_file("secret", hygiene),
    _on_workspace("invalid-definition", definitions),
    _on_workspace("duplicate-definition", definitions),
    _on_workspace("skill-description-too-long", definitions),
    _on_workspace("skills-over-budget", definitions),
    _on_workspace("skill-name-mismatch", definitions),
    _on_workspace("missing-prompt-file", definitions),
    _on_workspace("manual-skill-listed", definitions),
    _facts("not-evaluated", limits, limits.aggregate_not_evaluated),
)

_SOURCES = [source for rule in RULES for source in rule.facts]
# Fact code -> its aggregator, for the facts aggregated one code at a time.
AGGREGATORS: dict[str, Aggregator] = {s.fact: s.aggregate for s in _SOURCES if not s.together}
# The fact codes aggregated together, in the catalogue's order, and the one aggregator they share.
TOGETHER: tuple[str, ...] = tuple(s.fact for s in _SOURCES if s.together)
(AGGREGATE_TOGETHER,) = {s.aggregate for s in _SOURCES if s.together}
