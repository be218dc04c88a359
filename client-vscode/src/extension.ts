// Wiring only: the output channel, the server, the views, the status bar, commands and listeners.
import * as vscode from "vscode";
import { watchInstructionFiles } from "./instructionChanges";
import { PromptDocuments, type ShowArgument } from "./promptDocument";
import { coalesce } from "./pure/coalesce";
import { SCHEME, parseViewQuery } from "./pure/docUri";
import { onDidChangeInterpreter } from "./python";
import { ServerManager } from "./server";
import { launchSettings, needsRestart, SECTION } from "./settings";
import { StatusBar } from "./statusBar";

/** Lets the server settle a burst of changes (a save, a settings edit) before views re-query it. */
const REFRESH_DELAY_MS = 300;

let server: ServerManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const log = vscode.window.createOutputChannel("lsp-agents", { log: true });
  server = new ServerManager(String(context.extension.packageJSON.version), log);
  const manager = server;
  const views = new PromptDocuments(manager, context.workspaceState);
  const status = new StatusBar(manager);
  const refresh = coalesce(async () => {
    views.refreshAll();
    await status.update();
  }, REFRESH_DELAY_MS);
  const command = vscode.commands.registerCommand;
  context.subscriptions.push(
    log,
    manager,
    views,
    status,
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, views),
    command("lspAgents.showEffectivePrompt", (arg?: ShowArgument) => views.show("prompt", arg)),
    command("lspAgents.showFileReminders", (arg?: ShowArgument) => views.show("reminders", arg)),
    command("lspAgents.showCascade", (arg?: ShowArgument) => views.show("cascade", arg)),
    command("lspAgents.compareHarnesses", (uri?: vscode.Uri) => {
      const request = uri && parseViewQuery(uri.query);
      return views.show("cascade", request ? vscode.Uri.parse(request.target) : undefined);
    }),
    command("lspAgents.restartServer", () => manager.restart()),
    command("lspAgents.showOutput", () => log.show()),
    ...watchInstructionFiles(() => void refresh()),
    vscode.window.onDidChangeActiveTextEditor(() => void status.update()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (needsRestart(event)) {
        void manager.restart();
      } else if (event.affectsConfiguration(SECTION)) {
        void refresh();
      }
    }),
    manager.onDidStart(() => void refresh()),
  );
  const interpreterWatch = await onDidChangeInterpreter(() => {
    const settings = launchSettings();
    if (settings.command.length === 0 && !settings.python) {
      void manager.restart();
    }
  });
  if (interpreterWatch) {
    context.subscriptions.push(interpreterWatch);
  }
  void manager.restart();
}

export async function deactivate(): Promise<void> {
  await server?.stop();
}
