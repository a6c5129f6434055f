// Tokenizes Fabric intent with the real TextMate engine (vscode-textmate on
// vscode-oniguruma, as VS Code does) and checks the scopes of chosen tokens.
//
//   node test/grammar.js QOS.fab.hcl [MORE.fab.hcl...]
//
// QOS must be the clos-400g example's qos.fab.hcl (or hold the lines the
// checks below look for); a built-in hostile sample is checked too. Every
// file, QOS and MORE, must tokenize within the time limit and end with
// every comment, string, heredoc and interpolation closed.
// Prints every failure and exits 1 when there is one.
'use strict';

const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const root = path.join(__dirname, '..');
const grammarPath = path.join(root, 'syntaxes', 'fabricgen.tmLanguage.json');

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.fabricgen') return null;
      return vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath);
    },
  });
  const grammar = await registry.loadGrammar('source.fabricgen');
  if (!grammar) throw new Error(`cannot load ${grammarPath}`);
  return grammar;
}

// tokenize returns, per line, the tokens as {text, scopes}.
function tokenize(grammar, text) {
  const lines = text.split(/\r?\n/);
  let state = vsctm.INITIAL;
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const r = grammar.tokenizeLine(line, state, 5000);
    if (r.stoppedEarly) throw new Error(`line ${i + 1}: tokenizing stopped early (over the 5 s time limit)`);
    out.push(r.tokens.map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes })));
    state = r.ruleStack;
  }
  return { lines, tokens: out, endDepth: state.depth };
}

class Checker {
  constructor(name, doc) {
    this.name = name;
    this.doc = doc;
    this.failures = [];
    this.checks = 0;
  }

  fail(msg) {
    this.failures.push(`${this.name}: ${msg}`);
  }

  // lineIndex finds the first line (after `after`) that `match` (a string
  // the line starts with after its indentation, or a RegExp) matches.
  lineIndex(match, after = -1) {
    for (let i = after + 1; i < this.doc.lines.length; i++) {
      const l = this.doc.lines[i];
      if (typeof match === 'string' ? l.trimStart().startsWith(match) : match.test(l)) return i;
    }
    return -1;
  }

  // expect checks that the nth (from 0) token with exactly `text` on the
  // line found by `match` has every scope in `want` and none in `not`.
  expect(match, text, want, opts = {}) {
    this.checks++;
    const i = typeof match === 'number' ? match : this.lineIndex(match);
    if (i < 0 || i >= this.doc.lines.length) {
      this.fail(`no line matches ${String(match)}`);
      return;
    }
    const hits = this.doc.tokens[i].filter((t) => t.text === text);
    const tok = hits[opts.nth || 0];
    if (!tok) {
      const got = this.doc.tokens[i].map((t) => JSON.stringify(t.text)).join(' ');
      this.fail(`line ${i + 1} ${JSON.stringify(this.doc.lines[i])}: no token ${JSON.stringify(text)} (#${opts.nth || 0}); tokens: ${got}`);
      return;
    }
    const missing = want.filter((s) => !tok.scopes.includes(s));
    const extra = (opts.not || []).filter((s) => tok.scopes.some((x) => x === s || x.startsWith(s + '.')));
    const count = opts.count ? Object.entries(opts.count).filter(([s, n]) => tok.scopes.filter((x) => x === s).length !== n) : [];
    if (missing.length || extra.length || count.length) {
      this.fail(`line ${i + 1} token ${JSON.stringify(text)}: scopes [${tok.scopes.join(', ')}]` +
        (missing.length ? `; missing ${missing.join(', ')}` : '') +
        (extra.length ? `; must not have ${extra.join(', ')}` : '') +
        (count.length ? `; wrong count of ${count.map(([s, n]) => `${s} (want ${n})`).join(', ')}` : ''));
    }
  }

  // expectClosed checks that the text ends outside every begin/end rule.
  expectClosed() {
    this.checks++;
    if (this.doc.endDepth !== 1) {
      this.fail(`ends inside ${this.doc.endDepth - 1} open rule(s) (a comment, string, heredoc or interpolation left open)`);
    }
  }

  // expectLine checks that every token on a line has (or lacks) a scope.
  expectLine(i, scope, has) {
    this.checks++;
    for (const t of this.doc.tokens[i]) {
      if (t.text.trim() === '') continue;
      if (t.scopes.includes(scope) !== has) {
        this.fail(`line ${i + 1} token ${JSON.stringify(t.text)}: scopes [${t.scopes.join(', ')}] ${has ? 'lack' : 'have'} ${scope}`);
        return;
      }
    }
  }
}

const S = {
  block: 'storage.type.block.fabricgen',
  label: 'entity.name.label.fabricgen',
  attr: 'entity.other.attribute-name.fabricgen',
  ref: 'variable.other.reference.fabricgen',
  refRoot: 'variable.other.object.fabricgen',
  builtin: 'variable.language.fabricgen',
  member: 'variable.other.member.fabricgen',
  lineComment: 'comment.line.number-sign.fabricgen',
  slashComment: 'comment.line.double-slash.fabricgen',
  blockComment: 'comment.block.fabricgen',
  str: 'string.quoted.double.fabricgen',
  interp: 'meta.interpolation.fabricgen',
  interpBegin: 'punctuation.section.interpolation.begin.fabricgen',
  directive: 'meta.template.directive.fabricgen',
  directiveKw: 'keyword.control.directive.fabricgen',
  heredoc: 'string.unquoted.heredoc.fabricgen',
  heredocMarker: 'keyword.control.heredoc.fabricgen',
  num: 'constant.numeric.fabricgen',
  bool: 'constant.language.boolean.fabricgen',
  nul: 'constant.language.null.fabricgen',
  kw: 'keyword.control.fabricgen',
  fn: 'support.function.fabricgen',
  esc: 'constant.character.escape.fabricgen',
};

// checkQoS checks examples/clos-400g/qos.fab.hcl.
function checkQoS(c) {
  c.expect('# A small 400G Clos', '#', [S.lineComment, 'punctuation.definition.comment.fabricgen']);
  c.expect('# A small 400G Clos', ' A small 400G Clos: 2 spines, 4 leaves, 32 NICs, one leaf per switch', [S.lineComment]);
  c.expect('fabric "clos-400g" {', 'fabric', [S.block]);
  c.expect('fabric "clos-400g" {', '"clos-400g"', [S.label]);
  c.expect('traffic_class "roce" {', 'traffic_class', [S.block], { not: [S.attr, S.ref] });
  c.expect('traffic_class "roce" {', '"roce"', [S.label]);
  c.expect(/^\s*qos_policy\s+= qos_policy\.fabric$/, 'qos_policy', [S.attr], { not: [S.block, S.ref] });
  c.expect(/^\s*qos_policy\s+= qos_policy\.fabric$/, 'qos_policy', [S.ref, S.refRoot], { nth: 1 });
  c.expect(/^\s*qos_policy\s+= qos_policy\.fabric$/, 'fabric', [S.ref, S.member]);
  c.expect('min_threshold', '150KB', [S.str], { not: [S.num] });
  c.expect('max_probability', '100', [S.num]);
  c.expect('lossless', 'true', [S.bool]);
  c.expect('link_pause', 'false', [S.bool]);
  c.expect('mtu              = 9214', '9214', [S.num]);
  c.expect('classes', 'traffic_class', [S.ref, S.refRoot], { nth: 1 });
  c.expect('classes', 'cnp', [S.ref, S.member]);
  c.expect('ecn       = ecn_profile.roce', 'ecn_profile', [S.ref]);
  c.expect('role "nic" {', 'role', [S.block]);
  c.expect('qos_policy "host" {', 'qos_policy', [S.block], { not: [S.attr] });
}

// The hostile sample: nested interpolation, heredocs, block comments across
// lines, template directives, an unterminated string, and 100 lines of {.
const hostile = [
  /* 0 */ 'x = "${a["${b}"]}" # tail',
  /* 1 */ 'doc = <<EOF',
  /* 2 */ 'device "not-a-block" {  ${var.name} # not a comment',
  /* 3 */ 'EOF',
  /* 4 */ 'after = 1',
  /* 5 */ 'indented = <<-EOT',
  /* 6 */ '    EOTX is not the end %{ if each.key == "a" }yes%{ endif }',
  /* 7 */ '    EOT',
  /* 8 */ '/* starts here "no string',
  /* 9 */ 'device "x" { still comment',
  /* 10 */ '*/ y = null',
  /* 11 */ 'broken = "no end',
  /* 12 */ 'next = count.index // slash comment',
  /* 13 */ 'list = [for k, v in local.m : k => upper(v) if v != ""]',
  /* 14 */ 'esc = "a\\"b $${literal} %%{literal}"',
  /* 15 */ 'obj = "${ {a = 1}.a }" == true',
  /* 16 */ 'qos_policy "p" { trust = "dscp" }',
  /* 17 */ 'deep = "${a("${b("${c}")}")}"',
  /* 18 */ 'num = 1.5e3',
];
const braces = Array(100).fill('{');
const hostileText = hostile.concat(braces, ['# after the braces', 'z = traffic_class.roce']).join('\n');

function checkHostile(c) {
  c.expect(0, 'b', [S.str, S.interp], { count: { [S.interp]: 2, [S.str]: 2 } });
  c.expect(0, 'a', [S.str, S.interp], { count: { [S.interp]: 1, [S.str]: 1 } });
  c.expect(0, '${', [S.interpBegin]);
  c.expect(0, ' tail', [S.lineComment], { not: [S.str, S.interp] });
  c.expect(1, 'EOF', [S.heredocMarker]);
  c.expectLine(2, S.heredoc, true);
  c.expect(2, 'device "not-a-block" {  ', [S.heredoc], { not: [S.block] });
  c.expect(2, 'var', [S.heredoc, S.interp, S.builtin]);
  c.expect(2, ' # not a comment', [S.heredoc], { not: ['comment'] });
  c.expect(3, 'EOF', [S.heredocMarker]);
  c.expect(4, 'after', [S.attr], { not: [S.heredoc] });
  c.expect(6, 'each', [S.heredoc, S.directive, S.builtin]);
  c.expect(6, 'if', [S.directiveKw]);
  c.expect(6, 'endif', [S.directiveKw]);
  c.expect(7, 'EOT', [S.heredocMarker]);
  c.expectLine(8, S.blockComment, true);
  c.expectLine(9, S.blockComment, true);
  c.expect(10, 'y', [S.attr], { not: ['comment'] });
  c.expect(10, 'null', [S.nul]);
  c.expect(12, 'next', [S.attr], { not: [S.str] });
  c.expect(12, 'count', [S.builtin, S.ref]);
  c.expect(12, 'index', [S.member]);
  c.expect(12, ' slash comment', [S.slashComment]);
  c.expect(13, 'for', [S.kw]);
  c.expect(13, 'in', [S.kw]);
  c.expect(13, 'if', [S.kw]);
  c.expect(13, 'local', [S.builtin]);
  c.expect(13, 'upper', [S.fn]);
  c.expect(13, 'k', ['variable.other.fabricgen'], { nth: 0, not: [S.attr] });
  c.expect(14, '\\"', [S.esc, S.str]);
  c.expect(14, '$${', ['constant.character.escape.template.fabricgen'], { not: [S.interp] });
  c.expect(15, 'a', [S.attr, S.interp], { nth: 0 });
  c.expect(15, 'true', [S.bool], { not: [S.str, S.interp] });
  c.expect(16, 'qos_policy', [S.block]);
  c.expect(16, 'trust', [S.attr]);
  c.expect(16, 'dscp', [S.str]);
  c.expect(17, 'c', [S.interp], { count: { [S.interp]: 3, [S.str]: 3 } });
  c.expect(18, '1.5e3', [S.num]);
  const last = c.doc.lines.length - 1;
  c.expect(last - 1, ' after the braces', [S.lineComment]);
  c.expect(last, 'traffic_class', [S.ref, S.refRoot]);
  c.expect(last, 'roce', [S.member]);
}

async function main() {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    process.stderr.write('usage: node test/grammar.js QOS.fab.hcl [MORE.fab.hcl...]\n');
    process.exit(2);
  }
  const grammar = await loadGrammar();
  const checkers = [];
  for (const [i, f] of files.entries()) {
    let doc;
    try {
      doc = tokenize(grammar, fs.readFileSync(f, 'utf8'));
    } catch (err) {
      process.stdout.write(`FAIL ${f}: ${err.message}\n`);
      process.exit(1);
    }
    const c = new Checker(f, doc);
    if (i === 0) checkQoS(c);
    c.expectClosed();
    checkers.push(c);
  }
  const h = new Checker('hostile sample', tokenize(grammar, hostileText));
  checkHostile(h);
  h.expectClosed();
  // Long and deep lines: each must tokenize within the time limit
  // (tokenize throws when one stops early) and close what it opens.
  const long = new Checker('long lines', tokenize(grammar, [
    'w ' + 'a '.repeat(5000),
    's = "' + 'x'.repeat(50000) + '"',
    'd = ' + '"${'.repeat(60) + 'deepest' + '}"'.repeat(60),
    'a'.repeat(60000) + ' = 1',
    'blk ' + '"l" '.repeat(3000),
    'f = ' + 'f('.repeat(500) + ')'.repeat(500),
    'r = ' + 'a.b'.repeat(3000),
    'after = true',
  ].join('\n')));
  long.expect(2, 'deepest', [S.interp], { count: { [S.interp]: 60, [S.str]: 60 } });
  long.expect(3, '1', [S.num]);
  long.expect(7, 'after', [S.attr], { not: [S.str, S.interp, 'meta.function-call.fabricgen'] });
  long.expectClosed();
  checkers.push(long);
  const open = new Checker('open heredoc', tokenize(grammar, 'a = <<EOF\nno end marker\n'));
  open.checks++;
  if (open.doc.endDepth === 1) open.fail('a heredoc without its end marker must leave its rule open (the check above could never fail)');
  checkers.push(open);
  checkers.push(h);
  let failed = 0;
  let checks = 0;
  for (const c of checkers) {
    checks += c.checks;
    for (const f of c.failures) {
      failed++;
      process.stdout.write(`FAIL ${f}\n`);
    }
  }
  if (failed > 0) {
    process.stdout.write(`${failed} of ${checks} grammar checks failed\n`);
    process.exit(1);
  }
  process.stdout.write(`ok: ${checks} grammar checks\n`);
}

main().catch((err) => {
  process.stdout.write(`FAIL ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
});
