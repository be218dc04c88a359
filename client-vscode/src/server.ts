// Owns the language client: launch, coalesced restarts, and one notification when the server dies.
import * as vscode from "vscode";
import {
  CloseAction,
  DidChangeConfigurationNotification,
  ErrorAction,
  ExecuteCommandRequest,
  type LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";
import { coalesce } from "./pure/coalesce";
import { serverExecutable, serverSection } from "./pure/launch";
import { ANALYSIS_COMPLETE, VIEW_COMMANDS } from "./pure/protocol";
import { resolveLaunch, type ExtensionPlace } from "./python";
import { LoggingLanguageClient } from "./serverLog";
import { SECTION, serverSettings } from "./settings";

const RESTART_DELAY_MS = 500;

export class ServerManager implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private readonly started = new vscode.EventEmitter<void>();
  /** Fires each time a server has started (views refresh on it). */
  readonly onDidStart = this.started.event;
  private readonly analysed = new vscode.EventEmitter<void>();
  /** Fires when the server has analysed a folder (ANALYSIS_COMPLETE): answers it missed can be asked again. */
  readonly onDidCompleteAnalysis = this.analysed.event;
  /** Coalesces rapid restart requests (settings typed key by key, repeated clicks) into one. */
  private readonly coalescedRestart = coalesce(() => this.replace(), RESTART_DELAY_MS);
  private pending: Promise<void> = Promise.resolve();

  private readonly log: vscode.LogOutputChannel;

  constructor(
    private readonly place: ExtensionPlace,
    private readonly activatedAt: number,
  ) {
    this.log = place.log;
  }

  /** Starts the server at once (activation: nothing to coalesce). */
  start(): Promise<void> {
    this.pending = this.replace();
    return this.pending;
  }

  /** Replaces the running server (or starts one); rapid calls share one restart. */
  restart(): Promise<void> {
    this.pending = this.coalescedRestart();
    return this.pending;
  }

  /** `workspace/executeCommand` on the server, once a pending (re)start has settled. */
  async execute<T>(command: string, args: Record<string, unknown>): Promise<T> {
    await this.pending.catch(() => undefined);
    if (!this.client?.isRunning()) {
      throw new Error("The lsp-agents server is not running (see lsp-agents: Show Output).");
    }
    return (await this.client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] })) as T;
  }

  /**
   * Tells the server its settings changed; it reads them back with workspace/configuration (the
   * client's own `server` and `trace` keys never reach it).
   */
  async settingsChanged(): Promise<void> {
    if (this.client?.isRunning()) {
      await this.client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    }
  }

  private async replace(): Promise<void> {
    await this.stop();
    const plan = await resolveLaunch(this.place, () => void this.restart());
    if (!plan) {
      return;
    }
    const serverOptions: ServerOptions = serverExecutable(plan);
    this.client = new LoggingLanguageClient(SECTION, "lsp-agents", serverOptions, this.clientOptions(), this.log);
    this.client.onNotification(ANALYSIS_COMPLETE, () => this.analysed.fire());
    try {
      await this.client.start();
      this.log.info(`Server started ${Math.round(Date.now() - this.activatedAt)} ms after activation`);
      this.started.fire();
    } catch (error) {
      this.log.error(`The server did not start: ${String(error)}`);
    }
  }

  private clientOptions(): LanguageClientOptions {
    return {
      documentSelector: [{ scheme: "file" }, { scheme: "untitled" }],
      traceOutputChannel: this.log,
      initializationOptions: serverSettings(),
      connectionOptions: { maxRestartCount: 0 },
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue, handled: true }),
        closed: () => {
          this.notifyCrash();
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
      middleware: {
        // A lens naming a server command (e.g. lspAgents.effectivePrompt) opens its view instead of returning JSON.
        provideCodeLenses: async (document, token, next) => {
          const lenses = await next(document, token);
          for (const lens of lenses ?? []) {
            if (lens.command && VIEW_COMMANDS[lens.command.command]) {
              lens.command.command = VIEW_COMMANDS[lens.command.command];
            }
          }
          return lenses;
        },
        workspace: {
          configuration: async (params, token, next) => {
            const result = await next(params, token);
            return Array.isArray(result)
              ? result.map((item) => (item && typeof item === "object" ? serverSection(item as Record<string, unknown>) : item))
              : result;
          },
        },
      },
    };
  }

  private notifyCrash(): void {
    this.log.error("The lsp-agents server stopped unexpectedly.");
    void vscode.window.showErrorMessage("The lsp-agents server stopped unexpectedly.", "Restart", "Show Output").then((choice) => {
      if (choice === "Restart") {
        void this.restart();
      } else if (choice === "Show Output") {
        this.log.show();
      }
    });
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client?.isRunning()) {
      await client.stop().catch((error: unknown) => this.log.warn(`Stopping the server failed: ${String(error)}`));
    }
  }

  dispose(): void {
    void this.stop();
    this.started.dispose();
    this.analysed.dispose();
  }
}
