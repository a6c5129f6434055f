// Runs extension.js with the real vscode-languageclient (the version
// package-lock.json pins) against small LSP servers, under a stand-in
// `vscode` module that reports the oldest VS Code engines.vscode accepts:
//
//   node test/client.js
//
// It checks that the client accepts that VS Code version, starts the server
// as exactly `<fabricgen.path> lsp` (no --stdio), completes the LSP
// handshake, shuts the server down on deactivate and on a change of
// fabricgen.path, and that a server that dies at once gives an error
// naming fabricgen.path. Prints every failure and exits 1 when there is one.
'use strict';

const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const Module = require('module');

const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
const minVersion = /^\^(\d+\.\d+\.\d+)$/.exec(pkg.engines.vscode);
if (!minVersion) {
  process.stdout.write(`FAIL engines.vscode ${JSON.stringify(pkg.engines.vscode)} is not ^X.Y.Z\n`);
  process.exit(1);
}

// A stand-in for any part of the vscode API the tests do not look at: every
// property is a function that returns another stand-in.
const anything = new Proxy(function () {}, {
  get(_t, prop) {
    if (prop === 'then') return undefined;
    if (prop === Symbol.toPrimitive) return () => '';
    return anything;
  },
  apply() { return anything; },
  construct() { return anything; },
});

function standIn(known) {
  return new Proxy(known, {
    get(t, prop) {
      if (prop in t) return t[prop];
      if (prop === 'then') return undefined;
      return anything;
    },
  });
}

const world = { config: {}, listeners: [], errors: [], output: [], deadServer: false };

const vscode = standIn({
  version: minVersion[1],
  workspace: standIn({
    workspaceFolders: undefined,
    getConfiguration: () => ({ get: (k, d) => (k in world.config ? world.config[k] : d) }),
    onDidChangeConfiguration(l) {
      world.listeners.push(l);
      return { dispose() {} };
    },
  }),
  window: standIn({
    showErrorMessage(msg) {
      world.errors.push(msg);
      return Promise.resolve(undefined);
    },
    showWarningMessage: () => Promise.resolve(undefined),
    showInformationMessage: () => Promise.resolve(undefined),
    createOutputChannel: () => standIn({
      append: (s) => world.output.push(s),
      appendLine: (s) => world.output.push(s + '\n'),
    }),
  }),
});

const realLoad = Module._load;
Module._load = function load(request, parent, isMain) {
  if (request === 'vscode') return vscode;
  return realLoad.call(this, request, parent, isMain);
};

// The extension host logs an extension's uncaught errors and rejections
// and carries on; so does this test, for the ones vscode-languageclient
// 9.0.1 and vscode-jsonrpc themselves leave once a server has exited before
// the handshake: a write to the closed pipe (ERR_STREAM_DESTROYED, EPIPE),
// the client's own `void this.stop()` of a client still starting, and the
// pending request the closed connection rejects. Any other one, or one of
// these before a server has died, fails the test.
const tolerated = [];
function libraryNoise(err) {
  if (!err || !world.deadServer) return false;
  if (err.code === 'ERR_STREAM_DESTROYED' || err.code === 'EPIPE') return true;
  const stack = String(err.stack);
  const inLibrary = /node_modules[\\/]vscode-(languageclient|jsonrpc)[\\/]lib[\\/]/.test(stack.split('\n').slice(1, 3).join('\n'));
  return inLibrary && /can't be stopped|Pending response rejected since connection got disposed/.test(String(err.message));
}
for (const ev of ['uncaughtException', 'unhandledRejection']) {
  process.on(ev, (err) => {
    if (libraryNoise(err)) {
      tolerated.push(err);
      return;
    }
    process.stdout.write(`FAIL ${ev}: ${err && err.stack ? err.stack : err}\n`);
    process.exit(1);
  });
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fabricgen-client-test-'));

// The LSP server: records its arguments and the methods it receives,
// answers initialize and shutdown, exits on exit.
const serverJS = `'use strict';
const fs = require('fs');
const log = process.argv[2];
fs.writeFileSync(log + '.args', JSON.stringify(process.argv.slice(3)));
let buf = Buffer.alloc(0);
function send(msg) {
  const b = Buffer.from(JSON.stringify(msg), 'utf8');
  process.stdout.write('Content-Length: ' + b.length + '\\r\\n\\r\\n');
  process.stdout.write(b);
}
process.stdin.on('data', (d) => {
  buf = Buffer.concat([buf, d]);
  for (;;) {
    const i = buf.indexOf('\\r\\n\\r\\n');
    if (i < 0) return;
    const n = Number(/Content-Length: (\\d+)/i.exec(buf.slice(0, i).toString())[1]);
    if (buf.length < i + 4 + n) return;
    const msg = JSON.parse(buf.slice(i + 4, i + 4 + n).toString());
    buf = buf.slice(i + 4 + n);
    fs.appendFileSync(log, msg.method + '\\n');
    if (msg.method === 'initialized' && fs.existsSync(log + '.crash')) {
      fs.unlinkSync(log + '.crash');
      process.stderr.write('panic: crashed once\\n');
      process.exit(3);
    }
    if (msg.method === 'initialize') send({ jsonrpc: '2.0', id: msg.id, result: { capabilities: { textDocumentSync: 1 } } });
    else if (msg.method === 'shutdown') send({ jsonrpc: '2.0', id: msg.id, result: null });
    else if (msg.method === 'exit') process.exit(0);
  }
});
`;
fs.writeFileSync(path.join(tmp, 'server.js'), serverJS);

// server writes an executable that runs the LSP server, logging to log.
function server(name, log) {
  const p = path.join(tmp, name);
  fs.writeFileSync(p, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(tmp, 'server.js'))} ${JSON.stringify(log)} "$@"\n`, { mode: 0o755 });
  return p;
}

// readLines returns the methods a server received, leaving out the
// $/ notifications (the client sends $/setTrace for fabricgen.trace.server).
function readLines(f) {
  try {
    return fs.readFileSync(f, 'utf8').split('\n').filter((l) => l !== '' && !l.startsWith('$/'));
  } catch (_) {
    return [];
  }
}

async function waitFor(what, cond, ms = 20000) {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function fireConfigChange(key) {
  const e = { affectsConfiguration: (s) => s === key || key.startsWith(s + '.') };
  for (const l of world.listeners) l(e);
}

async function main() {
  const ext = require(path.join(__dirname, '..', 'extension.js'));
  const logA = path.join(tmp, 'a.log');
  const logB = path.join(tmp, 'b.log');
  world.config.path = server('fabricgen', logA);

  await ext.activate({ subscriptions: [] });
  assert.deepStrictEqual(world.errors, [], `errors: ${world.errors.join('\n')}`);
  assert.deepStrictEqual(JSON.parse(fs.readFileSync(logA + '.args', 'utf8')), ['lsp'], 'the server is started as exactly `<path> lsp`');
  await waitFor('initialized', () => readLines(logA).includes('initialized'));
  assert.deepStrictEqual(readLines(logA).slice(0, 2), ['initialize', 'initialized']);
  process.stdout.write(`ok   VS Code ${minVersion[1]}: the client starts \`fabricgen lsp\` and completes the handshake\n`);

  // Another executable: the first server is shut down, the second started.
  world.config.path = server('fabricgen-b', logB);
  fireConfigChange('fabricgen.path');
  await waitFor('the new server', () => readLines(logB).includes('initialized'));
  await waitFor('the old server to exit', () => readLines(logA).includes('exit'));
  assert.deepStrictEqual(readLines(logA), ['initialize', 'initialized', 'shutdown', 'exit']);
  process.stdout.write('ok   a change of fabricgen.path shuts the old server down and starts the new one\n');

  // A server that dies at once (an old fabricgen without lsp).
  const dead = path.join(tmp, 'old-fabricgen');
  fs.writeFileSync(dead, '#!/bin/sh\necho "Error: unknown command \\"lsp\\" for \\"fabricgen\\"" >&2\nexit 1\n', { mode: 0o755 });
  world.config.path = dead;
  world.deadServer = true;
  fireConfigChange('fabricgen.path');
  await waitFor('an error naming fabricgen.path', () => world.errors.some((m) => m.includes('"fabricgen.path"')));
  await waitFor('the second server to exit', () => readLines(logB).includes('exit'));
  const ours = world.errors.find((m) => m.includes('"fabricgen.path"'));
  assert.ok(ours.includes(`${dead} lsp`), ours);
  assert.ok(ours.includes('it said: Error: unknown command "lsp" for "fabricgen"'), `the server's stderr is quoted: ${ours}`);
  const noisy = world.errors.filter((m) => /is erroring|initialization failed|EPIPE$/i.test(m));
  assert.deepStrictEqual(noisy, [], 'the client\'s own error notifications are silenced');
  assert.ok(world.errors.length <= 2, `at most the client's "couldn't create connection" and ours: ${JSON.stringify(world.errors)}`);
  process.stdout.write('ok   a server that exits at once gives an error naming fabricgen.path\n');

  // A server that crashes once it runs is restarted, without a
  // notification; deactivate then shuts the new one down.
  const logC = path.join(tmp, 'c.log');
  fs.writeFileSync(logC + '.crash', '');
  const before = world.errors.length;
  world.config.path = server('fabricgen-c', logC);
  fireConfigChange('fabricgen.path');
  await waitFor('the crashed server to be restarted', () => readLines(logC).filter((m) => m === 'initialized').length === 2);
  assert.deepStrictEqual(readLines(logC), ['initialize', 'initialized', 'initialize', 'initialized']);
  assert.deepStrictEqual(world.errors.slice(before), [], 'a restart shows no error');
  assert.ok(world.output.join('').includes('panic: crashed once'), 'the crash is in the output channel');
  process.stdout.write('ok   a server that crashes while running is restarted quietly\n');
  await ext.deactivate();
  await waitFor('deactivate to shut the server down', () => readLines(logC).includes('exit'));
  process.stdout.write('ok   deactivate shuts the server down\n');
}

main().then(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  process.stdout.write('ok: language client checks\n');
  process.exit(0);
}, (err) => {
  process.stdout.write(`FAIL ${err && err.stack ? err.stack : err}\n`);
  process.stdout.write(`server output:\n${world.output.join('')}\n`);
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(1);
});
