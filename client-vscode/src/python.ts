// Finds the Python that runs the server: the bundled copy by default, or the lsp-agents installed
// for an interpreter; says what is wrong, with what to do, when none fits.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import {
  bundledCheck,
  bundledPlan,
  commandPlan,
  environmentPlan,
  environmentProbe,
  installCommand,
  interpreterCandidates,
  judgeCheck,
  judgeProbe,
  type LaunchPlan,
  type Spawn,
} from "./pure/launch";
import { launchSettings, openSettings } from "./settings";

/** What the launch needs to know about the extension. */
export interface ExtensionPlace {
  /** The extension's folder (holds `bundled/`); every process starts there, never in the workspace. */
  extensionPath: string;
  extensionVersion: string;
  /** A writable folder of the extension's own (compiled Python files go there). */
  storagePath: string;
  log: vscode.LogOutputChannel;
}

/** The slice of the Python extension's API that we use (ms-python.python, `environments`). */
interface PythonApi {
  environments: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string };
    resolveEnvironment(env: { path: string }): Promise<{ executable: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
}

async function pythonApi(): Promise<PythonApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonApi>("ms-python.python");
  if (!extension) {
    return undefined;
  }
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    return api?.environments ? api : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Python extension's interpreter for the workspace, in a trusted workspace only: in Restricted
 * Mode it may be one the repository carries (`.venv/bin/python`), which must not run.
 */
async function activeInterpreter(): Promise<string | undefined> {
  if (!vscode.workspace.isTrusted) {
    return undefined;
  }
  const api = await pythonApi();
  if (!api) {
    return undefined;
  }
  const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
  const env = await api.environments.resolveEnvironment(api.environments.getActiveEnvironmentPath(resource));
  return env?.executable.uri?.fsPath;
}

/** Fires when the Python extension's active interpreter changes (nothing when it is not installed). */
export async function onDidChangeInterpreter(listener: () => void): Promise<vscode.Disposable | undefined> {
  return (await pythonApi())?.environments.onDidChangeActiveEnvironmentPath(listener);
}

function run(spawn: Spawn): Promise<string | undefined> {
  return new Promise((resolve) =>
    execFile(spawn.command, spawn.args, { cwd: spawn.cwd, timeout: 20_000 }, (error, stdout) => resolve(error ? undefined : stdout)),
  );
}

/** The launch plan for the server, or undefined after telling the user what is wrong; `retry` runs on "Retry". */
export async function resolveLaunch(place: ExtensionPlace, retry: () => void): Promise<LaunchPlan | undefined> {
  const settings = launchSettings();
  const cwd = place.extensionPath;
  const command = commandPlan(settings, cwd);
  if (command) {
    place.log.info(`Server command from lspAgents.server.command: ${[command.command, ...command.args].join(" ")}`);
    return command;
  }
  const candidates = interpreterCandidates(settings, await activeInterpreter());
  const launcher = path.join(place.extensionPath, "bundled", "launch.py");
  if (settings.importStrategy === "fromEnvironment" || !existsSync(launcher)) {
    return installedServer(candidates[0], place, retry);
  }
  const problems: string[] = [];
  for (const python of candidates) {
    const verdict = judgeCheck(python, await run(bundledCheck(python, launcher, cwd)));
    if (verdict.ok) {
      place.log.info(`Using the bundled server with ${verdict.executable} (Python ${verdict.python})`);
      return bundledPlan(verdict.executable, launcher, path.join(place.storagePath, "pycache"), cwd);
    }
    problems.push(verdict.problem);
  }
  const message = "No Python here can run the bundled lsp-agents server.";
  place.log.error(`${message} ${problems.join("; ")}`);
  void vscode.window
    .showErrorMessage(`${message} ${problems.join("; ")}. Install Python 3.11 or later, or set lspAgents.server.python.`, "Retry", "Open Settings")
    .then((choice) => (choice === "Retry" ? retry() : choice === "Open Settings" ? openSettings("lspAgents.server") : undefined));
  return undefined;
}

/** `python -m lsp_agents serve` with the lsp-agents installed for `python`, once its version fits. */
async function installedServer(python: string, place: ExtensionPlace, retry: () => void): Promise<LaunchPlan | undefined> {
  const verdict = judgeProbe(python, await run(environmentProbe(python, place.extensionPath)), place.extensionVersion);
  if (verdict.ok) {
    place.log.info(`Using lsp-agents ${verdict.version} installed for ${python}`);
    return environmentPlan(python, place.extensionPath);
  }
  place.log.error(verdict.message);
  const install = verdict.problem === "missing" ? "Install" : "Upgrade";
  void vscode.window
    .showErrorMessage(`${verdict.message} Install it, or set lspAgents.server.importStrategy to useBundled.`, install, "Retry", "Open Settings")
    .then((choice) => {
      if (choice === install) {
        const terminal = vscode.window.createTerminal("lsp-agents: install");
        terminal.show();
        terminal.sendText(installCommand(python, place.extensionVersion));
      } else if (choice === "Retry") {
        retry();
      } else if (choice === "Open Settings") {
        openSettings("lspAgents.server");
      }
    });
  return undefined;
}
