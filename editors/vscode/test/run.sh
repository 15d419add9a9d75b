#!/usr/bin/env bash
# Tests the VS Code extension's TextMate grammar: installs the locked dev dependencies
# (vscode-textmate, vscode-oniguruma) and tokenizes every .tac file of the repository.
# Needs node and npm only; run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
npm ci --no-audit --no-fund --loglevel=error
node test/tokenize.js
