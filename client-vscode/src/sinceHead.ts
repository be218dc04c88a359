// What the uncommitted change does, per workspace folder, for the tree's "Changed since HEAD" node:
// `lspAgents.diff` against HEAD (the server computes it in a process of its own). Asked for when the
// tree wants it and again after an instruction file changes (on disk or unsaved), a setting changes
// or the server restarts; the last answer stays shown meanwhile, and one comparison per folder runs
// at a time.
import * as vscode from "vscode";
import type { DiffAnswer, DiffReply } from "./pure/diff";
import { SERVER_COMMANDS } from "./pure/protocol";
import type { ServerManager } from "./server";

export class SinceHead implements vscode.Disposable {
  /** Per folder URI: the comparison, or null when there is none (not a git repository, no HEAD, a failure). */
  private readonly answers = new Map<string, DiffAnswer | null>();
  private readonly stale = new Set<string>();
  private readonly running = new Set<string>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when an answer arrives. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly server: ServerManager) {}

  /** The comparison of the file's folder as known now; asked for when unknown or stale. */
  of(uri: vscode.Uri): DiffAnswer | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) {
      return undefined;
    }
    const key = folder.uri.toString();
    if (!this.answers.has(key) || this.stale.has(key)) {
      void this.compute(key);
    }
    return this.answers.get(key) ?? undefined;
  }

  /** Something changed (an instruction file, a setting, the server): every folder is asked again when next shown. */
  invalidate(): void {
    for (const key of [...this.answers.keys(), ...this.running]) {
      this.stale.add(key);
    }
  }

  private async compute(key: string): Promise<void> {
    if (this.running.has(key)) {
      this.stale.add(key); // asked again once the running comparison ends
      return;
    }
    this.running.add(key);
    this.stale.delete(key);
    // null when there is no server now: it is asked again once one starts.
    const answer = await this.server.execute<DiffReply | null>(SERVER_COMMANDS.diff, { uri: key, base: "HEAD" })
      .then((reply) => (reply && !("error" in reply) ? reply : null), () => null);
    this.running.delete(key);
    this.answers.set(key, answer);
    this.changed.fire();
    if (this.stale.has(key)) {
      void this.compute(key);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
