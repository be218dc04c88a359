// The contract with the server and the manifest: command ids, harness ids, result shapes.
// The result shapes are the JSON the CLI prints (`lsp-agents prompt|reminders|cascade --format json`).

export const HARNESSES = [
  "opencode",
  "codex",
  "claude-code",
  "gemini",
  "copilot",
  "cursor",
  "agents-md",
  "pi",
  "copilot-cli",
  "qwen",
  "kilo",
  "droid",
  "continue",
  "cline",
] as const;
export type Harness = (typeof HARNESSES)[number];

export function isHarness(value: unknown): value is Harness {
  return typeof value === "string" && (HARNESSES as readonly string[]).includes(value);
}

/** Files whose presence activates the extension and whose changes refresh the views. */
export const INSTRUCTION_GLOBS = [
  "**/AGENTS.md",
  "**/AGENTS.override.md",
  "**/CLAUDE.md",
  "**/CLAUDE.local.md",
  "**/.claude/**",
  "**/CONTEXT.md",
  "**/GEMINI.md",
  "**/.gemini/settings.json",
  "**/opencode.json",
  "**/.github/copilot-instructions.md",
  "**/.github/instructions/**",
  "**/.cursor/rules/**",
  "**/.cursorrules",
] as const;

/** Commands the server answers over `workspace/executeCommand`. */
export const SERVER_COMMANDS = {
  effectivePrompt: "lspAgents.effectivePrompt",
  fileReminders: "lspAgents.fileReminders",
  cascade: "lspAgents.cascade",
} as const;

/** The client command that shows a server command's result: code lenses name the server command. */
export const VIEW_COMMANDS: Record<string, string> = {
  [SERVER_COMMANDS.effectivePrompt]: "lspAgents.showEffectivePrompt",
  [SERVER_COMMANDS.fileReminders]: "lspAgents.showFileReminders",
  [SERVER_COMMANDS.cascade]: "lspAgents.showCascade",
};

export interface Block {
  placement: string;
  text: string;
}

export interface Candidate {
  path: string;
  role: string;
  loaded: boolean;
  bytes: number;
  truncated_at: number | null;
  reason: string | null;
  related?: string;
}

export interface PromptResult {
  harness: string;
  cwd: string;
  eager: Block[];
  files: Candidate[];
  layers?: { name: string; text: string }[];
}

export interface RemindersResult {
  harness: string;
  cwd: string;
  read: string;
  reminders: Block[];
  files: Candidate[];
}

export interface CascadeEntry {
  path: string;
  role: string;
  bytes: number;
  tokens: number;
}

export interface CascadeSkip {
  path: string;
  role: string;
  reason: string;
  related?: string;
}

export interface HarnessCascade {
  harness: string;
  verified: boolean;
  eager: CascadeEntry[];
  on_read: CascadeEntry[];
  not_loaded: CascadeSkip[];
}

export interface CascadeResult {
  file: string;
  cwd: string;
  harnesses: HarnessCascade[];
}
