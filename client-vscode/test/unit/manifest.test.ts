// package.json is a contract: command ids and titles, activation, and the lists the code relies on.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { HARNESSES, INSTRUCTION_GLOBS, VIEW_COMMANDS } from "../../src/pure/protocol";

const manifest = JSON.parse(readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));
const properties = manifest.contributes.configuration.properties;

test("the palette commands keep their ids and titles", () => {
  const titles = Object.fromEntries(
    manifest.contributes.commands.map((c: { command: string; category: string; title: string }) => [c.command, `${c.category}: ${c.title}`]),
  );
  assert.deepEqual(
    {
      "lspAgents.showEffectivePrompt": "Agents: Show Effective Prompt",
      "lspAgents.showFileReminders": "Agents: Show File Reminders",
      "lspAgents.showCascade": "Agents: Show Instruction Cascade",
      "lspAgents.restartServer": "Agents: Restart Server",
      "lspAgents.showOutput": "Agents: Show Output",
    },
    Object.fromEntries(Object.entries(titles).filter(([id]) => id !== "lspAgents.compareHarnesses")),
  );
});

test("code lenses are rerouted to contributed view commands", () => {
  const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command);
  assert.deepEqual(Object.keys(VIEW_COMMANDS), ["lspAgents.effectivePrompt", "lspAgents.fileReminders", "lspAgents.cascade"]);
  for (const view of Object.values(VIEW_COMMANDS)) {
    assert.ok(contributed.includes(view), view);
  }
});

test("activation covers every instruction file pattern and Markdown", () => {
  assert.deepEqual(manifest.activationEvents, [...INSTRUCTION_GLOBS.map((g) => `workspaceContains:${g}`), "onLanguage:markdown"]);
});

test("the harness quick pick offers exactly the harnesses of lspAgents.defaultHarness", () => {
  assert.deepEqual(properties["lspAgents.defaultHarness"].enum, [...HARNESSES]);
});

test("the Compare harnesses action sits in the title bar of the lsp-agents views only", () => {
  assert.deepEqual(manifest.contributes.menus["editor/title"], [
    { command: "lspAgents.compareHarnesses", when: "resourceScheme == lsp-agents", group: "navigation" },
  ]);
});

test("the bundle is what the manifest starts and vsce ships", () => {
  assert.equal(manifest.main, "./dist/extension.js");
  assert.match(readFileSync(path.join(__dirname, "..", "..", ".vscodeignore"), "utf8"), /^!dist\/extension\.js$/m);
});
