"""OpenCode 2 (the `opencode` command from 2.0 on): opencode's rules with AGENTS.md alone, walked up
to the home directory.

Documented from its source (sst/opencode a3deafd, the 2.0 line: `ConfigInstructionPlugin` in
packages/core/src/config/plugin/instruction.ts; `InstructionDiscovery` in
packages/core/src/instruction-discovery.ts; `Project.resolve` in packages/core/src/project.ts,
read at anomalyco/opencode 47e4728 and 009b6de), compared with the opencode 1.18.33 model it
forks (`opencode`):
- AGENTS.md is the only name: no CLAUDE.md (nor ~/.claude/CLAUDE.md), no CONTEXT.md.
- The user's file is `AGENTS.md` in the config directory ($XDG_CONFIG_HOME/opencode, default
  ~/.config/opencode); `$OPENCODE_CONFIG_DIR/AGENTS.md` is no longer looked at.
- The project's: every AGENTS.md from the launch directory up to the home directory when the
  launch directory is inside it, else up to the project root (the nearest folder holding `.git`
  or `.hg`; without one the launch directory alone), nearest first, after the user's file.
- Each is "Instructions from: <path>" and its text, an empty file included; the elements are
  joined by a blank line.
Assumed where the source read is silent or was not read: the config's `instructions` (the v2
file schema still takes configured paths and URLs), the read tool's nearby AGENTS.md and the
`OPENCODE_DISABLE_PROJECT_CONFIG` flag behave as in 1.x; the byte-order mark is dropped as 1.x
does. Not modelled: an AGENTS.md that exists but cannot be read makes OpenCode 2 send no
instructions at all (the source is "unavailable"); here only that file is left out.

Same command and files as opencode 1.x: a separate id that nothing enables on its own (a setting
or `--harness opencode2`), since auto-detecting it would repeat every opencode finding.
"""

from __future__ import annotations

from dataclasses import replace

from lsp_agents.core.harnesses.base import LaunchContext
from lsp_agents.core.harnesses.opencode import SPEC as OPENCODE_SPEC
from lsp_agents.core.harnesses.opencode import Flavor, Opencode
from lsp_agents.core.harnesses.spec import Detection
from lsp_agents.core.walk import find_marker_root, is_within

NAMES = ("AGENTS.md",)
PROJECT_MARKERS = (".git", ".hg")

OPENCODE2 = Flavor("OPENCODE", strip_bom=True, names=NAMES, claude_global=False, separator="\n\n", keeps_empty=True)

SPEC = replace(
    OPENCODE_SPEC,
    id="opencode2",
    title="OpenCode 2",
    verified=False,
    version="sst/opencode a3deafd (2.0)",
    package=None,  # the same package as opencode 1.x: its installed version is reported there
    global_files=NAMES,
    instruction_names=NAMES,
    looks_for=NAMES,
    own_names=None,
    detection=Detection(),  # enabled by name only: opencode's files, already checked for opencode
    legacy_names=(),  # CONTEXT.md is not read at all; opencode's deprecation is reported where opencode is enabled
)


class Opencode2(Opencode):
    spec = SPEC
    flavor = OPENCODE2

    def walk_top(self, ctx: LaunchContext) -> str:
        """The home directory when cwd is inside it, else the project root (`Project.resolve`)."""
        if is_within(ctx.cwd, ctx.home):
            return ctx.home
        return find_marker_root(ctx.fs, ctx.cwd, PROJECT_MARKERS) or ctx.cwd
