"""droid's skills typed as commands: the cases beyond those the `droid-typed-skills` captures replay,
from the bundle's code (`Qh`, the skill header's schema; `nS`, the attribute escaper of `k`)."""

from __future__ import annotations

import pytest

from lsp_agents.core.agents.droid_skills import user_invocable
from lsp_agents.core.agents.typed_commands import DROID_SKILL_PREAMBLE, DroidSkill, droid_skill_message

VALID = {"name": "alpha", "description": "Alpha"}


@pytest.mark.parametrize(
    ("fields", "typable"),
    [
        (VALID, True),
        ({**VALID, "disable-model-invocation": True, "tools": ["Read"], "metadata": {"k": "v"}}, True),
        ({**VALID, "user-invocable": False}, False),
        ({"name": "alpha"}, False),  # no description: off the schema, turned off
        ({**VALID, "description": 3}, False),
        ({**VALID, "user-invocable": "false"}, False),  # a string, not a boolean
        ({**VALID, "enabled": "yes"}, False),
        ({**VALID, "tools": [1]}, False),
        ({**VALID, "metadata": "text"}, False),
        ({**VALID, "license": ["MIT"]}, False),
    ],
)
def test_which_skills_the_user_may_type(fields: dict[object, object], typable: bool) -> None:
    assert user_invocable(fields) is typable


def test_a_typed_skill_message_escapes_its_path_and_drops_blank_arguments() -> None:
    skill = DroidSkill("alpha", "/w/a\"b&'<c>\td/SKILL.md", "Alpha", "project", "Body.")
    message = droid_skill_message(skill, " \t ")
    assert message == (
        f"<system-notification>\n{DROID_SKILL_PREAMBLE}\n"
        '<skill filePath="/w/a&quot;b&amp;&#39;&lt;c&gt; d/SKILL.md">\n<name>alpha</name>\n'
        "<description>Alpha (project)</description>\nBody.\n</skill>\n</system-notification>"
    )
