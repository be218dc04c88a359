// The read-only `lsp-agents:` Markdown views (effective prompt, file reminders, cascade).
import * as vscode from "vscode";
import { SCHEME, parseViewQuery, viewUriParts, type ViewKind, type ViewRequest } from "./pure/docUri";
import { SERVER_COMMANDS, isHarness, type CascadeResult, type Harness, type PromptResult, type RemindersResult } from "./pure/protocol";
import { renderCascade, renderPrompt, renderReminders } from "./pure/render";
import { pickHarness } from "./harnessPick";
import type { ServerManager } from "./server";
import { homeDirectory } from "./settings";

/** What a command may be given: a file URI, or `{uri, harness}` (e.g. from a code lens). */
export type ShowArgument = vscode.Uri | { uri?: string | vscode.Uri; harness?: string } | undefined;

export class PromptDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly server: ServerManager,
    private readonly state: vscode.Memento,
  ) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const request = parseViewQuery(uri.query);
    if (!request) {
      return `# lsp-agents\n\nUnknown view: \`${uri.toString()}\`\n`;
    }
    try {
      return await this.render(request);
    } catch (error) {
      return `# lsp-agents\n\nThis view could not be computed: ${error instanceof Error ? error.message : String(error)}\n`;
    }
  }

  private async render({ kind, target, harness }: ViewRequest): Promise<string> {
    const home = homeDirectory(vscode.Uri.parse(target));
    if (kind === "cascade") {
      return renderCascade(await this.server.execute<CascadeResult>(SERVER_COMMANDS.cascade, { uri: target, harness: "all" }), home);
    }
    const reminders = this.server.execute<RemindersResult>(SERVER_COMMANDS.fileReminders, { uri: target, harness });
    if (kind === "reminders") {
      return renderReminders(await reminders, home);
    }
    const prompt = this.server.execute<PromptResult>(SERVER_COMMANDS.effectivePrompt, { uri: target, harness, layers: "all" });
    return renderPrompt(await prompt, await reminders, home);
  }

  /** Recomputes every open view (instruction files or settings changed, server restarted). */
  refreshAll(): void {
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === SCHEME) {
        this.changed.fire(document.uri);
      }
    }
  }

  /** Opens a view for the given or the active file; returns its URI (undefined when cancelled). */
  async show(kind: ViewKind, argument?: ShowArgument): Promise<vscode.Uri | undefined> {
    const given = argument instanceof vscode.Uri ? { uri: argument } : (argument ?? {});
    const target = given.uri ? vscode.Uri.parse(given.uri.toString()) : this.activeTarget();
    if (!target) {
      void vscode.window.showWarningMessage("Agents: open a file first; the view is computed for the active file.");
      return undefined;
    }
    const harness = kind === "cascade" ? undefined : await this.harnessFor(given.harness, target);
    if (kind !== "cascade" && !harness) {
      return undefined;
    }
    const uri = vscode.Uri.from({ scheme: SCHEME, ...viewUriParts({ kind, target: target.toString(), harness }) });
    const document = await vscode.workspace.openTextDocument(uri);
    const beside = vscode.window.activeTextEditor?.document.uri.scheme !== SCHEME;
    await vscode.window.showTextDocument(document, { preview: false, viewColumn: beside ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active });
    return uri;
  }

  private async harnessFor(given: string | undefined, target: vscode.Uri): Promise<Harness | undefined> {
    if (isHarness(given)) {
      return given;
    }
    return pickHarness(this.state, target);
  }

  /** The active file, or the file an active `lsp-agents:` view is about. */
  private activeTarget(): vscode.Uri | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    if (uri?.scheme === SCHEME) {
      const request = parseViewQuery(uri.query);
      return request ? vscode.Uri.parse(request.target) : undefined;
    }
    return uri;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
