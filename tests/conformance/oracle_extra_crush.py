# ruff: noqa: F821 - run by the oracle with capture.py's names (os, HARNESSES, home_cfg...) in scope
# The oracle's extension for Crush, run by oracle_extra.py (ORACLE_EXTRA; see ../shared/oracle/README.md).
#
# ---- Crush (charmbracelet/crush built from source at commit 37f36e9, v0.90.0 + 5 commits; FINDINGS.md "Crush"):
# the npm package only downloads its program from github.com, so the binary is $ORACLE_CLIS/crush/bin/crush
# and its version is the VERSION file beside it (`crush --version`).  The provider is an openai-compat one.
HARNESSES["crush"] = {
    "pkg": "@charmland/crush",
    "version": "0.90.0-5-g37f36e9",
    "bin": "crush",
    "argv": ["run", "--quiet", PROMPT],
    "env": {"CRUSH_DISABLE_PROVIDER_AUTO_UPDATE": "1", "CRUSH_DISABLE_METRICS": "1", "DO_NOT_TRACK": "1"},
    "home": [
        home_cfg(
            ".config/crush/crush.json",
            "json",
            forced={
                "providers": {
                    "recorder": {
                        "name": "Recorder",
                        "type": "openai-compat",
                        "base_url": V1,
                        "api_key": FAKE_KEY,
                        "discover_models": False,
                        "models": [
                            {"id": "rec-model", "name": "rec-model", "context_window": 200000, "default_max_tokens": 4096}
                        ],
                    }
                },
                "models": {
                    "large": {"provider": "recorder", "model": "rec-model"},
                    "small": {"provider": "recorder", "model": "rec-model"},
                },
                "options": {"disable_provider_auto_update": True, "disable_metrics": True},
            },
        )
    ],
    "api": "chat",
    "read_tool": {"name": "view", "args": {"file_path": "{PATH}"}},
    "extractor": "crush",
    "mask": [],
    "ancestors": [
        "CRUSH.md",
        "CRUSH.local.md",
        "crush.md",
        "AGENTS.md",
        "CLAUDE.md",
        "GEMINI.md",
        "crush.json",
        ".crush.json",
        ".crush",
        ".crushrc",
        "crushrc",
    ],
}
_without_crush_cli_bin = cli_bin
_without_crush_installed_version = installed_version
_without_crush_install = install


def cli_bin(name):
    return os.path.join(cli_dir(name), "bin", "crush") if name == "crush" else _without_crush_cli_bin(name)


def installed_version(name):
    if name != "crush":
        return _without_crush_installed_version(name)
    try:
        with open(os.path.join(cli_dir(name), "VERSION")) as f:
            return f.read().strip()
    except OSError:
        return None


def install(names=None, force=False):
    names = names or list(HARNESSES)
    if "crush" in names and installed_version("crush") != HARNESSES["crush"]["version"]:
        raise OracleError(f"crush: no binary of {HARNESSES['crush']['version']} at {cli_bin('crush')} (built from source)")
    rest = [n for n in names if n != "crush"]
    if rest:
        _without_crush_install(rest, force)


# Crush's system prompt (coder.md.tpl) ends with its context files: `# Project-Specific Context` ...
# `</project_context>`, then the user's, `# User context` ... `</user_preferences>`.
CRUSH_BLOCKS = (("# Project-Specific Context\n", "</project_context>"), ("# User context\n", "</user_preferences>"))


def eager_crush(body, warn):
    out = []
    for t in system_texts(body):
        for start, end in CRUSH_BLOCKS:
            s = t.find(start)
            if s < 0:
                continue
            e = t.rfind(end)  # file text may contain the end tag
            if e < s:
                warn(f"crush: {start.strip()} without {end}")
                continue
            out.append(("system", t[s : e + len(end)]))
    return out


EXTRACTORS["crush"] = (eager_crush, no_reads)
