// The server's messages in the lsp-agents output channel, once each and at their own level. The
// language client writes `window/logMessage` as "[Warn  - 10:00:00] text" lines, which a log output
// channel records as info under a second prefix ("[info] [Warn  - …] text"); and it appends the
// server's stderr as raw text. Here both reach the channel's own levels.
import * as vscode from "vscode";
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { stderrLevel, type Level } from "./pure/logLevels";

function withData(message: string, data: unknown): string {
  if (data === undefined || data === null) {
    return message;
  }
  const detail = data instanceof Error ? (data.stack ?? data.message) : typeof data === "string" ? data : JSON.stringify(data);
  return `${message}\n${detail}`;
}

/** A language client whose own messages and the server's log messages go to `log` at their level. */
export class LoggingLanguageClient extends LanguageClient {
  constructor(id: string, name: string, server: ServerOptions, options: LanguageClientOptions, private readonly log: vscode.LogOutputChannel) {
    super(id, name, server, { ...options, outputChannel: stderrChannel(log) });
  }

  override debug(message: string, data?: unknown): void {
    this.log.debug(withData(message, data));
  }

  override info(message: string, data?: unknown): void {
    this.log.info(withData(message, data));
  }

  override warn(message: string, data?: unknown): void {
    this.log.warn(withData(message, data));
  }

  /** An error of the client's own (a failed request) also notifies, as the language client does. */
  override error(message: string, data?: unknown, showNotification: boolean | "force" = true): void {
    this.log.error(withData(message, data));
    if (showNotification) {
      void vscode.window.showErrorMessage(message, "Show Output").then((choice) => choice && this.log.show(true));
    }
  }
}

/**
 * The output channel the language client writes the server's stderr to: each line logged at the
 * level of the record it belongs to (pygls' warnings, a traceback), not as info.
 */
function stderrChannel(log: vscode.LogOutputChannel): vscode.OutputChannel {
  let partial = "";
  let level: Level = "info";
  const write = (line: string) => {
    level = stderrLevel(line, level);
    if (line.trim()) {
      log[level](line);
    }
  };
  return {
    name: log.name,
    append(text: string) {
      const lines = (partial + text).split(/\r?\n/);
      partial = lines.pop() ?? "";
      lines.forEach(write);
    },
    appendLine(text: string) {
      write(partial + text);
      partial = "";
    },
    replace: (text: string) => log.replace(text),
    clear: () => log.clear(),
    show: (...args: unknown[]) => log.show(args[0] === true || args[1] === true),
    hide: () => log.hide(),
    dispose: () => undefined, // the channel is the extension's, disposed with it
  };
}
