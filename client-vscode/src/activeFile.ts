// The cascade of the file being edited, for every harness: one request feeds the status bar and the
// tree, so both show the same numbers. Focus moving to a view, a panel or the output keeps the file.
// An answer without a result (the server's time budget ran out, on a cold start or a busy machine)
// is asked again after a pause, and every completed analysis asks again: nothing stays unknown.
import * as vscode from "vscode";
import { SERVER_COMMANDS, type CascadeResult, type FileUsesResult } from "./pure/protocol";
import { RETRY_DELAYS_MS } from "./pure/status";
import type { ServerManager } from "./server";

export interface ActiveState {
  uri?: vscode.Uri;
  result?: CascadeResult;
  /** Who sends the file itself, when it is an instruction file (in the words of the hover and the code lens). */
  uses?: FileUsesResult;
  /** The server answered without a result and is asked again: the state is not final. */
  pending?: boolean;
  error?: string;
}

export class ActiveFile implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ActiveState>();
  readonly onDidChange = this.changed.event;
  private state: ActiveState = {};
  private generation = 0;
  private missed = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly server: ServerManager) {}

  get current(): ActiveState {
    return this.state;
  }

  /**
   * A file of a workspace folder, when the active editor shows one; `"keep"` (the file shown last)
   * when the output panel has the focus or one of this extension's views is active, since they are
   * about that file; `undefined` for any other editor (Settings, an image) or none.
   */
  private static editedFile(): vscode.Uri | "keep" | undefined {
    const editor = vscode.window.activeTextEditor;
    if (editor) {
      const uri = editor.document.uri;
      if (uri.scheme === "output") {
        return "keep";
      }
      return uri.scheme === "file" && vscode.workspace.getWorkspaceFolder(uri) ? uri : undefined;
    }
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    return input instanceof vscode.TabInputWebview && input.viewType.includes("lspAgents.") ? "keep" : undefined;
  }

  /** Recomputes for the active editor's file (or the last one, when focus left the editors). */
  async refresh(): Promise<void> {
    this.missed = 0;
    await this.compute();
  }

  private async compute(): Promise<void> {
    clearTimeout(this.retry);
    const generation = ++this.generation;
    const edited = ActiveFile.editedFile();
    const uri = edited === "keep" ? this.state.uri : edited;
    if (!uri) {
      this.publish(generation, {});
      return;
    }
    try {
      const args = { uri: uri.toString() };
      const [result, uses] = await Promise.all([
        this.server.execute<CascadeResult | null>(SERVER_COMMANDS.cascade, { ...args, harness: "all" }),
        this.server.execute<FileUsesResult | null>(SERVER_COMMANDS.fileUses, args),
      ]);
      if (result && uses) {
        this.missed = 0;
        this.publish(generation, { uri, result, uses });
      } else {
        this.askAgain(generation, uri);
      }
    } catch (error) {
      this.publish(generation, { uri, error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The server answered without a result: keep what is known of this file and ask again later. */
  private askAgain(generation: number, uri: vscode.Uri): void {
    const delay = RETRY_DELAYS_MS[this.missed++];
    const known = this.state.uri?.toString() === uri.toString() ? { result: this.state.result, uses: this.state.uses } : {};
    if (delay === undefined) {
      this.publish(generation, { uri, ...known, error: "the server answered without a result several times (see lsp-agents: Show Output)" });
      return;
    }
    this.publish(generation, { uri, ...known, pending: true });
    this.retry = setTimeout(() => void this.compute(), delay);
  }

  private publish(generation: number, state: ActiveState): void {
    if (generation === this.generation) {
      this.state = state;
      this.changed.fire(state);
    }
  }

  dispose(): void {
    clearTimeout(this.retry);
    this.changed.dispose();
  }
}
