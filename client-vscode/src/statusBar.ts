// "$(book) 3 · 2.1k tok": what the default harness loads for the active file.
import * as vscode from "vscode";
import { SERVER_COMMANDS, type CascadeResult } from "./pure/protocol";
import { statusView } from "./pure/status";
import type { ServerManager } from "./server";
import { defaultHarness, homeDirectory } from "./settings";

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("lspAgents.status", vscode.StatusBarAlignment.Right, 100);
  private generation = 0;

  constructor(private readonly server: ServerManager) {
    this.item.name = "Agents: instruction files";
    this.item.command = "lspAgents.showEffectivePrompt";
  }

  /** Recomputes for the active editor; hidden for files outside every workspace folder. */
  async update(): Promise<void> {
    const generation = ++this.generation;
    const uri = vscode.window.activeTextEditor?.document.uri;
    if (!uri || uri.scheme !== "file" || !vscode.workspace.getWorkspaceFolder(uri)) {
      this.item.hide();
      return;
    }
    const harness = defaultHarness(uri);
    try {
      const result = await this.server.execute<CascadeResult>(SERVER_COMMANDS.cascade, { uri: uri.toString(), harness });
      const entry = result.harnesses.find((h) => h.harness === harness) ?? result.harnesses[0];
      if (generation !== this.generation) {
        return;
      }
      if (!entry) {
        this.item.hide();
        return;
      }
      const view = statusView(entry, result.cwd, homeDirectory(uri));
      this.item.text = view.text;
      this.item.tooltip = new vscode.MarkdownString(view.tooltip);
      this.item.show();
    } catch (error) {
      if (generation === this.generation) {
        this.item.text = "$(book) ?";
        this.item.tooltip = `lsp-agents: ${error instanceof Error ? error.message : String(error)}`;
        this.item.show();
      }
    }
  }

  dispose(): void {
    this.item.dispose();
  }
}
