// The "Agent Instructions" tree for the active file: per harness, what it does with the file itself
// when it is an instruction file (the words of the hover and the code lens), what is sent at start,
// what a read of the file adds, and what is not loaded with the reason in words; the chosen harness first.
import * as path from "node:path";
import { changedHere, summaryLine, type DiffAnswer } from "./diff";
import { displayPath, entrySize, harnessTotal, openLine, plural, sizeLabel, versionNote } from "./format";
import type { CascadeResult, FileUsesResult, HarnessCascade, SentFile, SkippedFile } from "./protocol";

export interface TreeNode {
  id: string;
  label: string;
  description: string;
  tooltip: string;
  /** A codicon id. */
  icon: string;
  /** The file a click opens, at a 0-based line. */
  open?: { path: string; line: number };
  children: TreeNode[];
  expanded: boolean;
  /** Set on harness nodes: their inline "Show Prompt" action. */
  harness?: string;
  /** The revision a click compares with ("Compare With…" at once). */
  compare?: string;
}

function sentNode(id: string, file: SentFile, when: string, cwd: string, home?: string): TreeNode {
  return {
    id,
    label: displayPath(file.path, cwd, home),
    description: entrySize(file),
    tooltip: `${file.path}\n${when} · ${file.role} · ${entrySize(file)}`,
    icon: file.truncated_at === null ? "file" : "warning",
    open: { path: file.path, line: openLine(file) },
    children: [],
    expanded: false,
  };
}

function skippedNode(id: string, file: SkippedFile, cwd: string, home?: string): TreeNode {
  const related = file.related ? ` (${displayPath(file.related, cwd, home)})` : "";
  return {
    id,
    label: displayPath(file.path, cwd, home),
    description: file.explanation + related,
    tooltip: `${file.path}\nnot loaded: ${file.explanation}${related}`,
    icon: "circle-slash",
    open: { path: file.path, line: 0 },
    children: [],
    expanded: false,
  };
}

function group(id: string, label: string, children: TreeNode[]): TreeNode[] {
  if (children.length === 0) {
    return [];
  }
  return [{ id, label, description: plural(children.length, "file"), tooltip: label, icon: "folder", children, expanded: true }];
}

/** "This file": what the harness does with the active file itself, as the hover and the code lens say it. */
function thisFileNode(id: string, summary: { sends: boolean; summary: string }, file: string): TreeNode {
  return {
    id: `${id}/this`,
    label: "This file",
    description: summary.summary,
    tooltip: `${file}\n${summary.summary}`,
    icon: summary.sends ? "file" : "circle-slash",
    children: [],
    expanded: false,
  };
}

function harnessNode(entry: HarnessCascade, result: CascadeResult, current: boolean, uses?: FileUsesResult, home?: string): TreeNode {
  const id = `${entry.harness}`;
  const { cwd } = result;
  const own = uses?.harnesses.find((h) => h.harness === entry.harness);
  const children = [
    ...(own ? [thisFileNode(id, own, result.file)] : []),
    ...group(`${id}/start`, "At start", entry.eager.map((f, i) => sentNode(`${id}/start/${i}`, f, "at start", cwd, home))),
    ...group(`${id}/read`, "On read", entry.on_read.map((f, i) => sentNode(`${id}/read/${i}`, f, "on read", cwd, home))),
    ...group(`${id}/skip`, "Not loaded", entry.not_loaded.map((f, i) => skippedNode(`${id}/skip/${i}`, f, cwd, home))),
  ];
  return {
    id,
    label: entry.harness,
    description: harnessTotal(entry),
    tooltip: `${entry.title}: ${sizeLabel(entry.total)} for this file (${versionNote(entry)})`,
    icon: current ? "star-full" : "hubot",
    children,
    expanded: current,
    harness: entry.harness,
  };
}

export function instructionTree(result: CascadeResult, current: string, home?: string, uses?: FileUsesResult): TreeNode[] {
  const ordered = [...result.harnesses].sort((a, b) => Number(b.harness === current) - Number(a.harness === current));
  return ordered.map((entry) => harnessNode(entry, result, entry.harness === current, uses, home));
}

/**
 * "Changed since HEAD": the uncommitted change alters the prompt some harness sends from the active
 * file's launch directory (`cwd`), or introduces findings; undefined when it does neither.
 */
export function sinceHeadNode(answer: DiffAnswer, cwd: string): TreeNode | undefined {
  const here = changedHere(answer, path.relative(answer.root, cwd) || ".");
  if (!here) {
    return undefined;
  }
  const parts = [
    ...(here.harnesses.length ? [`${here.harnesses.join(", ")}: ${plural(here.rows, "file")}`] : []),
    ...(here.findings ? [`${plural(here.findings, "finding")} introduced`] : []),
  ];
  return {
    id: "since-head",
    label: "Changed since HEAD",
    description: parts.join(" · "),
    tooltip: `${summaryLine(answer)}\nClick to compare with HEAD.`,
    icon: "git-compare",
    children: [],
    expanded: false,
    compare: "HEAD",
  };
}
