// The views' only script: clicks and the harness list become messages to the extension.
(function () {
  const vscode = acquireVsCodeApi();
  document.addEventListener("click", (event) => {
    const target = event.target.closest("[data-open],[data-show],[data-copy]");
    if (!target) {
      return;
    }
    event.preventDefault();
    if (target.dataset.open !== undefined) {
      vscode.postMessage({ type: "open", path: target.dataset.open, line: Number(target.dataset.line || 0) });
    } else if (target.dataset.show) {
      vscode.postMessage({ type: "show", kind: target.dataset.show, harness: target.dataset.harness });
    } else if (target.dataset.copy) {
      vscode.postMessage({ type: "copy", text: document.getElementById(target.dataset.copy).textContent });
    }
  });
  const harness = document.getElementById("harness");
  if (harness) {
    harness.addEventListener("change", () => vscode.postMessage({ type: "harness", harness: harness.value }));
  }
})();
