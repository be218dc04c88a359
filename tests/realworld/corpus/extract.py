#!/usr/bin/env python3
"""Extract one repository's instruction-related files from a git directory into OUT_BASE/<name>/.

usage: extract.py NAME GIT_DIR OUT_BASE OWNER/REPO LICENSE-SPDX

files.txt: every blob of HEAD (`git ls-tree -r HEAD`, symlinks included, submodules left out).
tree/: the content of
  - instruction files by name, case-insensitively (AGENTS.md, AGENT.md, CLAUDE.md, CLAUDE.local.md, GEMINI.md,
    CONTEXT.md, AGENTS.override.md, .cursorrules, opencode.json(c), copilot-instructions.md, lsp-agents.toml)
    and every .gitignore (discovery honours them);
  - Markdown/JSON/TOML/YAML files under .claude/, .cursor/, .gemini/, .codex/, .agents/ (any depth) and
    .github/instructions/;
  - every tracked symlink, kept as a symlink; for links that are instruction files (or under those folders)
    their targets too;
  - files named by .gemini/settings.json context.fileName and by opencode.json `instructions`;
  - @imports of those files, recursively (generously: also with trailing punctuation stripped), and
    `mdc:` link targets of Cursor rules.
SOURCE.json: {"repo", "commit", "license"}.

Additions for /work/corpus (everything above is still selected):
  - more instruction/config files by name: .goosehints, .windsurfrules, .rules (Zed), CRUSH.md, AGENT.md, crush.json,
    kilo.json(c), .roomodes, .kilocodemodes, lsp-agents.toml;
  - Markdown/JSON/TOML/YAML(/txt) files under .windsurf/, .kiro/, .roo/, .augment/, .crush/, .goose/ (any depth);
  - every text file (no NUL byte in its first 8 KB), whatever its extension, under .github/skills/, .github/agents/,
    .github/prompts/, .pi/, .factory/, .clinerules/, .continue/, .qwen/, .kilocode/ (any depth);
  - package manifests package.json, pyproject.toml, go.mod, Cargo.toml (any depth) when under 64 KB;
    larger ones stay placeholders (their paths are in files.txt);
  - Kiro `#[[file:PATH]]` references are followed like @imports;
  - no file over 1 MB gets content in tree/ (its path stays in files.txt);
  - skill, agent, command and rule packs outside the harness folders: every file named SKILL.md, and the
    Markdown/JSON/TOML/YAML/txt files under any folder named skills, agents, commands, droids, prompts, rules,
    workflows, steering or .claude-plugin (any depth), as harness configs can point at them (opencode
    `skills.paths`, Claude Code plugins, vendored packs).

Added for batch 7 (earlier batches' archives were not rebuilt): `.roorules`, `.augment-guidelines`, and the Roo mode
files `.roorules-<mode>` and `.clinerules-<mode>` (any depth), as the Roo Code and Auggie profiles read them.

Added for batch 10 (earlier batches' archives were not rebuilt): every text file under .roo/ (any depth), whatever its
extension (the "anytext" rule above: no NUL byte in its first 8 KB), as Roo Code reads every file of its rule folders
(`.roo/rules/`, `.roo/rules-<mode>/`), e.g. extension-less `<mode>-rules` files or a `general.hocon`.

Added for batch 11 (earlier batches' archives were not rebuilt): Markdown/JSON/TOML/YAML/txt files under .openhands/
(any depth), as the OpenHands CLI profile reads `.openhands/microagents/` and `.openhands/skills/` (only the latter was
selected before, through the `skills` pack rule).
"""

import json
import os
import posixpath
import re
import subprocess
import sys

NAME, GITDIR, OUT, SLUG, LICENSE = sys.argv[1:6]

INSTR_NAMES = {
    "agents.md",
    "agent.md",
    "claude.md",
    "claude.local.md",
    "gemini.md",
    "context.md",
    "qwen.md",
    "qwen.local.md",
    ".clinerules",
    "codex.md",
    "crush.md",
    "grok.md",
    "agents.override.md",
    ".cursorrules",
    "opencode.json",
    "opencode.jsonc",
    "copilot-instructions.md",
    ".gitignore",
    "lsp-agents.toml",
    ".goosehints",
    ".windsurfrules",
    ".rules",
    "crush.json",
    "kilo.json",
    "kilo.jsonc",
    ".roomodes",
    ".kilocodemodes",
    ".roorules",
    ".augment-guidelines",
}
MODE_PREFIXES = (".roorules-", ".clinerules-")  # Roo Code mode rule files, e.g. .roorules-code
NOEXT_INSTR = {".clinerules", ".cursorrules", ".goosehints", ".windsurfrules", ".rules", ".roorules", ".augment-guidelines"}
DIRS = {
    ".claude",
    ".cursor",
    ".gemini",
    ".codex",
    ".agents",
    ".qwen",
    ".continue",
    ".clinerules",
    ".cline",
    ".kilocode",
    ".kilo",
    ".opencode",
    ".pi",
    ".factory",
    ".copilot",
    ".windsurf",
    ".kiro",
    ".roo",
    ".augment",
    ".crush",
    ".goose",
    ".openhands",
}
# folders whose every text file is kept, whatever its extension
ALLDIRS = {".pi", ".factory", ".clinerules", ".continue", ".qwen", ".kilocode", ".roo"}
ALLSUBS = ("/.github/skills/", "/.github/agents/", "/.github/prompts/")
PACK_DIRS = {"skills", "agents", "commands", "droids", "prompts", "rules", "workflows", "steering", ".claude-plugin"}
MANIFESTS = {"package.json", "pyproject.toml", "go.mod", "cargo.toml"}
MANIFEST_MAX = 64 * 1024
FILE_MAX = 1024 * 1024
EXTS = (".md", ".mdc", ".markdown", ".json", ".jsonc", ".toml", ".yaml", ".yml", ".txt")
TEXTY = (".md", ".mdc", ".markdown", ".txt")


def git(*args, inp=None):
    return subprocess.run(["git", f"--git-dir={GITDIR}", *args], input=inp, capture_output=True, check=True).stdout


commit = git("rev-parse", "HEAD").decode().strip()
entries = {}
sizes = {}
for rec in git("ls-tree", "-r", "-l", "-z", "HEAD").split(b"\0"):
    if not rec:
        continue
    meta, path = rec.split(b"\t", 1)
    mode, typ, sha, size = meta.decode().split()
    if typ != "blob":
        continue  # submodules (gitlinks) are not files
    p = path.decode("utf-8", "surrogateescape")
    entries[p] = (mode, sha)
    sizes[p] = int(size) if size.isdigit() else -1  # -1: blob absent from the snapshot
paths = sorted(entries)

_cat = subprocess.Popen(["git", f"--git-dir={GITDIR}", "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def blob(path):
    sha = entries[path][1]
    _cat.stdin.write(sha.encode() + b"\n")
    _cat.stdin.flush()
    hdr = _cat.stdout.readline().split()
    if hdr[-1] == b"missing":
        return None
    size = int(hdr[2])
    data = _cat.stdout.read(size)
    _cat.stdout.read(1)
    return data


def is_link(p):
    return entries[p][0] == "120000"


def resolve(p, depth=0):
    """Follow tracked symlinks (file or directory components) to a tracked path, or None."""
    if depth > 20:
        return None
    parts = p.split("/")
    for i in range(1, len(parts) + 1):
        pre = "/".join(parts[:i])
        if pre in entries and is_link(pre):
            tgt = (blob(pre) or b"").decode("utf-8", "replace")
            new = posixpath.normpath(posixpath.join(posixpath.dirname(pre), tgt, *parts[i:]))
            return resolve(new, depth + 1)
    return p


dirset = set()
for p in paths:
    d = posixpath.dirname(p)
    while d:
        dirset.add(d)
        d = posixpath.dirname(d)

selected = set()
qualified = set()
anytext = set()  # selected whatever the extension: kept only if text
for p in paths:
    base = posixpath.basename(p)
    parts = p.split("/")
    low = base.lower()
    if low in INSTR_NAMES or low.startswith(MODE_PREFIXES):
        selected.add(p)
    elif any(c in DIRS for c in parts[:-1]) and low.endswith(EXTS):
        selected.add(p)
    elif any(c in ALLDIRS for c in parts[:-1]) or any(s in "/" + p for s in ALLSUBS):
        selected.add(p)
        anytext.add(p)
    elif (
        "/.github/instructions/" in "/" + p or "/.github/prompts/" in "/" + p or "/.github/agents/" in "/" + p
    ) and low.endswith(EXTS):
        selected.add(p)
    elif low == "skill.md" or (any(c.lower() in PACK_DIRS for c in parts[:-1]) and low.endswith(EXTS)):
        selected.add(p)
    if p in selected:
        qualified.add(p)
    if is_link(p):
        selected.add(p)
# package manifests: content only when small (no instruction files: not qualified)
for p in paths:
    if posixpath.basename(p).lower() in MANIFESTS and not is_link(p) and sizes[p] < MANIFEST_MAX:
        selected.add(p)

# symlinked directories under the agent folders: include their targets' text files
for p in list(paths):
    if is_link(p) and any(c in DIRS for c in p.split("/")):
        tgt = resolve(p)
        if tgt and tgt in dirset:
            for q in paths:
                if q.startswith(tgt + "/") and q.lower().endswith(EXTS):
                    selected.add(q)
        elif tgt in entries:
            selected.add(tgt)
# symlinked instruction files: include their targets
for p in list(qualified):
    if is_link(p):
        tgt = resolve(p)
        if tgt in entries and not is_link(tgt) and posixpath.basename(tgt).lower().endswith(EXTS):
            selected.add(tgt)


def jsonc(text):
    text = re.sub(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', lambda m: m.group(1) or "", text, flags=re.S)
    text = re.sub(r",(\s*[}\]])", r"\1", text)
    return json.loads(text)


def glob_match(pattern, cands):
    rx = re.escape(pattern).replace(r"\*\*/", "(?:.*/)?").replace(r"\*\*", ".*").replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
    r = re.compile(rx + r"\Z")
    return [c for c in cands if r.match(c)]


# config-named files: gemini context.fileName, opencode instructions
extra_names = set()
for p in list(selected):
    base = posixpath.basename(p)
    data = None
    if (base in ("settings.json",) and p.endswith(".gemini/settings.json")) or base in ("opencode.json", "opencode.jsonc"):
        data = blob(p)
    if data is None:
        continue
    try:
        cfg = jsonc(data.decode("utf-8", "replace"))
    except (ValueError, RecursionError):  # not JSON(C), or nested too deep: no file names from it
        continue
    if base == "settings.json":
        fn = ((cfg.get("context") or {}).get("fileName") if isinstance(cfg.get("context"), dict) else None) or cfg.get(
            "contextFileName"
        )
        if isinstance(fn, str):
            fn = [fn]
        for n in fn or []:
            if isinstance(n, str):
                extra_names.add(n)
    else:
        d = posixpath.dirname(p)
        for pat in cfg.get("instructions") or []:
            if isinstance(pat, str) and not pat.startswith(("http://", "https://", "~", "/")):
                full = posixpath.normpath(posixpath.join(d, pat)) if d else pat
                for q in glob_match(full, paths):
                    selected.add(q)
                for q in glob_match("**/" + pat, paths):
                    selected.add(q)
for p in paths:
    if posixpath.basename(p) in extra_names:
        selected.add(p)

# @imports, recursively (generous: trailing punctuation stripped too)
IMPORT = re.compile(r"(?:^|[\s(\[>])@([^\s`'\"<>]+)|#\[\[file:([^\]\s]+)\]\]")
todo = [
    p
    for p in selected
    if (
        p.lower().endswith(TEXTY)
        or posixpath.basename(p).lower() in NOEXT_INSTR
        or posixpath.basename(p).lower().startswith(MODE_PREFIXES)
    )
    and (p in qualified or not is_link(p))
]
MDC = re.compile(r"\]\(mdc:([^)\s]+)\)")
for p in [q for q in selected if q.endswith(".mdc")]:
    data = blob(p) or b""
    for m in MDC.finditer(data.decode("utf-8", "replace")):
        q = posixpath.normpath(m.group(1))
        if q in entries and q.lower().endswith(TEXTY):
            selected.add(q)
seen = set()
while todo:
    p = todo.pop()
    if p in seen:
        continue
    seen.add(p)
    real = resolve(p)
    if real not in entries or is_link(real):
        continue
    data = blob(real)
    if not data:
        continue
    d = posixpath.dirname(p)
    for m in IMPORT.finditer(data.decode("utf-8", "replace")):
        tok = m.group(1) or m.group(2)
        for t in {tok, tok.rstrip(",.;:)]}!?*_")}:
            if t.startswith("~") or t.startswith("/") or not t:
                continue
            for base in {d, posixpath.dirname(real), ""}:
                q = posixpath.normpath(posixpath.join(base, t)) if base else posixpath.normpath(t)
                if q.startswith(".."):
                    continue
                if q in entries:
                    if q not in selected:
                        selected.add(q)
                        if q.lower().endswith(TEXTY) or "." not in posixpath.basename(q):
                            todo.append(q)
                    rq = resolve(q)
                    if rq in entries and rq not in selected:
                        selected.add(rq)
                        todo.append(rq)

out = os.path.join(OUT, NAME)
tree = os.path.join(out, "tree")
if os.path.exists(out):
    subprocess.run(["rm", "-rf", out], check=True)
os.makedirs(tree)
with open(os.path.join(out, "files.txt"), "w", encoding="utf-8", errors="surrogateescape") as fh:
    for p in paths:
        fh.write(p + "\n")
missing = []
dropped = []
for p in sorted(selected):
    dst = os.path.join(tree, p)
    if not is_link(p) and sizes[p] > FILE_MAX:
        dropped.append(p)
        continue
    data = blob(p)
    if data is None:
        missing.append(p)
        continue
    if p in anytext and not is_link(p) and b"\0" in data[:8192]:
        dropped.append(p)
        continue
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if is_link(p):
        os.symlink(data.decode("utf-8", "surrogateescape"), dst)
    else:
        with open(dst, "wb") as fh:
            fh.write(data)
with open(os.path.join(out, "SOURCE.json"), "w") as fh:
    json.dump({"repo": SLUG, "commit": commit, "license": LICENSE}, fh, indent=2)
    fh.write("\n")
_cat.stdin.close()
_cat.wait()
print(
    f"{NAME}: {len(paths)} files, {len(selected) - len(dropped) - len(missing)} in tree/ "
    f"({len(missing)} missing blobs: {missing[:5]}; {len(dropped)} dropped (binary or over 1 MB): {dropped[:5]})"
)
