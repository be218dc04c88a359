"""`lsp-agents` command lines, run one after the other in one process.

The conformance comparisons run the CLI about 1,300 times; as separate processes most of their
time went to starting Python and importing the package. This process reads one JSON object per
line on stdin, `{"args": [...], "env": {...}}`, runs the CLI's own entry (`lsp_agents.cli.main`,
the argument parsing, the command and its JSON output) with exactly that environment, and answers
each with one JSON line: `{"code": …, "stdout": …, "stderr": …}`. A failure inside the command is
answered like the process's own would be: status 1 and the traceback on stderr.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import traceback

from lsp_agents import cli


def run(args: list[str], env: dict[str, str]) -> dict[str, object]:
    os.environ.clear()
    os.environ.update(env)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(args)
        except SystemExit as exc:  # argparse's usage errors and --help
            code = exc.code if isinstance(exc.code, int) else 2
        except Exception:  # noqa: BLE001 - reported as the process would report it
            traceback.print_exc()
            code = 1
    return {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def main() -> None:
    answers = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        answers.write(json.dumps(run(request["args"], request["env"])) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
