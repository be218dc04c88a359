#!/usr/bin/env bash
# Smoke test in a real editor: headless Neovim's built-in LSP client starts `lsp-agents serve`,
# asks for a hover, runs lspAgents.effectivePrompt and waits for a diagnostic. Exit 0 = all passed.
# Needs `nvim` (Debian: apt-get install neovim) and lsp-agents importable by $LSP_AGENTS_PYTHON
# (default: python3). Everything nvim writes (shada, swap, lsp.log) stays in a temporary directory.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v nvim >/dev/null || { echo "nvim-smoke: nvim is not installed" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
ws="$(cd "$tmp" && pwd -P)/ws"
mkdir -p "$ws/.git" "$ws/src" "$tmp/home"
printf '# Smoke\n\n- SMOKE RULE: use tabs.\n- Keep it short.\n- SMOKE RULE: use tabs.\n' > "$ws/AGENTS.md"
printf 'export const x = 1;\n' > "$ws/src/main.ts"
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/xdg/config" XDG_DATA_HOME="$tmp/xdg/data" \
  XDG_CACHE_HOME="$tmp/xdg/cache" XDG_STATE_HOME="$tmp/xdg/state" LSP_AGENTS_WS="$ws" \
  LSP_AGENTS_PYTHON="${LSP_AGENTS_PYTHON:-python3}"
timeout -k 5 90 nvim --headless -n -i NONE -u "$here/nvim/smoke.lua"
