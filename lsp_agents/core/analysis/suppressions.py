"""Suppression comments: `<!-- lsp-agents-disable CODE -->` … `<!-- lsp-agents-enable -->` regions
and `<!-- lsp-agents-disable-next-line CODE -->`, read from a file's text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_SUPPRESSION = re.compile(r"<!--\s*lsp-agents-(disable-next-line|disable|enable)\b(.*?)-->", re.DOTALL)


@dataclass(slots=True)
class Suppressions:
    """`<!-- lsp-agents-disable CODE -->` regions and `disable-next-line` lines of one file."""

    regions: list[tuple[int, int, frozenset[str] | None]] = field(default_factory=list)  # None = every code

    def hides(self, code: str, line: int) -> bool:
        return any(start <= line <= end and (codes is None or code in codes) for start, end, codes in self.regions)


def parse_suppressions(text: str) -> Suppressions:
    if "lsp-agents-" not in text:
        return Suppressions()
    result = Suppressions()
    open_regions: list[tuple[int, frozenset[str] | None]] = []
    last_line = text.count("\n")
    for match in _SUPPRESSION.finditer(text):
        kind = match.group(1)
        codes = frozenset(c for c in re.split(r"[\s,]+", match.group(2)) if c) or None
        line = text.count("\n", 0, match.start())
        end_line = text.count("\n", 0, match.end())
        if kind == "disable-next-line":
            result.regions.append((end_line + 1, end_line + 1, codes))
        elif kind == "disable":
            open_regions.append((line, codes))
        else:
            still_open: list[tuple[int, frozenset[str] | None]] = []
            for start, region_codes in open_regions:
                if codes is None or region_codes is None or region_codes <= codes:
                    result.regions.append((start, line, region_codes))
                else:
                    still_open.append((start, region_codes))
            open_regions = still_open
    result.regions += [(start, last_line, codes) for start, codes in open_regions]
    return result
