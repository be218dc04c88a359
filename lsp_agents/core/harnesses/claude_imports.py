"""Claude Code's `@path` imports of a memory file: each imported file is a memory file of its own.

Relative imports start from the importing file's real folder, not from the folder of the path it
was found under: Claude Code 2.1.329 resolves them against its resolved path (`bgt(e,o,r,g)` ->
`WJr(z,g)` -> `At(H,kN(o))`, the import joined to dirname(realpath)), so a CLAUDE.md symlinked to
.claude/CLAUDE.md imports from .claude/. `~/` is the home. Up to four hops; an import that leaves
the launch directory needs the user's approval; a file met again in the session is a cycle (the
loader's `add`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsp_agents.core.frontmatter import split_frontmatter
from lsp_agents.core.harnesses.import_inliner import ImportInliner, ImportSite, Refusal
from lsp_agents.core.imports import ImportRef, claude_import_refs
from lsp_agents.core.model import Reason, Role
from lsp_agents.core.walk import is_within

if TYPE_CHECKING:
    from lsp_agents.core.harnesses.claude_memory import MemoryLoader

MAX_IMPORT_HOPS = 4
# Claude imports only text files: a file with no extension, or one of these (a `.xyz` import is
# ignored, as the captures show).
TEXT_EXTENSIONS = frozenset(
    (
        "md mdx markdown txt text rst adoc asciidoc org tex json jsonc json5 yaml yml toml ini cfg conf config env "
        "properties xml csv tsv html htm css scss sass less js mjs cjs jsx ts mts cts tsx vue svelte astro py pyi rb go "
        "rs java kt kts scala swift c h cc cpp cxx hpp hh m mm cs fs php pl pm lua r dart ex exs erl hrl hs ml mli clj "
        "cljs elm zig nim sh bash zsh fish ps1 bat cmd sql graphql gql proto tf hcl gradle cmake mk dockerfile makefile "
        "lock log diff patch"
    ).split()
)


def memory_import_refs(text: str) -> tuple[ImportRef, ...]:
    """The `@` imports of a memory file: found in its text before comments are cut (the text
    after a comment on its line counts), frontmatter aside."""
    _fields, body, _error = split_frontmatter(text)
    return claude_import_refs(body)


def memory_imports(text: str) -> tuple[str, ...]:
    return tuple(ref.path for ref in memory_import_refs(text))


class ClaudeImports(ImportInliner):
    """One memory file's imports, loaded through the session's `loader`: nothing is inlined."""

    max_depth = MAX_IMPORT_HOPS

    def __init__(self, loader: MemoryLoader, scope: str) -> None:
        super().__init__(loader.ctx.fs, loader.cascade)
        self.loader = loader
        self.scope = scope

    def target(self, ref: ImportRef, importer: str) -> str:
        if ref.path.startswith("~/"):
            return self.loader.ctx.home_path(ref.path[2:])
        return os.path.normpath(os.path.join(os.path.dirname(self.fs.realpath(importer)), ref.path))

    def refs(self, text: str) -> tuple[ImportRef, ...]:
        return memory_import_refs(text)

    def refuse(self, site: ImportSite) -> Refusal | None:
        return self.not_text(site) or self.too_deep(site) or self.not_approved(site)

    def not_text(self, site: ImportSite) -> Refusal | None:
        """Not looked up (`@docs/a.md,` has the extension "md,"): nothing loads for it."""
        extension = os.path.splitext(site.target)[1].lower().lstrip(".")
        if not extension or extension in TEXT_EXTENSIONS:
            return None
        return Refusal(None if self.fs.exists(site.target) else Reason.IMPORT_NOT_FOUND)

    def not_approved(self, site: ImportSite) -> Refusal | None:
        loader = self.loader
        if self.scope != "user" and not loader.approved and not is_within(site.target, loader.cwd):
            return Refusal(Reason.IMPORT_NOT_APPROVED)
        return None

    def load(self, site: ImportSite) -> str | None:
        self.loader.add(site.target, Role.IMPORT, self.scope, hops=site.level, importer=site.importer)
        return None

    def place(self, text: str, placed: Sequence[tuple[ImportRef, str | None]]) -> str:
        """Nothing is inlined: the memory file is sent as written, each import as an entry of its own."""
        return text
