import assert from "node:assert/strict";
import { test } from "node:test";
import { count, displayPath, entrySize, harnessFactsLabel, harnessLabel, harnessTotal, openLine, plural, sizeLabel, versionNote } from "../../src/pure/format";
import { harness } from "./fixtures";

test("totals read as the CLI and the hover print them (lsp_agents/core/vocabulary.py)", () => {
  assert.equal(sizeLabel({ files: 1, bytes: 578, tokens: 145 }), "1 file · 578 B · ~145 tokens");
  assert.equal(sizeLabel({ files: 12, bytes: 32_768, tokens: 8_192 }), "12 files · 32,768 B · ~8,192 tokens");
  assert.deepEqual([0, 1, 999, 1000, 1_234_567].map(count), ["0", "1", "999", "1,000", "1,234,567"]);
  assert.deepEqual([plural(1, "file"), plural(2, "file"), plural(0, "file")], ["1 file", "2 files", "0 files"]);
});

test("a file the Codex budget cuts says where, and opens at the cut", () => {
  const [cut] = harness("codex").eager;
  assert.equal(entrySize(cut), "500 B · ~125 tokens (cut at byte 500 of 578)");
  assert.ok(cut.truncated_line !== null && cut.truncated_line > 0);
  assert.equal(openLine(cut), cut.truncated_line);
  assert.equal(openLine(harness("opencode").eager[0]), 0);
});

test("versionNote says verified or documented", () => {
  assert.equal(versionNote(harness("opencode")), "verified against 1.18.33");
  assert.equal(versionNote({ ...harness("opencode"), verified: false, version: "docs" }), "documented, not verified (docs)");
  assert.equal(versionNote({ ...harness("opencode"), installed: { version: "1.19.0", path: "/x", newer: true } }),
    "verified against 1.18.33; installed 1.19.0 (newer than verified)");
});

test("displayPath is relative inside the launch directory, ~ under home, absolute elsewhere", () => {
  assert.equal(displayPath("/ws/packages/api/AGENTS.md", "/ws"), "packages/api/AGENTS.md");
  assert.equal(displayPath("/home/u/.codex/AGENTS.md", "/ws", "/home/u"), "~/.codex/AGENTS.md");
  assert.equal(displayPath("/etc/AGENTS.md", "/ws", "/home/u"), "/etc/AGENTS.md");
  assert.equal(displayPath("/wsx/AGENTS.md", "/ws"), "/wsx/AGENTS.md");
});

test("a harness in a picker: its full name, verified or documented, and whether it sends files here", () => {
  assert.equal(harnessLabel(harness("claude-code")), `Claude Code · verified · ${harness("claude-code").total.files} files`);
  assert.equal(harnessLabel(harness("opencode")), "opencode · verified · 2 files"); // never "opencode (opencode)"
  assert.equal(harnessLabel({ ...harness("codex"), title: "Gemini CLI", total: { files: 0, bytes: 0, tokens: 0 } }), "Gemini CLI · verified · no files");
  assert.equal(harnessLabel({ ...harness("codex"), verified: false }), "Codex CLI · documented · 1 file");
});

test("before the active file's cascade has come, a harness in the picker reads its name and verification from the registry", () => {
  assert.deepEqual(harnessFactsLabel("claude-code"), { label: "Claude Code · verified", detail: `verified against ${harness("claude-code").version}` });
  const cursor = harnessFactsLabel("cursor");
  assert.equal(cursor.label, "Cursor · documented");
  assert.match(cursor.detail, /^documented, not verified \(.+\)$/);
});

test("a harness that sends nothing says why: none of its files found, or some found and not loaded", () => {
  const none = { files: 0, bytes: 0, tokens: 0 };
  assert.equal(harnessTotal({ ...harness("codex"), total: none, eager: [], not_loaded: [], looks_for: ["GEMINI.md"] }), "0 files · no GEMINI.md found");
  assert.equal(harnessTotal({ ...harness("codex"), total: none, eager: [], not_loaded: [], looks_for: ["AGENTS.md", "CLAUDE.md", "CONTEXT.md"] }),
    "0 files · no AGENTS.md, CLAUDE.md or CONTEXT.md found");
  assert.equal(harnessTotal({ ...harness("opencode"), total: none, eager: [], on_read: [], looks_for: ["AGENTS.md"] }), "0 files · 1 not loaded");
  assert.equal(harnessTotal(harness("opencode")), sizeLabel(harness("opencode").total));
});
