import assert from "node:assert/strict";
import { test } from "node:test";
import { approxTokens, displayPath, fileLink, formatBytes, formatTokens } from "../../src/pure/format";

test("approxTokens rounds four bytes a token up, like the server", () => {
  assert.deepEqual([0, 1, 4, 5, 578].map(approxTokens), [0, 1, 1, 2, 145]);
});

test("formatTokens abbreviates thousands and millions", () => {
  assert.deepEqual([0, 950, 999, 1000, 2140, 9960, 12_400, 999_499, 1_250_000].map(formatTokens), [
    "0", "950", "999", "1k", "2.1k", "10k", "12k", "999k", "1.3M",
  ]);
});

test("formatBytes uses B, KiB and MiB", () => {
  assert.deepEqual([578, 1024, 2048, 3_500_000].map(formatBytes), ["578 B", "1.0 KiB", "2.0 KiB", "3.3 MiB"]);
});

test("displayPath is relative inside the launch directory, ~ under home, absolute elsewhere", () => {
  assert.equal(displayPath("/ws/packages/api/AGENTS.md", "/ws"), "packages/api/AGENTS.md");
  assert.equal(displayPath("/home/u/.codex/AGENTS.md", "/ws", "/home/u"), "~/.codex/AGENTS.md");
  assert.equal(displayPath("/etc/AGENTS.md", "/ws", "/home/u"), "/etc/AGENTS.md");
  assert.equal(displayPath("/wsx/AGENTS.md", "/ws"), "/wsx/AGENTS.md");
});

test("fileLink percent-encodes path segments and keeps Windows drive letters", () => {
  assert.equal(fileLink("/ws/my docs/AGENTS.md"), "file:///ws/my%20docs/AGENTS.md");
  assert.equal(fileLink("C:\\ws\\CLAUDE.md"), "file:///C:/ws/CLAUDE.md");
});
