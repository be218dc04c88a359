#!/usr/bin/env bash
# Installs what the end-to-end test needs, offline except for the Debian and npm registries:
# Debian chromium (+ build deps of code-server's native modules) and code-server, pinned, on the
# machine's Node 20. Idempotent; the install lives in $E2E_HOME (default: a per-user cache).
# Prints the code-server binary path on its last line.
set -euo pipefail
CODE_SERVER_VERSION=4.100.3   # VS Code 1.100.3; the last code-server release for Node 20
E2E_HOME=${E2E_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/lsp-agents-e2e}
mkdir -p "$E2E_HOME/tmp"
export TMPDIR=$E2E_HOME/tmp

if ! dpkg -s chromium libkrb5-dev ripgrep build-essential pkg-config >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium libkrb5-dev ripgrep build-essential pkg-config >/dev/null
fi

CS_DIR=$E2E_HOME/code-server-$CODE_SERVER_VERSION
CS=$CS_DIR/node_modules/.bin/code-server
if [ ! -x "$CS" ]; then
  # @vscode/ripgrep (used by 4.100.x) downloads rg from GitHub in postinstall: seed its cache with Debian's rg.
  RGC=$TMPDIR/vscode-ripgrep-cache-1.15.11
  mkdir -p "$RGC/x" && cp /usr/bin/rg "$RGC/x/rg"
  tar -C "$RGC/x" -czf "$RGC/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" rg
  mkdir -p "$CS_DIR" && echo '{"private":true}' > "$CS_DIR/package.json"
  # unsafe_perm: postinstall.sh refuses root without it; yes: node-pty's postinstall runs `npx node-gyp`;
  # nodedir: node-gyp builds against Debian's Node headers instead of downloading them.
  npm_config_unsafe_perm=true npm_config_yes=true npm_config_nodedir=/usr \
    npm install --prefix "$CS_DIR" "code-server@$CODE_SERVER_VERSION" --no-audit --no-fund --loglevel=error >&2
fi
echo "$CS"
