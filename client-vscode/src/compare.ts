// "Compare With…": a revision picked from the repository's recent ones (or typed), then a view of what
// the change since it does to every harness's prompt: `lsp-agents diff REVISION`, against the work
// tree with the unsaved buffers, computed by the server in a process of its own.
import * as path from "node:path";
import * as vscode from "vscode";
import { diffBody, revisionItems, summaryLine, typedRevision, type DiffReply, type RevisionsReply } from "./pure/diff";
import { escape } from "./pure/html";
import { SERVER_COMMANDS } from "./pure/protocol";
import type { ServerManager } from "./server";
import { webviewPage } from "./views";

export const COMPARE_VIEW = "lspAgents.diff";

/** What a command may be given: `{uri, base}` compares at once (the tree's node, tests); nothing asks. */
export type CompareArgument = { uri?: string | vscode.Uri; base?: string } | undefined;

/** The comparison shown: what tests and callers may rely on. */
export interface ComparedView {
  base: string;
  summary?: string;
  error?: string;
}

/** The file whose workspace folder is compared: the active file's, else the first folder. */
function subject(given?: string | vscode.Uri): vscode.Uri | undefined {
  if (given) {
    return typeof given === "string" ? vscode.Uri.parse(given) : given;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  return active?.scheme === "file" ? active : vscode.workspace.workspaceFolders?.[0]?.uri;
}

export class CompareWith implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(
    private readonly server: ServerManager,
    private readonly media: vscode.Uri,
  ) {}

  async run(argument?: CompareArgument): Promise<ComparedView | undefined> {
    const uri = subject(argument?.uri);
    if (!uri) {
      void vscode.window.showWarningMessage("lsp-agents: open a folder first; Compare With compares its git revisions.");
      return undefined;
    }
    const base = argument?.base ?? (await this.pick(uri));
    if (base === undefined) {
      return undefined;
    }
    const reply = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `lsp-agents: comparing with ${base}…` },
      () => this.server.execute<DiffReply | null>(SERVER_COMMANDS.diff, { uri: uri.toString(), base }),
    ).then((answer) => answer ?? { error: "the comparison failed (see lsp-agents: Show Output)" }, (error: unknown) => ({ error: String(error) }));
    const name = path.basename(uri.fsPath);
    const title = `Compared with ${base}`;
    if ("error" in reply) {
      this.show(title, `<h1>${escape(title)}</h1><p class="empty" id="summary">No comparison: ${escape(reply.error)}</p>`);
      void vscode.window.showErrorMessage(`lsp-agents: cannot compare ${name}'s folder with ${base}: ${reply.error}`);
      return { base, error: reply.error };
    }
    this.show(title, diffBody(reply));
    return { base, summary: summaryLine(reply) };
  }

  /** A revision from the quick pick: the server's list (HEAD, HEAD~1, recent branches and tags), or what the user types. */
  private async pick(uri: vscode.Uri): Promise<string | undefined> {
    const quickPick = vscode.window.createQuickPick<vscode.QuickPickItem>();
    quickPick.title = "lsp-agents: Compare With…";
    quickPick.placeholder = "A revision to compare the work tree with (a branch, a tag, HEAD~2, a commit)";
    quickPick.busy = true;
    let offered: vscode.QuickPickItem[] = [];
    const typed = (value: string): vscode.QuickPickItem[] =>
      value.trim() && !offered.some((o) => o.label === value.trim()) ? [{ label: value.trim(), description: "typed" }] : [];
    quickPick.onDidChangeValue((value) => {
      quickPick.items = [...typed(value), ...offered];
    });
    void this.server.execute<RevisionsReply | null>(SERVER_COMMANDS.revisions, { uri: uri.toString() }).then((reply) => {
      offered = reply && "revisions" in reply ? revisionItems(reply.revisions) : [];
      if (reply && "error" in reply) {
        quickPick.placeholder = `${reply.error}; type a revision`;
      }
      quickPick.items = [...typed(quickPick.value), ...offered];
    }, () => undefined).finally(() => {
      quickPick.busy = false;
    });
    quickPick.show();
    const chosen = await new Promise<string | undefined>((resolve) => {
      quickPick.onDidAccept(() => {
        const value = quickPick.selectedItems[0]?.label ?? quickPick.value;
        const revision = typedRevision(value);
        if ("problem" in revision) {
          quickPick.value = "";
          quickPick.placeholder = revision.problem;
          return;
        }
        resolve(revision.name);
        quickPick.hide();
      });
      quickPick.onDidHide(() => resolve(undefined));
    });
    quickPick.dispose();
    return chosen;
  }

  private show(title: string, body: string): void {
    if (!this.panel) {
      const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
      this.panel = vscode.window.createWebviewPanel(COMPARE_VIEW, title, { viewColumn: column, preserveFocus: false }, {
        enableScripts: true,
        localResourceRoots: [this.media],
      });
      this.panel.onDidDispose(() => {
        this.panel = undefined;
      });
    }
    this.panel.title = title;
    this.panel.webview.html = webviewPage(this.panel.webview, this.media, title, body);
    this.panel.reveal(undefined, false);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
