import assert from "node:assert/strict";
import { test } from "node:test";
import { statusView } from "../../src/pure/status";
import { cascade } from "./fixtures";

test("the status text counts files and tokens the harness loads, eager and on read", () => {
  const view = statusView(cascade.harnesses[0], cascade.cwd);
  assert.equal(view.text, "$(book) 2 · 192 tok");
  assert.equal(view.tooltip.split("\n")[0], "**opencode** loads 2 instruction files for this file:");
  assert.match(view.tooltip, /- AGENTS\.md · ~145 tok\n- packages\/api\/AGENTS\.md · ~47 tok \(on read\)/);
});

test("thousands of tokens are abbreviated", () => {
  const big = { ...cascade.harnesses[1], eager: [{ path: "/ws/AGENTS.md", role: "project", bytes: 8400, tokens: 2100 }] };
  assert.equal(statusView(big, "/ws").text, "$(book) 1 · 2.1k tok");
});
