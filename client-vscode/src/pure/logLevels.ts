// The level of a line the server writes on stderr: its Python logging records start with the
// level's name ("WARNING lsp_agents.server: …", lsp_agents/server/logs.py); the lines that follow
// a record (a traceback) belong to it.

export type Level = "trace" | "debug" | "info" | "warn" | "error";

const LEVELS: Record<string, Level> = { DEBUG: "debug", INFO: "info", WARNING: "warn", ERROR: "error", CRITICAL: "error" };
const RECORD = /^(DEBUG|INFO|WARNING|ERROR|CRITICAL) \S+: /;

/** The level of `line`: its record's, else the level of the record it continues (`previous`). */
export function stderrLevel(line: string, previous: Level): Level {
  const match = RECORD.exec(line);
  return match ? LEVELS[match[1]] : previous;
}
