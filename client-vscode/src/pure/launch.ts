// How the server is started and how a Python interpreter is judged fit to run it.

export interface LaunchSettings {
  /** `lspAgents.server.command`: the full command line; wins when not empty. */
  command: string[];
  /** `lspAgents.server.python`: an interpreter with lsp-agents installed. */
  python: string;
}

export type LaunchPlan =
  | { kind: "command"; command: string; args: string[] }
  | { kind: "python"; command: string; args: string[] };

export const SERVE_ARGS = ["-m", "lsp_agents", "serve"];
export const PROBE_ARGS = ["-c", "import lsp_agents, sys; print(lsp_agents.__version__)"];

/** Setting `server.command` wins; else `server.python`; else the Python extension's interpreter; else python3. */
export function launchPlan(settings: LaunchSettings, activeInterpreter?: string): LaunchPlan {
  const [command, ...args] = settings.command.filter((part) => part.trim() !== "");
  if (command) {
    return { kind: "command", command, args };
  }
  const python = settings.python.trim() || activeInterpreter || "python3";
  return { kind: "python", command: python, args: SERVE_ARGS };
}

/** Same major version; while 0.x, the same minor too (semver's rule for breaking changes). */
export function isCompatible(serverVersion: string, extensionVersion: string): boolean {
  const parse = (v: string) => /^(\d+)\.(\d+)/.exec(v.trim())?.slice(1, 3).map(Number);
  const server = parse(serverVersion);
  const extension = parse(extensionVersion);
  if (!server || !extension) {
    return false;
  }
  return server[0] === extension[0] && (extension[0] > 0 || server[1] === extension[1]);
}

/** The shell line that installs the server for `python` (quoted when the path has spaces). */
export function installCommand(python: string, extensionVersion: string): string {
  const exe = /[\s"'$`]/.test(python) ? `"${python.replace(/(["$`\\])/g, "\\$1")}"` : python;
  const [major, minor] = extensionVersion.split(".");
  const spec = major === "0" ? `lsp-agents~=${major}.${minor}.0` : `lsp-agents~=${major}.0`;
  return `${exe} -m pip install "${spec}"`;
}

export type ProbeVerdict = { ok: true; version: string } | { ok: false; problem: "missing" | "incompatible"; message: string };

/** Judges the probe's outcome: `stdout` is the printed version, or undefined when the probe failed. */
export function judgeProbe(python: string, stdout: string | undefined, extensionVersion: string): ProbeVerdict {
  const version = stdout?.trim().split(/\r?\n/).pop() ?? "";
  if (!version) {
    return { ok: false, problem: "missing", message: `lsp-agents is not installed for ${python}.` };
  }
  if (!isCompatible(version, extensionVersion)) {
    return {
      ok: false,
      problem: "incompatible",
      message: `lsp-agents ${version} (for ${python}) does not match this extension (${extensionVersion}).`,
    };
  }
  return { ok: true, version };
}

/** The `lspAgents` section as the server reads it: without the client-only `server` and `trace` keys. */
export function serverSection(section: Record<string, unknown>): Record<string, unknown> {
  const { server: _server, trace: _trace, ...rest } = section;
  return rest;
}
