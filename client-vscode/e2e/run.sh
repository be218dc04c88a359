#!/usr/bin/env bash
# End-to-end test of the packaged extension in a real VS Code build (code-server, pinned) driven by
# headless Chromium. Installs lsp-agents-<version>.vsix into a fresh profile, then runs six sessions:
#   1. zero setup: a bare venv (no lsp-agents, no pydantic) first on code-server's PATH, no server
#      setting; the interpreter the extension picks must not have lsp-agents; the server's first
#      cascade misses its time budget on purpose (LSP_AGENTS_MISS_BUDGET), as on a busy machine;
#      drives the UI on a copy of examples/monorepo with a manual Cursor rule and an empty file
#      added (palette, status bar, prompt, reminders and compare views at full width and at 500 px,
#      the Agent Instructions tree, hover, code lens, Problems, settings, Compare With… HEAD~1 against
#      `lsp-agents diff HEAD~1`, "Changed since HEAD" after an edit, output), checks what each shows,
#      takes screenshots;
#   2. own interpreter: the lsp-agents installed for LSP_AGENTS_PYTHON (importStrategy
#      fromEnvironment) runs the extension's Mocha tests in the real extension host;
#   3-6. first diagnostics with nothing else going on, on examples/monorepo and on a generated
#      1,500-file repository, with each of the two servers.
# Each session's extension log gives the time from activation to the first diagnostics: all are
# printed and kept in $E2E_RESULTS/timings.txt, as figures, never as limits (the machine may be
# busy). Exits non-zero on any failure, and the last line names the steps that failed.
#   LSP_AGENTS_PYTHON   interpreter with lsp-agents installed (default: python3)
#   E2E_RESULTS         screenshots and logs (default: client-vscode/e2e/results; keep it as a CI artifact)
#   E2E_PORT            code-server's port on 127.0.0.1 (default 8765)
#   UPDATE_IMAGES=1     also copy the README screenshots into client-vscode/images/
set -euo pipefail
CLIENT=$(cd "$(dirname "$0")/.." && pwd)
REPO=$(cd "$CLIENT/.." && pwd)
RESULTS=${E2E_RESULTS:-$CLIENT/e2e/results}
PORT=${E2E_PORT:-8765}
PYTHON=$("${LSP_AGENTS_PYTHON:-python3}" -c 'import sys; print(sys.executable)')
VERSION=$(node -p "require('$CLIENT/package.json').version")
VSIX=$CLIENT/lsp-agents-$VERSION.vsix
HARNESSES=$(node -p "JSON.stringify(require('$CLIENT/package.json').contributes.configuration[0].properties['lspAgents.defaultHarness'].enum)")
CODEX_BUDGET=500 # below the size of examples/monorepo/AGENTS.md: Codex cuts it
t0=$(date +%s)
step() { echo "== [$(( $(date +%s) - t0 ))s] $*"; }

"$PYTHON" -c 'import lsp_agents.server' || { echo "lsp-agents (with its server) is not importable from $PYTHON" >&2; exit 1; }
step "code-server and chromium"
CS=$(bash "$CLIENT/e2e/setup.sh" | tail -1)
step "extension: package and compile the integration tests"
cd "$CLIENT"
npm run --silent package
npx tsc -p test/integration

RUN=$(mktemp -d "${TMPDIR:-/tmp}/lsp-agents-e2e.XXXXXX")
rm -rf "$RESULTS" && mkdir -p "$RESULTS" "$RUN/ext" "$RUN/home/.codex" "$RUN/tmp"
# The example, a repository of its own, with what the drive checks besides, in a second commit (so
# that "Compare With… HEAD~1" has a change to show): a manual Cursor rule (no globs, no description,
# not always applied) and an empty file.
WORKSPACE=$RUN/monorepo
cp -R "$REPO/examples/monorepo" "$WORKSPACE"
commit() { git -C "$WORKSPACE" add -A && git -C "$WORKSPACE" -c user.name=e2e -c user.email=e2e@example.invalid commit -qm "$1"; }
git -C "$WORKSPACE" init -q && commit "the example"
printf -- '---\ndescription:\nglobs:\nalwaysApply: false\n---\nRelease steps: tag, changelog, publish.\n' > "$WORKSPACE/.cursor/rules/release.mdc"
: > "$WORKSPACE/packages/api/src/empty.ts"
commit "a manual rule and an empty file"
export XDG_CONFIG_HOME=$RUN/xdg/config XDG_DATA_HOME=$RUN/xdg/data XDG_CACHE_HOME=$RUN/xdg/cache TMPDIR=$RUN/tmp
# A home of its own: no global AGENTS.md / CLAUDE.md of whoever runs this changes the expected cascade.
printf 'project_doc_max_bytes = %s\n' "$CODEX_BUDGET" > "$RUN/home/.codex/config.toml"

# The zero-setup Python: a venv with nothing installed, first on code-server's PATH (which matters
# where VS Code keeps the PATH it is given, as in CI where the project's venv is active).
"$PYTHON" -m venv --without-pip "$RUN/bare"
if (cd "$RUN" && "$RUN/bare/bin/python3" -c 'import lsp_agents' 2>/dev/null) ||
   (cd "$RUN" && "$RUN/bare/bin/python3" -c 'import pydantic' 2>/dev/null); then
  echo "the bare venv is not bare" >&2; exit 1
fi

SOURCE=$WORKSPACE/packages/api/src/server.test.ts
cli() { "$PYTHON" -m lsp_agents "$@" --format json --cwd "$WORKSPACE" --home "$RUN/home"; }
# What "Compare With… HEAD~1" must show: `lsp-agents diff HEAD~1` run in the workspace, and its
# Markdown's summary line (every harness: the drive's settings enable them all).
diff_cli() { (cd "$WORKSPACE" && "$PYTHON" -m lsp_agents diff HEAD~1 --harness all --home "$RUN/home" "$@"); }
DIFF_SUMMARY=$(diff_cli --format markdown | "$PYTHON" -c 'import json, sys; print(json.dumps(sys.stdin.read().splitlines()[0].removeprefix("**lsp-agents diff** ")))')
# What the tree's "Changed since HEAD" must say once the drive appends EDIT to AGENTS.md: `lsp-agents
# diff HEAD` of a copy with that edit.
EDIT='- Keep the changelog current.'
cp -R "$WORKSPACE" "$RUN/edited" && printf '\n%s\n' "$EDIT" >> "$RUN/edited/AGENTS.md"
SINCE_HEAD=$(cd "$RUN/edited" && "$PYTHON" -m lsp_agents diff HEAD --harness all --home "$RUN/home" --format json) && rm -rf "$RUN/edited"
printf '{"cascade": %s, "reminders": {"opencode": %s, "codex": %s}, "diff": %s, "diffSummary": %s, "edit": "%s", "sinceHead": %s}\n' \
  "$(cli cascade "$SOURCE" --harness all)" "$(cli reminders "$SOURCE" --harness opencode)" "$(cli reminders "$SOURCE" --harness codex)" \
  "$(diff_cli --format json)" "$DIFF_SUMMARY" "$EDIT" "$SINCE_HEAD" > "$RUN/expected.json"

# A 1,500-file repository (the benchmarks' generator) for the start-up figure.
BIG=$RUN/big
(cd "$REPO/benchmarks" && "$PYTHON" - "$BIG" <<'PY'
import argparse, sys
from bench_cascade import add_tree_arguments, generate
parser = argparse.ArgumentParser()
add_tree_arguments(parser)
generate(sys.argv[1], parser.parse_args(["--files", "1500", "--instruction-files", "60", "--depth", "6"]))
PY
)

ARGS=(--auth none --disable-telemetry --disable-update-check --disable-workspace-trust --extensions-dir "$RUN/ext")
step "install $(basename "$VSIX") into a fresh profile"
timeout 120 "$CS" "${ARGS[@]}" --user-data-dir "$RUN/profile" --install-extension "$VSIX" >/dev/null
rm -rf "$RUN/profile/logs"

# One profile for every session (the bundled server's compiled bytecode, kept in the extension's
# storage, is reused as it is on a user's machine); each session writes its settings, and its logs
# are moved to $RESULTS/logs-NAME when it stops.
PROFILE=$RUN/profile
# settings EXTRA_JSON: the profile's settings; EXTRA_JSON adds lspAgents settings.
settings() {
  mkdir -p "$PROFILE/User"
  cat > "$PROFILE/User/settings.json" <<JSON
{ "security.workspace.trust.enabled": false, "workbench.startupEditor": "none", "workbench.tips.enabled": false,
  "telemetry.telemetryLevel": "off", "update.mode": "none", "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false, "extensions.ignoreRecommendations": true, "workbench.enableExperiments": false,
  "chat.disableAIFeatures": true, "editor.hover.delay": 100, "window.commandCenter": false,
  "git.openRepositoryInParentFolders": "never", "typescript.validate.enable": false,
  "lspAgents.home": "$RUN/home", "lspAgents.debounceMs": 0, "lspAgents.harnesses": $HARNESSES $1 }
JSON
  # `lspAgents.home` (a machine setting) again as the machine's (code-server's "Remote" settings),
  # which the extension host reads on the server side: once in CI, a reload under load started the
  # extension before the browser had delivered the user settings, and its server ran with the
  # default home. (Only this one: the settings page would show the others "also modified in Remote".)
  mkdir -p "$PROFILE/Machine"
  printf '{ "lspAgents.home": "%s" }\n' "$RUN/home" > "$PROFILE/Machine/settings.json"
}
CSPID=
SESSION=
# start_server NAME FOLDER PATH [MISS]: code-server on the profile, the folder open, PATH as given;
# MISS: the server requests whose first call misses its budget (LSP_AGENTS_MISS_BUDGET).
start_server() {
  SESSION=$1
  printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$PORT" > "$RUN/config.yaml"
  LSP_AGENTS_MISS_BUDGET=${4:-} PATH=$3 timeout 900 "$CS" "${ARGS[@]}" --config "$RUN/config.yaml" --user-data-dir "$PROFILE" \
    --bind-addr "127.0.0.1:$PORT" "$2" >> "$RESULTS/code-server-$1.log" 2>&1 &
  CSPID=$!
  for _ in $(seq 1 150); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && return; sleep 0.2; done
  echo "code-server did not answer" >&2; return 1
}
stop_server() {
  [ -n "$CSPID" ] && { kill "$CSPID" 2>/dev/null || true; wait "$CSPID" 2>/dev/null || true; }
  [ -n "$SESSION" ] && [ -d "$PROFILE/logs" ] && mv "$PROFILE/logs" "$RESULTS/logs-$SESSION"
  CSPID= SESSION=
}
# first_diagnostics NAME: what the extension logged about its first diagnostics in that session.
first_diagnostics() {
  local line
  line=$(grep -rh "First diagnostics" "$RESULTS/logs-$1" --include=lsp-agents.log 2>/dev/null | head -1)
  [ -n "$line" ] && echo "${line#*] }" || { echo "no diagnostics logged"; return 1; }
}
trap 'stop_server; rm -rf "$RUN"' EXIT

status=0
failed=()
# fail WHAT: the run fails; WHAT is named in the last line.
fail() { status=1; failed+=("$1"); echo "FAIL: $1" >&2; }
OWN=", \"lspAgents.server.importStrategy\": \"fromEnvironment\", \"lspAgents.server.python\": \"$PYTHON\""
BARE_PATH=$RUN/bare/bin:$PATH
: > "$RESULTS/timings.txt"
# timing NAME WHAT: the session's first-diagnostics figure, printed and kept in timings.txt.
timing() {
  local line
  line=$(first_diagnostics "$1") || fail "$2: no diagnostics"
  echo "$2: $line" | tee -a "$RESULTS/timings.txt"
}

step "1. zero setup (a bare Python on PATH), the first cascade over budget: UI drive on examples/monorepo"
settings ""
start_server zero "$WORKSPACE" "$BARE_PATH" lspAgents.cascade
(cd "$CLIENT/e2e" && timeout -k 5 600 node drive.mjs "http://127.0.0.1:$PORT" "$WORKSPACE" "$RESULTS" "$RUN/expected.json" \
  "$PROFILE/logs") || fail "1. the UI drive (drive.mjs: $(paste -sd'|' "$RESULTS/failed-checks.txt" 2>/dev/null || echo "no checks recorded"))"
stop_server
timing zero "zero setup, first start after install (compiles the bundle once), examples/monorepo, UI driven meanwhile"
# The interpreter the extension found (VS Code may take PATH from the login shell, not from here)
# must be one that cannot import lsp_agents: the server that ran is the bundled one.
used=$(grep -rhoP "Using the bundled server with \K\S+" "$RESULTS/logs-zero" --include=lsp-agents.log | head -1)
if [ -n "$used" ] && ! (cd "$RUN" && "$used" -c 'import lsp_agents' 2>/dev/null); then
  echo "zero setup: the bundled server ran with $used, which has no lsp-agents installed"
else
  fail "1. the bundled server did not run with a Python without lsp-agents (${used:-none logged})"
fi

step "2. own interpreter ($PYTHON): extension-host Mocha tests"
settings "$OWN"
start_server own "$WORKSPACE" "$PATH"
(cd "$CLIENT/e2e" && timeout -k 5 300 node ext-tests.mjs "http://127.0.0.1:$PORT" "$CLIENT" "$WORKSPACE" "$PROFILE/logs") || fail "2. the extension-host tests"
stop_server
timing own "own interpreter, examples/monorepo, tests running meanwhile"

n=3
for folder in "$WORKSPACE" "$BIG/repo"; do
  for mode in zero own; do
    name=$([ "$folder" = "$WORKSPACE" ] && echo examples/monorepo || echo "a 1,500-file repository")
    number=$n; n=$((n + 1))
    step "$number. first diagnostics on $name ($mode)"
    settings "$([ $mode = own ] && echo "$OWN")"
    start_server "quiet-$mode-$(basename "$folder")" "$folder" "$([ $mode = zero ] && echo "$BARE_PATH" || echo "$PATH")"
    (cd "$CLIENT/e2e" && timeout -k 5 120 node open.mjs "http://127.0.0.1:$PORT" "$folder" "$PROFILE/logs") || fail "$number. opening $name ($mode)"
    session=$SESSION
    stop_server
    timing "$session" "$([ $mode = zero ] && echo "zero setup" || echo "own interpreter"), $name"
  done
done

if [ "${UPDATE_IMAGES:-0}" = 1 ] && [ "$status" = 0 ]; then
  cp "$RESULTS"/{prompt,cascade,tree,hover,problems}.png "$CLIENT/images/"
fi
step "done: $([ "$status" = 0 ] && echo PASS || echo "FAIL (${failed[*]/%/;})"); screenshots, timings and logs in $RESULTS"
exit "$status"
