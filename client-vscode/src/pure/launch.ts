// How the server is started: the copy bundled in the extension (run by a Python found on the
// machine), the lsp-agents installed in an interpreter, or a command line of the user's.

export type ImportStrategy = "useBundled" | "fromEnvironment";

export interface LaunchSettings {
  /** `lspAgents.server.command`: the full command line; wins when not empty. */
  command: string[];
  /** `lspAgents.server.python`: the interpreter to use (empty: the Python extension's, else python3, else python). */
  python: string;
  /** `lspAgents.server.importStrategy`: the bundled server, or the lsp-agents installed for the interpreter. */
  importStrategy: ImportStrategy;
}

/**
 * A process to start. `cwd` is always a folder of the extension's own, never the workspace: a
 * process started in the workspace would find the repository's files first (Python puts the
 * working directory on `sys.path` for `-c` and `-m`, so the repository's `lsp_agents/` package or
 * `sitecustomize.py` would run; and Windows looks up a bare `python3` there before the PATH).
 */
export interface Spawn {
  command: string;
  args: string[];
  cwd: string;
}

export interface LaunchPlan extends Spawn {
  kind: "command" | "bundled" | "environment";
}

/**
 * `-I` (isolated): neither the working directory nor the script's folder on `sys.path`, no
 * PYTHON* variables, no user site-packages: the lsp-agents that runs is the one installed for the
 * interpreter, not one a workspace or the environment puts in front of it.
 */
const ISOLATED = "-I";
export const ENVIRONMENT_SERVE_ARGS = [ISOLATED, "-m", "lsp_agents", "serve"];
export const ENVIRONMENT_PROBE_ARGS = [ISOLATED, "-c", "import lsp_agents; print(lsp_agents.__version__)"];

/** `server.command` as a plan, when set; it starts in `cwd` like every other (give absolute paths). */
export function commandPlan(settings: LaunchSettings, cwd: string): LaunchPlan | undefined {
  const [command, ...args] = settings.command.filter((part) => part.trim() !== "");
  return command ? { kind: "command", command, args, cwd } : undefined;
}

/** Asks `python` which lsp-agents it has (the version on stdout). */
export function environmentProbe(python: string, cwd: string): Spawn {
  return { command: python, args: ENVIRONMENT_PROBE_ARGS, cwd };
}

/** The server installed for `python`. */
export function environmentPlan(python: string, cwd: string): LaunchPlan {
  return { kind: "environment", command: python, args: ENVIRONMENT_SERVE_ARGS, cwd };
}

/** Asks `python` whether it can run the bundled server (JSON on stdout). */
export function bundledCheck(python: string, launcher: string, cwd: string): Spawn {
  return { command: python, args: bundledCheckArgs(launcher), cwd };
}

/** The bundled server run by `python`, its compiled files in `cacheDir`. */
export function bundledPlan(python: string, launcher: string, cacheDir: string, cwd: string): LaunchPlan {
  return { kind: "bundled", command: python, args: bundledArgs(launcher, cacheDir), cwd };
}

/** The plan as the language client's `Executable` (no `transport`: stdio would append `--stdio`, which `serve` does not take). */
export function serverExecutable(plan: LaunchPlan): { command: string; args: string[]; options: { cwd: string } } {
  return { command: plan.command, args: plan.args, options: { cwd: plan.cwd } };
}

/**
 * The interpreters to try, in order: the setting alone when set, else the Python extension's,
 * python3, python, and on Windows the `py` launcher (python.org's installer puts only that on
 * PATH by default; `python3` there may be the Microsoft Store's placeholder).
 */
export function interpreterCandidates(settings: LaunchSettings, activeInterpreter?: string, platform: string = process.platform): string[] {
  const chosen = settings.python.trim();
  if (chosen) {
    return [chosen];
  }
  const onPath = platform === "win32" ? ["python3", "python", "py"] : ["python3", "python"];
  return [...new Set([activeInterpreter, ...onPath].filter((p): p is string => !!p))];
}

/**
 * The bundled launcher, isolated (-I: no user site or PYTHON* variables; -S: no site-packages), so
 * nothing installed on the machine shadows a bundled module; compiled files go to `cacheDir`.
 */
export function bundledArgs(launcher: string, cacheDir: string): string[] {
  return [ISOLATED, "-S", "-X", `pycache_prefix=${cacheDir}`, launcher, "serve"];
}

export function bundledCheckArgs(launcher: string): string[] {
  return [ISOLATED, "-S", launcher, "--check"];
}

/** `python`: the version; `executable`: the interpreter's full path (what a bare `python3` resolved to). */
export type CheckVerdict = { ok: true; python: string; executable: string } | { ok: false; problem: string };

/** The launcher's `--check` answer (JSON on stdout), or undefined when the interpreter did not run. */
export function judgeCheck(python: string, stdout: string | undefined): CheckVerdict {
  if (stdout === undefined) {
    return { ok: false, problem: `${python}: not found or did not run` };
  }
  try {
    const answer = JSON.parse(stdout.trim().split(/\r?\n/).pop() ?? "") as { ok?: boolean; python?: string; executable?: string; problem?: string };
    if (answer.ok) {
      return { ok: true, python: String(answer.python), executable: answer.executable || python };
    }
    return { ok: false, problem: `${python}: ${answer.problem ?? "cannot run the bundled server"}` };
  } catch {
    return { ok: false, problem: `${python}: unexpected answer ${JSON.stringify(stdout.slice(0, 200))}` };
  }
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

/** Judges the environment probe: `stdout` is the printed version, or undefined when the probe failed. */
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
