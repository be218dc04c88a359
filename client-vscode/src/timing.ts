// Logs how long the first diagnostics took after activation: the figure the start-up goal is about.
import * as vscode from "vscode";
import { SOURCE } from "./pure/protocol";

export function logFirstDiagnostics(activatedAt: number, log: vscode.LogOutputChannel): vscode.Disposable {
  const listener = vscode.languages.onDidChangeDiagnostics((event) => {
    const first = event.uris.find((uri) => vscode.languages.getDiagnostics(uri).some((d) => d.source === SOURCE));
    if (first) {
      log.info(`First diagnostics ${Math.round(Date.now() - activatedAt)} ms after activation (${vscode.workspace.asRelativePath(first)})`);
      listener.dispose();
    }
  });
  return listener;
}
