// The comparison view says what `lsp-agents diff --format markdown` says, from the same JSON. The
// fixture is the CLI's answer (root shortened to /ws) for a change that grows AGENTS.md past Codex's
// 200-byte budget (home's config), removes CLAUDE.md, adds pkg/AGENTS.md and a manual Cursor rule:
//   lsp-agents diff HEAD --format json --harness opencode --harness codex --harness claude-code --harness cursor --enable all
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { changedHere, changeRows, diffBody, revisionItems, summaryLine, typedRevision, type DiffAnswer } from "../../src/pure/diff";

const answer: DiffAnswer = JSON.parse(readFileSync(path.join(__dirname, "fixtures", "diff.json"), "utf8"));
const change = (harness: string, directory: string) => {
  const found = answer.changes.find((c) => c.harness === harness && c.launch_directories.includes(directory));
  assert.ok(found, `${harness} from ${directory}`);
  return found;
};
const text = (html: string) => html.replace(/<wbr>/g, "").replace(/<[^>]+>/g, "");

test("the summary line is the CLI's, word for word", () => {
  assert.equal(summaryLine(answer), "HEAD (8c48ddf) → work tree: 7 prompts change (opencode, codex, claude-code, cursor); 2 findings introduced, 0 resolved");
  const quiet = { ...answer, summary: { prompts_changed: 0, harnesses_changed: [], findings_introduced: 1, findings_resolved: 2 } };
  assert.equal(summaryLine(quiet), "HEAD (8c48ddf) → work tree: no prompt changes; 1 finding introduced, 2 resolved");
});

test("a row per file whose standing changes, in the Markdown's words", () => {
  assert.deepEqual(changeRows(change("codex", ".")).map(([symbol, file, sent, note]) => [symbol, file, sent, text(note)]), [
    ["~", "AGENTS.md", "45 B (~12 tokens) → 200 B (~50 tokens)", "whole → cut at line 8 in ## Style; no longer sent: ## Release"],
  ]);
  assert.deepEqual(changeRows(change("claude-code", "pkg")).map(([symbol, file, sent, note]) => [symbol, file, sent, text(note)]), [
    ["+", "AGENTS.md", "246 B (~62 tokens)", ""],
    ["+", "pkg/AGENTS.md", "4 B (~1 tokens)", ""],
    ["-", "CLAUDE.md", "25 B (~7 tokens)", "now not considered"],
    ["·", "team", "not sent", "not considered → unreachable (import-not-approved) by AGENTS.md"],
  ]);
  assert.deepEqual(changeRows(change("cursor", ".")).map(([symbol, file, , note]) => [symbol, file, text(note)]).at(-1),
    ["·", ".cursor/rules/release.mdc", "not considered → on-demand (manual)"]);
});

test("the view: the summary first, the findings, then a section per harness, every workspace name escaped", () => {
  const html = diffBody(answer);
  assert.match(html, /<p class="total" id="summary">HEAD \(8c48ddf\) → work tree: 7 prompts change/);
  assert.ok(html.indexOf('id="summary"') < html.indexOf("Findings: 2 introduced, 0 resolved"));
  const sections = [...html.matchAll(/<details open class="harness" data-harness="([^"]+)"><summary><b>[^<]+<\/b>: (\d+) launch director/g)];
  assert.deepEqual(sections.map((m) => [m[1], m[2]]), [["opencode", "2"], ["codex", "2"], ["claude-code", "2"], ["cursor", "1"]]);
  assert.match(text(html), /Launched from the workspace root: 1 file, 45 B \(~12 tokens\) → 1 file, 200 B \(~50 tokens\)/);
  assert.match(text(html), /new: warning truncated AGENTS\.md:8: Codex stops sending this file here/);
  const hostile = structuredClone(answer);
  hostile.changes[0].added.push({ path: "<img src=x onerror=alert(1)>.md", bytes: 1, tokens: 1, cut: null });
  hostile.base.name = "<script>";
  assert.ok(!/<img|<script>/.test(diffBody(hostile)));
  assert.match(diffBody({ ...answer, changes: [] }), /No harness's prompt changes\./);
});

test("the tree's node: the harnesses whose prompt changes from the launch directory, and the findings introduced", () => {
  assert.deepEqual(changedHere(answer, "pkg"), { harnesses: ["opencode", "codex", "claude-code"], rows: 9, findings: 2 });
  assert.deepEqual(changedHere(answer, "."), { harnesses: ["opencode", "codex", "claude-code", "cursor"], rows: 9, findings: 2 });
  const calm = { ...answer, findings: { introduced: [], resolved: answer.findings.resolved } };
  assert.equal(changedHere(calm, "docs"), null);
  assert.deepEqual(changedHere(answer, "docs"), { harnesses: [], rows: 0, findings: 2 });
});

test("the picker offers each revision with its kind and subject; a typed name starting with - is refused", () => {
  assert.deepEqual(revisionItems([{ name: "HEAD~1", kind: "commit", subject: "the example" }, { name: "v1", kind: "tag", subject: "" }]), [
    { label: "HEAD~1", description: "commit", detail: "the example" },
    { label: "v1", description: "tag", detail: undefined },
  ]);
  assert.deepEqual(typedRevision("  main "), { name: "main" });
  assert.ok("problem" in typedRevision("--output=/tmp/x"));
  assert.ok("problem" in typedRevision("   "));
});
