// Wiring only: the output channel, the server, the active file's cascade, the status bar, the tree,
// the views, commands and listeners.
import * as vscode from "vscode";
import { ActiveFile } from "./activeFile";
import { CompareWith, type CompareArgument } from "./compare";
import { HarnessChoice } from "./harness";
import { watchInstructionFiles } from "./instructionChanges";
import { coalesce } from "./pure/coalesce";
import { onDidChangeInterpreter } from "./python";
import { ServerManager } from "./server";
import { SinceHead } from "./sinceHead";
import { launchSettings, needsRestart, SECTION } from "./settings";
import { StatusBar } from "./statusBar";
import { logFirstDiagnostics } from "./timing";
import { InstructionTree } from "./tree";
import { ViewPanels, type ShowArgument } from "./views";

/** Lets the server settle a burst of changes (a save, a settings edit) before the views ask again. */
const REFRESH_DELAY_MS = 300;

let server: ServerManager | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const activatedAt = Date.now();
  const log = vscode.window.createOutputChannel("lsp-agents", { log: true });
  const place = {
    extensionPath: context.extensionPath,
    extensionVersion: String(context.extension.packageJSON.version),
    storagePath: context.globalStorageUri.fsPath,
    log,
  };
  server = new ServerManager(place, activatedAt);
  const manager = server;
  const choice = new HarnessChoice(context.workspaceState);
  const active = new ActiveFile(manager);
  const sinceHead = new SinceHead(manager);
  const views = new ViewPanels(manager, choice, vscode.Uri.joinPath(context.extensionUri, "media"));
  // An instruction file or a setting changed (the server restarted): "Changed since HEAD" is asked again too.
  const refresh = coalesce(async () => {
    sinceHead.invalidate();
    views.refreshAll();
    await active.refresh();
  }, REFRESH_DELAY_MS);
  // After an analysis the server answers at once: what it missed is asked again (views that
  // rendered fine are left as they are, which keeps their scroll position while typing).
  const afterAnalysis = coalesce(async () => {
    views.refreshFailed();
    await active.refresh();
  }, REFRESH_DELAY_MS);
  const compare = new CompareWith(manager, vscode.Uri.joinPath(context.extensionUri, "media"));
  const command = vscode.commands.registerCommand;
  const showPrompt = (argument?: ShowArgument) => views.show("prompt", argument);
  context.subscriptions.push(
    log,
    manager,
    choice,
    active,
    views,
    compare,
    new StatusBar(active, choice),
    sinceHead,
    new InstructionTree(active, choice, sinceHead),
    logFirstDiagnostics(activatedAt, log),
    command("lspAgents.showEffectivePrompt", showPrompt),
    command("lspAgents.showFileReminders", (argument?: ShowArgument) => views.show("reminders", argument)),
    command("lspAgents.showCascade", (argument?: ShowArgument) => views.show("cascade", argument)),
    command("lspAgents.chooseHarness", async () => {
      if (!active.current.result) {
        await active.refresh(); // the picker names each harness's files here
      }
      return choice.pick(active.current.result);
    }),
    command("lspAgents.showHarnessPrompt", (node: unknown) =>
      showPrompt({ uri: active.current.uri, harness: InstructionTree.harnessOf(node) })),
    command("lspAgents.compareWith", (argument?: CompareArgument) => compare.run(argument)),
    command("lspAgents.restartServer", () => manager.restart()),
    command("lspAgents.showOutput", () => log.show()),
    ...watchInstructionFiles(() => void refresh()),
    vscode.window.onDidChangeActiveTextEditor(() => void active.refresh()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (needsRestart(event)) {
        void manager.restart();
      } else if (event.affectsConfiguration(SECTION)) {
        void manager.settingsChanged().then(() => refresh());
      }
    }),
    manager.onDidStart(() => void refresh()),
    manager.onDidCompleteAnalysis(() => void afterAnalysis()),
    // Trusted now: the workspace's own server settings and the Python extension's interpreter count.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void manager.restart()),
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
  void manager.start();
}

export async function deactivate(): Promise<void> {
  await server?.stop();
}
