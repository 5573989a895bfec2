// The hazard-dsl extension: a client of `hazard-dsl lsp` (the language server over stdio).
// VS Code sends it the documents of language `hazard-rules` (*.hazard.yaml, *.hazard.yml) and
// every YAML file: the server itself decides which YAML files are rule files (a `# hazard-dsl`
// modeline, a hazard-dsl $schema comment, a `hazard-dsl.files` glob), so that a plain YAML
// file (.eslintrc.yml, a CI workflow) gets no diagnostic.
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function settings() {
  const config = vscode.workspace.getConfiguration("hazard-dsl");
  return { command: config.get("command") || "hazard-dsl", files: config.get("files") || [] };
}

async function activate(context) {
  const { command, files } = settings();
  const server = { command, args: ["lsp"], transport: TransportKind.stdio };
  client = new LanguageClient("hazard-dsl", "hazard-dsl rule files", { run: server, debug: server }, {
    documentSelector: [
      { scheme: "file", language: "hazard-rules" },
      { scheme: "untitled", language: "hazard-rules" },
      { scheme: "file", language: "yaml" },
    ],
    // the server reads `files` here at start, and asks for the `hazard-dsl` section
    // (workspace/configuration) whenever the settings change
    initializationOptions: { "hazard-dsl": { files } },
    synchronize: { configurationSection: "hazard-dsl" },
  });
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((event) => {
    if (event.affectsConfiguration("hazard-dsl.command")) {
      vscode.window.showInformationMessage(
        "hazard-dsl: the new command is used once the window is reloaded (Developer: Reload Window).");
    }
  }));
  try {
    await client.start();
  } catch (error) {
    vscode.window.showErrorMessage(
      `hazard-dsl: could not start \`${command} lsp\` (${error.message || error}). ` +
      "Install it with pip install 'hazard-dsl[lsp]', or set hazard-dsl.command to its full path.");
  }
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
