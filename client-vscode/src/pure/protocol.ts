// The contract with the server and the manifest: command ids, harness ids, result shapes.
// The result shapes are the JSON the CLI prints (`lsp-agents prompt|reminders|cascade --format json`).

import { HARNESSES } from "./harnesses.generated";

// Both lists come from the harness registry: scripts/generate_harness_lists.py writes them.
export { HARNESSES, INSTRUCTION_GLOBS } from "./harnesses.generated";
export type Harness = (typeof HARNESSES)[number];

export function isHarness(value: unknown): value is Harness {
  return typeof value === "string" && (HARNESSES as readonly string[]).includes(value);
}

/** The `source` of the server's diagnostics. */
export const SOURCE = "lsp-agents";

/** Commands the server answers over `workspace/executeCommand`. */
export const SERVER_COMMANDS = {
  effectivePrompt: "lspAgents.effectivePrompt",
  fileReminders: "lspAgents.fileReminders",
  cascade: "lspAgents.cascade",
  fileUses: "lspAgents.fileUses",
  /** `lsp-agents diff BASE --format json` against the work tree (src/pure/diff.ts has its shape). */
  diff: "lspAgents.diff",
  revisions: "lspAgents.revisions",
} as const;

/** The notification the server sends after each analysis of a folder: `{folder, files}`. */
export const ANALYSIS_COMPLETE = "lspAgents/analysisComplete";

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

export interface Layer extends Block {
  name: string;
  source?: string;
}

/** Files, bytes and tokens sent together: the core's one count, shown as it is everywhere. */
export interface Total {
  files: number;
  bytes: number;
  tokens: number;
}

/** A file as the prompt and reminders answers list it; `bytes` and `tokens` count what is sent. */
export interface FileEntry {
  path: string;
  role: string;
  loaded: boolean;
  bytes: number;
  tokens: number;
  size: number;
  truncated_at: number | null;
  truncated_line: number | null;
  reason: string | null;
  explanation?: string;
  related?: string;
}

export interface PromptResult {
  harness: string;
  cwd: string;
  eager: Block[];
  files: FileEntry[];
  total: Total;
  layers: Layer[];
}

export interface RemindersResult {
  harness: string;
  cwd: string;
  read: string;
  reminders: Block[];
  files: FileEntry[];
  total: Total;
}

/** A file a harness sends, in the cascade answer. */
export interface SentFile {
  path: string;
  role: string;
  bytes: number;
  tokens: number;
  size: number;
  truncated_at: number | null;
  truncated_line: number | null;
}

/** A file a harness weighed and did not send, with the reason in words. */
export interface SkippedFile {
  path: string;
  role: string;
  size: number;
  reason: string;
  explanation: string;
  related?: string;
}

export interface HarnessCascade {
  harness: string;
  title: string;
  verified: boolean;
  version: string;
  installed: { version: string; path: string; newer: boolean } | null;
  eager: SentFile[];
  on_read: SentFile[];
  not_loaded: SkippedFile[];
  total: Total;
  /** The instruction files and folders the harness looks for (`GEMINI.md`): named when it finds none. */
  looks_for: string[];
}

export interface CascadeResult {
  file: string;
  cwd: string;
  harnesses: HarnessCascade[];
}

/** What one harness launched in `cwd` does with an instruction file. */
export interface FileUse {
  cwd: string;
  when: "at start" | "on read" | null;
  size: number;
  truncated_at: number | null;
  reason: string | null;
  explanation?: string;
  related?: string;
}

/** Who sends an instruction file (`lspAgents.fileUses`): `summary` is what the hover and the code lens say. */
export interface FileUsesResult {
  file: string;
  harnesses: { harness: string; sends: boolean; summary: string; uses: FileUse[] }[];
  shadows: { harness: string; cwd: string; path: string; reason: string; explanation: string }[];
}
