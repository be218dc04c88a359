"""Plain data of agents, skills and commands: what a harness finds in the workspace and the home
directory besides instruction files, and what it sends of each."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from lsp_agents.core.model import JsonObject


class Kind(StrEnum):
    AGENT = "agent"
    SKILL = "skill"
    COMMAND = "command"


class Scope(StrEnum):
    PROJECT = "project"
    USER = "user"
    BUILTIN = "built-in"


# Issue codes that make the harness drop a definition.
DROPPING = frozenset({"invalid-definition", "missing-prompt-file", "disabled"})


class Delivery(StrEnum):
    """When the harness sends a definition's text to the model."""

    LISTED = "listed"  # its name and description at the start of every session; the body on use
    ON_USE = "on-use"  # nothing until the agent is picked, the skill loaded, the command typed
    NOT_SENT = "not-sent"  # dropped (see `issues`) or shadowed by another definition of its name


@dataclass(frozen=True, slots=True)
class Issue:
    """Something that makes the harness drop or change a definition; `code` is the finding code.

    `line` is 0-based, in the file of the definition (for a config entry, the config file)."""

    code: str
    message: str
    line: int = 0
    path: str | None = None  # when the issue sits in another file than the definition


@dataclass(slots=True)
class Definition:
    """One agent, skill or command as one harness sees it.

    `body` is the text sent when it is used (an agent's prompt, a skill's instructions, a
    command's template) exactly as the harness takes it from the file; `description` is what a
    listing shows. `shadowed_by` names the file of the definition that wins the name.
    """

    harness: str
    kind: Kind
    name: str
    path: str
    scope: Scope
    description: str | None = None
    body: str | None = None
    delivery: Delivery = Delivery.ON_USE
    primary: bool = False  # an agent the session can run as (opencode `mode` primary or all, Claude --agent)
    steps: int | None = None  # opencode: the agent's step limit
    folder: str | None = None  # a skill's folder name, where the harness names it by folder
    prompt_path: str | None = None  # the file a config entry takes its prompt from
    declared_name: str | None = None  # a skill's header `name`, where the harness names it by folder
    tools: str | None = None  # Claude Code: the agent's tools as its listing states them
    user_invocable: bool = True  # a skill the user may type as a command (droid: `rS`)
    line: int = 0  # 0-based line of the `name` (or first) key, where findings about the name go
    description_line: int = 0
    shadowed_by: str | None = None
    issues: list[Issue] = field(default_factory=list)

    @property
    def dropped(self) -> bool:
        """The harness does not keep it at all (as opposed to keeping it unlisted or shadowed)."""
        return any(issue.code in DROPPING for issue in self.issues)

    def drop(self, issue: Issue) -> None:
        """The harness does not send it, for `issue`."""
        self.issues.append(issue)
        self.delivery = Delivery.NOT_SENT

    def to_json(self) -> JsonObject:
        return {
            "kind": str(self.kind),
            "name": self.name,
            "path": self.path,
            "scope": str(self.scope),
            "delivery": str(self.delivery),
            "description": self.description,
            **({"primary": True} if self.primary else {}),
            **({"steps": self.steps} if self.steps is not None else {}),
            **({"shadowedBy": self.shadowed_by} if self.shadowed_by else {}),
            "issues": [{"code": i.code, "message": i.message} for i in self.issues],
        }


@dataclass(frozen=True, slots=True)
class Layer:
    """A named piece of what the harness sends, in send order, with where it goes.

    `placement`: system, developer, user, tool (a tool's description), assistant. `source` says
    where the text comes from: the user's files ("workspace") or a placeholder for the vendor's
    own text ("placeholder"), or both ("mixed": a listing of the user's skills in the harness's
    wrapper, with placeholders for its built-in entries)."""

    name: str
    placement: str
    text: str
    source: str = "workspace"

    def to_json(self) -> JsonObject:
        return {"name": self.name, "placement": self.placement, "text": self.text, "source": self.source}


@dataclass(slots=True)
class Catalog:
    """Every agent, skill and command one harness finds from one launch directory, in its
    discovery order, and the warnings met on the way (a walk cut short, a config that does not
    parse)."""

    harness: str
    cwd: str
    definitions: list[Definition] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def of(self, kind: Kind) -> list[Definition]:
        return [d for d in self.definitions if d.kind == kind]

    def active(self, kind: Kind) -> list[Definition]:
        """The definitions of `kind` the harness keeps: not dropped, not shadowed."""
        return [d for d in self.of(kind) if not d.dropped and d.shadowed_by is None]

    def agent(self, name: str) -> Definition | None:
        return next((d for d in self.active(Kind.AGENT) if d.name == name), None)
