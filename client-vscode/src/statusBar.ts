// "$(book) opencode · 2 files · ~192 tokens": what the chosen harness sends for the active file; a
// click opens that harness's prompt for that file.
import * as path from "node:path";
import * as vscode from "vscode";
import type { ActiveFile, ActiveState } from "./activeFile";
import type { HarnessChoice } from "./harness";
import { statusView } from "./pure/status";
import { homeDirectory } from "./settings";

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("lspAgents.status", vscode.StatusBarAlignment.Right, 100);
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    active: ActiveFile,
    private readonly choice: HarnessChoice,
  ) {
    this.item.name = "lsp-agents: what the harness sends";
    this.subscriptions = [active.onDidChange((state) => this.render(state)), choice.onDidChange(() => this.render(active.current))];
  }

  private render({ uri, result, error }: ActiveState): void {
    if (!uri) {
      this.item.hide();
      return;
    }
    const harness = this.choice.current(uri);
    const entry = result?.harnesses.find((h) => h.harness === harness);
    if (!result || !entry) {
      this.item.text = "$(book) ?";
      this.item.tooltip = `lsp-agents: ${error ?? "no answer yet"}`;
      this.item.accessibilityInformation = { label: `lsp-agents: ${error ?? "no answer yet"}` };
      this.item.command = "lspAgents.showOutput";
      this.item.show();
      return;
    }
    const view = statusView(entry, result.cwd, path.basename(uri.fsPath), homeDirectory(uri));
    this.item.text = view.text;
    this.item.tooltip = new vscode.MarkdownString(view.tooltip);
    this.item.accessibilityInformation = { label: view.label, role: "button" };
    this.item.command = { title: "Show Prompt", command: "lspAgents.showEffectivePrompt", arguments: [{ uri: uri.toString(), harness }] };
    this.item.show();
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.item.dispose();
  }
}
