// How numbers and paths read in every view: the same words as the CLI and the hover
// (lsp_agents/core/vocabulary.py), from the numbers the server computed. Nothing is re-estimated here.
import * as path from "node:path";
import { HARNESS_FACTS } from "./harnesses.generated";
import type { Harness, HarnessCascade, SentFile, Total } from "./protocol";

/** 32768 → "32,768". */
export function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** `1 file`, `2 files`. */
export function plural(value: number, word: string): string {
  return `${count(value)} ${word}${value === 1 ? "" : "s"}`;
}

/** `2 files · 763 B · ~192 tokens`. */
export function sizeLabel(total: Total): string {
  return `${plural(total.files, "file")} · ${count(total.bytes)} B · ~${count(total.tokens)} tokens`;
}

/** ` (cut at byte 32,768 of 40,000)` for a file the harness's budget cuts, else "". */
export function cutNote(file: SentFile): string {
  return file.truncated_at === null ? "" : ` (cut at byte ${count(file.truncated_at)} of ${count(file.size)})`;
}

/** `578 B · ~145 tokens`, with the cut if any. */
export function entrySize(file: SentFile): string {
  return `${count(file.bytes)} B · ~${count(file.tokens)} tokens${cutNote(file)}`;
}

/** A path as the user reads it: relative to the launch directory when inside it, `~/…` under home. */
export function displayPath(file: string, cwd: string, home?: string): string {
  const relative = path.relative(cwd, file);
  if (relative && !relative.startsWith("..") && !path.isAbsolute(relative)) {
    return relative;
  }
  if (home && file.startsWith(home + path.sep)) {
    return "~" + file.slice(home.length);
  }
  return file;
}

/** The line an editor should open a sent file at (0-based): where the harness cuts it, else the top. */
export function openLine(file: { truncated_line?: number | null }): number {
  return file.truncated_line ?? 0;
}

/** `verified against 1.18.33` or `documented, not verified (…)`, as the CLI says it. */
export function versionNote(entry: HarnessCascade): string {
  const note = verification(entry);
  const installed = entry.installed ? `; installed ${entry.installed.version}${entry.installed.newer ? " (newer than verified)" : ""}` : "";
  return note + installed;
}

/** `a`, `a or b`, `a, b or c`. */
function either(names: string[]): string {
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}` : (names[0] ?? "instruction file");
}

/**
 * A harness's total as a row shows it, with why it sends nothing when it sends nothing: it found
 * none of its files (`0 files · no GEMINI.md found`), or found some and sent none (`0 files · 2
 * not loaded`).
 */
export function harnessTotal(entry: HarnessCascade): string {
  if (entry.total.files) {
    return sizeLabel(entry.total);
  }
  const why = entry.not_loaded.length ? `${count(entry.not_loaded.length)} not loaded` : `no ${either(entry.looks_for)} found`;
  return `0 files · ${why}`;
}

/**
 * A harness as a picker lists it: its full name, whether its model is verified against captures
 * of its CLI or follows its documentation, and how many files it sends for the file at hand
 * (`Claude Code · verified · 5 files`, `Gemini CLI · verified · no files`).
 */
export function harnessLabel(entry: HarnessCascade): string {
  const files = entry.total.files ? plural(entry.total.files, "file") : "no files";
  return `${entry.title} · ${entry.verified ? "verified" : "documented"} · ${files}`;
}

/** `verified against 1.18.33`, `documented, not verified (cursor.com/docs 2026)`. */
function verification(facts: { verified: boolean; version: string }): string {
  return facts.verified ? `verified against ${facts.version}` : `documented, not verified (${facts.version})`;
}

/**
 * A harness in the picker before the active file's cascade has come (or with no file open): its
 * full name and whether it is verified, from the registry, as label and detail.
 */
export function harnessFactsLabel(harness: Harness): { label: string; detail: string } {
  const facts = HARNESS_FACTS[harness];
  return { label: `${facts.title} · ${facts.verified ? "verified" : "documented"}`, detail: verification(facts) };
}
