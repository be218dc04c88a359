// Runs inside a real VS Code extension host (code-server) with examples/monorepo open and the
// server installed for lspAgents.server.python (importStrategy fromEnvironment); expectations come
// from the CLI of that interpreter.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import * as vscode from "vscode";

/** What the view commands return (src/views.ts). */
interface ShownView {
  kind: string;
  uri: string;
  harness?: string;
}

/** The webview tab of `viewType` titled `label`, if open. */
function webviewTab(viewType: string, label: string): vscode.Tab | undefined {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .find((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith(viewType) && tab.label === label);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) {
      return value;
    }
    if (Date.now() > end) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(100);
  }
}

suite("lsp-agents in a real VS Code extension host", () => {
  const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
  const source = vscode.Uri.file(path.join(root, "packages/api/src/server.test.ts"));
  const config = vscode.workspace.getConfiguration("lspAgents");
  const cli = (...args: string[]) =>
    JSON.parse(execFileSync(config.get<string>("server.python")!, ["-m", "lsp_agents", ...args, "--format", "json", "--home", config.get<string>("home")!], { encoding: "utf8" }));

  suiteSetup(async () => {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(source));
    const extension = vscode.extensions.getExtension("lsp-agents.lsp-agents");
    await until("the extension to activate", () => extension?.isActive);
  });

  test("every contract command is registered", async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const id of ["showEffectivePrompt", "showFileReminders", "showCascade", "chooseHarness", "restartServer", "showOutput"]) {
      assert.ok(commands.includes(`lspAgents.${id}`), `lspAgents.${id} is missing`);
    }
  });

  test("the server's effectivePrompt answers exactly what the CLI prints", async () => {
    const args = { uri: source.toString(), harness: "opencode" };
    const fromServer = await until("the server", () => vscode.commands.executeCommand("lspAgents.effectivePrompt", args).then((r) => r, () => undefined));
    assert.deepEqual(fromServer, cli("prompt", "--harness", "opencode", "--cwd", root));
  });

  test("Show Prompt opens the rendered view of the file and harness asked", async () => {
    const shown = await vscode.commands.executeCommand<ShownView>("lspAgents.showEffectivePrompt", { uri: source.toString(), harness: "codex" });
    assert.deepEqual(shown, { kind: "prompt", uri: source.toString(), harness: "codex" });
    assert.ok(await until("the prompt tab", () => webviewTab("lspAgents.prompt", "Prompt · codex · server.test.ts")));
  });

  test("Compare Harnesses and Show What a Read Adds open their views of the same file", async () => {
    const cascade = await vscode.commands.executeCommand<ShownView>("lspAgents.showCascade", { uri: source.toString() });
    assert.deepEqual(cascade, { kind: "cascade", uri: source.toString(), harness: undefined });
    assert.ok(await until("the compare tab", () => webviewTab("lspAgents.cascade", "Compare harnesses · server.test.ts")));
    const reminders = await vscode.commands.executeCommand<ShownView>("lspAgents.showFileReminders", { uri: source.toString(), harness: "claude-code" });
    assert.deepEqual(reminders, { kind: "reminders", uri: source.toString(), harness: "claude-code" });
    assert.ok(await until("the reminders tab", () => webviewTab("lspAgents.reminders", "On read · claude-code · server.test.ts")));
  });

  test("a code lens of an instruction file opens the prompt view", async () => {
    const agents = vscode.Uri.file(path.join(root, "AGENTS.md"));
    await vscode.workspace.openTextDocument(agents); // the lens provider needs the document loaded
    const lenses = await until("code lenses", async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", agents);
      return found.some((lens) => lens.command?.arguments?.length) ? found : undefined;
    });
    const lens = lenses.find((l) => l.command?.command === "lspAgents.showEffectivePrompt");
    assert.ok(lens?.command, lenses.map((l) => `${l.command?.title} → ${l.command?.command}`).join("\n"));
    const shown = await vscode.commands.executeCommand<ShownView>(lens.command.command, ...(lens.command.arguments ?? []));
    assert.equal(shown?.kind, "prompt");
  });

  test("hovering the first line of a source file shows its instructions", async () => {
    const hovers = await until("a hover", async () => {
      const result = await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", source, new vscode.Position(0, 1));
      return result.length ? result : undefined;
    });
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === "string" ? c : c.value))).join("\n");
    assert.match(text, /AGENTS\.md/);
  });

  test("the planted duplicate in packages/web/AGENTS.md is a diagnostic", async () => {
    const web = vscode.Uri.file(path.join(root, "packages/web/AGENTS.md"));
    const document = await vscode.workspace.openTextDocument(web);
    const line = document.getText().split("\n").findIndex((text) => text.includes("Keep functions small"));
    const diagnostics = await until("lsp-agents diagnostics", () => {
      const found = vscode.languages.getDiagnostics(web).filter((d) => d.source === "lsp-agents");
      return found.length ? found : undefined;
    });
    assert.ok(line > 0);
    assert.ok(
      diagnostics.some((d) => d.range.start.line === line && d.tags?.includes(vscode.DiagnosticTag.Unnecessary)),
      diagnostics.map((d) => `${d.range.start.line}: ${d.message}`).join("\n"),
    );
  });
});
