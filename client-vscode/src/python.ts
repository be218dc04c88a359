// Finds the interpreter that runs the server and checks that lsp-agents is installed and compatible.
import { execFile } from "node:child_process";
import * as vscode from "vscode";
import { PROBE_ARGS, installCommand, judgeProbe, launchPlan, type LaunchPlan } from "./pure/launch";
import { launchSettings } from "./settings";

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

async function activeInterpreter(): Promise<string | undefined> {
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

function probe(python: string): Promise<string | undefined> {
  return new Promise((resolve) =>
    execFile(python, PROBE_ARGS, { timeout: 20_000 }, (error, stdout) => resolve(error ? undefined : stdout)),
  );
}

/**
 * The launch plan for the server, or undefined after telling the user what is wrong.
 * `retry` is run when the user picks "Retry" on the error.
 */
export async function resolveLaunch(extensionVersion: string, log: vscode.LogOutputChannel, retry: () => void): Promise<LaunchPlan | undefined> {
  const plan = launchPlan(launchSettings(), await activeInterpreter());
  if (plan.kind === "command") {
    log.info(`Server command from lspAgents.server.command: ${[plan.command, ...plan.args].join(" ")}`);
    return plan;
  }
  const verdict = judgeProbe(plan.command, await probe(plan.command), extensionVersion);
  if (verdict.ok) {
    log.info(`Using lsp-agents ${verdict.version} from ${plan.command}`);
    return plan;
  }
  log.error(verdict.message);
  const install = verdict.problem === "missing" ? "Install" : "Upgrade";
  void vscode.window
    .showErrorMessage(`${verdict.message} Install it, or set lspAgents.server.python / lspAgents.server.command.`, install, "Retry", "Open Settings")
    .then((choice) => {
      if (choice === install) {
        const terminal = vscode.window.createTerminal("lsp-agents: install");
        terminal.show();
        terminal.sendText(installCommand(plan.command, extensionVersion));
      } else if (choice === "Retry") {
        retry();
      } else if (choice === "Open Settings") {
        void vscode.commands.executeCommand("workbench.action.openSettings", "lspAgents.server");
      }
    });
  return undefined;
}
