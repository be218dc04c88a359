// The cascade of the file being edited, for every harness: one request feeds the status bar and the
// tree, so both show the same numbers. Focus moving to a view, a panel or the output keeps the file.
import * as vscode from "vscode";
import { SERVER_COMMANDS, type CascadeResult } from "./pure/protocol";
import type { ServerManager } from "./server";

export interface ActiveState {
  uri?: vscode.Uri;
  result?: CascadeResult;
  error?: string;
}

export class ActiveFile implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ActiveState>();
  readonly onDidChange = this.changed.event;
  private state: ActiveState = {};
  private generation = 0;

  constructor(private readonly server: ServerManager) {}

  get current(): ActiveState {
    return this.state;
  }

  /** A file of a workspace folder, when the active editor shows one. */
  private static editedFile(): vscode.Uri | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    return uri?.scheme === "file" && vscode.workspace.getWorkspaceFolder(uri) ? uri : undefined;
  }

  /** Recomputes for the active editor's file (or the last one, when focus left the editors). */
  async refresh(): Promise<void> {
    const generation = ++this.generation;
    const edited = ActiveFile.editedFile();
    const uri = edited ?? (vscode.window.activeTextEditor ? undefined : this.state.uri);
    if (!uri) {
      this.publish(generation, {});
      return;
    }
    try {
      const result = await this.server.execute<CascadeResult>(SERVER_COMMANDS.cascade, { uri: uri.toString(), harness: "all" });
      this.publish(generation, result ? { uri, result } : { uri, error: "the server gave no answer" });
    } catch (error) {
      this.publish(generation, { uri, error: error instanceof Error ? error.message : String(error) });
    }
  }

  private publish(generation: number, state: ActiveState): void {
    if (generation === this.generation) {
      this.state = state;
      this.changed.fire(state);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
