// The harness the status bar, the tree and the views follow: the last one chosen (in a view, the
// status bar or the palette), else lspAgents.defaultHarness.
import * as path from "node:path";
import * as vscode from "vscode";
import { harnessFactsLabel, harnessLabel, sizeLabel, versionNote } from "./pure/format";
import { HARNESSES, isHarness, type CascadeResult, type Harness } from "./pure/protocol";
import { defaultHarness, SECTION } from "./settings";

const LAST_CHOICE = "lspAgents.lastHarness";

export class HarnessChoice implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Harness>();
  readonly onDidChange = this.changed.event;
  private readonly watch: vscode.Disposable;

  constructor(private readonly state: vscode.Memento) {
    // A new default in the settings is a new choice.
    this.watch = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.defaultHarness`)) {
        void this.state.update(LAST_CHOICE, undefined).then(() => this.changed.fire(this.current()));
      }
    });
  }

  current(scope?: vscode.Uri): Harness {
    const last = this.state.get<string>(LAST_CHOICE);
    return isHarness(last) ? last : defaultHarness(scope);
  }

  async choose(harness: Harness): Promise<void> {
    if (harness !== this.current()) {
      await this.state.update(LAST_CHOICE, harness);
      this.changed.fire(harness);
    }
  }

  /**
   * The palette's quick pick, the current harness first: each by its full name, whether its model
   * is verified or documented (from the registry, at once), and, once the active file's cascade has
   * come, how many files it sends.
   */
  async pick(cascade?: CascadeResult): Promise<Harness | undefined> {
    const current = this.current();
    const items = [current, ...HARNESSES.filter((h) => h !== current)].map((harness) => {
      const entry = cascade?.harnesses.find((h) => h.harness === harness);
      const known = entry
        ? { label: harnessLabel(entry), detail: `${versionNote(entry)} · ${sizeLabel(entry.total)} for ${path.basename(cascade?.file ?? "")}` }
        : harnessFactsLabel(harness);
      return { harness, ...known, description: harness === current ? `${harness} · current` : harness };
    });
    const choice = await vscode.window.showQuickPick(items, {
      title: "lsp-agents: Choose Harness",
      placeHolder: "The harness the status bar, tree and views show",
      matchOnDescription: true,
    });
    if (choice) {
      await this.choose(choice.harness);
      return choice.harness;
    }
    return undefined;
  }

  dispose(): void {
    this.watch.dispose();
    this.changed.dispose();
  }
}
