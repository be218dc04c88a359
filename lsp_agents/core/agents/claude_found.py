"""Skills Claude Code 2.1.332 finds while a session runs, below the launch directory (closed source;
names as minified in its bundle; tests/conformance/FINDINGS.md GD-8 and SV-1).

- On reading a file (`OLi`): every `<folder>/.claude/skills` from the file's folder up to, not
  including, the launch directory, that exists and git does not ignore, each once a session. `S2i`
  names a folder's skills in the order the OS lists them (only those the model may invoke); `zXs`
  offers the skills found so far sorted by name, under their own name, or as `<folder>:<name>`
  (`qKt`) when a skill or command of the start or a second found skill has that name. A read's
  system-role message gets a "New skills discovered" paragraph per folder it reached first and the
  listing entries not sent before (`b2i`): `read_parts`.
- The files a typed command's `@path` mentions read (`j8e` on each Read) find skills the same way; the
  first request's system-role message gets a paragraph per folder (`dynamic_skill`, file by file, the
  innermost first; the reads run at once, so the files' order is the order they finish) and the found
  skills join the start's listing after the built-in skills (GD-39): `found_by_mentions`.
- The files a typed command's `@path` mentions read count as reads. A skill or command typed whose
  name such a found skill took (`<folder>:<name>`) gets, after its message, a reminder naming those
  directory-scoped variants (`Xur`, `tengu_skill_scoped_variant_note`): `scoped_variants`,
  `variants_reminder`. The reminder ends with a paragraph of advice to the model, Claude Code's own
  text, which lsp-agents shows as `VARIANTS_ADVICE`.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace

from lsp_agents.core.agents.base import sort_key
from lsp_agents.core.agents.claude_listing import BREAKS, cut_description, listed_description
from lsp_agents.core.agents.discovery import ParsedDefinition, parse_definition
from lsp_agents.core.agents.model import Definition
from lsp_agents.core.fs import FileSystem
from lsp_agents.core.git_ignore import git_ignored
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.claude_memory import header_fields
from lsp_agents.core.walk import find_marker_root, is_within

SKILLS_HEADER = "The following skills are available for use with the Skill tool:"
# What stands for the advice that closes the variants reminder (Claude Code's text, not reproduced).
VARIANTS_ADVICE = "[Claude Code's advice on choosing a directory-scoped variant: not shown]"

# A listed skill of a skills folder, as the definitions model reads it: (its SKILL.md, its folder's name).
SkillReader = Callable[[str, str], Definition | None]


def read_parts(ctx: LaunchContext, read: SkillReader, taken: set[str], target: str, earlier: list[str]) -> list[str]:
    """The parts a read of `target` adds to its system-role message, after `earlier` reads: one "New
    skills discovered" paragraph per skills folder it reaches first, then the listing entries nobody
    was sent yet (an entry is listed again when its text changes: a second skill of its name
    qualifies it). `taken`: the names of the start's skills and commands."""
    folders = [skill_folders(ctx, path) for path in [*earlier, target]]
    if not folders[-1]:
        return []
    reached: list[str] = []
    found: list[Definition] = []
    sent: set[str] = set()
    for read_folders in folders:  # the session so far; the last pass is the read's own
        new = [d for d in read_folders if d not in reached]
        reached += new
        found += [skill for folder in new for skill in folder_skills(ctx, folder, read)]
        offers = offered(ctx, found, taken)
        lines = [line for _name, line in offers.values() if line not in sent]
        sent.update(lines)
    parts = discovered(ctx, read, new, offers)
    if lines:
        parts.append("\n".join([SKILLS_HEADER, "", *lines]))
    return parts


def found_by_mentions(ctx: LaunchContext, read: SkillReader, taken: set[str], files: Iterable[str]) -> list[str]:
    """The parts the files a typed command's `@path` mentions read add to the first request's
    system-role message: a "New skills discovered" paragraph per skills folder they reach (file by
    file, the innermost first), then the found skills' listing entries, which join the start's
    listing after the built-in skills (joined here by newlines)."""
    folders = list(dict.fromkeys(folder for path in files for folder in skill_folders(ctx, path)))
    offers = offered(ctx, [skill for folder in folders for skill in folder_skills(ctx, folder, read)], taken)
    if not offers:
        return []
    return [*discovered(ctx, read, folders, offers), "\n".join(line for _name, line in offers.values())]


def discovered(ctx: LaunchContext, read: SkillReader, folders: list[str], offers: dict[str, tuple[str, str]]) -> list[str]:
    """`dynamic_skill`: per skills folder, the paragraph naming its skills offered, in `S2i`'s order."""
    parts = []
    for folder in folders:
        names = [offers[s.path][0] for s in folder_skills(ctx, folder, read) if s.path in offers]
        if names:
            where = os.path.relpath(folder, ctx.cwd)
            entries = "\n".join(f"- {name}" for name in names)
            parts.append(f"New skills discovered in {where}, now available via the Skill tool:\n{entries}")
    return parts


def scoped_variants(ctx: LaunchContext, read: SkillReader, taken: set[str], name: str, files: Iterable[str]) -> list[str]:
    """`Xur`: the qualified names (`<folder>:<name>`) of the skills that reading `files` finds
    for the skill or command `name` typed, sorted."""
    folders = dict.fromkeys(folder for path in files for folder in skill_folders(ctx, path))
    found = [skill for folder in folders for skill in folder_skills(ctx, folder, read)]
    offers = offered(ctx, found, taken)
    variants = [offers[s.path][0] for s in found if s.name == name and s.path in offers and offers[s.path][0] != name]
    return sorted(variants, key=sort_key)


def variants_reminder(name: str, variants: list[str]) -> str:
    """The reminder after a typed command's message that names its directory-scoped variants."""
    entries = [f"- `{variant}` \u2014 for files under {variant[: -len(name) - 1]}/" for variant in variants]
    lines = [f'Directory-scoped variants of the "{name}" skill exist in this repo:', *entries, VARIANTS_ADVICE]
    return "<system-reminder>\n" + "\n".join(lines) + "\n</system-reminder>"


def skill_folders(ctx: LaunchContext, path: str) -> list[str]:
    """`OLi`: the `.claude/skills` folders a read of `path` reaches, the innermost first (one in
    a folder git ignores is passed over)."""
    folders = []
    directory = os.path.dirname(path)
    while directory != ctx.cwd and is_within(directory, ctx.cwd):
        folder = os.path.join(directory, ".claude", "skills")
        if ctx.fs.is_dir(folder):
            git_root = find_marker_root(ctx.fs, ctx.cwd, [".git"])
            if git_root is None or not git_ignored(ctx.fs, git_root, directory):
                folders.append(folder)
        directory = os.path.dirname(directory)
    return folders


def folder_skills(ctx: LaunchContext, folder: str, read: SkillReader) -> list[Definition]:
    """`S2i`: the listed skills of a skills folder, in the order the OS lists it."""
    skills = []
    for entry in ctx.fs.list_dir(folder):
        path = os.path.join(folder, entry)
        skill_file = os.path.join(path, "SKILL.md")
        if (ctx.fs.is_dir(path) or ctx.fs.is_link(path)) and ctx.fs.is_file(skill_file):
            skill = read(skill_file, entry)
            if skill is not None:
                skills.append(skill)
    return skills


def offered(ctx: LaunchContext, found: list[Definition], taken: set[str]) -> dict[str, tuple[str, str]]:
    """`zXs`: each found skill's offered name and listing line, by path, sorted by name."""
    counts = Counter(skill.name for skill in found)
    used: set[str] = set()
    offers = {}
    for skill in sorted(found, key=lambda s: (sort_key(s.name), s.path)):
        where = os.path.relpath(_skills_owner(skill.path), ctx.cwd)
        note = f"from {where}/.claude/skills \u2014 applies when working on files under {where}/"
        name = skill.name
        if name in taken or counts[name] > 1:
            name = f"{where}:{skill.name}"
            if name in taken or name in used:
                continue  # "is not offered: another skill would share the name"
            if skill.name in taken or skill.name in used:
                note = (
                    f'scoped to {where}/ \u2014 use this instead of the unscoped "{skill.name}" skill'
                    f" when the files being changed are under {where}/"
                )
        used.add(name)
        parsed = skill_file(ctx.fs, skill.path)
        summary = listed_description(parsed.text_field("description"), parsed.body, None)
        when = parsed.text_field("when_to_use")
        description = f"{summary} ({note})" + (f" - {BREAKS.sub(' ', when)}" if when else "")
        shown = f"{name} ({skill.declared_name})" if skill.declared_name else name
        offers[skill.path] = (name, f"- {shown}: {cut_description(description)}")
    return offers


def _skills_owner(path: str) -> str:
    """The folder holding the `.claude` of `<folder>/.claude/skills/<name>/SKILL.md`."""
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(path))))


def skill_file(fs: FileSystem, path: str) -> ParsedDefinition:
    """A `SKILL.md` as Claude Code reads its header (`header_fields`): a header YAML rejects gets its
    second try; when that fails too (a `key: [unclosed` line of a CRLF file, which the second try
    does not quote) the skill has no fields, and its body's first line describes it (seed 9511)."""
    parsed = parse_definition(fs, path)
    if parsed.problem or parsed.yaml_error is None:
        return parsed
    fields = header_fields(fs.read(path).text(strip_bom=True))
    return replace(parsed, fields=dict(fields) if fields is not None else {})
