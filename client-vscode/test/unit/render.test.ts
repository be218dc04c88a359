import assert from "node:assert/strict";
import { test } from "node:test";
import { fenced, renderCascade, renderPrompt, renderReminders } from "../../src/pure/render";
import { cascade, prompt, reminders } from "./fixtures";

/** The link texts of the file table's numbered rows, in order. */
function tableFiles(markdown: string): string[] {
  return Array.from(markdown.matchAll(/^\| \d+ \| \[([^\]]+)\]/gm), (m) => m[1]);
}

test("the prompt lists eager files, then what reading the file adds, with links, bytes and tokens", () => {
  const markdown = renderPrompt(prompt, reminders);
  assert.deepEqual(tableFiles(markdown), ["AGENTS.md", "packages/api/AGENTS.md"]);
  assert.match(markdown, /^# Effective prompt · opencode$/m);
  assert.match(markdown, /\| 1 \| \[AGENTS\.md\]\[1\] \| session start \| project \| 578 B \| 145 \|/);
  assert.match(markdown, /^\[1\]: file:\/\/\/ws\/AGENTS\.md\n\[2\]: file:\/\/\/ws\/packages\/api\/AGENTS\.md\n\[3\]: file:\/\/\/ws\/CLAUDE\.md\n$/m);
  assert.match(markdown, /\| on read of server\.test\.ts \| project \| 185 B \| 47 \|/);
  assert.match(markdown, /\*\*Total: 2 files\*\* \| \| \| \*\*763 B\*\* \| \*\*~191\*\*/);
});

test("the prompt says what is not loaded and why, naming the winner", () => {
  const markdown = renderPrompt(prompt, reminders);
  assert.match(markdown, /^- \[CLAUDE\.md\]\[3\] — family-shadowed: an earlier file name of the same family won \(\[AGENTS\.md\]\[1\]\)$/m);
});

test("every layer is labelled and fenced so instruction text cannot break out", () => {
  const markdown = renderPrompt(prompt, reminders);
  assert.deepEqual(Array.from(markdown.matchAll(/^### (.+)$/gm), (m) => m[1]), [
    "Layer 1 · base",
    "Layer 2 · environment",
    "Layer 3 · instructions",
    "Reminder 1 · tool-result",
  ]);
  assert.match(markdown, /````text\nInstructions from: \/ws\/AGENTS\.md\n# Acme monorepo\n```sh\npnpm test\n```\n````/);
});

test("fenced picks a fence longer than any backtick run", () => {
  assert.equal(fenced("plain\n"), "```text\nplain\n```");
  assert.equal(fenced("a ````` b"), "``````text\na ````` b\n``````");
});

test("the reminders view shows what a read appends, or says nothing is added", () => {
  const markdown = renderReminders(reminders);
  assert.deepEqual(tableFiles(markdown), ["packages/api/AGENTS.md"]);
  assert.match(markdown, /## Appended to the read\n\n### Reminder 1 · tool-result/);
  const empty = renderReminders({ ...reminders, reminders: [], files: [] });
  assert.match(empty, /_No instruction file is loaded\._/);
  assert.match(empty, /_Nothing is added\._/);
});

test("the cascade puts harnesses side by side with order, skips and totals", () => {
  const markdown = renderCascade(cascade);
  assert.match(markdown, /^\| Instruction file \| opencode \| claude-code ⚠ \|$/m);
  assert.match(markdown, /^\| \[AGENTS\.md\]\[1\] \| 1\. start \| 2\. start \|$/m);
  assert.match(markdown, /^\| \[packages\/api\/AGENTS\.md\]\[2\] \| 2\. on read \| {2}\|$/m);
  assert.match(markdown, /^\| \[CLAUDE\.md\]\[3\] \| ✗ family-shadowed \| 1\. start \|$/m);
  assert.match(markdown, /^\| \*\*Loaded\*\* \| \*\*2 · ~192 tok\*\* \| \*\*2 · ~185 tok\*\* \|$/m);
  assert.match(markdown, /⚠ model not yet verified/);
});
