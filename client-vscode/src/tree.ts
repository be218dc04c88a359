// The "Agent Instructions" view (its own side bar): the tree of src/pure/tree.ts for the active file,
// refreshed with it; a click on a file opens it at the right line. "Changed since HEAD" comes first
// when the uncommitted change alters a prompt sent from the file's launch directory.
import * as path from "node:path";
import * as vscode from "vscode";
import type { ActiveFile } from "./activeFile";
import type { HarnessChoice } from "./harness";
import { instructionTree, sinceHeadNode, type TreeNode } from "./pure/tree";
import { homeDirectory } from "./settings";
import type { SinceHead } from "./sinceHead";

export const TREE_VIEW = "lspAgents.instructions";

export class InstructionTree implements vscode.TreeDataProvider<TreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private roots: TreeNode[] = [];
  private readonly view: vscode.TreeView<TreeNode>;
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly active: ActiveFile,
    private readonly choice: HarnessChoice,
    private readonly sinceHead: SinceHead,
  ) {
    this.view = vscode.window.createTreeView(TREE_VIEW, { treeDataProvider: this, showCollapseAll: true });
    this.subscriptions = [active.onDidChange(() => this.rebuild()), choice.onDidChange(() => this.rebuild()), sinceHead.onDidChange(() => this.rebuild())];
    this.rebuild();
  }

  private rebuild(): void {
    const { uri, result, uses, pending, error } = this.active.current;
    const compared = uri && result ? this.sinceHead.of(uri) : undefined;
    const changed = compared && result ? sinceHeadNode(compared, result.cwd) : undefined;
    this.roots = uri && result ? [...(changed ? [changed] : []), ...instructionTree(result, this.choice.current(uri), homeDirectory(uri), uses)] : [];
    this.view.description = uri ? path.basename(uri.fsPath) : undefined;
    this.view.message = !uri ? "Open a file of the workspace to see what each harness sends with it."
      : error ? `lsp-agents: ${error}`
      : pending && !result ? "Computing what each harness sends with this file…" : undefined;
    this.changed.fire();
  }

  getChildren(node?: TreeNode): TreeNode[] {
    return node ? node.children : this.roots;
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    const state = node.children.length === 0 ? vscode.TreeItemCollapsibleState.None
      : node.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(node.label, state);
    item.id = `${this.active.current.uri?.toString()}#${node.id}`;
    item.description = node.description;
    item.tooltip = node.tooltip;
    item.iconPath = new vscode.ThemeIcon(node.icon);
    item.contextValue = node.harness ? "harness" : undefined;
    if (node.open) {
      const position = new vscode.Position(node.open.line, 0);
      item.command = { title: "Open", command: "vscode.open", arguments: [vscode.Uri.file(node.open.path), { selection: new vscode.Range(position, position) }] };
    } else if (node.compare) {
      item.command = { title: "Compare", command: "lspAgents.compareWith", arguments: [{ uri: this.active.current.uri?.toString(), base: node.compare }] };
    }
    return item;
  }

  /** The harness of a tree node given to a command (the inline "Show Prompt" action). */
  static harnessOf(node: unknown): string | undefined {
    return (node as TreeNode | undefined)?.harness;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
    this.view.dispose();
    this.changed.dispose();
  }
}
