"""Findings one file earns on its own: hidden Unicode, secrets, deprecated names, empty and unreadable files.

None of these depends on a cascade, so they are computed once per file content. Secrets are
matched by well-known formats and never echoed: messages name the kind and a masked prefix.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable, Collection
from dataclasses import dataclass

from lsp_agents.core.analysis.base import FILE_START, finding
from lsp_agents.core.analysis.document import Document
from lsp_agents.core.harnesses import HARNESSES
from lsp_agents.core.model import Finding, Fix, Reason, Span
from lsp_agents.core.text import rust_trim

# Bidirectional controls, zero-width characters, word joiner, BOM, and Unicode tag characters.
_HIDDEN = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b\u200c\u200d\u2060\ufeff\U000e0000-\U000e007f]+")
_ZWJ = "\u200d"
_VARIATION_SELECTOR = "\ufe0f"
UNREADABLE_REASONS = {  # why a file cannot be read, in the words of a finding
    Reason.PERMISSION_DENIED: "permission denied",
    Reason.SYMLINK_LOOP: "a symlink loop",
    Reason.NOT_REGULAR_FILE: "not a regular file (a FIFO, socket or device)",
    Reason.UNREADABLE: "an I/O error",
    Reason.SYSTEM_FILE: "a file in /proc, /sys or /dev, never read",
}
# Legacy name -> (why, the name to use, the harness whose legacy it is (`HarnessSpec.legacy_names`):
# reported only where that harness is enabled; a CONTEXT.md in a repository without opencode is
# some other document).
DEPRECATED: dict[str, tuple[str, str | None, str | None]] = {
    **{legacy.name: (legacy.why, legacy.replacement, h.id) for h in HARNESSES.values() for legacy in h.spec.legacy_names},
    "AGENT.md": ("a legacy name only some tools read; the common name is AGENTS.md", "AGENTS.md", None),
}


@dataclass(frozen=True, slots=True)
class SecretFormat:
    kind: str
    hints: tuple[str, ...]  # lower-case text one of which every match contains: a cheap test first
    pattern: re.Pattern[str]


SECRET_FORMATS = (
    # The header alone is how instructions name the thing to look for; a key has a body.
    SecretFormat(
        "private key block",
        ("private key",),
        re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[ \t]*\r?\n[\w-]+:[^\n]*)*\s+[A-Za-z0-9+/=]{40,}"),
    ),
    SecretFormat("AWS access key id", ("akia", "asia", "abia", "acca"), re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b")),
    SecretFormat(
        "AWS secret access key",
        ("aws",),
        re.compile(r"(?i)aws.{0,24}?(?:secret|private).{0,24}?[\"'=:\s]([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"),
    ),
    SecretFormat(
        "GitHub token",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{50,255})\b"),
    ),
    SecretFormat("Slack token", ("xox",), re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    SecretFormat(
        "Slack webhook",
        ("hooks.slack.com",),
        re.compile(r"https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{16,}"),
    ),
    SecretFormat("Anthropic API key", ("sk-ant-",), re.compile(r"\bsk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{80,}")),
    SecretFormat(
        "OpenAI API key",
        ("sk-",),
        re.compile(
            r"\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}"
            r"|\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}"
        ),
    ),
    SecretFormat("Google API key", ("aiza",), re.compile(r"\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])")),
    SecretFormat("Stripe secret key", ("_live_",), re.compile(r"\b(?:sk|rk)_live_[0-9A-Za-z]{24,}")),
    SecretFormat("npm token", ("npm_",), re.compile(r"\bnpm_[A-Za-z0-9]{36}\b")),
)
# Documented example values (AWS docs) and placeholders are not secrets.
_EXAMPLE = re.compile(r"EXAMPLE|example|x{8,}|X{8,}|0{8,}|\*{4,}")


def mask(secret: str) -> str:
    """Enough to find the string again, never enough to use it."""
    return f"{secret[:4]}…({len(secret)} characters)"


def _looks_real(value: str) -> bool:
    return not _EXAMPLE.search(value) and len(set(value)) >= 8


def secret_findings(doc: Document) -> list[Finding]:
    found = []
    lowered = doc.text.lower()
    for secret_format in SECRET_FORMATS:
        if not any(hint in lowered for hint in secret_format.hints):
            continue  # the pattern cannot match; scanning with a leading \b is slow
        for match in secret_format.pattern.finditer(doc.text):
            start, end = match.span(match.lastindex or 0)
            value = doc.text[start:end]
            if secret_format.kind != "private key block" and not _looks_real(value):
                continue
            line, character = doc.offset_position(start)
            end_line, end_character = doc.offset_position(end)
            message = (
                f"{secret_format.kind} ({mask(value)}): instruction files are sent to the model provider "
                "and often committed; remove it and rotate the credential"
            )
            found.append(finding("secret", doc.path, Span(line, character, end_line, end_character), message))
    return found


def _emoji(char: str) -> bool:
    code = ord(char)
    return code >= 0x1F000 or 0x2600 <= code <= 0x27BF or char == _VARIATION_SELECTOR or 0x1F3FB <= code <= 0x1F3FF


def _char_name(char: str) -> str:
    return f"U+{ord(char):04X} {unicodedata.name(char, 'TAG CHARACTER' if ord(char) >= 0xE0000 else 'FORMAT CHARACTER')}"


def hidden_unicode_findings(doc: Document) -> list[Finding]:
    found = []
    for match in _HIDDEN.finditer(doc.text):
        start, run = match.start(), match.group()
        if run == "\ufeff" and start == 0:
            continue  # a BOM as the very first character is just an encoding mark
        if run == _ZWJ and 0 < start < len(doc.text) - 1 and _emoji(doc.text[start - 1]) and _emoji(doc.text[start + 1]):
            continue  # joins an emoji sequence (👩‍💻)
        line, character = doc.offset_position(start)
        kinds = ", ".join(dict.fromkeys(_char_name(c) for c in run))
        message = (
            f"{len(run)} invisible character{'s' if len(run) > 1 else ''} ({kinds}): hidden from reviewers, "
            "read by the model; remove unless intended"
        )
        found.append(finding("hidden-unicode", doc.path, Span(line, character, line, character + len(run)), message))
    return found


def empty_finding(doc: Document) -> Finding | None:
    if rust_trim(doc.text):
        return None
    if os.path.basename(doc.path) == "AGENTS.override.md":
        message = (
            "empty AGENTS.override.md: Codex still picks it over AGENTS.md in this directory, so this "
            "directory sends no instructions to Codex"
        )
    else:
        message = "empty instruction file: harnesses load nothing from it"
    return finding("empty-file", doc.path, FILE_START, message)


def path_only_finding(doc: Document, is_file: Callable[[str], bool]) -> Finding | None:
    """A file whose whole content is a relative path to another file: a symlink committed or
    checked out as a plain file (git's form of a link where symlinks are off), so harnesses read
    the path, not the file it names."""
    text = doc.text.strip()
    if not text or len(text) > 255 or any(c.isspace() for c in text) or text.startswith(("/", "~", "@", "#")) or "://" in text:
        return None
    target = os.path.normpath(os.path.join(os.path.dirname(doc.path), text))
    if not is_file(target) or target == doc.path:
        return None
    message = (
        f"holds only the path {text!r}: harnesses send these {len(text)} characters, not that file (a symlink "
        "committed or checked out as a plain file? with symlinks off, git writes a link this way)"
    )
    return finding("path-only-file", doc.path, doc.line_span(0), message)


def named_for_enabled_harness(path: str, harnesses: Collection[str]) -> bool:
    """False for a file under a legacy name only a harness not in use reads (CONTEXT.md without
    opencode): a document that happens to have that name, a glossary, not an instruction file."""
    entry = DEPRECATED.get(os.path.basename(path))
    return entry is None or entry[2] is None or entry[2] in harnesses


def deprecated_finding(
    path: str,
    harnesses: Collection[str],
    exists: Callable[[str], bool],
    realpath: Callable[[str], str],
    in_project: bool,
) -> Finding | None:
    """A legacy file name, unless its harness is not in use, the file is an alias (a symlink) of
    the file under the name to use, or it lies where no harness would read the new name either
    (`in_project` False: inside a tool's own folder such as `.kiro/`, a template to be copied out)."""
    name = os.path.basename(path)
    if name not in DEPRECATED or not in_project:
        return None
    why, replacement, _harness = DEPRECATED[name]
    if not named_for_enabled_harness(path, harnesses):
        return None
    if replacement and realpath(path) == realpath(os.path.join(os.path.dirname(path), replacement)):
        return None
    fix = None
    if replacement and not exists(os.path.join(os.path.dirname(path), replacement)):
        target = os.path.join(os.path.dirname(path), replacement)
        fix = Fix(f"Rename to {replacement}", rename_from=path, rename_to=target)
    return finding("deprecated-filename", path, FILE_START, f"{name} is {why}", fix=fix)


def unreadable_reason(doc: Document) -> str | None:
    """Why the file cannot be analysed as text, if it cannot (too large is `oversized`, not this)."""
    data = doc.data
    if data.problem in UNREADABLE_REASONS:
        return UNREADABLE_REASONS[data.problem]
    if data.data is None or data.problem == Reason.TOO_LARGE:
        return None
    if data.is_binary:
        return "binary content (NUL bytes)"
    if not data.is_valid_utf8:
        try:
            data.data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return f"invalid UTF-8 at byte {exc.start} (harnesses replace it with U+FFFD)"
    return None


def unreadable_finding(doc: Document) -> Finding | None:
    reason = unreadable_reason(doc)
    if reason is None:
        return None
    return finding("unreadable-file", doc.path, FILE_START, f"cannot be read as text: {reason}")
