// The extension's output channel as code-server writes it: <profile>/logs/…/lsp-agents.lsp-agents/lsp-agents.log.
import fs from "node:fs";
import path from "node:path";

function find(dir) {
  for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = find(full);
      if (found) {
        return found;
      }
    } else if (entry.name === "lsp-agents.log" && dir.includes("lsp-agents")) {
      return full;
    }
  }
  return undefined;
}

/** The channel's lines, without their timestamps ("2026-… [info] text" → "[info] text"). */
export function extensionLog(logsDir) {
  const file = find(logsDir);
  return file ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => line.replace(/^\S+ \S+ /, "")) : [];
}

/** Waits for a line matching `pattern`; returns it. */
export async function waitForLine(logsDir, pattern, timeoutMs) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const line = extensionLog(logsDir).find((l) => pattern.test(l));
    if (line || Date.now() > end) {
      return line;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
