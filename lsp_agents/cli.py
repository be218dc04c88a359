"""The `lsp-agents` executable: usage errors and dispatch.

`--version` alone is answered here, before the parser (`cli_parser`) is even imported. Every
usage error reads the same: `lsp-agents: error: …` on stderr, exit status 2.
"""

from __future__ import annotations

import os
import sys

from lsp_agents import __version__

TYPE_CHECKING = False  # `typing` is not imported to answer `--version` (mypy knows the name)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import NoReturn

VERSION = f"lsp-agents {__version__}"


class UsageError(Exception):
    """A problem with the command line the user can fix: one line on stderr, exit 2."""


def escape_undecodable_output() -> None:
    """Keep every output valid UTF-8. A file name byte that is not UTF-8 reaches Python as a lone
    surrogate U+DCHH (PEP 383); written with `backslashreplace` it becomes the six characters
    `\\udcHH`: inside a JSON string that is the escape of the same code point (`os.fsencode`
    turns it back into the byte), and in text output it reads the same way."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    if arguments == ["--version"]:  # what editors and scripts probe most: no parser, no typing
        print(VERSION)
        return 0
    escape_undecodable_output()
    from lsp_agents.cli_parser import build_parser

    args = build_parser().parse_args(arguments)
    try:
        return int(args.run(args))
    except UsageError as exc:
        print(f"lsp-agents: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


def run() -> NoReturn:
    """The `lsp-agents` executable: `main`, then exit without tearing down the objects a large
    check built (freeing them one by one takes half a second on a big workspace)."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:  # noqa: SIM105 - contextlib (and collections, functools) would be imported for this alone
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
