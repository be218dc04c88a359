# ruff: noqa: F821 - run by the oracle with capture.py's names (os, subprocess, HARNESSES...) in scope
# The oracle's extension for the CLIs it does not ship (see ../shared/oracle/README.md, ORACLE_EXTRA):
# the OpenHands CLI (PyPI "openhands", console script `openhands`); Crush (oracle_extra_crush.py); and typed
# commands for every CLI.
#
#   ORACLE_EXTRA=tests/conformance/oracle_extra.py ../shared/oracle/oracle batch SCENARIO... --out OUT
#
# What its captures showed is in FINDINGS.md, "OpenHands".
#
# Why a rootfs: openhands 1.16.0 declares Requires-Python ==3.12.* and its SDK (openhands-sdk 1.21.0) uses
# 3.12-only syntax (PEP 695 generics, `type X = ...`, nested f-string quotes), so it cannot run on this
# machine's Python 3.11 (Debian bookworm has no 3.12/3.13 package).  The install therefore debootstraps a
# minimal Debian trixie rootfs (python3.13) into $ORACLE_CLIS/openhands/root and pip-installs the CLI into a
# venv there (/opt/oh-venv inside the rootfs, --ignore-requires-python: the wheel's classifiers list 3.13).
# `bin` is a small wrapper ($ORACLE_CLIS/openhands/bin/openhands) that, inside the oracle's private mount
# namespace, binds /tmp (so /tmp/oracle/{ws,home,run} are the same paths), /dev, /proc and the oracle's
# /etc/resolv.conf (DNS logger) into the rootfs and execs the console script there with the cwd kept.
# The CLI itself is not modified.  Everything else (netns, recorder, env -i) is the oracle's.
#
# Runs this file with capture.py's names in scope (HARNESSES, EXTRACTORS, cli_dir, install, ...).

import glob as _oh_glob
import threading as _threading

OH_VERSION = "1.16.0"
OH_SUITE = "trixie"
OH_MIRROR = "http://deb.debian.org/debian"
OH_VENV = "/opt/oh-venv"  # inside the rootfs
OH_PY = "python3.13"
# Requires-Dist of openhands 1.16.0 (its wheel METADATA)
OH_REQUIRES = [
    "agent-client-protocol<0.9.0,>=0.8.1",
    "httpx>=0.25.0",
    "openhands-sdk==1.21.0",
    "openhands-tools==1.21.0",
    "openhands-workspace==1.11.1",
    "pydantic>=2.7",
    "pyperclip>=1.9.0",
    "rich<14.3.0",
    "streamingjson>=0.0.2",
    "textual-autocomplete>=4.0.6",
    "textual-serve>=1.1.3",
    "textual<9.0.0,>=8.0.0",
    "typer>=0.17.4",
]

HARNESSES["openhands"] = {
    "pkg": "openhands",
    "version": OH_VERSION,
    "bin": "openhands",
    # headless = no TUI, auto-approve; --override-with-envs = take LLM_* from the environment (else ignored)
    "argv": ["--headless", "--override-with-envs", "-t", PROMPT],
    "env": {"LLM_MODEL": "openai/rec-model", "LLM_API_KEY": FAKE_KEY, "LLM_BASE_URL": V1},
    "home": [],  # no settings file needed: the env vars create the agent
    "api": "chat",
    # security_risk / summary are popped by the SDK before the action is built (Agent._extract_*)
    "read_tool": {
        "name": "file_editor",
        "args": {"command": "view", "path": "{PATH}", "summary": "read the file", "security_risk": "LOW"},
    },
    "extractor": "openhands",
    "mask": [],
    # project files are read only from the cwd and the nearest ancestor holding .git (the git root)
    "ancestors": ["AGENTS.md", "agent.md", "CLAUDE.md", "GEMINI.md", ".cursorrules", ".agents", ".openhands", ".git"],
}


def _oh_root():
    return os.path.join(cli_dir("openhands"), "root")


_oracle_cli_bin = cli_bin
_oracle_installed_version = installed_version
_oracle_install = install


def cli_bin(name):
    if name == "openhands":
        return os.path.join(cli_dir(name), "bin", "openhands")
    return _oracle_cli_bin(name)


def installed_version(name):
    if name == "openhands":
        pat = os.path.join(
            _oh_root(), OH_VENV.lstrip("/"), "lib", "python3*", "site-packages", "openhands-*.dist-info", "METADATA"
        )
        for p in _oh_glob.glob(pat):
            with open(p, encoding="utf-8", errors="replace") as f:
                for line in f:
                    if line.startswith("Version: "):
                        return line.split(":", 1)[1].strip()
        return None
    return _oracle_installed_version(name)


OH_WRAPPER = r"""#!/bin/bash
# oracle wrapper for the OpenHands CLI: run the venv's console script inside the Debian trixie rootfs
# next to this script, with /tmp, /dev, /proc and /etc/resolv.conf of the caller bound in.  The mounts are
# made in a new private mount namespace (unshare -m), so they never reach the caller's namespace.
R=$(dirname "$(dirname "$(readlink -f "$0")")")/root
exec /usr/bin/unshare -m --propagation private /bin/bash -c '
set -e
R=$1; shift
/usr/bin/mount --rbind /tmp "$R/tmp"
/usr/bin/mount --rbind /dev "$R/dev"
/usr/bin/mount -t proc proc "$R/proc"
[ -e "$R/etc/resolv.conf" ] || : > "$R/etc/resolv.conf"
/usr/bin/mount --bind /etc/resolv.conf "$R/etc/resolv.conf"
exec /usr/sbin/chroot "$R" /usr/bin/env -C "$PWD" @VENV@/bin/openhands "$@"' oh-wrapper "$R" "$@"
"""


def _oh_run(cmd, **kw):
    log("openhands install: " + " ".join(cmd)[:200])
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode:
        raise OracleError(f"openhands install step failed (rc={r.returncode}): {' '.join(cmd)}\n{r.stdout[-3000:]}")
    return r.stdout


def _oh_install(force=False):
    d, root = cli_dir("openhands"), _oh_root()
    if not force and installed_version("openhands") == OH_VERSION and os.path.exists(cli_bin("openhands")):
        return
    t = time.time()
    os.makedirs(d, exist_ok=True)
    if force or not os.path.exists(os.path.join(root, "usr/bin", OH_PY)):
        shutil.rmtree(root, ignore_errors=True)
        if not shutil.which("debootstrap", path="/usr/sbin:/usr/bin:/sbin:/bin"):
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            _oh_run(["apt-get", "update", "-qq"], env=env)
            _oh_run(["apt-get", "install", "-y", "-qq", "debootstrap"], env=env)
        _oh_run(
            [
                "debootstrap",
                "--variant=minbase",
                f"--include={OH_PY},{OH_PY}-venv,ca-certificates,git,bash,tmux,procps",
                OH_SUITE,
                root,
                OH_MIRROR,
            ]
        )
    # pip inside the rootfs, in a throw-away mount namespace (proc + the host's CA bundle + resolv.conf)
    shutil.copyfile("/etc/ssl/certs/ca-certificates.crt", os.path.join(root, "etc/oh-host-ca.crt"))
    shutil.copyfile("/etc/resolv.conf", os.path.join(root, "etc/resolv.conf"))
    # pip's resolver gives up on this tree (resolution-too-deep after ~20 min), so: uv (from PyPI) resolves
    # the CLI's dependencies (Requires-Dist of openhands 1.16.0), then pip adds openhands itself with
    # --no-deps --ignore-requires-python (its Requires-Python is ==3.12.*, the rootfs has 3.13).
    deps = " ".join(f"'{r}'" for r in OH_REQUIRES)
    script = (
        "mount -t proc proc {r}/proc && exec chroot {r} /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root "
        "PIP_CERT=/etc/oh-host-ca.crt SSL_CERT_FILE=/etc/oh-host-ca.crt UV_NATIVE_TLS=1 "
        "PIP_DISABLE_PIP_VERSION_CHECK=1 sh -c "
        "'rm -rf {v} && {py} -m venv {v} && {v}/bin/pip install -q uv && "
        "{v}/bin/uv pip install -q --python {v}/bin/python {deps} && "
        "{v}/bin/pip install -q --no-deps --ignore-requires-python openhands=={ver}'"
    ).format(r=root, v=OH_VENV, py=OH_PY, ver=OH_VERSION, deps=deps.replace("'", '"'))
    _oh_run(["unshare", "-m", "--propagation", "private", "sh", "-c", script])
    os.makedirs(os.path.join(d, "bin"), exist_ok=True)
    with open(cli_bin("openhands"), "w") as f:
        f.write(OH_WRAPPER.replace("@VENV@", OH_VENV))
    os.chmod(cli_bin("openhands"), 0o755)
    if installed_version("openhands") != OH_VERSION:
        raise OracleError("openhands install: version {!r}, wanted {}".format(installed_version("openhands"), OH_VERSION))
    log(f"installed openhands {OH_VERSION} into {d} in {time.time() - t:.0f} s")


def install(names=None, force=False):
    names = names or list(HARNESSES)
    if "openhands" in names:
        _oh_install(force)
    rest = [n for n in names if n != "openhands"]
    if rest:
        _oracle_install(rest, force)


# ---- extraction.  OpenHands (openhands-sdk 1.21.0) sends ONE system message with two text parts:
# the static system prompt (system_prompt.j2) and the dynamic context rendered by
# AgentContext.get_system_message_suffix (system_message_suffix.j2).  Instruction files appear there as
#   <REPO_CONTEXT> ... [BEGIN context from [<name>]]\n<content>\n[END Context]\n ... </REPO_CONTEXT>
# and AgentSkills / triggered skills as a <SKILLS> ... </SKILLS> listing.  A model LiteLLM sends to another
# API gets the same parts there (_oh_system_texts).
OH_BLOCKS = (("<REPO_CONTEXT>\n", "\n</REPO_CONTEXT>"), ("<SKILLS>\n", "\n</SKILLS>"))


def _oh_system_texts(body):
    """The system texts of whichever API LiteLLM chose for the model: Chat Completions (`messages`),
    the Responses API (`instructions`: openai/gpt-5...), Anthropic Messages (`system` blocks:
    anthropic/claude-...), Gemini (`systemInstruction` parts: gemini/...)."""
    texts = system_texts(body)
    if isinstance(body.get("instructions"), str):
        texts.append(body["instructions"])
    texts += texts_of(body.get("system"))
    instruction = body.get("systemInstruction") or body.get("system_instruction")
    if isinstance(instruction, dict):
        texts += texts_of(instruction.get("parts"))
    return texts


def _oh_user_texts(body):
    """The first user message's texts (Chat `messages`, Gemini `contents`): where LiteLLM puts the system
    prompt of a model its cost map does not mark `supports_system_messages` (FINDINGS OH-7)."""
    for m in body.get("messages") or body.get("contents") or []:
        if isinstance(m, dict) and m.get("role") == "user":
            return texts_of(m.get("content")) + texts_of(m.get("parts"))
    return []


def eager_openhands(body, warn):
    """The blocks in the system texts, else (OH-7) in the first user message, placed "user"."""
    return _oh_blocks("system", _oh_system_texts(body), warn) or _oh_blocks("user", _oh_user_texts(body), warn)


def _oh_blocks(placement, texts, warn):
    out = []
    for t in texts:
        for start, end in OH_BLOCKS:
            s = t.find(start)
            if s < 0:
                continue
            e = t.rfind(end)  # the block is rendered once; file text may contain the end tag
            if e < s:
                warn(f"openhands: {start.strip()} without {end.strip()}")
                continue
            out.append((placement, t[s : e + len(end)]))
    return out


_oracle_is_main = is_main


def is_main(harness, r):
    """The oracle's test, with any of its APIs for openhands: LiteLLM picks the API by the model's name
    (openai/gpt-5: Responses, anthropic/...: Messages, gemini/...: generateContent), whatever the base URL."""
    if harness != "openhands" or _oracle_is_main(harness, r):
        return _oracle_is_main(harness, r)
    b, p = r.get("body"), r["path"].split("?")[0]
    if not isinstance(b, dict) or not any(matches(p) for matches in API_PATHS.values()):
        return False
    # LiteLLM spells Gemini's declarations in snake case
    names = offered_tools(b) + [
        f.get("name") for t in b.get("tools") or [] if isinstance(t, dict) for f in t.get("function_declarations") or []
    ]
    return HARNESSES[harness]["read_tool"]["name"] in names


EXTRACTORS["openhands"] = (eager_openhands, no_reads)


# ---- Crush: its own file beside this one (it comes before the typed commands, which change every argv)
_crush_extra = os.path.join(os.path.dirname(os.environ["ORACLE_EXTRA"]), "oracle_extra_crush.py")
with open(_crush_extra, encoding="utf-8") as _f:
    exec(compile(_f.read(), _crush_extra, "exec"))  # noqa: S102 - this repository's own file


# ---- typed commands: a run's env may set ORACLE_TYPED to the line the user types (a slash command and its
# arguments), which then takes the prompt's place in the CLI's argv; without it the argv is the oracle's.
# (The variable also reaches the CLI's environment, where nothing reads it.)
_typed = {"line": None}
_oracle_inner = inner
_oracle_fill = fill


def inner(job_path):
    with open(job_path) as f:
        _typed["line"] = json.load(f)["env"].get("ORACLE_TYPED")
    return _oracle_inner(job_path)


def fill(s):
    return _oracle_fill(s).replace("{TYPED}", _typed["line"] or PROMPT)


for _harness in HARNESSES.values():
    _harness["argv"] = ["{TYPED}" if a == PROMPT else a for a in _harness["argv"]]


# ---- delegation: a run's env may set ORACLE_DELEGATE to the name of one of the workspace's agents; the stub then
# answers the first request that offers the CLI's delegation tool (`DELEGATE_TOOLS`) with a call of it naming that
# agent, and every other request as the oracle does.  The CLI runs the sub-agent, whose requests the recorder logs
# like any other (their user message holds DELEGATE_PROMPT); session_extract.py reads them.
DELEGATE_PROMPT = "DELEGATED-PROMPT-MARKER: reply with the single word hi"
DELEGATE_TOOLS = {
    # droid 0.225.1: the Task tool (`subagent_type` "The custom droid name/identifier to run"), offered with `--auto
    # high` and run without a Factory account only in air-gap mode (env FACTORY_AIRGAP_ENABLED=1): FINDINGS.md DRA-7
    "droid": {"name": "Task", "args": {"subagent_type": "{AGENT}", "description": "Delegated task", "prompt": DELEGATE_PROMPT}},
    # Cline 3.0.65: one tool per agent config, `subagent_` + its name (`$j="subagent_"`), input `{prompt}`
    "cline": {"name": "subagent_{AGENT}", "args": {"prompt": DELEGATE_PROMPT}},
}
_delegate = {"tool": None, "sent": False, "lock": _threading.Lock()}
_typed_inner = inner
_oracle_chat_reply = recorder.chat_reply


def _fill_agent(value, agent):
    if isinstance(value, str):
        return value.replace("{AGENT}", agent)
    return {k: _fill_agent(v, agent) for k, v in value.items()}


def inner(job_path):
    with open(job_path) as f:
        job = json.load(f)
    agent, tool = job["env"].get("ORACLE_DELEGATE"), DELEGATE_TOOLS.get(job["harness"])
    if agent is not None and tool is not None:
        _delegate["tool"] = _fill_agent(tool, agent)
    return _typed_inner(job_path)


def _delegating_chat_reply(body, reads, seq, rt):
    tool = _delegate["tool"]
    offered = [(t.get("function") or {}).get("name") for t in body.get("tools") or []]
    with _delegate["lock"]:
        now = tool is not None and tool["name"] in offered and not _delegate["sent"]
        _delegate["sent"] = _delegate["sent"] or now
    if now:  # one pending read of no path: the oracle's reply is then a call of `tool`
        return _oracle_chat_reply(body, ["-"], seq, tool)
    return _oracle_chat_reply(body, reads, seq, rt)


recorder.chat_reply = _delegating_chat_reply
