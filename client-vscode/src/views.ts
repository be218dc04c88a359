// The rendered views (webviews): the prompt a harness sends for a file, what a read of the file
// adds, and every harness compared. One panel per kind follows the file and harness asked for;
// the harness list inside a view changes the chosen harness everywhere.
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import * as vscode from "vscode";
import type { HarnessChoice } from "./harness";
import { cascadeBody, escape, page, promptBody, remindersBody, type HarnessOption, type ViewKind } from "./pure/html";
import { harnessLabel } from "./pure/format";
import { RETRY_DELAYS_MS } from "./pure/status";
import { isHarness, SERVER_COMMANDS, type CascadeResult, type FileUsesResult, type Harness, type PromptResult, type RemindersResult } from "./pure/protocol";
import type { ServerManager } from "./server";
import { homeDirectory } from "./settings";

const VIEW_TYPES: Record<ViewKind, string> = { prompt: "lspAgents.prompt", reminders: "lspAgents.reminders", cascade: "lspAgents.cascade" };
const TITLES: Record<ViewKind, string> = { prompt: "Prompt", reminders: "On read", cascade: "Compare harnesses" };

/** What a command may be given: a file URI, or `{uri, harness}` (a code lens, the status bar, a keybinding). */
export type ShowArgument = vscode.Uri | { uri?: string | vscode.Uri; harness?: string } | undefined;

/** The view a command opened: what tests and callers may rely on. */
export interface ShownView {
  kind: ViewKind;
  uri: string;
  harness?: Harness;
}

interface Shown {
  panel: vscode.WebviewPanel;
  target: vscode.Uri;
  /**
   * How many renders in a row could not be computed (the server ran out of time): the view is
   * rendered again after a pause, as the status bar asks again, and after each completed analysis.
   */
  failed: number;
  retry?: ReturnType<typeof setTimeout>;
}

type Message =
  | { type: "open"; path: string; line: number }
  | { type: "show"; kind: ViewKind; harness?: string }
  | { type: "harness"; harness: string }
  | { type: "copy"; text: string };

/** A view's page: the extension's style and script (from `media`), a fresh nonce. */
export function webviewPage(webview: vscode.Webview, media: vscode.Uri, title: string, body: string): string {
  return page({
    title,
    cspSource: webview.cspSource,
    nonce: randomBytes(16).toString("base64"),
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, "views.js")).toString(),
    styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, "views.css")).toString(),
  }, body);
}

/** A server answer, or the reason there is none (its time budget ran out: the view asks again). */
function answered<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) {
    throw new Error("the server ran out of time; the view is computed again in a moment");
  }
  return value;
}

export class ViewPanels implements vscode.Disposable {
  private readonly shown = new Map<ViewKind, Shown>();
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly server: ServerManager,
    private readonly choice: HarnessChoice,
    private readonly media: vscode.Uri,
  ) {
    this.subscription = choice.onDidChange(() => this.refreshAll());
  }

  /** Opens (or brings forward) the view of `kind` for the given file, else the active one. */
  async show(kind: ViewKind, argument?: ShowArgument): Promise<ShownView | undefined> {
    const given = argument instanceof vscode.Uri ? { uri: argument } : (argument ?? {});
    // A title-bar action passes the view's own URI (scheme webview-panel): the views are about files.
    const asked = given.uri ? vscode.Uri.parse(given.uri.toString()) : undefined;
    const target = asked?.scheme === "file" ? asked : this.activeTarget();
    if (!target) {
      void vscode.window.showWarningMessage("lsp-agents: open a file first; the views are computed for the active file.");
      return undefined;
    }
    if (isHarness(given.harness)) {
      await this.choice.choose(given.harness);
    }
    const shown = this.panel(kind, target);
    await this.render(kind, shown);
    return { kind, uri: target.toString(), harness: kind === "cascade" ? undefined : this.choice.current(target) };
  }

  /** Recomputes every open view (instruction files or settings changed, the server restarted). */
  refreshAll(): void {
    for (const [kind, shown] of this.shown) {
      void this.render(kind, shown);
    }
  }

  /** Recomputes the views whose last render could not be computed. */
  refreshFailed(): void {
    for (const [kind, shown] of this.shown) {
      if (shown.failed > 0) {
        void this.render(kind, shown);
      }
    }
  }

  private panel(kind: ViewKind, target: vscode.Uri): Shown {
    const existing = this.shown.get(kind);
    if (existing) {
      existing.target = target;
      existing.panel.reveal(undefined, true);
      return existing;
    }
    const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    const panel = vscode.window.createWebviewPanel(VIEW_TYPES[kind], TITLES[kind], { viewColumn: column, preserveFocus: false }, {
      enableScripts: true,
      localResourceRoots: [this.media],
      retainContextWhenHidden: false,
    });
    const shown: Shown = { panel, target, failed: 0 };
    this.shown.set(kind, shown);
    panel.onDidDispose(() => {
      clearTimeout(shown.retry);
      this.shown.delete(kind);
    });
    panel.webview.onDidReceiveMessage((message: Message) => void this.receive(shown, message));
    return shown;
  }

  private async render(kind: ViewKind, shown: Shown): Promise<void> {
    clearTimeout(shown.retry);
    const { panel, target } = shown;
    const harness = this.choice.current(target);
    const name = path.basename(target.fsPath);
    panel.title = kind === "cascade" ? `${TITLES[kind]} · ${name}` : `${TITLES[kind]} · ${harness} · ${name}`;
    let body: string;
    let failed = false;
    try {
      body = await this.body(kind, target, harness);
    } catch (error) {
      failed = true;
      body = `<h1>lsp-agents</h1><p>This view could not be computed: ${escape(error instanceof Error ? error.message : String(error))}</p>`;
    }
    if (this.shown.get(kind) === shown && shown.target === target) {
      shown.failed = failed ? shown.failed + 1 : 0;
      const delay = failed ? RETRY_DELAYS_MS[shown.failed - 1] : undefined;
      if (delay !== undefined) {
        shown.retry = setTimeout(() => void this.render(kind, shown), delay);
      }
      panel.webview.html = this.page(panel.webview, panel.title, body);
    }
  }

  private async body(kind: ViewKind, target: vscode.Uri, harness: Harness): Promise<string> {
    const uri = target.toString();
    const home = homeDirectory(target);
    const [cascade, uses] = await Promise.all([
      this.server.execute<CascadeResult | null>(SERVER_COMMANDS.cascade, { uri, harness: "all" }).then(answered),
      this.server.execute<FileUsesResult | null>(SERVER_COMMANDS.fileUses, { uri }).then(answered),
    ]);
    const harnesses: HarnessOption[] = cascade.harnesses.map((h) => ({ id: h.harness, title: harnessLabel(h) }));
    if (kind === "cascade") {
      return cascadeBody({ result: cascade, current: harness, home, uses });
    }
    const reminders = this.server.execute<RemindersResult | null>(SERVER_COMMANDS.fileReminders, { uri, harness }).then(answered);
    if (kind === "reminders") {
      return remindersBody({ file: target.fsPath, home, harnesses, result: await reminders });
    }
    const prompt = answered(await this.server.execute<PromptResult | null>(SERVER_COMMANDS.effectivePrompt, { uri, harness, layers: "all" }));
    const entry = cascade.harnesses.find((h) => h.harness === harness);
    if (!entry) {
      throw new Error(`the server does not know the harness ${harness}`);
    }
    const thisFile = uses.harnesses.find((h) => h.harness === harness)?.summary;
    return promptBody({ file: target.fsPath, cwd: cascade.cwd, home, entry, harnesses, layers: prompt.layers, reminders: (await reminders).reminders, thisFile });
  }

  private page(webview: vscode.Webview, title: string, body: string): string {
    return webviewPage(webview, this.media, title, body);
  }

  private async receive(shown: Shown, message: Message): Promise<void> {
    if (message.type === "open") {
      const position = new vscode.Position(Math.max(0, message.line), 0);
      await vscode.window.showTextDocument(vscode.Uri.file(message.path), { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(position, position) });
    } else if (message.type === "show") {
      await this.show(message.kind, { uri: shown.target, harness: message.harness });
    } else if (message.type === "harness" && isHarness(message.harness)) {
      await this.choice.choose(message.harness);
    } else if (message.type === "copy") {
      await vscode.env.clipboard.writeText(message.text);
      void vscode.window.setStatusBarMessage("lsp-agents: copied", 2000);
    }
  }

  /** The active file, or the file the active view is about. */
  private activeTarget(): vscode.Uri | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    if (uri?.scheme === "file") {
      return uri;
    }
    return [...this.shown.values()].find((s) => s.panel.active)?.target ?? [...this.shown.values()][0]?.target;
  }

  dispose(): void {
    this.subscription.dispose();
    this.shown.forEach((s) => {
      clearTimeout(s.retry);
      s.panel.dispose();
    });
  }
}
