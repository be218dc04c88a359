import assert from "node:assert/strict";
import { test } from "node:test";
import { sizeLabel } from "../../src/pure/format";
import { statusView } from "../../src/pure/status";
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
