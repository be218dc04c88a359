import assert from "node:assert/strict";
import { test } from "node:test";
import { stderrLevel, type Level } from "../../src/pure/logLevels";

test("each stderr line of the server is logged at its record's level, a traceback at its record's", () => {
  const lines = [
    "WARNING pygls.protocol: Cancel notification for unknown message id 7",
    "ERROR lsp_agents.server.server: hover failed",
    "Traceback (most recent call last):",
    '  File "x.py", line 1, in <module>',
    "INFO lsp_agents.server.lifecycle: lsp-agents 0.1.0",
    "DEBUG asyncio: Using selector: EpollSelector",
    "CRITICAL lsp_agents: out of memory",
  ];
  let level: Level = "info";
  const levels = lines.map((line) => (level = stderrLevel(line, level)));
  assert.deepEqual(levels, ["warn", "error", "error", "error", "info", "debug", "error"]);
  assert.equal(stderrLevel("plain text before any record", "info"), "info");
});
