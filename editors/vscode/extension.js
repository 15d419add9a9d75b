// The Tactica extension: starts `tactica lsp` (over stdio) for .tac files, Rhai files and,
// unless `tactica.server.lua` is off, Lua files. Highlighting of .tac comes from
// syntaxes/tac.tmLanguage.json and needs no server.
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('tactica');
  const command = config.get('server.path', 'tactica');
  const languages = ['tac', 'rhai'];
  if (config.get('server.lua', true)) {
    languages.push('lua');
  }
  const serverOptions = {
    run: { command, args: ['lsp'], transport: TransportKind.stdio },
    debug: { command, args: ['lsp'], transport: TransportKind.stdio },
  };
  const clientOptions = {
    documentSelector: languages.map((language) => ({ scheme: 'file', language })).concat([
      { scheme: 'untitled', language: 'tac' },
    ]),
  };
  client = new LanguageClient('tactica', 'Tactica', serverOptions, clientOptions);
  client.start().catch((err) => {
    vscode.window.showErrorMessage(
      `Could not start \`${command} lsp\` (${err.message}). Install tactica (cargo install --path . in the repository) or set tactica.server.path.`,
    );
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
