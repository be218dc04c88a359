"""A deliberately hostile workspace: what real repositories and attackers put in front of the tool.

`generate(base, scale)` writes `base/ws` (a git root) and `base/home` (a home directory with the
harnesses' global files and secrets that must never appear in any output). `CI` keeps the
tree small enough for the test suite; `FULL` is what the benchmark runs, with the sizes the
project issue names (20,000 empty directories, 20,000-deep YAML, ...).

Nothing here is random: the same scale writes the same tree.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

# Markers planted outside the rules: no output of any command may contain them.
SECRET_MARKERS = ("HOSTILE-SSH-KEY-MARKER", "HOSTILE-AWS-CREDENTIALS-MARKER", "HOSTILE-OUTSIDE-MARKER")
BAD_NAME = b"bad-\xff\xfe-name.md"  # not valid UTF-8
BAD_DIR = b"dir-\xc3\x28"  # not valid UTF-8 either


@dataclass(frozen=True)
class Scale:
    empty_dirs: int
    deep_dirs: int
    import_depth: int
    import_width: int
    yaml_depth: int
    pathological_globs: int
    config_megabytes: int
    huge_megabytes: int
    one_line_megabytes: int


CI = Scale(
    empty_dirs=2_000,
    deep_dirs=200,
    import_depth=10_000,
    import_width=5_000,
    yaml_depth=20_000,
    pathological_globs=2_000,
    config_megabytes=10,
    huge_megabytes=50,
    one_line_megabytes=5,
)
FULL = Scale(
    empty_dirs=20_000,
    deep_dirs=200,
    import_depth=10_000,
    import_width=5_000,
    yaml_depth=20_000,
    pathological_globs=5_000,
    config_megabytes=10,
    huge_megabytes=50,
    one_line_megabytes=5,
)


def _write(path: Path | bytes, content: str | bytes) -> None:
    raw = os.fsencode(path)
    os.makedirs(os.path.dirname(raw), exist_ok=True)
    with open(raw, "wb") as handle:
        handle.write(content.encode("utf-8") if isinstance(content, str) else content)


def _symlink(target: str, link: Path) -> None:
    link.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, link)


def _one_line(path: Path, megabytes: int, unit: bytes = b"lorem ipsum ") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    block = unit * (1024 * 1024 // len(unit))
    with open(path, "wb") as handle:
        for _ in range(megabytes):
            handle.write(block)


def _specials(ws: Path) -> None:
    """FIFOs, links to /dev/zero and to directories, symlink loops, binary and badly encoded files."""
    for name in ("AGENTS.md", "CLAUDE.md", "GEMINI.md", "pipe.md"):
        (ws / "fifo").mkdir(exist_ok=True)
        os.mkfifo(ws / "fifo" / name)
    _write(ws / "fifo" / "imports.md", "@pipe.md\n")
    for name in ("AGENTS.md", "CLAUDE.md", "GEMINI.md", "CONTEXT.md"):
        _symlink("/dev/zero", ws / "devzero" / name)
        _symlink("/", ws / "dirlink" / name)
        _symlink(name, ws / "loop" / name)
    _symlink("b.md", ws / "loop" / "a.md")
    _symlink("a.md", ws / "loop" / "b.md")
    _symlink(".", ws / "loop" / "self")
    _symlink("..", ws / "loop" / "up")
    _write(ws / "binary" / "AGENTS.md", bytes(range(256)) * 64)
    _write(ws / "binary" / "CLAUDE.md", b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 4096)
    _write(ws / "encoding" / "AGENTS.md", b"# bad bytes\n- \xff\xfe\xc3 invalid UTF-8 \xed\xa0\x80 surrogate\n")
    _write(ws / "encoding" / "GEMINI.md", "# UTF-16\n- little endian with a BOM\n".encode("utf-16"))
    _write(ws / "encoding" / "CLAUDE.md", "\ufeff# BOM\u202e hidden \u200b\U000e0041\n@" + "x" * 300 + "\n")
    _write(os.path.join(os.fsencode(ws / "encoding"), BAD_NAME), b"# a file name that is not UTF-8\n")
    _write(os.path.join(os.fsencode(ws), BAD_DIR, b"AGENTS.md"), b"# in a directory whose name is not UTF-8\n")
    _write(os.path.join(os.fsencode(ws), BAD_DIR, b"CLAUDE.md"), b"# Claude, same directory\n@../encoding/" + BAD_NAME + b"\n")
    _write(os.path.join(os.fsencode(ws), BAD_DIR, b"x.ts"), b"export {}\n")


def _sizes(ws: Path, scale: Scale) -> None:
    for name in ("AGENTS.md", "CLAUDE.md", "GEMINI.md"):
        _one_line(ws / "huge" / name, scale.huge_megabytes)
        _one_line(ws / "oneline" / name, scale.one_line_megabytes, b"*a" * 6 + b"[" * 6 + b"`" * 6 + b" ")
    _write(ws / "oneline" / "x.ts", "export {}\n")
    markdown = (
        "> " * 10_000
        + "quote\n"
        + "[" * 100_000
        + "\n"
        + "*a" * 100_000
        + "\n"
        + "- " * 20_000
        + "item\n"
        + "`" * 50_000
        + "\n"
        + "<!--" * 20_000
        + "\n"
        + "# heading\n" * 20_000
    )
    for name in ("AGENTS.md", "CLAUDE.md", "GEMINI.md"):
        _write(ws / "markdown" / name, markdown)


def _imports(ws: Path, home: Path, scale: Scale) -> None:
    chain = ws / "imports" / "deep"
    for i in range(scale.import_depth):
        _write(chain / f"c{i}.md", f"link {i}\n@c{i + 1}.md\n")
    wide = ws / "imports" / "wide"
    for i in range(scale.import_width):
        _write(wide / f"w{i}.md", f"wide {i}\n")
    wide_imports = "".join(f"@w{i}.md\n" for i in range(scale.import_width))
    outside = "@/etc/shadow\n@~/.ssh/id_rsa\n@~/.aws/credentials\n@../../../../../../../../etc/shadow\n@~/outside.md\n"
    for name in ("CLAUDE.md", "GEMINI.md", "AGENTS.md"):
        _write(chain / name, "# deep chain\n@c0.md\n")
        _write(wide / name, "# 5,000 wide\n" + wide_imports)
        _write(ws / "imports" / "cycle" / name, "# cycle\n@a.md\n@self.md\n")
        _write(ws / "imports" / "outside" / name, "# outside the rules\n" + outside)
    _write(ws / "imports" / "cycle" / "a.md", "A\n@b.md\n")
    _write(ws / "imports" / "cycle" / "b.md", "B\n@a.md\n")
    _write(ws / "imports" / "cycle" / "self.md", "SELF\n@self.md\n")
    _write(
        home / ".ssh" / "id_rsa", f"-----BEGIN OPENSSH PRIVATE KEY-----\n{SECRET_MARKERS[0]}\n-----END OPENSSH PRIVATE KEY-----\n"
    )
    _write(home / ".aws" / "credentials", f"[default]\naws_secret_access_key = {SECRET_MARKERS[1]}\n")
    _write(home / "outside.md", f"{SECRET_MARKERS[2]}\n")


def _tree_shapes(ws: Path, scale: Scale) -> None:
    deep = ws / "deep"
    path = deep
    for level in range(scale.deep_dirs):
        path = path / "d"
        if level % 40 == 0:
            _write(path / "AGENTS.md", f"# level {level}\n- a rule at depth {level}\n")
            _write(path / "CLAUDE.md", f"# level {level}\n@AGENTS.md\n")
    _write(path / "x.ts", "export {}\n")
    empty = ws / "empty"
    for i in range(scale.empty_dirs):
        (empty / f"e{i:05d}").mkdir(parents=True)


def _frontmatter(ws: Path, scale: Scale) -> None:
    bomb = (
        "a: &a ["
        + ",".join(["lol"] * 9)
        + "]\n"
        + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8))
    )
    nested = "paths: " + "[" * scale.yaml_depth + "]" * scale.yaml_depth + "\n"
    nested_maps = "applyTo:\n" + "".join(" " * i + f"k{i}:\n" for i in range(0, min(scale.yaml_depth, 2_000))) + "\n"
    rules = ws / ".claude" / "rules"
    _write(rules / "bomb.md", f"---\n{bomb}paths: '**/*.ts'\n---\nYAML BOMB RULE\n")
    _write(rules / "nested.md", f"---\n{nested}---\nNESTED YAML RULE\n")
    brace = "{a,b}" * 40 + "/**/*.ts"
    backtracking = "*a" * 20 + "*b"
    patterns = [backtracking, brace, "x" * 5_000, "[" * 500, "**/" * 300 + "*.ts", "{" * 300]
    many = [f"src{i}/**/{{a,b,c}}{{d,e,f}}*{'*a' * 8}*.ts" for i in range(scale.pathological_globs)]
    _write(rules / "globs.md", "---\npaths:\n" + "".join(f"  - {json.dumps(p)}\n" for p in patterns + many) + "---\nGLOB RULE\n")
    instructions = ws / ".github" / "instructions"
    _write(instructions / "bomb.instructions.md", f"---\n{bomb}applyTo: '**'\n---\nCOPILOT BOMB\n")
    _write(instructions / "nested.instructions.md", f"---\n{nested_maps}---\nCOPILOT NESTED\n")
    _write(
        instructions / "globs.instructions.md",
        "---\napplyTo: " + json.dumps(",".join(patterns + many)) + "\n---\nCOPILOT GLOBS\n",
    )
    cursor = ws / ".cursor" / "rules"
    _write(cursor / "bomb.mdc", f"---\n{bomb}globs: *.ts\nalwaysApply: false\n---\nCURSOR BOMB\n")
    _write(cursor / "globs.mdc", "---\nglobs: " + ",".join(patterns + many) + "\nalwaysApply: false\n---\nCURSOR GLOBS\n")
    _write(cursor / "nested.mdc", f"---\n{nested}alwaysApply: true\n---\nCURSOR NESTED\n")
    _write(ws / ".github" / "copilot-instructions.md", "# Copilot\n- Be careful with hostile input.\n")


def _configs(ws: Path, home: Path, scale: Scale) -> None:
    megabytes = scale.config_megabytes * 1024 * 1024
    # The case: a 10 MB glob string in `instructions`, plus thousands of pathological globs.
    many = [f"{'*a' * 10}*b{i}/{'{x,y}' * 12}.md" for i in range(scale.pathological_globs)]
    _write(ws / "opencode.json", json.dumps({"instructions": ["*" * megabytes, *many, "https://example.invalid/rules.md"]}))
    _write(ws / "malformed" / "opencode.json", '{"instructions": ["docs/*.md",, }')
    _write(ws / "malformed" / "opencode.jsonc", "[" * 200_000)
    _write(ws / "malformed" / "AGENTS.md", "# malformed configs below\n")
    _write(
        ws / ".gemini" / "settings.json",
        '{"context": {"fileName": ["' + "G" * megabytes + '"]}, "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
    )
    _write(ws / "GEMINI.md", "# Gemini root\n- Answer briefly.\n")
    _write(ws / "AGENTS.md", "# Root\n- Run the tests before committing.\n- Run the tests before committing.\n")
    _write(ws / "CLAUDE.md", "# Claude root\n@AGENTS.md\n@imports/outside/CLAUDE.md\n")
    _write(
        ws / "lsp-agents.toml",
        "exclude = [" + ",".join(['"x"'] * 50_000) + "]\n[severity]\n" + "a = " + "[" * 5_000 + "]" * 5_000 + "\n",
    )
    _write(home / ".codex" / "config.toml", "project_doc_max_bytes = 1024\n" + "k = " + "[" * 100_000 + "]" * 100_000 + "\n")
    _write(home / ".codex" / "AGENTS.md", "# global codex\n")
    _write(home / ".gemini" / "settings.json", '{"context": {"fileName": "GEMINI.md"},}')
    _write(home / ".claude.json", "{" * 200_000)
    _write(home / ".claude" / "settings.json", '{"pluginConfigs": ' + '{"a":' * 50_000 + "1" + "}" * 50_000 + "}")
    _write(home / ".config" / "opencode" / "opencode.json", '{"instructions": ["~/rules/*.md",], // the user\u2019s own\n}')


def _system_paths(ws: Path, home: Path) -> None:
    """Paths into /proc, /sys and /dev, and paths no system call takes (5,000 characters, a NUL
    byte), in every place a workspace names a file: the import dialects, Markdown and `mdc:`
    links, opencode's and Kilo's `instructions` and `{file:…}`, Gemini's context file names,
    rules, skills, agents and commands, and symlinks in the tree (a chain of them to /proc/1/root).
    The `/proc/self/root` paths lead to secrets outside the workspace through /proc: they must
    never be read. A NUL byte makes a Markdown file binary (not analysed further), so the files
    naming one are apart, in `system/nul`; the JSON files escape it (`\\u0000`)."""
    _symlink("chain2", ws / "chain")
    _symlink("chain3", ws / "chain2")
    _symlink("/proc/1/root", ws / "chain3")
    secret = str(home / "outside.md")  # holds SECRET_MARKERS[2]
    outside_skills = ws.parent / "outside" / "skills"
    _write(outside_skills / "sys" / "SKILL.md", f"---\nname: sys\ndescription: {SECRET_MARKERS[2]}\n---\n{SECRET_MARKERS[2]}\n")
    _symlink("/proc/self/root", ws / "rootlink")

    def paths(directory: Path) -> list[str]:
        up = os.path.relpath(ws, directory) + "/" if directory != ws else ""
        return [
            "/proc/1/root/etc/hostname",
            "/proc/self/environ",
            "/proc/self/fd/0",
            "/dev/stdin",
            "/dev/zero",
            "/sys/kernel",
            "~/../../etc/shadow",
            f"{up}chain/etc/hostname",
            f"/proc/self/root{secret}",
            f"{up}rootlink{secret}",
            "long/" + "x" * 5_000 + ".md",
        ]

    def body(directory: Path, *, file_references: bool = False, named: list[str] | None = None) -> str:
        named = paths(directory) if named is None else named
        imports = "".join(f"@{p}\n" for p in named)
        links = "".join(f"- [{i}]({p})\n" for i, p in enumerate(named))
        references = "".join(f"{{file:{p}}}\n" for p in named) if file_references else ""
        return f"# System paths\n\n{imports}\n{links}{references}"

    system = ws / "system"
    for name in ("CLAUDE.md", "GEMINI.md", "QWEN.md", "AGENTS.md"):
        _write(system / name, body(system))
    _write(ws / "QWEN.md", body(ws))
    for name in ("CLAUDE.md", "GEMINI.md", "QWEN.md", "AGENTS.md"):
        nul = ["nul\0byte.md", "/proc/self/environ\0.md"]
        _write(system / "nul" / name, body(system / "nul", file_references=True, named=nul))
    for folder in (".claude/rules", ".qwen/rules", ".continue/rules", ".kilo/rules", ".clinerules"):
        _write(ws / folder / "system.md", body(ws / folder, file_references=True))
    instructions = ws / ".github" / "instructions"
    _write(instructions / "system.instructions.md", "---\napplyTo: '**'\n---\n" + body(instructions))
    cursor = ws / ".cursor" / "rules"
    mdc_links = "".join(f"[{i}](mdc:{p})\n" for i, p in enumerate(paths(cursor)))
    _write(cursor / "system.mdc", "---\nalwaysApply: true\n---\n" + mdc_links)
    for directory, name in ((ws, "opencode.jsonc"), (ws, "kilo.json"), (system, "opencode.json")):
        named = [*paths(directory), "nul\0byte.md"]
        agents = {"environ": {"prompt": "{file:/proc/self/environ}"}, "secret": {"prompt": f"{{file:{named[9]}}}"}}
        _write(
            directory / name,
            json.dumps(
                {
                    "instructions": [*named, "/proc/self/**", "/sys/kernel/**/*.md", f"/proc/self/root{home}/*.md"],
                    "skills": {"paths": ["/proc/self", f"/proc/self/root{outside_skills}"]},
                    "agent": agents,
                }
            ),
        )
    _write(system / ".gemini" / "settings.json", json.dumps({"context": {"fileName": [*paths(system), "nul\0byte.md"]}}))
    for name, target in (
        ("AGENTS.md", "/proc/self/environ"),
        ("CLAUDE.md", "../../chain/etc/hostname"),
        ("GEMINI.md", f"/proc/self/root{secret}"),
        ("QWEN.md", "/sys/kernel"),
        ("CONTEXT.md", "/dev/stdin"),
        (".cursorrules", "/proc/self/fd/0"),
    ):
        _symlink(target, system / "links" / name)
    _symlink(f"/proc/self/root{outside_skills}", ws / ".agents" / "skills")
    _symlink("/proc/self/fd", ws / ".gemini" / "skills")
    _symlink(f"/proc/self/root{secret}", ws / ".claude" / "skills" / "outside" / "SKILL.md")
    _symlink("/proc/self/environ", ws / ".claude" / "skills" / "environ" / "SKILL.md")
    _symlink("/dev/stdin", ws / ".claude" / "agents" / "stdin.md")
    _symlink("/proc/self/environ", ws / ".claude" / "commands" / "environ.md")
    _symlink("/proc/self/fd/0", ws / ".opencode" / "agent" / "fd.md")
    _symlink("/dev/zero", ws / ".codex" / "agents" / "zero.toml")
    _write(ws / ".codex" / "agents" / "deep.toml", "name = " + "[" * 100_000 + "]" * 100_000 + "\n")


# Patterns that make a backtracking matcher (Python's `re`) take exponential time on the paths
# below; `pattern_workspace` puts them in every field that becomes a pattern.
DEEP_STARS = "/".join(["**"] * 40) + "/x"
BACKTRACKING = "*a" * 30 + "*b"
PATHOLOGICAL_PATTERNS = (DEEP_STARS, BACKTRACKING, "**/" + "*a*/**/" * 20 + "x")
DEEP_LEVEL = "a" * 16  # a directory name full of the letter the patterns backtrack on


def pattern_workspace(root: Path, depth: int = 200) -> Path:
    """A git root whose every pattern-bearing field holds `PATHOLOGICAL_PATTERNS`, above a
    `depth`-level path of `DEEP_LEVEL` directories; returns the deepest directory."""
    (root / ".git").mkdir(parents=True, exist_ok=True)
    listed = "".join(f"  - {json.dumps(p)}\n" for p in PATHOLOGICAL_PATTERNS)
    ignore = "".join(f"{p}\n" for p in PATHOLOGICAL_PATTERNS)
    _write(root / ".gitignore", ignore)
    _write(
        root / "lsp-agents.toml",
        f"exclude = {json.dumps(PATHOLOGICAL_PATTERNS)}\nlaunchDirectories = {json.dumps(PATHOLOGICAL_PATTERNS)}\n",
    )
    _write(root / ".claude" / "rules" / "patterns.md", f"---\npaths:\n{listed}---\nPATTERN RULE\n")
    _write(
        root / ".cursor" / "rules" / "patterns.mdc",
        f"---\nglobs: {','.join(PATHOLOGICAL_PATTERNS)}\nalwaysApply: false\n---\nCURSOR PATTERNS\n",
    )
    _write(
        root / ".github" / "instructions" / "patterns.instructions.md",
        f"---\napplyTo: {json.dumps(','.join(PATHOLOGICAL_PATTERNS))}\n---\nCOPILOT PATTERNS\n",
    )
    _write(root / ".qwen" / "rules" / "patterns.md", f"---\npaths:\n{listed}---\nQWEN PATTERNS\n")
    _write(root / "opencode.json", json.dumps({"instructions": list(PATHOLOGICAL_PATTERNS)}))
    _write(root / "AGENTS.md", "# Patterns\n- Every pattern here backtracks.\n")
    deepest = root.joinpath(*[DEEP_LEVEL] * depth)
    for level in range(0, depth, 50):
        _write(root.joinpath(*[DEEP_LEVEL] * level) / ".gitignore", ignore)
    _write(deepest / "AGENTS.md", "# At the bottom\n- A rule two hundred levels down.\n")
    _write(deepest / (DEEP_LEVEL + ".ts"), "export {}\n")
    return deepest


def generate(base: Path, scale: Scale = CI) -> tuple[Path, Path]:
    """Write the hostile workspace and home under `base`; returns (workspace, home)."""
    ws, home = base / "ws", base / "home"
    (ws / ".git").mkdir(parents=True)
    home.mkdir(parents=True)
    _specials(ws)
    _sizes(ws, scale)
    _imports(ws, home, scale)
    _tree_shapes(ws, scale)
    _frontmatter(ws, scale)
    _configs(ws, home, scale)
    _system_paths(ws, home)
    pattern_workspace(ws / "patterns")
    return ws, home


def targets(ws: Path) -> list[str]:
    """Files to ask `cascade` and `reminders` about: in the hostile corners of the tree."""
    deepest = max((p for p in (ws / "deep").rglob("x.ts")), key=lambda p: len(p.parts))
    return [
        str(ws / "oneline" / "x.ts"),
        str(deepest),
        os.fsdecode(os.path.join(os.fsencode(ws), BAD_DIR, b"x.ts")),
        str(ws / "fifo" / "pipe.md"),
        str(ws / "imports" / "wide" / "w1.md"),
    ]
