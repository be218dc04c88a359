import assert from "node:assert/strict";
import { test } from "node:test";
import { sizeLabel } from "../../src/pure/format";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { DiffAnswer } from "../../src/pure/diff";
import { instructionTree, sinceHeadNode } from "../../src/pure/tree";
import { cascade, harness } from "./fixtures";

test("every harness, the chosen one first and open, each with the core's total", () => {
  const roots = instructionTree(cascade, "codex", "/home/u");
  assert.deepEqual(roots.map((r) => r.label), ["codex", "opencode", "claude-code"]);
  assert.deepEqual(roots.map((r) => r.expanded), [true, false, false]);
  assert.equal(roots[0].icon, "star-full");
  for (const root of roots) {
    assert.equal(root.description, sizeLabel(harness(root.label).total));
    assert.equal(root.harness, root.label);
  }
});

test("files sent, grouped as at start and on read, open at the right line; not loaded says why", () => {
  const opencode = instructionTree(cascade, "opencode")[0];
  assert.deepEqual(opencode.children.map((g) => [g.label, g.description]), [["At start", "1 file"], ["On read", "1 file"], ["Not loaded", "1 file"]]);
  const [start, read, skipped] = opencode.children;
  assert.deepEqual(start.children.map((f) => [f.label, f.description, f.open]), [["AGENTS.md", "578 B · ~145 tokens", { path: "/ws/AGENTS.md", line: 0 }]]);
  assert.equal(read.children[0].label, "packages/api/AGENTS.md");
  assert.equal(skipped.children[0].label, "CLAUDE.md");
  assert.equal(skipped.children[0].description, `${harness("opencode").not_loaded[0].explanation} (AGENTS.md)`);
  const codexFile = instructionTree(cascade, "codex")[0].children[0].children[0];
  assert.equal(codexFile.open?.line, harness("codex").eager[0].truncated_line);
  assert.equal(codexFile.icon, "warning");
});

test("an instruction file: each harness that weighs it says first what it does with the file, in the hover's words", () => {
  const uses = {
    file: "/ws/AGENTS.md",
    harnesses: [
      { harness: "codex", sends: true, summary: "at start from the workspace root (cut at byte 500 of 578)", uses: [] },
      { harness: "claude-code", sends: false, summary: "not loaded from the workspace root: a CLAUDE.md … (CLAUDE.md)", uses: [] },
    ],
    shadows: [],
  };
  const roots = instructionTree(cascade, "codex", "/home/u", uses);
  const first = (label: string) => roots.find((r) => r.label === label)?.children[0];
  assert.deepEqual([first("codex")?.label, first("codex")?.description, first("codex")?.icon],
    ["This file", "at start from the workspace root (cut at byte 500 of 578)", "file"]);
  assert.deepEqual([first("claude-code")?.label, first("claude-code")?.icon], ["This file", "circle-slash"]);
  assert.equal(first("opencode")?.label, "At start"); // opencode does not weigh it: no such row
});

test("\"Changed since HEAD\" when the uncommitted change alters a prompt from the launch directory, else no node (test/unit/diff.test.ts says how the fixture was made)", () => {
  const answer: DiffAnswer = JSON.parse(readFileSync(path.join(__dirname, "fixtures", "diff.json"), "utf8"));
  const node = sinceHeadNode(answer, "/ws/pkg");
  assert.deepEqual([node?.label, node?.description, node?.compare, node?.icon],
    ["Changed since HEAD", "opencode, codex, claude-code: 9 files · 2 findings introduced", "HEAD", "git-compare"]);
  assert.match(node?.tooltip ?? "", /^HEAD \(8c48ddf\) → work tree: 7 prompts change/);
  const calm = { ...answer, findings: { introduced: [], resolved: [] } };
  assert.equal(sinceHeadNode(calm, "/ws/docs"), undefined);
  assert.equal(sinceHeadNode({ ...calm, changes: [] }, "/ws"), undefined);
  assert.equal(sinceHeadNode(calm, "/ws")?.description, "opencode, codex, claude-code, cursor: 9 files");
});
