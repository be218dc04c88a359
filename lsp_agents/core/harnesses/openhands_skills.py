"""OpenHands' skills as its SDK loads them (`load_project_skills`, `load_skills_from_dir`,
`load_user_skills`, `load_installed_skills`, `Skill.load`, `to_prompt` in openhands/sdk/skills/skill.py;
`find_third_party_files`, `find_regular_md_files` in openhands/sdk/skills/utils.py): which files are
skills, in which order, under which names, and the `<available_skills>` listing. The harness model
(`openhands.py`) says what of them is sent."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Literal

from lsp_agents.core.fs import FileSystem
from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.model import Candidate, Reason, Role
from lsp_agents.core.walk import find_marker_root
from lsp_agents.core.yaml_text import InvalidYaml, parse_yaml

THIRD_PARTY = {
    ".cursorrules": "cursorrules",
    "agents.md": "agents",
    "agent.md": "agents",
    "claude.md": "claude",
    "gemini.md": "gemini",
}
SKILL_FOLDERS = ((".agents", "skills"), (".openhands", "skills"), (".openhands", "microagents"))
MAX_DESCRIPTION = 1024
MAX_FOLDERS = 2000  # folders walked below one skill folder: workspace trees are untrusted
DESCRIPTION_NOTICE = (
    "<response clipped><NOTE>Due to the max output limit, only part of the full description is shown. "
    "You can view the complete skill content at {source}.</NOTE>"
)
MISSING_VARIABLES = (
    "\n\nIf the user didn't provide any of these variables, ask the user to provide them first before the agent can proceed "
    "with the task."
)
_SKILL_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_VARIABLE = re.compile(r"\$\{([a-zA-Z_][a-zA-Z0-9_]*)\}")
_YAML_BOUNDARY = re.compile(r"^-{3,}\s*$", re.MULTILINE)


class _DirectoryFailed(Exception):
    """What makes OpenHands drop a whole skill folder: an error its loader does not catch per file."""


@dataclass(frozen=True, slots=True)
class OpenHandsSkill:
    """One skill as OpenHands keeps it; `sent` ones go whole into `<REPO_CONTEXT>`."""

    name: str
    path: str
    content: str
    role: Role
    kind: Literal["repo", "knowledge", "agentskills"]
    description: str | None = None
    size: int = 0

    @property
    def sent(self) -> bool:
        return self.kind == "repo"


@dataclass(slots=True)
class OpenHandsSkills:
    """Every skill kept, in OpenHands' order, and the files passed over on the way."""

    skills: list[OpenHandsSkill]
    passed_over: list[Candidate]


def work_dir(ctx: LaunchContext) -> str:
    configured = ctx.env.get("OPENHANDS_WORK_DIR")
    return os.path.join(ctx.cwd, configured) if configured else ctx.cwd


def load_skills(ctx: LaunchContext) -> OpenHandsSkills:
    """The project's skills (`load_project_skills`), then the user's not named yet (cached)."""
    return ctx.fs.memo(("openhands-skills", ctx.key), lambda: _Loader(ctx).load())


class _Loader:
    def __init__(self, ctx: LaunchContext) -> None:
        self.ctx = ctx
        self.fs: FileSystem = ctx.fs
        self.passed_over: list[Candidate] = []

    def load(self) -> OpenHandsSkills:
        cwd = work_dir(self.ctx)
        git_root = find_marker_root(self.fs, cwd, [".git"])
        roots = [cwd] + ([git_root] if git_root is not None and git_root != cwd else [])
        project: list[OpenHandsSkill] = []
        taken: dict[str, str] = {}
        for root in roots:
            for skill in self._third_party(root):
                self._merge(skill, project, taken)
        for root in roots:
            for folder in SKILL_FOLDERS:
                for skill in self._folder(os.path.join(root, *folder), Role.RULE):
                    self._merge(skill, project, taken)
        user: list[OpenHandsSkill] = []
        user_taken: dict[str, str] = {}
        for folder in SKILL_FOLDERS:
            for skill in self._folder(self.ctx.home_path(*folder), Role.GLOBAL):
                self._merge(skill, user, user_taken)
        for skill in self._installed():
            self._merge(skill, user, user_taken)
        for skill in user:
            self._merge(skill, project, taken)
        return OpenHandsSkills(project, self.passed_over)

    def _installed(self) -> list[OpenHandsSkill]:
        """`load_installed_skills`: the skills `~/.openhands/skills/installed/.installed.json` tracks
        (enabled, their folder present), then every other folder there with a kebab-case name whose
        SKILL.md loads under that name (the CLI then tracks it, enabled)."""
        top = self.ctx.home_path(".openhands", "skills", "installed")
        if not self.fs.is_dir(top):
            return []
        tracked: dict[str, bool] = {}
        data = self.fs.read(os.path.join(top, ".installed.json"))
        try:
            metadata = json.loads(data.text()) if data.data is not None and not data.problem else {}
        except (ValueError, RecursionError):
            metadata = {}
        extensions = metadata.get("extensions") if isinstance(metadata, dict) else None
        for name, info in (extensions or {}).items() if isinstance(extensions, dict) else ():
            if isinstance(name, str) and _SKILL_NAME.match(name) and self.fs.exists(os.path.join(top, name)):
                tracked[name] = not (isinstance(info, dict) and info.get("enabled") is False)
        found: list[OpenHandsSkill] = []
        for name, enabled in tracked.items():
            skill = self._installed_skill(os.path.join(top, name)) if enabled else None
            if enabled and skill is None:
                return []  # the loader's error ends the installed skills
            if skill is not None:
                found.append(skill)
        for name in self.fs.list_dir(top):
            path = os.path.join(top, name)
            if name in tracked or name.startswith(".") or not self.fs.is_dir(path) or not _SKILL_NAME.match(name):
                continue
            skill = self._installed_skill(path)
            if skill is not None and skill.name == name:
                found.append(skill)
        return found

    def _installed_skill(self, folder: str) -> OpenHandsSkill | None:
        skill_md = next((os.path.join(folder, n) for n in self.fs.list_dir(folder) if n.lower() == "skill.md"), None)
        if skill_md is None or not self.fs.is_file(skill_md):
            return None
        try:
            return self._load(skill_md, folder, Role.GLOBAL)
        except _DirectoryFailed:
            return None

    def _merge(self, skill: OpenHandsSkill, skills: list[OpenHandsSkill], taken: dict[str, str]) -> None:
        if skill.name in taken:
            self.passed_over.append(
                Candidate(skill.path, skill.role, False, skill.size, Reason.NAME_SHADOWED, related=taken[skill.name])
            )
            return
        taken[skill.name] = skill.path
        skills.append(skill)

    def _read(self, path: str, role: Role) -> tuple[str, int] | None:
        """The file's text as Python's text mode reads it (UTF-8, line ends made `\\n`)."""
        data = self.fs.read(path)
        if data.problem or data.data is None:
            self.passed_over.append(Candidate(path, role, False, data.size, data.problem or Reason.UNREADABLE))
            return None
        try:
            text = data.data.decode("utf-8")
        except UnicodeDecodeError:
            self.passed_over.append(Candidate(path, role, False, data.size, Reason.UNREADABLE))
            raise _DirectoryFailed from None
        return text.replace("\r\n", "\n").replace("\r", "\n"), data.size

    def _third_party(self, root: str) -> list[OpenHandsSkill]:
        """`find_third_party_files`: the folder's listing, one file per lower-case name and per real file."""
        found: list[OpenHandsSkill] = []
        names: set[str] = set()
        reals: set[str] = set()
        for name in self.fs.list_dir(root):
            path = os.path.join(root, name)
            lower = name.lower()
            if lower not in THIRD_PARTY or not self.fs.is_file(path) or lower in names:
                continue
            real = self.fs.realpath(path)
            if real in reals:
                continue
            names.add(lower)
            reals.add(real)
            try:
                read = self._read(path, Role.PROJECT)
            except _DirectoryFailed:
                continue
            if read is not None:
                found.append(OpenHandsSkill(THIRD_PARTY[lower], path, read[0], Role.PROJECT, "repo", size=read[1]))
        return found

    def _folder(self, folder: str, role: Role) -> list[OpenHandsSkill]:
        """`load_skills_from_dir`: the sent skills, then the triggered ones, then the SKILL.md ones,
        each group keyed by name (a later file of a name takes an earlier one's place)."""
        if not self.fs.exists(folder):
            return []
        groups: dict[str, dict[str, OpenHandsSkill]] = {"repo": {}, "knowledge": {}, "agentskills": {}}
        skill_dirs = []
        skill_files = []
        for entry in self.fs.list_dir(folder):
            subdir = os.path.join(folder, entry)
            if self.fs.is_dir(subdir):
                skill_md = next(
                    (
                        os.path.join(subdir, n)
                        for n in self.fs.list_dir(subdir)
                        if n.lower() == "skill.md" and self.fs.is_file(os.path.join(subdir, n))
                    ),
                    None,
                )
                if skill_md is not None:
                    skill_dirs.append(subdir)
                    skill_files.append(skill_md)
        regular = [
            p
            for p in self._markdown_files(folder)
            if os.path.basename(p) != "README.md"
            and os.path.basename(p).lower() != "skill.md"
            and not any(p.startswith(d + os.sep) for d in skill_dirs)
        ]
        try:
            for path in [*skill_files, *regular]:
                skill = self._load(path, folder, role)
                if skill is not None:
                    groups["agentskills" if os.path.basename(path).lower() == "skill.md" else skill.kind][skill.name] = skill
        except _DirectoryFailed:
            return []
        return [*groups["repo"].values(), *groups["knowledge"].values(), *groups["agentskills"].values()]

    def _markdown_files(self, top: str) -> list[str]:
        """`Path.rglob("*.md")` of Python 3.13, in its order: the folder's matches, then those of each
        of its subfolders in listing order, then the subfolders of the last one first (a stack);
        linked folders are not entered."""
        found = self._matches(top)
        stack = [top]
        walked = 0
        while stack and walked < MAX_FOLDERS:
            folder = stack.pop()
            walked += 1
            for entry in self.fs.scan_dir(folder):
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    is_dir = False
                if is_dir:
                    path = os.path.join(folder, entry.name)
                    found += self._matches(path)
                    stack.append(path)
        return found

    def _matches(self, folder: str) -> list[str]:
        return [os.path.join(folder, n) for n in self.fs.list_dir(folder) if n.endswith(".md")]

    def _load(self, path: str, base: str, role: Role) -> OpenHandsSkill | None:
        """`Skill.load`: None for a file OpenHands skips with a warning."""
        if not self.fs.is_file(path):
            return None
        read = self._read(path, role)
        if read is None:
            return None
        text, size = read
        basename = os.path.basename(path)
        agentskill = basename.lower() == "skill.md"
        if not agentskill and basename.lower() in THIRD_PARTY:
            return OpenHandsSkill(THIRD_PARTY[basename.lower()], path, text, role, "repo", size=size)
        try:
            fields, content = _front_matter(text)
        except InvalidYaml:
            self.passed_over.append(Candidate(path, role, False, size, Reason.INVALID_HEADER))
            return None
        if agentskill:
            folder = os.path.basename(os.path.dirname(path))
            name = _python_str(fields.get("name", folder))
            if len(name) > 64 or not _SKILL_NAME.match(name) or name != folder:
                self.passed_over.append(Candidate(path, role, False, size, Reason.UNREADABLE))
                return None
        else:
            relative = PurePosixPath(os.path.relpath(path, base).replace(os.sep, "/")).with_suffix("")
            name = _python_str(fields.get("name", str(relative)))
        return self._skill(name, path, content, fields, role, size, agentskill)

    def _skill(
        self, name: str, path: str, content: str, fields: dict[object, object], role: Role, size: int, agentskill: bool
    ) -> OpenHandsSkill | None:
        """`_create_skill_from_metadata`: how the header's fields shape the skill. A `triggers` or an
        `inputs` that is not a list is its own SkillValidationError (that file left out), checked
        before pydantic validates the rest (a ValidationError: the whole folder)."""
        triggers = fields.get("triggers", [])
        task = "inputs" in fields
        inputs = fields.get("inputs", [])
        if not isinstance(triggers, list) or not isinstance(inputs, list):
            self.passed_over.append(Candidate(path, role, False, size, Reason.UNREADABLE))
            return None
        for key in ("description", "license", "compatibility"):
            if fields.get(key) is not None and not isinstance(fields[key], str):
                raise _DirectoryFailed  # pydantic's ValidationError: not caught per file
        if not all(isinstance(t, str) for t in triggers) or not all(map(_valid_input, inputs)):
            raise _DirectoryFailed
        if task and (inputs or _VARIABLE.search(content)) and content and MISSING_VARIABLES not in content:
            content += MISSING_VARIABLES
        kind: Literal["repo", "knowledge", "agentskills"] = "knowledge" if task or fields.get("triggers") else "repo"
        if agentskill:
            kind = "agentskills"
        description = fields.get("description")
        if isinstance(description, str) and len(description) > MAX_DESCRIPTION:
            description = _truncate(description, MAX_DESCRIPTION, DESCRIPTION_NOTICE.format(source=path))
        return OpenHandsSkill(name, path, content, role, kind, description if isinstance(description, str) else None, size)


def _valid_input(value: object) -> bool:
    """`InputMetadata.model_validate`: a mapping with a string `name` and `description`."""
    return isinstance(value, dict) and all(isinstance(value.get(key), str) for key in ("name", "description"))


def _python_str(value: object) -> str:
    """`str()` of a YAML value as Python spells it."""
    return value if isinstance(value, str) else str(value)


def _front_matter(text: str) -> tuple[dict[object, object], str]:
    """python-frontmatter's `loads`: the text stripped; a `---` line first and another one later
    make a YAML header (a mapping gives the fields); the body stripped."""
    text = text.strip()
    if not _YAML_BOUNDARY.match(text):
        return {}, text
    parts = _YAML_BOUNDARY.split(text, 2)
    if len(parts) < 3:
        return {}, text
    loaded = parse_yaml(parts[1])
    return (dict(loaded) if isinstance(loaded, dict) else {}), parts[2].strip()


def _truncate(text: str, limit: int, notice: str) -> str:
    """`maybe_truncate`: the head and the tail around the notice, `limit` characters in all."""
    if len(notice) >= limit:
        return notice[:limit]
    available = limit - len(notice)
    head = available // 2 + available % 2
    tail = available - head
    return text[:head] + notice + (text[-tail:] if tail > 0 else "")


def _xml_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def skills_listing(skills: Sequence[OpenHandsSkill]) -> str:
    """`to_prompt`: the `<available_skills>` element."""
    lines = ["<available_skills>"]
    for skill in skills:
        description = skill.description
        truncated = 0
        if not description:
            before = 0
            for line in skill.content.split("\n"):
                stripped = line.strip()
                if not stripped or stripped.startswith("#"):
                    before += len(line) + 1
                    continue
                description = stripped
                truncated = max(0, len(skill.content) - (before + len(line)))
                break
        description = description or ""
        if len(description) > MAX_DESCRIPTION:
            truncated += len(description) - MAX_DESCRIPTION
            description = description[:MAX_DESCRIPTION]
        if truncated > 0:
            description += (
                f'... [{truncated} characters truncated. Call invoke_skill(name="{skill.name}") to load the full skill]'
            )
        lines += [
            "  <skill>",
            f"    <name>{_xml_escape(skill.name.strip())}</name>",
            f"    <description>{_xml_escape(description.strip())}</description>",
            "  </skill>",
        ]
    return "\n".join([*lines, "</available_skills>"])
