// Tokenizes every .tac file in the repository with the extension's TextMate grammar (through
// vscode-textmate and the Oniguruma engine VS Code uses) and fails when:
//   - a character that is not whitespace gets no scope beyond the root `source.tac` (text the
//     grammar does not cover), or
//   - a character gets `invalid.illegal` (the grammar's catch-all for what the lexer refuses),
//     except in the files that exist to show that mistake (`e0002` in their name, the unknown
//     character diagnostic), which must get at least one, or
//   - a sample line does not get the scopes it should.
// Prints the counts of files, lines and tokens.
'use strict';

const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const here = path.resolve(__dirname, '..');
const repo = path.resolve(here, '..', '..');

function tacFiles() {
  try {
    const out = execFileSync('git', ['-C', repo, 'ls-files', '*.tac'], { encoding: 'utf8' });
    return out.split('\n').filter(Boolean);
  } catch (e) {
    // Not a git checkout: walk the tree instead.
    const found = [];
    const walk = (dir) => {
      for (const entry of fs.readdirSync(path.join(repo, dir), { withFileTypes: true })) {
        if (['.git', 'target', 'node_modules'].includes(entry.name)) continue;
        const rel = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(rel);
        else if (entry.name.endsWith('.tac')) found.push(rel);
      }
    };
    walk('');
    return found.sort();
  }
}

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.tac') return null;
      const file = path.join(here, 'syntaxes', 'tac.tmLanguage.json');
      return vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
    },
  });
  return registry.loadGrammar('source.tac');
}

// Every token of `text`, line by line: { line, text, scopes }.
function tokenize(grammar, text) {
  const out = [];
  let state = vsctm.INITIAL;
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    const r = grammar.tokenizeLine(line, state);
    r.tokens.forEach((t) => out.push({ line: i + 1, column: t.startIndex + 1, text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes }));
    state = r.ruleStack;
  });
  return { tokens: out, lines: lines.length };
}

// What a sample line's tokens must include: [text, scope prefix].
const SAMPLES = [
  ['machine Guard {', [['machine', 'storage.type.tac'], ['Guard', 'entity.name.type.tac'], ['{', 'punctuation.section.block.tac']]],
  ['  state kPatrol { entry { Say("On patrol."); } when PlayerArmed == TRUE -> kAttack; }', [
    ['state', 'storage.type.tac'],
    ['kPatrol', 'entity.name.function.tac'],
    ['entry', 'keyword.other.section.tac'],
    ['Say', 'entity.name.function.call.tac'],
    ['On patrol.', 'string.quoted.double.tac'],
    ['when', 'keyword.control.tac'],
    ['==', 'keyword.operator.comparison.tac'],
    ['TRUE', 'constant.language.boolean.tac'],
    ['->', 'keyword.operator.arrow.tac'],
    ['kAttack', 'entity.name.function.tac'],
  ]],
  ["once on think start Breach; -- a comment", [
    ['once', 'keyword.control.tac'],
    ['on', 'keyword.control.handler.tac'],
    ['think', 'support.type.event.tac'],
    ['start', 'keyword.other.start.tac'],
    ['Breach', 'entity.name.type.tac'],
    ['-- a comment', 'comment.line.double-dash.tac'],
  ]],
  ["If (LEVEL < 5) BEGIN Say('it\\'s late'); END # note", [
    ['If', 'keyword.control.tac'],
    ['LEVEL', 'variable.other.constant.tac'],
    ['5', 'constant.numeric.integer.tac'],
    ['BEGIN', 'keyword.control.tac'],
    ["\\'", 'constant.character.escape.tac'],
    ['# note', 'comment.line.number-sign.tac'],
  ]],
  ['  rule walls weight 1 when Gold >= 100.5 and Walls == No then Build(kStoneWall); // x', [
    ['rule', 'storage.type.tac'],
    ['walls', 'entity.name.function.tac'],
    ['weight', 'keyword.other.tac'],
    ['100.5', 'constant.numeric.float.tac'],
    ['and', 'keyword.operator.word.tac'],
    ['kStoneWall', 'constant.other.named.tac'],
    ['// x', 'comment.line.double-slash.tac'],
  ]],
  ['signal team ready; wait go; say one of ["a", "b"];', [
    ['signal', 'keyword.other.signal.tac'],
    ['team', 'storage.modifier.scope.tac'],
    ['ready', 'entity.name.label.signal.tac'],
    ['go', 'entity.name.label.signal.tac'],
    ['say one of', 'keyword.other.tac'],
  ]],
  ['Say("café ☕") @', [['café ☕', 'string.quoted.double.tac'], ['@', 'invalid.illegal.character.tac']]],
];

function hasScope(token, prefix) {
  return token.scopes.some((s) => s === prefix || s.startsWith(prefix + '.'));
}

async function main() {
  const grammar = await loadGrammar();
  const failures = [];
  let files = 0;
  let lines = 0;
  let tokens = 0;
  let illegalFiles = 0;
  for (const rel of tacFiles()) {
    const text = fs.readFileSync(path.join(repo, rel), 'utf8');
    const r = tokenize(grammar, text);
    files += 1;
    lines += r.lines;
    tokens += r.tokens.length;
    const expectIllegal = /e0002/i.test(path.basename(rel));
    let illegal = 0;
    for (const t of r.tokens) {
      if (hasScope(t, 'invalid.illegal')) {
        illegal += 1;
        if (!expectIllegal) failures.push(`${rel}:${t.line}:${t.column}: invalid ${JSON.stringify(t.text)}`);
      } else if (t.scopes.length < 2 && t.text.trim() !== '') {
        failures.push(`${rel}:${t.line}:${t.column}: no scope for ${JSON.stringify(t.text)}`);
      }
    }
    if (expectIllegal) {
      illegalFiles += 1;
      if (illegal === 0) failures.push(`${rel}: shows an unknown character, but nothing was marked invalid`);
    }
  }
  if (files === 0) failures.push('no .tac file found');
  let samples = 0;
  for (const [line, want] of SAMPLES) {
    const { tokens: got } = tokenize(grammar, line);
    for (const [text, scope] of want) {
      samples += 1;
      // The tokens covering `text`, which may be split (a string's quotes, a capture's parts).
      // A word is found as a whole word (`on`, not the start of `once`).
      const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const m = new RegExp(/^\w/.test(text) ? `(?<![\\w])${escaped}(?![\\w])` : escaped).exec(line);
      const at = m ? m.index : -1;
      const covering = got.filter((t) => t.column - 1 < at + text.length && t.column - 1 + t.text.length > at);
      if (at < 0 || covering.length === 0 || !covering.every((t) => hasScope(t, scope))) {
        const seen = covering.map((t) => `${JSON.stringify(t.text)}: ${t.scopes.join(' ')}`).join('; ');
        failures.push(`sample ${JSON.stringify(line)}: ${JSON.stringify(text)} should be ${scope}, got ${seen}`);
      }
    }
  }
  for (const f of failures) console.error(`FAIL ${f}`);
  console.log(
    `tac grammar: ${files} files, ${lines} lines, ${tokens} tokens (${illegalFiles} file(s) meant to hold an unknown character), ${samples} sample scopes`,
  );
  console.log(`${samples + files - failures.length} passed, ${failures.length} failed`);
  process.exit(failures.length === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
