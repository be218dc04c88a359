import assert from "node:assert/strict";
import { test } from "node:test";
import { sizeLabel } from "../../src/pure/format";
import { cascadeBody, escape, page, promptBody, remindersBody } from "../../src/pure/html";
import { cascade, harness, prompt, reminders } from "./fixtures";

const options = cascade.harnesses.map((h) => ({ id: h.harness, title: h.title }));

test("the prompt view: harness list, the core's total, files with links, the text sent", () => {
  const html = promptBody({ file: reminders.read, cwd: cascade.cwd, entry: harness("opencode"), harnesses: options,
    layers: prompt.layers, reminders: reminders.reminders });
  assert.match(html, /<option value="opencode" selected>/);
  assert.match(html, new RegExp(`<p class="total" id="total">${sizeLabel(harness("opencode").total)}</p>`));
  assert.match(html, /data-open="\/ws\/AGENTS\.md" data-line="0"[^>]*>AGENTS\.md<\/a><\/td><td>at start<\/td>/);
  // A path may wrap after a slash (<wbr>), never inside a name.
  assert.match(html, /data-open="\/ws\/packages\/api\/AGENTS\.md"[^>]*>packages\/<wbr>api\/<wbr>AGENTS\.md<\/a><\/td><td>on read<\/td>/);
  assert.match(html, /<h2>Not loaded<\/h2>.*CLAUDE\.md<\/a> — the harness reads only one/);
  assert.match(html, /Instructions from: <a href="#" data-open="\/ws\/AGENTS\.md" data-line="0">\/ws\/AGENTS\.md<\/a>/);
  assert.match(html, /<h2>Added when the agent reads packages\/<wbr>api\/<wbr>src\/<wbr>server\.test\.ts<\/h2>/);
});

test("the cut file of Codex opens at its cut line", () => {
  const html = promptBody({ file: reminders.read, cwd: cascade.cwd, entry: harness("codex"), harnesses: options, layers: [], reminders: [] });
  const [cut] = harness("codex").eager;
  assert.match(html, new RegExp(`data-line="${cut.truncated_line}"`));
  assert.match(html, /500 B · ~125 tokens \(cut at byte 500 of 578\)/);
  assert.match(html, /Nothing is added\./);
});

test("instruction text is escaped: a file cannot inject markup into the view", () => {
  const hostile = [{ name: "instructions", placement: "system", text: `<script>alert(1)</script><img src=x onerror="y">` }];
  const html = promptBody({ file: reminders.read, cwd: cascade.cwd, entry: harness("opencode"), harnesses: options, layers: hostile, reminders: [] });
  assert.doesNotMatch(html, /<script>|<img/);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;&lt;img src=x onerror=&quot;y&quot;&gt;/);
  assert.equal(escape(`a&b"'`), "a&amp;b&quot;&#39;");
});

test("the reminders view lists what a read adds, with its total", () => {
  const html = remindersBody({ file: reminders.read, harnesses: options, result: reminders });
  assert.match(html, new RegExp(`id="total">${sizeLabel(reminders.total)}<`));
  assert.match(html, /<h2>Appended to the read<\/h2>/);
});

test("the compare view has one row per harness with its total, the chosen one marked", () => {
  const html = cascadeBody({ result: cascade, current: "codex" });
  for (const entry of cascade.harnesses) {
    assert.match(html, new RegExp(`<tr data-harness="${entry.harness}"[^>]*>.*?<div class="total">${sizeLabel(entry.total)}</div>`));
  }
  assert.match(html, /<tr data-harness="codex" class="current">/);
});

test("the compare view says what each harness does with an instruction file, escaped, as the hover does", () => {
  const uses = { file: "/ws/AGENTS.md", shadows: [],
    harnesses: [{ harness: "codex", sends: true, summary: "at start from the workspace root (cut at byte 500 of <578>)", uses: [] }] };
  const html = cascadeBody({ result: cascade, current: "codex", uses });
  assert.match(html, /<tr data-harness="codex"[^>]*>.*?<div class="this-file">This file: at start from the workspace root \(cut at byte 500 of &lt;578&gt;\)<\/div><\/th>/);
  assert.doesNotMatch(html, /<tr data-harness="opencode"[^>]*>.*?This file.*?<tr data-harness="codex"/);
});

test("the page allows the extension's script and style only", () => {
  const html = page({ title: "t", cspSource: "vscode-resource:", nonce: "abc", scriptUri: "s.js", styleUri: "s.css" }, "<p>x</p>");
  assert.match(html, /default-src 'none'; style-src vscode-resource:; script-src 'nonce-abc'/);
  assert.match(html, /<script nonce="abc" src="s.js"><\/script>/);
  assert.doesNotMatch(html, /unsafe-inline/);
});
