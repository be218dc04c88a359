// Answers exactly as the CLI prints them for examples/monorepo (paths shortened to /ws, home
// /home/u), with Codex's budget lowered to 500 bytes so that AGENTS.md is cut; the cascade keeps
// three harnesses. Regenerate with `lsp-agents prompt|reminders|cascade --format json` if the JSON changes.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { CascadeResult, PromptResult, RemindersResult } from "../../src/pure/protocol";

const answers = JSON.parse(readFileSync(path.join(__dirname, "fixtures", "monorepo.json"), "utf8"));

export const prompt: PromptResult = answers.prompt;
export const reminders: RemindersResult = answers.reminders;
export const cascade: CascadeResult = answers.cascade;
export const harness = (id: string) => {
  const entry = cascade.harnesses.find((h) => h.harness === id);
  if (!entry) {
    throw new Error(`no ${id} in the fixture`);
  }
  return entry;
};
