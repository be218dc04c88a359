"""The words every front end uses: one term per concept, and a sentence for each reason a file is
not loaded.

The CLI's text output, the hover, the editor's views and the README's glossary all say "at start"
for what the JSON calls `eager`, and explain a reason code with the same sentence, so a person
never meets two names for one thing or a bare code without its meaning.
"""

from __future__ import annotations

from lsp_agents.core.model import JsonObject, Reason

# (term, meaning, the JSON name where it differs). The README's glossary lists the same terms.
GLOSSARY: tuple[tuple[str, str, str | None], ...] = (
    (
        "harness",
        "an AI coding tool that sends instructions to a model: opencode, Codex CLI, Claude Code, Gemini CLI, Copilot, Cursor…",
        None,
    ),
    (
        "instruction file",
        "a file a harness sends to the model as instructions: AGENTS.md, CLAUDE.md, GEMINI.md, "
        "a rule file, a file imported by one of them",
        None,
    ),
    (
        "launch directory",
        "the directory the harness is started in (its working directory); which instruction files it finds depends on it",
        "cwd",
    ),
    ("at start", "sent with the first request of every session, before the agent has read anything", "eager"),
    ("on read", "added to the conversation when the agent reads a file with its read tool", "on_read"),
    ("not loaded", "found and weighed by the harness, but not sent; each such file has a reason", "not_loaded"),
    ("import", "a file an instruction file pulls in with `@path` (Claude Code, Gemini CLI and others)", None),
    (
        "rule",
        "an instruction file in a rules folder (`.claude/rules`, `.cursor/rules`…), often with globs that say "
        "for which files it is sent",
        None,
    ),
    ("bytes", "the bytes of a file the harness sends, after any cut (Codex stops at its byte budget)", None),
    ("~tokens", "an estimate of the bytes sent, at four bytes a token, rounded up per file; a total adds up its files", "tokens"),
    (
        "verified",
        "the harness's behaviour was checked byte for byte against captures of its real CLI; "
        '"documented" models follow the vendor\'s documentation',
        None,
    ),
    (
        "finding",
        "a problem `lsp-agents check` and the editor's Problems pane report, with a code that links to its explanation",
        None,
    ),
)

# A sentence a person understands, for each reason code (completed by the file it names, if any).
REASONS: dict[Reason, str] = {
    Reason.FAMILY_SHADOWED: "the harness reads only one of its alternative file names, and another one was found first",
    Reason.NAME_SHADOWED: "the harness takes one file per directory, and another name in this directory comes first",
    Reason.OVERRIDE_SHADOWED: "AGENTS.override.md in the same directory replaces it",
    Reason.GLOBAL_SHADOWED: "the harness takes one global file, and another one comes first",
    Reason.CLAUDE_MD_PRESENT: "a CLAUDE.md at or above the launch directory turns AGENTS.md off "
    "(it can still arrive through an @AGENTS.md import)",
    Reason.DUPLICATE_PATH: "the same file is already sent under another path (a symlink or a second name)",
    Reason.ALREADY_LOADED: "already sent earlier in the session",
    Reason.SAME_TEXT: "its text is already sent by another project file",
    Reason.BUDGET_EXHAUSTED: "the byte budget (Codex: project_doc_max_bytes, 32 KiB by default) was used up by the files "
    "before it",
    Reason.TOO_LARGE: "larger than the harness accepts",
    Reason.EMPTY: "empty, and the harness skips empty files",
    Reason.OUTSIDE_BOUNDARY: "outside the directories the harness searches (beyond the project root it stops at)",
    Reason.BELOW_CWD: "below the launch directory: sent only when the agent reads a file there",
    Reason.NOT_CONFIGURED: "the harness is not configured to read this file name",
    Reason.DISABLED: "turned off by a setting or an environment variable",
    Reason.UNTRUSTED_FOLDER: "the folder is not trusted, so the harness ignores its files",
    Reason.CONDITIONAL: "a rule with globs: sent only when the agent reads a file they match",
    Reason.AGENT_REQUESTED: "a rule with a description and no globs: sent only when the agent judges it relevant to the task",
    Reason.MANUAL: "a manual rule (no globs, no description, not always applied): sent only when you @-mention it "
    "or invoke it by name",
    Reason.NOT_ALWAYS_APPLIED: "a rule that does not always apply (globs, a regex or alwaysApply: false), and this "
    "harness sends only rules that always apply",
    Reason.GLOB_NO_MATCH: "a rule whose globs do not match this file",
    Reason.GLOB_NOT_EVALUABLE: "a rule whose globs are too long or expand too far to be evaluated",
    Reason.LISTED_ONLY: "only its path is listed to the model, which must decide to read the file itself",
    Reason.SKILL_LISTED: "listed to the model as a skill, by name and description: its text is sent when the agent "
    "invokes it or a message names one of its trigger words",
    Reason.SUBSTITUTION_REFUSED: "it asks for an environment variable ({env:…}), which the harness refuses in project files",
    Reason.IMPORT_NOT_FOUND: "imported with @path, but no such file exists",
    Reason.IMPORT_CYCLE: "imported in a cycle, where the harness stops",
    Reason.IMPORT_TOO_DEEP: "imported more levels deep than the harness follows",
    Reason.IMPORT_NOT_APPROVED: "imported from outside the project, which the user has not approved",
    Reason.IMPORT_OUTSIDE_ROOT: "imported from outside the folder the harness takes imports from",
    Reason.REMOTE_NOT_FETCHED: "a remote URL, not fetched (setting fetchRemoteInstructions, CLI --fetch-remote)",
    Reason.REMOTE_FAILED: "a remote URL that could not be fetched",
    Reason.MISSING: "does not exist",
    Reason.NOT_REGULAR_FILE: "not a regular file (a directory, a FIFO or a device)",
    Reason.PERMISSION_DENIED: "cannot be read: permission denied",
    Reason.SYMLINK_LOOP: "a symlink that leads back to itself",
    Reason.UNREADABLE: "cannot be read",
    Reason.INVALID_HEADER: "its header (front matter) is not valid YAML, so the harness skips the file",
    Reason.SYSTEM_FILE: "a file in /proc, /sys or /dev, which lsp-agents never reads",
}


def explain(reason: Reason | str | None) -> str:
    """The sentence for a reason code; an unknown code is returned as it is."""
    if reason is None:
        return "not loaded"
    try:
        return REASONS[Reason(reason)]
    except ValueError:
        return str(reason)


def plural(count: int, word: str) -> str:
    """`1 file`, `2 files`."""
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


def size_label(total: JsonObject) -> str:
    """`2 files · 763 B · ~192 tokens`: a total as every front end shows it."""
    return f"{plural(total['files'], 'file')} · {total['bytes']:,} B · ~{total['tokens']:,} tokens"


def cut_note(entry: JsonObject) -> str:
    """` (cut at byte 32,768 of 40,000)` for a file the harness's budget cuts, else empty."""
    if entry.get("truncated_at") is None:
        return ""
    return f" (cut at byte {entry['truncated_at']:,} of {entry['size']:,})"


def entry_size(entry: JsonObject) -> str:
    """`578 B · ~145 tokens` for one file sent, with its cut if any."""
    return f"{entry['bytes']:,} B · ~{entry['tokens']:,} tokens{cut_note(entry)}"
