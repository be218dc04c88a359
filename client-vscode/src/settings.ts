// Reads the `lspAgents` configuration: the client's own keys and the section the server gets.
import * as vscode from "vscode";
import type { ImportStrategy, LaunchSettings } from "./pure/launch";
import { serverSection } from "./pure/launch";
import { isHarness, type Harness } from "./pure/protocol";

export const SECTION = "lspAgents";

export function launchSettings(): LaunchSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    command: config.get<string[]>("server.command", []),
    python: config.get<string>("server.python", ""),
    importStrategy: config.get<ImportStrategy>("server.importStrategy", "useBundled") === "fromEnvironment" ? "fromEnvironment" : "useBundled",
  };
}

export function defaultHarness(scope?: vscode.Uri): Harness {
  const value = vscode.workspace.getConfiguration(SECTION, scope).get<string>("defaultHarness");
  return isHarness(value) ? value : "opencode";
}

/** `lspAgents.home` resolved for display (falls back to the user's home directory). */
export function homeDirectory(scope?: vscode.Uri): string | undefined {
  return vscode.workspace.getConfiguration(SECTION, scope).get<string | null>("home") || process.env.HOME || process.env.USERPROFILE;
}

/** The global `lspAgents` section, minus client-only keys, as plain JSON (initializationOptions). */
export function serverSettings(): Record<string, unknown> {
  return serverSection(JSON.parse(JSON.stringify(vscode.workspace.getConfiguration(SECTION))) as Record<string, unknown>);
}

/** A change that needs a new server process rather than `workspace/didChangeConfiguration`. */
export function needsRestart(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration(`${SECTION}.server`);
}

/**
 * The Settings editor filtered to `query`, on the tab that shows machine settings: with a remote
 * (code-server, SSH, WSL) the server settings live on the remote machine's tab.
 */
export function openSettings(query: string): void {
  const command = vscode.env.remoteName ? "workbench.action.openRemoteSettings" : "workbench.action.openSettings";
  void vscode.commands.executeCommand(command, query);
}
