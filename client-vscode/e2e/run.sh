#!/usr/bin/env bash
# End-to-end test of the packaged extension in a real VS Code build (code-server, pinned) driven by
# headless Chromium: installs lsp-agents-<version>.vsix into a fresh profile, opens examples/monorepo,
# drives the UI (palette, hover, Problems pane; screenshots) and runs the extension's Mocha tests in
# the real extension host. Exits non-zero on any failure.
#   LSP_AGENTS_PYTHON   interpreter with lsp-agents installed (default: python3)
#   E2E_RESULTS         screenshots and logs (default: client-vscode/e2e/results; keep it as a CI artifact)
#   UPDATE_IMAGES=1     also copy the README screenshots into client-vscode/images/
set -euo pipefail
CLIENT=$(cd "$(dirname "$0")/.." && pwd)
REPO=$(cd "$CLIENT/.." && pwd)
WORKSPACE=$REPO/examples/monorepo
RESULTS=${E2E_RESULTS:-$CLIENT/e2e/results}
PORT=${E2E_PORT:-8765}
PYTHON=$("${LSP_AGENTS_PYTHON:-python3}" -c 'import sys; print(sys.executable)')
VERSION=$(node -p "require('$CLIENT/package.json').version")
VSIX=$CLIENT/lsp-agents-$VERSION.vsix
t0=$(date +%s)
step() { echo "== [$(( $(date +%s) - t0 ))s] $*"; }

"$PYTHON" -c 'import lsp_agents.server' || { echo "lsp-agents (with its server) is not importable from $PYTHON" >&2; exit 1; }
step "code-server and chromium"
CS=$(bash "$CLIENT/e2e/setup.sh" | tail -1)
step "extension: package and compile the integration tests"
cd "$CLIENT"
npm run --silent package >/dev/null
npx tsc -p test/integration

RUN=$(mktemp -d "${TMPDIR:-/tmp}/lsp-agents-e2e.XXXXXX")
rm -rf "$RESULTS" && mkdir -p "$RESULTS" "$RUN/data/User" "$RUN/ext" "$RUN/home" "$RUN/tmp"
export XDG_CONFIG_HOME=$RUN/xdg/config XDG_DATA_HOME=$RUN/xdg/data XDG_CACHE_HOME=$RUN/xdg/cache TMPDIR=$RUN/tmp
# An empty home: no global AGENTS.md / CLAUDE.md of whoever runs this changes the expected cascade.
cat > "$RUN/data/User/settings.json" <<JSON
{ "security.workspace.trust.enabled": false, "workbench.startupEditor": "none", "workbench.tips.enabled": false,
  "telemetry.telemetryLevel": "off", "update.mode": "none", "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false, "extensions.ignoreRecommendations": true, "workbench.enableExperiments": false,
  "chat.disableAIFeatures": true, "editor.hover.delay": 100, "window.commandCenter": false,
  "git.openRepositoryInParentFolders": "never", "typescript.validate.enable": false,
  "lspAgents.server.python": "$PYTHON", "lspAgents.home": "$RUN/home", "lspAgents.debounceMs": 0 }
JSON
printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$PORT" > "$RUN/config.yaml"
SOURCE=$WORKSPACE/packages/api/src/server.test.ts
cli() { "$PYTHON" -m lsp_agents "$@" --format json --harness opencode --cwd "$WORKSPACE" --home "$RUN/home"; }
printf '{"prompt": %s, "reminders": %s}\n' "$(cli prompt)" "$(cli reminders "$SOURCE")" > "$RUN/expected.json"

ARGS=(--config "$RUN/config.yaml" --auth none --disable-telemetry --disable-update-check --disable-workspace-trust
      --user-data-dir "$RUN/data" --extensions-dir "$RUN/ext")
step "install $(basename "$VSIX") into a fresh profile"
timeout 120 "$CS" "${ARGS[@]}" --install-extension "$VSIX" >/dev/null
start_server() {
  timeout 900 "$CS" "${ARGS[@]}" --bind-addr "127.0.0.1:$PORT" "$WORKSPACE" >> "$RESULTS/code-server.log" 2>&1 &
  CSPID=$!
  for _ in $(seq 1 150); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null && return; sleep 0.2; done
  echo "code-server did not answer" >&2; return 1
}
stop_server() { kill "$CSPID" 2>/dev/null || true; wait "$CSPID" 2>/dev/null || true; }
trap 'stop_server; cp -r "$RUN/data/logs" "$RESULTS/" 2>/dev/null || true; rm -rf "$RUN"' EXIT

status=0
step "UI drive (palette, hover, Problems pane)"
start_server
(cd "$CLIENT/e2e" && timeout -k 5 300 node drive.mjs "http://127.0.0.1:$PORT" "$WORKSPACE" "$RESULTS" "$RUN/expected.json") || status=1
stop_server
step "extension-host Mocha tests"
start_server
(cd "$CLIENT/e2e" && timeout -k 5 300 node ext-tests.mjs "http://127.0.0.1:$PORT" "$CLIENT" "$WORKSPACE") || status=1
if [ "${UPDATE_IMAGES:-0}" = 1 ] && [ "$status" = 0 ]; then
  cp "$RESULTS"/{effective-prompt,hover,problems}.png "$CLIENT/images/"
fi
step "done: $([ "$status" = 0 ] && echo PASS || echo FAIL); screenshots and logs in $RESULTS"
exit "$status"
