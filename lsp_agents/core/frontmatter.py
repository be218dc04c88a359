"""YAML frontmatter of instruction and rule files, and the rule-file plumbing the documented models share.

Frontmatter comes from untrusted workspace files, so nothing here raises: invalid YAML comes back
as an error (`FrontmatterError`: its message, and as data the line it names) next to the body, and
the caller decides what the harness does with it.

Harnesses differ in strictness. VS Code and Claude parse YAML; Cursor's `.mdc` header only looks
like YAML (its own template writes `globs: *.ts`, an alias error to a YAML parser), so `loose=True`
falls back to one `key: value` per line, as that header is meant to be read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from lsp_agents.core.fs import FileData, FileSystem
from lsp_agents.core.globs import GlobError, compile_patterns
from lsp_agents.core.model import Candidate, Cascade, HarnessWarning, Reason, Role, WarningKind
from lsp_agents.core.text import memoized_by_text
from lsp_agents.core.walk import MAX_WALK_ENTRIES, files_below
from lsp_agents.core.yaml_text import InvalidYaml, parse_yaml

FENCE = "---"
MAX_FRONTMATTER_CHARS = 64 * 1024  # far above any real header; bounds the YAML parser's work
# PyYAML's scanner does work proportional to the nesting depth for every token: a header nested
# thousands deep costs seconds. Real headers nest two or three levels.
MAX_FRONTMATTER_NESTING = 64
_LOOSE_FIELD = re.compile(r"([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*))?$")
_LOOSE_ITEM = re.compile(r"[ \t]+-[ \t]+(.*)$")


# A header's fields as YAML read them: from an untrusted file, so keys and values are of any type
# and each reader checks what it needs. Shared by every reader of a text (see `_split`): read-only.
Fields = Mapping[object, object]


@dataclass(frozen=True, slots=True)
class FrontmatterError:
    """Why a header is unusable: a one-line `message` for people, and as data what callers act on.

    `line` is the 1-based line of the file the YAML parser stopped at, when it names one (a
    finding points there); `past_bound` says the header was not parsed at all, being longer than
    `MAX_FRONTMATTER_CHARS` (the file is then too large to judge, not wrong).
    """

    message: str
    line: int | None = None
    past_bound: bool = False


def split_frontmatter(text: str, *, loose: bool = False) -> tuple[Fields | None, str, FrontmatterError | None]:
    """(fields, body, error) of a Markdown file that may open with a `---` fenced YAML header.

    No header: (None, text, None). A header that is not closed is not a header. A header that is
    not a YAML mapping: (None, body, error), or with `loose` the `key: value` lines it holds.
    Callers must not modify `fields` (the YAML is parsed once per text, see `_split`).
    """
    fields, body, error, unread_header = _split(text)
    if loose and unread_header is not None:
        lenient = loose_fields(unread_header)
        if lenient:
            return lenient, body, None
    return fields, body, error


@memoized_by_text
def _split(text: str) -> tuple[Fields | None, str, FrontmatterError | None, str | None]:
    """The strict `split_frontmatter`, and the header when YAML did not read it as a mapping
    (what `loose` reads instead). Memoized: YAML parsing is the cost of every rules query, and
    the strict and loose readers of a file share one parse."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].lstrip("\ufeff").rstrip() != FENCE:
        return None, text, None, None
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == FENCE), None)
    if end is None:
        return None, text, None, None
    raw = "".join(lines[1:end])
    body = "".join(lines[end + 1 :])
    if len(raw) > MAX_FRONTMATTER_CHARS:
        return None, body, FrontmatterError(f"frontmatter longer than {MAX_FRONTMATTER_CHARS} characters", past_bound=True), None
    if _nesting(raw) > MAX_FRONTMATTER_NESTING:
        return None, body, FrontmatterError(f"frontmatter nested deeper than {MAX_FRONTMATTER_NESTING} levels"), None
    try:
        fields = parse_yaml(raw) if raw.strip() else {}
    except InvalidYaml as exc:
        return None, body, _yaml_error(exc), raw
    if isinstance(fields, dict):
        return fields, body, None, None
    return None, body, FrontmatterError("frontmatter is not a mapping of fields"), raw


def _nesting(raw: str) -> int:
    """An upper bound of the header's nesting: open flow brackets (quotes ignored, so it may
    overcount) or indentation levels of block collections, whichever is deeper."""
    depth = deepest = 0
    for char in raw:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}" and depth:
            depth -= 1
    indents = {len(line) - len(line.lstrip(" ")) for line in raw.splitlines() if line.strip()}
    return max(deepest, len(indents))


def _yaml_error(exc: InvalidYaml) -> FrontmatterError:
    """The file line the parser stopped at (the header starts on line 2), and one line naming it
    and the parser's complaint."""
    problem = " ".join(exc.problem.split())
    if exc.line is None:
        return FrontmatterError(f"invalid YAML frontmatter: {problem}")
    line = exc.line + 2
    return FrontmatterError(f"invalid YAML frontmatter at line {line}: {problem}", line)


def loose_fields(raw: str) -> dict[object, object]:
    """Top-level `key: value` lines (and `  - item` lists under an empty key), values as written.

    Unquoted true/false are booleans; a quoted "true" stays a string, as Cursor treats it.
    """
    fields: dict[object, object] = {}
    last_key = None
    for line in raw.splitlines():
        item = _LOOSE_ITEM.match(line)
        previous = fields[last_key] if item and last_key is not None else ()
        if item and isinstance(previous, list | None):
            fields[last_key] = [*(previous or []), _loose_value(item.group(1))]
            continue
        field = _LOOSE_FIELD.match(line)
        if field:
            last_key = field.group(1)
            fields[last_key] = _loose_value(field.group(2) or "")
    return fields


def _loose_value(text: str) -> object:
    value = text.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value or None


def split_glob_aware(text: str, separator: str = ",") -> list[str]:
    """`text` split on `separator` outside `{…}` and `[…]`, as VS Code's splitGlobAware does."""
    parts: list[str] = []
    current: list[str] = []
    braces, in_brackets = 0, False
    for char in text:
        if char == separator and braces == 0 and not in_brackets:
            parts.append("".join(current))
            current = []
            continue
        if char == "{" and not in_brackets:
            braces += 1
        elif char == "}" and braces and not in_brackets:
            braces -= 1
        elif char == "[":
            in_brackets = True
        elif char == "]":
            in_brackets = False
        current.append(char)
    parts.append("".join(current))
    return parts


def pattern_list(value: object) -> list[str]:
    """Glob patterns from a frontmatter value: a comma-separated string or a list of strings."""
    if isinstance(value, str):
        candidates = split_glob_aware(value)
    elif isinstance(value, list):
        candidates = [v for v in value if isinstance(v, str)]
    else:
        return []
    return [p.strip() for p in candidates if p.strip()]


@dataclass(frozen=True, slots=True)
class ParsedFile:
    """An instruction file as read through the safe fs: its text, and its header when it has one.

    `fields` is {} when the file has no (usable) header; `error` says why a header was unusable.
    """

    path: str
    size: int
    problem: Reason | None
    text: str
    fields: Fields
    body: str
    error: FrontmatterError | None = None

    @property
    def unusable(self) -> Reason | None:
        """Why the file cannot be loaded at all: unreadable, or nothing but whitespace to send."""
        if self.problem:
            return self.problem
        return None if self.body.strip() else Reason.EMPTY


def parse_file(fs: FileSystem, path: str, *, frontmatter: bool = True, loose: bool = False) -> ParsedFile:
    """Read `path`; with `frontmatter`, split its header off the body (else the body is the text)."""
    data = fs.read(path)
    if data.problem:
        return ParsedFile(path, data.size, data.problem, "", {}, "")
    text = data.text()
    if not frontmatter:
        return ParsedFile(path, data.size, None, text, {}, text)
    fields, body, error = split_frontmatter(text, loose=loose)
    return ParsedFile(path, data.size, None, text, fields or {}, body, error)


def admit(
    cascade: Cascade, file: ParsedFile, role: Role, already: Collection[str] = (), *, held_back: Reason | None = None
) -> bool:
    """Record `file` as a candidate of `cascade`; True when it is loaded now.

    Not loaded when unreadable or blank, when the harness holds it back (`held_back`: a rule
    whose condition is not met), or when an earlier turn loaded it (`already`).
    """
    reason = file.unusable or held_back or (Reason.ALREADY_LOADED if file.path in already else None)
    cascade.files.append(Candidate(file.path, role, reason is None, file.size, reason))
    return reason is None


def admitted_shape(data: FileData) -> tuple[Reason | None, bool]:
    """What `admit_files` takes from a file's content: whether it is unreadable or blank."""
    return data.problem, not data.text().strip()


def admit_files(
    fs: FileSystem, entries: Iterable[tuple[str, Role]], cascade: Cascade, already: Collection[str] = ()
) -> list[ParsedFile]:
    """Each existing file of `entries` (path, role), once per path, taken whole and recorded by `admit`.

    Returns the files loaded now, in order. For plain instruction files (AGENTS.md, CLAUDE.md,
    .cursorrules), which the harnesses send as they are, header included. A symlink to a file
    taken already is that file (`CLAUDE.md -> AGENTS.md`): these documented harnesses are assumed
    to read it once, as every captured harness does.
    """
    loaded, seen, real = [], set(), set()
    for path, role in entries:
        if path in seen or not fs.exists(path):
            continue
        seen.add(path)
        if fs.realpath(path) in real:
            cascade.files.append(Candidate(path, role, False, fs.size(path), Reason.DUPLICATE_PATH))
            continue
        real.add(fs.realpath(path))
        file = parse_file(fs, path, frontmatter=False)
        if admit(cascade, file, role, already):
            loaded.append(file)
    return loaded


def find_rule_files(
    fs: FileSystem, directory: str, suffix: str, role: Role, cascade: Cascade, *, loose: bool = False
) -> list[ParsedFile]:
    """The files named `*<suffix>` anywhere under `directory`, parsed, in path order.

    Other Markdown files there are candidates the harness ignores (NOT_CONFIGURED): a plain `.md`
    in .cursor/rules or .github/instructions looks like a rule but never loads. Header errors and
    a walk cut short by its bound become warnings.
    """
    if not fs.is_dir(directory):
        return []
    paths, complete = files_below(fs, directory)
    if not complete:
        cascade.warnings.append(f"warning: {directory}: more than {MAX_WALK_ENTRIES} entries, the rest not searched")
    rules = []
    for path in paths:
        if path.endswith(suffix):
            rule = parse_file(fs, path, loose=loose)
            if rule.error:
                cascade.warnings.append(HarnessWarning(f"warning: {path}: {rule.error.message}", WarningKind.INVALID_HEADER))
            rules.append(rule)
        elif path.endswith(".md"):
            cascade.files.append(Candidate(path, role, False, fs.size(path), Reason.NOT_CONFIGURED))
    return rules


def compile_rule_globs(
    file: ParsedFile, patterns: Sequence[str], cascade: Cascade, *, anchored: bool, ignore_case: bool = False
) -> Callable[[str], bool] | None:
    """The predicate of a rule's glob patterns; None, with a warning, when they exceed the glob
    bounds (a warning too when part of a long list is left out)."""
    try:
        matcher = compile_patterns(patterns, anchored=anchored, ignore_case=ignore_case)
    except GlobError as exc:
        cascade.warnings.append(
            HarnessWarning(f"warning: {file.path}: globs not evaluated: {exc}", WarningKind.GLOBS_NOT_EVALUATED)
        )
        return None
    warning = matcher.warning(file.path)
    if warning:
        cascade.warnings.append(warning)
    return matcher
