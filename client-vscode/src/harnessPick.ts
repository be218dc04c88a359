// The harness quick pick: the default from settings, the last choice first.
import * as vscode from "vscode";
import { HARNESSES, isHarness, type Harness } from "./pure/protocol";
import { defaultHarness } from "./settings";

const LAST_CHOICE = "lspAgents.lastHarness";

/** The last choice, else the setting. */
function rememberedHarness(state: vscode.Memento, scope?: vscode.Uri): Harness {
  const last = state.get<string>(LAST_CHOICE);
  return isHarness(last) ? last : defaultHarness(scope);
}

export async function pickHarness(state: vscode.Memento, scope?: vscode.Uri): Promise<Harness | undefined> {
  const configured = defaultHarness(scope);
  const first = rememberedHarness(state, scope);
  const items = [first, ...HARNESSES.filter((h) => h !== first)].map((harness) => ({
    label: harness,
    description: harness === configured ? "default (lspAgents.defaultHarness)" : undefined,
  }));
  const choice = await vscode.window.showQuickPick(items, { title: "Agents: which harness?", placeHolder: "Harness whose prompt to show" });
  if (choice && isHarness(choice.label)) {
    await state.update(LAST_CHOICE, choice.label);
    return choice.label;
  }
  return undefined;
}
