"""Findings about agents, skills and commands: files a harness drops or cannot list, two of one
name, a description or a listing over a harness's limit, a skill named differently from its
folder, an agent whose prompt file is missing, a user-only skill Codex lists.

Definitions live in tool folders (`.claude/skills`, `.agents/skills`, `.opencode/`), which are no
launch directories of instruction files; they are found by each harness's own rules from the
workspace root and from every directory that holds such a folder. Findings sit on
workspace files only, once per file, code and line, naming every harness concerned.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from lsp_agents.core.agents import DEFINITIONS
from lsp_agents.core.agents.claude import LISTING_BUDGET_200K, ClaudeDefinitions
from lsp_agents.core.agents.claude_listing import MAX_LISTED_DESCRIPTION
from lsp_agents.core.agents.codex import BUDGET_TOKENS, CodexDefinitions
from lsp_agents.core.agents.discovery import parse_definition
from lsp_agents.core.agents.model import Catalog, Definition, Delivery, Issue, Kind, Scope
from lsp_agents.core.analysis.base import directory_label, finding, names, shown, verb
from lsp_agents.core.analysis.codes import SEVERITIES
from lsp_agents.core.analysis.definition_paths import CONFIG_NAMES, DEFINITION_FOLDERS, definition_owner, is_definition_path
from lsp_agents.core.harnesses import HARNESSES, LaunchContext
from lsp_agents.core.harnesses.spec import DefinitionRivals, HarnessSpec, SkillNaming
from lsp_agents.core.model import Finding, Reason, Related, Span
from lsp_agents.core.workspace import HIDDEN, WorkspaceIndex

CODES = (
    "invalid-definition",
    "duplicate-definition",
    "skill-description-too-long",
    "skills-over-budget",
    "skill-name-mismatch",
    "missing-prompt-file",
    "manual-skill-listed",
)
# Two definitions of one name whose descriptions are equal and whose bodies share this much of
# their word 3-grams say the same: copies per harness folder (generated, or symlinks that were
# checked out as files). Whichever a harness keeps, the model gets the same.
SAME_DEFINITION = 0.8
_WORD = re.compile(r"\w+")
_CANDIDATE = re.compile(
    r"[\\/](?:"
    + "|".join(map(re.escape, DEFINITION_FOLDERS))
    + r")[\\/]|[\\/](?:"
    + "|".join(map(re.escape, CONFIG_NAMES))
    + ")$"
)
_ISSUE_CODES = {
    "invalid-definition": "invalid-definition",
    "not-listed": "invalid-definition",
    "missing-prompt-file": "missing-prompt-file",
}


# A run of file-name characters: what a definition's text can name a file by ("AGENT.md").
_FILE_NAME = re.compile(r"[\w.-]+")


class DefinitionChecks:
    """The definition findings of one workspace, recomputed whole when a definition file changes
    (catalogs are memoized per launch directory until a file changes)."""

    def __init__(
        self,
        index: WorkspaceIndex,
        harnesses: Iterable[str],
        context: Callable[[str], LaunchContext],
        loads: Callable[[str, str], bool],
    ) -> None:
        self.index = index
        self.harnesses = [h for h in harnesses if h in DEFINITIONS]
        self.context = context
        self.loads = loads  # (path, harness): whether the harness loads the file as instructions
        self.found: dict[str, list[Finding]] = {}
        self.used: set[str] = set()  # the workspace's definition files some enabled harness uses
        self._named: frozenset[str] | None = None  # the file names the used definitions name

    def launch_directories(self) -> list[str]:
        """The workspace root and every directory holding definitions (in its tool folders or its
        opencode.json). A directory without any sees only what its nearest such ancestor sees (the
        harnesses look up from the launch directory, or only at it), so it adds no finding."""
        relative = self.index.relative
        # Substring tests first: most of a big workspace's paths have no hidden folder to search.
        candidates = (
            relative(p)
            for p in self.index.files
            if (HIDDEN in p or "opencode.json" in p or "kilo.json" in p) and _CANDIDATE.search(p)
        )
        owners = {definition_owner(r) for r in candidates if is_definition_path(r)}
        launched = {o for o in owners if o is not None and self.index.is_launch_directory(o)}
        return sorted({self.index.root} | {os.path.join(self.index.root, o) if o else self.index.root for o in launched})

    def compute(self) -> dict[str, list[Finding]]:
        grouped: dict[tuple[str, str, int], list[Finding]] = {}
        taken: dict[str, set[str]] = {}  # definition file -> the harnesses that use it
        for cwd in self.launch_directories():
            for harness in self.harnesses:
                catalog = DEFINITIONS[harness].catalog(self.context(cwd))
                for item in self._findings(harness, cwd, catalog):
                    grouped.setdefault((item.code, item.path, item.span.start_line), []).append(item)
                for definition in catalog.definitions:
                    if not definition.dropped and (path := self._mine(definition)) is not None:
                        taken.setdefault(path, set()).add(harness)
        self.found = {}
        self.used = set(taken)
        self._named = None
        for items in grouped.values():
            merged = _named_by_header_elsewhere(_partly_usable(_merge(items), taken), taken)
            if merged is not None:
                self.found.setdefault(merged.path, []).append(merged)
        return self.found

    def on(self, path: str) -> list[Finding]:
        return list(self.found.get(path, ()))

    def mention(self, name: str) -> bool:
        """Whether a command, workflow, skill or agent some harness uses names files called `name`
        ("read every AGENT.md from the root down to the task's folder"): the agent is sent to them."""
        if self._named is None:  # one pass over their text, whatever the number of names asked about
            texts = (self.index.fs.read(path).text() for path in self.used)
            self._named = frozenset(word.rstrip(".") for text in texts for word in _FILE_NAME.findall(text))
        return name in self._named

    # -- per catalog --------------------------------------------------------------------------
    def _mine(self, definition: Definition) -> str | None:
        """The workspace file a finding about `definition` sits on (its real path when a symlinked
        folder led to it), or None when it lies outside the workspace or in test data."""
        if not os.path.isabs(definition.path):
            return None
        given = os.path.normpath(definition.path)  # a configured folder may climb (`.opencode/../skills`)
        real = self.index.fs.realpath(given)
        for path in (given, real):
            if self.index.contains(path) and not self.index.is_test_data(path) and not self.index.is_excluded(path):
                return path
        return None

    def _findings(self, harness: str, cwd: str, catalog: Catalog) -> list[Finding]:
        found = []
        for definition in catalog.definitions:
            path = self._mine(definition)
            if path is None or self._unjudged(definition):
                continue
            found += [
                self._issue(harness, path, issue)
                for issue in definition.issues
                if issue.code in _ISSUE_CODES and not self._sent_as_instructions(harness, path, issue)
            ]
            found += self._duplicate(harness, cwd, catalog, definition, path)
            found += self._naming(harness, definition, path)
            spec = HARNESSES[harness].spec
            if spec.cuts_listed_descriptions and definition.delivery == Delivery.LISTED and definition.kind != Kind.AGENT:
                found += self._too_long(spec, definition, path)
            if spec.lists_model_disabled_skills and definition.kind == Kind.SKILL and definition.delivery == Delivery.LISTED:
                found += self._manual_listed(spec, definition, path)
        found += self._budget(harness, cwd, catalog)
        return found

    def _sent_as_instructions(self, harness: str, path: str, issue: Issue) -> bool:
        """A definition the harness drops or never lists while it loads the file as instructions
        (opencode.json's `instructions: [".opencode/skills/*/SKILL.md"]`): its text reaches the
        model anyway, so nothing is lost."""
        return _ISSUE_CODES[issue.code] == "invalid-definition" and self.loads(path, harness)

    def _unjudged(self, definition: Definition) -> bool:
        """A file too large for the safe reader or with a header past the parser's bound: what the
        harness makes of it is not known, so nothing is said about it."""
        if definition.kind == Kind.AGENT and definition.path.endswith(".toml"):
            return False
        return parse_definition(self.index.fs, definition.path).problem == Reason.TOO_LARGE

    def _issue(self, harness: str, path: str, issue: Issue) -> Finding:
        code = _ISSUE_CODES[issue.code]
        severity = "warning" if issue.code == "not-listed" else None
        line = issue.line
        return finding(code, path, Span(line, 0, line, 0), issue.message, harnesses=[harness], severity=severity)

    def _duplicate(self, harness: str, cwd: str, catalog: Catalog, definition: Definition, path: str) -> list[Finding]:
        if definition.scope == Scope.BUILTIN or definition.path.endswith(CONFIG_NAMES) or definition.dropped:
            return []
        rivals = [
            d
            for d in catalog.of(definition.kind)
            if d.name == definition.name
            and d is not definition
            and d.scope != Scope.BUILTIN
            and not d.dropped
            and not d.path.endswith(CONFIG_NAMES)
            and self.index.fs.realpath(d.path) != self.index.fs.realpath(definition.path)
        ]
        if not rivals:
            return []
        spec = HARNESSES[harness].spec
        title = spec.title
        if definition.shadowed_by is not None:
            if all(self._same(rival, definition) for rival in rivals):
                return []  # whichever copy it keeps, the harness sends the same
            winner = os.path.normpath(definition.shadowed_by)
            verdict = (
                f"which one {title} keeps depends on which file it reads last"
                if spec.definition_rivals is DefinitionRivals.KEEPS_LAST_READ
                else f"{title} uses {shown(winner, self.index.root)}"
            )
        elif all(r.shadowed_by is not None for r in rivals) or spec.definition_rivals is not DefinitionRivals.LISTS_BOTH:
            return []  # the winner: the finding sits on the files it shadows
        else:
            earlier = [r for r in rivals if catalog.definitions.index(r) < catalog.definitions.index(definition)]
            if not earlier:
                return []
            winner, verdict = os.path.normpath(earlier[0].path), f"{title} lists both under the same name"
        message = (
            f"two {definition.kind}s named `{definition.name}` (launched from {directory_label(cwd, self.index.root)}): "
            f"this one and {shown(winner, self.index.root)}; {verdict}"
        )
        related = [Related(winner, Span(0, 0, 0, 0), f"the other {definition.kind} named `{definition.name}`")]
        return [
            finding(
                "duplicate-definition",
                path,
                Span(definition.line, 0, definition.line, 0),
                message,
                harnesses=[harness],
                related=related,
            )
        ]

    def _same(self, one: Definition, other: Definition) -> bool:
        """Whether two definitions of one name give the model the same thing (`SAME_DEFINITION`)."""
        if (one.description or "") != (other.description or ""):
            return False
        first, second = self._grams(one.path), self._grams(other.path)
        if not first or not second:
            return first == second
        return len(first & second) >= SAME_DEFINITION * len(first | second)

    def _grams(self, path: str) -> frozenset[tuple[str, ...]]:
        words = _WORD.findall(parse_definition(self.index.fs, path).body.lower())
        return frozenset(tuple(words[i : i + 3]) for i in range(max(0, len(words) - 2)))

    def _naming(self, harness: str, definition: Definition, path: str) -> list[Finding]:
        if definition.kind != Kind.SKILL or definition.dropped:
            return []
        title, naming = HARNESSES[harness].spec.title, HARNESSES[harness].spec.skill_naming
        if naming is SkillNaming.BY_FOLDER and definition.declared_name:
            message = (
                f"the header names this skill `{definition.declared_name}` but its folder is `{definition.folder}`: "
                f"{title} lists it as `{definition.folder} ({definition.declared_name})` and runs it as "
                f"/{definition.folder}, {_OTHERS} `{definition.declared_name}`"
            )
            return [
                finding("skill-name-mismatch", path, Span(definition.line, 0, definition.line, 0), message, harnesses=[harness])
            ]
        if naming is SkillNaming.SANITISED and definition.declared_name:
            message = (
                f'{title} calls this skill `{definition.name}`: it replaces the characters :\\/<>*?"| '
                f"of `{definition.declared_name}` with -"
            )
            return [
                finding("skill-name-mismatch", path, Span(definition.line, 0, definition.line, 0), message, harnesses=[harness])
            ]
        return []

    def _manual_listed(self, spec: HarnessSpec, definition: Definition, path: str) -> list[Finding]:
        """A skill its author keeps out of Claude Code's listing that the harness lists anyway."""
        parsed = parse_definition(self.index.fs, definition.path)
        if parsed.fields.get("disable-model-invocation") is not True:
            return []
        line = parsed.line_of("disable-model-invocation")
        message = (
            f"`disable-model-invocation: true` keeps this skill out of Claude Code's listing, but {spec.title} ignores "
            "the key and lists it, so its model may run the skill on its own; "
            "`policy: {allow_implicit_invocation: false}` in the skill's agents/openai.yaml keeps it user-only there"
        )
        return [finding("manual-skill-listed", path, Span(line, 0, line, 0), message, harnesses=[spec.id])]

    def _too_long(self, spec: HarnessSpec, definition: Definition, path: str) -> list[Finding]:
        size = len(definition.description or "")
        if size <= MAX_LISTED_DESCRIPTION:
            return []
        line = definition.description_line
        message = (
            f"{spec.title} lists at most {MAX_LISTED_DESCRIPTION:,} characters of a description; this one has "
            f"{size:,}, so the model sees it cut"
        )
        return [finding("skill-description-too-long", path, Span(line, 0, line, 0), message, harnesses=[spec.id])]

    def _budget(self, harness: str, cwd: str, catalog: Catalog) -> list[Finding]:
        listed = [  # with the workspace file each sits in
            (d, mine)
            for d in catalog.active(Kind.SKILL) + catalog.active(Kind.COMMAND)
            if d.delivery == Delivery.LISTED and (mine := self._mine(d)) is not None
        ]
        if not listed:
            return []
        model = DEFINITIONS[harness]
        where = directory_label(cwd, self.index.root)
        if isinstance(model, ClaudeDefinitions):
            used, limit = model.listing_chars(catalog), LISTING_BUDGET_200K
            if used <= limit:
                return []
            message = (
                f"Claude Code's listing of skills and commands (launched from {where}) takes {used:,} characters "
                f"before its built-in skills; it has {limit:,} on models with a 200k-token context (1% of it), "
                "so descriptions are shortened or dropped there: shorten the longest ones"
            )
        elif isinstance(model, CodexDefinitions):
            used, limit = model.listing_tokens(self.context(cwd), catalog), BUDGET_TOKENS
            if used <= limit:
                return []
            message = (
                f"Codex CLI's skills listing (launched from {where}) takes about {used:,} tokens before its "
                f"system skills; it has {limit:,} (2% of the context window), so descriptions are shortened"
            )
        else:
            return []
        longest, path = max(listed, key=lambda listing: len(listing[0].description or ""))
        line = longest.description_line
        related = [
            Related(mine, Span(d.description_line, 0, d.description_line, 0), f"`{d.name}` is listed too")
            for d, mine in listed
            if d is not longest
        ][:20]
        return [finding("skills-over-budget", path, Span(line, 0, line, 0), message, harnesses=[harness], related=related)]


def _merge(items: list[Finding]) -> Finding:
    """One finding for what several harnesses or launch directories say about one place: every
    harness, each harness's message once, the most severe severity."""
    first = items[0]
    by_harness: dict[tuple[str, ...], str] = {}
    for item in items:  # from several launch directories, a harness's first message says it
        by_harness.setdefault(tuple(item.harnesses), item.message)
    messages = list(dict.fromkeys(by_harness.values()))
    severity = min((i.severity for i in items), key=SEVERITIES.index)
    return Finding(
        first.code,
        severity,
        first.path,
        first.span,
        "; ".join(messages),
        sorted({h for i in items for h in i.harnesses}),
        first.related,
        first.fix,
    )


def _partly_usable(merged: Finding, taken: Mapping[str, set[str]]) -> Finding:
    """A definition that some harnesses drop while others use it (a Claude Code skill without
    the `name` opencode needs) is a warning, not an error: it works where it was written for."""
    others = taken.get(merged.path, set()) - set(merged.harnesses)
    if merged.code != "invalid-definition" or merged.severity != "error" or not others:
        return merged
    return replace(merged, severity="warning", message=f"{merged.message} ({names(others)} {verb(others, 'uses')} it)")


_OTHERS = "while other harnesses call it"


def _named_by_header_elsewhere(merged: Finding, taken: Mapping[str, set[str]]) -> Finding | None:
    """A skill a harness names by its folder (Claude Code) while its header declares another name
    is misnamed only where another harness in use lists it by the header's name: those are named.
    Where none does, the header's name is a title and nothing is called two names."""
    if merged.code != "skill-name-mismatch":
        return merged
    by_folder = {h for h in merged.harnesses if HARNESSES[h].spec.skill_naming is SkillNaming.BY_FOLDER}
    if not by_folder:
        return merged
    declared = {
        h for h in taken.get(merged.path, set()) - by_folder if HARNESSES[h].spec.skill_naming is not SkillNaming.BY_FOLDER
    }
    if not declared:
        return None
    return replace(merged, message=merged.message.replace(_OTHERS, f"while {names(declared)} {verb(declared, 'calls')} it"))
