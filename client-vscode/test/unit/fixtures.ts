// Results shaped exactly as the CLI prints them for examples/monorepo (paths shortened to /ws).
import type { CascadeResult, PromptResult, RemindersResult } from "../../src/pure/protocol";

export const prompt: PromptResult = {
  harness: "opencode",
  cwd: "/ws",
  eager: [{ placement: "system", text: "Instructions from: /ws/AGENTS.md\n# Acme monorepo\n" }],
  files: [
    { path: "/ws/AGENTS.md", role: "project", loaded: true, bytes: 578, truncated_at: null, reason: null },
    { path: "/ws/CLAUDE.md", role: "project", loaded: false, bytes: 158, truncated_at: null, reason: "family-shadowed", related: "/ws/AGENTS.md" },
  ],
  layers: [
    { name: "base", text: "[opencode base prompt]" },
    { name: "environment", text: "<env>\nWorking directory: /ws\n</env>" },
    { name: "instructions", text: "Instructions from: /ws/AGENTS.md\n# Acme monorepo\n```sh\npnpm test\n```\n" },
  ],
};

export const reminders: RemindersResult = {
  harness: "opencode",
  cwd: "/ws",
  read: "/ws/packages/api/src/server.test.ts",
  reminders: [{ placement: "tool-result", text: "<system-reminder>\nInstructions from: /ws/packages/api/AGENTS.md\n</system-reminder>" }],
  files: [{ path: "/ws/packages/api/AGENTS.md", role: "project", loaded: true, bytes: 185, truncated_at: null, reason: null }],
};

export const cascade: CascadeResult = {
  file: "/ws/packages/api/src/server.test.ts",
  cwd: "/ws",
  harnesses: [
    {
      harness: "opencode",
      verified: true,
      eager: [{ path: "/ws/AGENTS.md", role: "project", bytes: 578, tokens: 145 }],
      on_read: [{ path: "/ws/packages/api/AGENTS.md", role: "project", bytes: 185, tokens: 47 }],
      not_loaded: [{ path: "/ws/CLAUDE.md", role: "project", reason: "family-shadowed", related: "/ws/AGENTS.md" }],
    },
    {
      harness: "claude-code",
      verified: false,
      eager: [
        { path: "/ws/CLAUDE.md", role: "project", bytes: 158, tokens: 40 },
        { path: "/ws/AGENTS.md", role: "import", bytes: 578, tokens: 145 },
      ],
      on_read: [],
      not_loaded: [],
    },
  ],
};
