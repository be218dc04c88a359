// package.json is a contract: command ids and titles, menus, the tree view, activation, settings
// order, and the lists the code relies on.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { HARNESSES, INSTRUCTION_GLOBS, VIEW_COMMANDS } from "../../src/pure/protocol";

const root = path.join(__dirname, "..", "..");
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const categories: { id: string; title: string; properties: Record<string, object> }[] = manifest.contributes.configuration;
const properties = Object.assign({}, ...categories.map((c) => c.properties));

test("the palette commands keep their ids, with titles in the product's words (found by \"lsp-agents\", \"effective prompt\", \"reminders\")", () => {
  const titles = Object.fromEntries(
    manifest.contributes.commands.map((c: { command: string; category: string; title: string }) => [c.command, `${c.category}: ${c.title}`]),
  );
  assert.deepEqual(titles, {
    "lspAgents.showEffectivePrompt": "lsp-agents: Show Effective Prompt",
    "lspAgents.showFileReminders": "lsp-agents: Show File Reminders (What a Read Adds)",
    "lspAgents.showCascade": "lsp-agents: Compare Harnesses",
    "lspAgents.chooseHarness": "lsp-agents: Choose Harness",
    "lspAgents.showHarnessPrompt": "lsp-agents: Show Effective Prompt",
    "lspAgents.compareWith": "lsp-agents: Compare With…",
    "lspAgents.restartServer": "lsp-agents: Restart Server",
    "lspAgents.showOutput": "lsp-agents: Show Output",
  });
});

test("code lenses are rerouted to contributed view commands", () => {
  const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command);
  assert.deepEqual(Object.keys(VIEW_COMMANDS), ["lspAgents.effectivePrompt", "lspAgents.fileReminders", "lspAgents.cascade"]);
  for (const view of Object.values(VIEW_COMMANDS)) {
    assert.ok(contributed.includes(view), view);
  }
});

test("the Agent Instructions tree has a side bar of its own (the whole height, not a strip below the Explorer's files), with its actions", () => {
  assert.deepEqual(manifest.contributes.viewsContainers.activitybar, [{ id: "lspAgents", title: "lsp-agents", icon: "media/agents.svg" }]);
  assert.deepEqual(manifest.contributes.views, {
    lspAgents: [{ id: "lspAgents.instructions", name: "Agent Instructions", icon: "media/agents.svg", contextualTitle: "lsp-agents" }],
  });
  const inline = manifest.contributes.menus["view/item/context"];
  assert.deepEqual(inline.map((m: { command: string; when: string }) => [m.command, m.when]), [
    ["lspAgents.showHarnessPrompt", "view == lspAgents.instructions && viewItem == harness"],
  ]);
});

test("Compare Harnesses sits in the title bar of the prompt and reminders views, with a table icon", () => {
  const compare = manifest.contributes.commands.find((c: { command: string }) => c.command === "lspAgents.showCascade");
  assert.equal(compare.icon, "$(table)");
  assert.match(manifest.contributes.menus["editor/title"][0].when, /activeWebviewPanelId == 'lspAgents\.prompt'/);
});

test("activation covers every instruction file pattern and Markdown", () => {
  assert.deepEqual(manifest.activationEvents, [...INSTRUCTION_GLOBS.map((g) => `workspaceContains:${g}`), "onLanguage:markdown"]);
});

test("the harness list offers exactly the harnesses of lspAgents.defaultHarness", () => {
  assert.deepEqual(properties["lspAgents.defaultHarness"].enum, [...HARNESSES]);
});

test("the settings page starts with the harness settings and ends with how the server starts", () => {
  const ordered = Object.entries(properties as Record<string, { order?: number }>).sort(([, a], [, b]) => (a.order ?? 99) - (b.order ?? 99));
  assert.deepEqual(ordered.slice(0, 2).map(([key]) => key), ["lspAgents.defaultHarness", "lspAgents.harnesses"]);
  assert.ok(ordered.slice(-4).every(([key]) => key.startsWith("lspAgents.server.") || key === "lspAgents.trace.server"));
  for (const [key, value] of Object.entries(properties as Record<string, { order?: number; description?: string; markdownDescription?: string }>)) {
    assert.equal(typeof value.order, "number", `${key} has no order`);
    assert.ok(!(value.description ?? "").includes("`"), `${key}: a plain description shows backticks literally`);
  }
});

test("setting titles carry no \"Lsp Agents ›\": each key starts with its category's id, which VS Code trims", () => {
  assert.deepEqual(categories.map((c) => [c.id, c.title]), [["lspAgents", "Agents"], ["lspAgents.server", "Agents: Server"]]);
  for (const category of categories) {
    for (const key of Object.keys(category.properties)) {
      const group = key.slice(0, key.lastIndexOf("."));
      assert.ok(group === category.id || group.startsWith(`${category.id}.`) || (category.id === "lspAgents.server" && key === "lspAgents.trace.server"), key);
    }
  }
});

test("the bundle, the views' media and the bundled server are what vsce ships", () => {
  assert.equal(manifest.main, "./dist/extension.js");
  const ignore = readFileSync(path.join(root, ".vscodeignore"), "utf8");
  for (const kept of ["dist/extension.js", "media/**", "bundled/**"]) {
    assert.match(ignore, new RegExp(`^!${kept.replace(/[.*]/g, "\\$&")}$`, "m"));
  }
});
