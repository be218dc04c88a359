import assert from "node:assert/strict";
import { test } from "node:test";
import { installCommand, isCompatible, judgeProbe, launchPlan, serverSection } from "../../src/pure/launch";

test("server.command wins over every interpreter", () => {
  assert.deepEqual(launchPlan({ command: ["/opt/lsp-agents", "serve"], python: "/usr/bin/python3.12" }, "/venv/bin/python"), {
    kind: "command",
    command: "/opt/lsp-agents",
    args: ["serve"],
  });
});

test("then server.python, then the Python extension's interpreter, then python3", () => {
  const serve = ["-m", "lsp_agents", "serve"];
  assert.deepEqual(launchPlan({ command: [], python: "/py" }, "/venv/bin/python"), { kind: "python", command: "/py", args: serve });
  assert.deepEqual(launchPlan({ command: [" "], python: " " }, "/venv/bin/python"), { kind: "python", command: "/venv/bin/python", args: serve });
  assert.deepEqual(launchPlan({ command: [], python: "" }), { kind: "python", command: "python3", args: serve });
});

test("versions: same major, and the same minor while 0.x", () => {
  assert.equal(isCompatible("0.1.7", "0.1.0"), true);
  assert.equal(isCompatible("0.2.0", "0.1.0"), false);
  assert.equal(isCompatible("1.4.0", "1.0.2"), true);
  assert.equal(isCompatible("2.0.0", "1.9.0"), false);
  assert.equal(isCompatible("dev", "0.1.0"), false);
});

test("the probe verdict names the problem and the interpreter", () => {
  assert.deepEqual(judgeProbe("/py", "0.1.3\n", "0.1.0"), { ok: true, version: "0.1.3" });
  const missing = judgeProbe("/py", undefined, "0.1.0");
  assert.equal(missing.ok, false);
  assert.ok(!missing.ok && missing.problem === "missing" && missing.message.includes("/py"));
  const old = judgeProbe("/py", "0.0.9", "0.1.0");
  assert.ok(!old.ok && old.problem === "incompatible" && old.message.includes("0.0.9"));
});

test("installCommand pins a compatible release and quotes odd paths", () => {
  assert.equal(installCommand("python3", "0.1.0"), 'python3 -m pip install "lsp-agents~=0.1.0"');
  assert.equal(installCommand("/My Env/python", "1.2.0"), '"/My Env/python" -m pip install "lsp-agents~=1.0"');
});

test("the server never sees the client-only keys", () => {
  assert.deepEqual(serverSection({ server: { python: "x" }, trace: { server: "off" }, defaultHarness: "codex" }), { defaultHarness: "codex" });
});
