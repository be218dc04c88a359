import assert from "node:assert/strict";
import { test } from "node:test";
import {
  bundledArgs,
  bundledCheck,
  bundledPlan,
  commandPlan,
  environmentPlan,
  environmentProbe,
  installCommand,
  interpreterCandidates,
  isCompatible,
  judgeCheck,
  judgeProbe,
  serverExecutable,
  serverSection,
  type Spawn,
} from "../../src/pure/launch";

const settings = { command: [], python: "", importStrategy: "useBundled" as const };
const EXTENSION = "/ext";

test("server.command wins as a whole command line", () => {
  assert.deepEqual(commandPlan({ ...settings, command: ["/opt/lsp-agents", "serve"] }, EXTENSION),
    { kind: "command", command: "/opt/lsp-agents", args: ["serve"], cwd: EXTENSION });
  assert.equal(commandPlan({ ...settings, command: [" "] }, EXTENSION), undefined);
});

test("every Python the extension starts runs isolated (-I), in the extension's folder, never the workspace's", () => {
  const pythons: [string, Spawn][] = [
    ["environment probe", environmentProbe("/venv/bin/python", EXTENSION)],
    ["environment server", environmentPlan("/venv/bin/python", EXTENSION)],
    ["bundled check", bundledCheck("python3", "/ext/bundled/launch.py", EXTENSION)],
    ["bundled server", bundledPlan("/usr/bin/python3", "/ext/bundled/launch.py", "/store/pycache", EXTENSION)],
  ];
  for (const [what, spawn] of pythons) {
    assert.equal(spawn.args[0], "-I", what);
    assert.equal(spawn.cwd, EXTENSION, what);
  }
  assert.deepEqual(environmentProbe("/py", EXTENSION).args, ["-I", "-c", "import lsp_agents; print(lsp_agents.__version__)"]);
  assert.deepEqual(environmentPlan("/py", EXTENSION).args, ["-I", "-m", "lsp_agents", "serve"]);
});

test("the language client starts the server in the plan's folder (else it would use the workspace folder)", () => {
  for (const plan of [environmentPlan("/py", EXTENSION), commandPlan({ ...settings, command: ["/opt/lsp-agents", "serve"] }, EXTENSION)!]) {
    assert.deepEqual(serverExecutable(plan), { command: plan.command, args: plan.args, options: { cwd: EXTENSION } });
  }
});

test("interpreters: the setting alone, else the Python extension's, python3, python, and py on Windows", () => {
  assert.deepEqual(interpreterCandidates({ ...settings, python: " /py " }, "/venv/bin/python", "win32"), ["/py"]);
  assert.deepEqual(interpreterCandidates(settings, "/venv/bin/python", "linux"), ["/venv/bin/python", "python3", "python"]);
  assert.deepEqual(interpreterCandidates(settings, undefined, "darwin"), ["python3", "python"]);
  assert.deepEqual(interpreterCandidates(settings, "python3", "linux"), ["python3", "python"]);
  assert.deepEqual(interpreterCandidates(settings, "C:\\venv\\Scripts\\python.exe", "win32"), ["C:\\venv\\Scripts\\python.exe", "python3", "python", "py"]);
});

test("the bundled server runs isolated, with its compiled files in the extension's storage", () => {
  assert.deepEqual(bundledArgs("/ext/bundled/launch.py", "/store/pycache"), ["-I", "-S", "-X", "pycache_prefix=/store/pycache", "/ext/bundled/launch.py", "serve"]);
});

test("the launcher's check: fit, not fit with the reason, or not run", () => {
  assert.deepEqual(judgeCheck("python3", '{"ok": true, "python": "3.12.3", "executable": "/usr/bin/python3.12", "problem": null}\n'),
    { ok: true, python: "3.12.3", executable: "/usr/bin/python3.12" });
  assert.deepEqual(judgeCheck("python3", '{"ok": false, "python": "3.10.12", "problem": "Python 3.10; the bundled server runs on Python 3.11, 3.12"}'),
    { ok: false, problem: "python3: Python 3.10; the bundled server runs on Python 3.11, 3.12" });
  assert.deepEqual(judgeCheck("python", undefined), { ok: false, problem: "python: not found or did not run" });
  assert.equal(judgeCheck("python", "Python 2.7").ok, false);
});

test("versions are compatible within a major version (0.x: within a minor version)", () => {
  assert.ok(isCompatible("0.1.3", "0.1.0"));
  assert.ok(!isCompatible("0.2.0", "0.1.0"));
  assert.ok(isCompatible("1.4.0", "1.0.0"));
  assert.ok(!isCompatible("garbage", "0.1.0"));
});

test("the environment probe: missing, incompatible, or the version", () => {
  assert.deepEqual(judgeProbe("/py", undefined, "0.1.0"), { ok: false, problem: "missing", message: "lsp-agents is not installed for /py." });
  assert.equal(judgeProbe("/py", "0.2.0\n", "0.1.0").ok, false);
  assert.deepEqual(judgeProbe("/py", "0.1.4\n", "0.1.0"), { ok: true, version: "0.1.4" });
  assert.equal(installCommand("/my py/bin/python", "0.1.0"), '"/my py/bin/python" -m pip install "lsp-agents~=0.1.0"');
});

test("the server never receives the client's own keys", () => {
  assert.deepEqual(serverSection({ server: { python: "/py" }, trace: { server: "off" }, defaultHarness: "codex" }), { defaultHarness: "codex" });
});
