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

export interface LaunchPlan {
  kind: "command" | "bundled" | "environment";
  command: string;
  args: string[];
}

export const ENVIRONMENT_SERVE_ARGS = ["-m", "lsp_agents", "serve"];
export const ENVIRONMENT_PROBE_ARGS = ["-c", "import lsp_agents, sys; print(lsp_agents.__version__)"];

/** `server.command` as a plan, when set. */
export function commandPlan(settings: LaunchSettings): LaunchPlan | undefined {
  const [command, ...args] = settings.command.filter((part) => part.trim() !== "");
  return command ? { kind: "command", command, args } : undefined;
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
  return ["-I", "-S", "-X", `pycache_prefix=${cacheDir}`, launcher, "serve"];
}

export function bundledCheckArgs(launcher: string): string[] {
  return ["-I", "-S", launcher, "--check"];
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
