// "$(book) opencode · 2 files · ~192 tokens": what the chosen harness sends for the active file; a
// click opens that harness's prompt for that file.
import * as path from "node:path";
import * as vscode from "vscode";
import type { ActiveFile, ActiveState } from "./activeFile";
import type { HarnessChoice } from "./harness";
import { failedView, pendingView, statusView, type StatusView } from "./pure/status";
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

  private render({ uri, result, pending, error }: ActiveState): void {
    if (!uri) {
      this.item.hide();
      return;
    }
    const harness = this.choice.current(uri);
    const entry = result?.harnesses.find((h) => h.harness === harness);
    const fileName = path.basename(uri.fsPath);
    if (result && entry) {
      this.show(statusView(entry, result.cwd, fileName, homeDirectory(uri)),
        { title: "Show Effective Prompt", command: "lspAgents.showEffectivePrompt", arguments: [{ uri: uri.toString(), harness }] });
    } else if (pending) {
      this.show(pendingView(harness, fileName), "lspAgents.showOutput");
    } else {
      this.show(failedView(error ?? `the server does not know the harness ${harness}`), "lspAgents.showOutput");
    }
  }

  private show(view: StatusView, command: string | vscode.Command): void {
    this.item.text = view.text;
    this.item.tooltip = new vscode.MarkdownString(view.tooltip);
    this.item.accessibilityInformation = { label: view.label, role: "button" };
    this.item.command = command;
    this.item.show();
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.item.dispose();
  }
}
