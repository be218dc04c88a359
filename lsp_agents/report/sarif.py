"""SARIF 2.1.0 for GitHub code scanning: one rule per code, 1-based regions, root-relative URIs.

Columns are Unicode code points (`columnKind: unicodeCodePoints`), as the findings count them.
Paths inside the checked root are relative to the `%SRCROOT%` base; a finding outside it (a
harness config in the home directory) carries an absolute `file://` URI.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

from lsp_agents import __version__
from lsp_agents.core.analysis.codes import CODES, README_URL
from lsp_agents.core.model import JsonObject, Span
from lsp_agents.report import Report

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
BASE_ID = "%SRCROOT%"
LEVELS = {"error": "error", "warning": "warning", "information": "note", "hint": "note", "off": "none"}


def _rules() -> list[JsonObject]:
    return [
        {
            "id": code.code,
            "name": "".join(part.title() for part in code.code.split("-")),
            "shortDescription": {"text": code.title},
            "fullDescription": {"text": code.help},
            "help": {"text": code.help, "markdown": f"{code.help}\n\n[Documentation]({code.url})"},
            "helpUri": code.url,
            "defaultConfiguration": {"level": LEVELS[code.severity]},
        }
        for code in CODES.values()
    ]


def _region(span: Span) -> JsonObject:
    end_line, end_character = span.end_line, span.end_character
    if (end_line, end_character) <= (span.start_line, span.start_character):
        end_line, end_character = span.start_line, span.start_character
    return {
        "startLine": span.start_line + 1,
        "startColumn": span.start_character + 1,
        "endLine": end_line + 1,
        "endColumn": end_character + 1,
    }


def _location(report: Report, path: str, span: Span) -> JsonObject:
    relative = report.relative(path)
    if os.path.isabs(relative):
        artifact = {"uri": Path(relative).as_uri()}
    else:
        artifact = {"uri": quote(relative, errors="surrogateescape"), "uriBaseId": BASE_ID}  # a non-UTF-8 byte: %HH
    return {"physicalLocation": {"artifactLocation": artifact, "region": _region(span)}}


def render_sarif(report: Report) -> JsonObject:
    rule_index = {code: index for index, code in enumerate(CODES)}
    results = []
    for item in report.findings:
        result = {
            "ruleId": item.code,
            "ruleIndex": rule_index[item.code],
            "level": LEVELS[item.severity],
            "message": {"text": item.message},
            "locations": [_location(report, item.path, item.span)],
        }
        if item.related:
            result["relatedLocations"] = [
                {"id": number, **_location(report, related.path, related.span), "message": {"text": related.message}}
                for number, related in enumerate(item.related, 1)
            ]
        if item.harnesses:
            result["properties"] = {"harnesses": item.harnesses}
        results.append(result)
    root_uri = Path(report.root).as_uri().rstrip("/") + "/"
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {"name": "lsp-agents", "version": __version__, "informationUri": README_URL, "rules": _rules()}
                },
                "originalUriBaseIds": {BASE_ID: {"uri": root_uri}},
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
