import assert from "node:assert/strict";
import { test } from "node:test";
import { sizeLabel } from "../../src/pure/format";
import { failedView, pendingView, RETRY_DELAYS_MS, statusView } from "../../src/pure/status";
import { cascade, harness } from "./fixtures";

test("the status bar names the harness and shows the core's total", () => {
  const entry = harness("claude-code");
  const view = statusView(entry, cascade.cwd, "server.test.ts", "/home/u");
  assert.equal(view.text, `$(book) claude-code · ${entry.total.files} files · ~${entry.total.tokens} tokens`);
  assert.equal(view.label, `claude-code sends ${sizeLabel(entry.total)} for server.test.ts. Click to show the prompt.`);
  assert.doesNotMatch(view.label, /[*`]/); // a screen reader reads no Markdown
  assert.match(view.tooltip, /^\*\*claude-code\*\* sends /);
  assert.match(view.tooltip, /^1\. CLAUDE\.md · 158 B · ~40 tokens \(at start\)$/m);
  assert.match(view.tooltip, /packages\/api\/CLAUDE\.md · 35 B · ~9 tokens \(on read\)$/m);
});

test("one file is one file", () => {
  const view = statusView(harness("codex"), cascade.cwd, "server.test.ts");
  assert.equal(view.text, "$(book) codex · 1 file · ~125 tokens");
  assert.match(view.tooltip, /AGENTS\.md · 500 B · ~125 tokens \(cut at byte 500 of 578\) \(at start\)/);
});

test("while the server is asked again the status says what is computed, never a bare \"?\"", () => {
  const view = pendingView("opencode", "server.test.ts");
  assert.equal(view.text, "$(sync~spin) opencode");
  assert.equal(view.label, "lsp-agents is computing what opencode sends for server.test.ts.");
  assert.match(view.tooltip, /asked again/);
  assert.ok(RETRY_DELAYS_MS.length > 0 && RETRY_DELAYS_MS.every((delay, i) => delay > 0 && (i === 0 || delay > RETRY_DELAYS_MS[i - 1])));
});

test("a failure says what failed and where to read more", () => {
  const view = failedView("the lsp-agents server is not running");
  assert.doesNotMatch(view.text, /\?/);
  assert.equal(view.label, "lsp-agents: the lsp-agents server is not running. Click to show the output.");
});
