// Calls back when instruction files change: on disk (watchers) or in an unsaved editor.
import * as vscode from "vscode";
import { INSTRUCTION_GLOBS } from "./pure/protocol";

export function watchInstructionFiles(onChange: () => void): vscode.Disposable[] {
  const selector = INSTRUCTION_GLOBS.map((pattern) => ({ pattern }));
  const watchers = INSTRUCTION_GLOBS.map((glob) => vscode.workspace.createFileSystemWatcher(glob));
  return [
    ...watchers,
    ...watchers.flatMap((w) => [w.onDidCreate(onChange), w.onDidChange(onChange), w.onDidDelete(onChange)]),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.contentChanges.length && vscode.languages.match(selector, e.document)) {
        onChange();
      }
    }),
  ];
}
