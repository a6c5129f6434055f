// Loads extension.js against a stand-in `vscode` module and language client
// and checks what it starts, when it restarts, and the errors it shows.
//
//   node test/extension.js
//
// Prints every failure and exits 1 when there is one.
'use strict';

const assert = require('assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const Module = require('module');

// The stand-ins, reset by each case.
let world;

function newWorld() {
  return {
    config: { path: 'fabricgen' },
    configListeners: [],
    watchers: [],
    errors: [],
    errorChoice: undefined,
    commands: [],
    clients: [],
    startFails: undefined,
    running: 0,
    maxRunning: 0,
    folder: undefined,
    channels: [],
    closedDuringStart: [],
  };
}

const fakeVscode = {
  workspace: {
    getConfiguration(section) {
      assert.strictEqual(section, 'fabricgen');
      return { get: (key, def) => (key in world.config ? world.config[key] : def) };
    },
    createFileSystemWatcher(glob) {
      const w = { glob, disposed: false, dispose() { this.disposed = true; } };
      world.watchers.push(w);
      return w;
    },
    onDidChangeConfiguration(listener) {
      world.configListeners.push(listener);
      return { dispose() {} };
    },
    get workspaceFolders() {
      return world.folder ? [{ uri: { scheme: 'file', fsPath: world.folder } }] : undefined;
    },
  },
  window: {
    createOutputChannel(name) {
      const ch = { name, text: '', append(v) { this.text += v; }, appendLine(v) { this.text += v + '\n'; }, replace(v) { this.text = v; }, clear() { this.text = ''; }, show() {}, hide() {}, dispose() {} };
      world.channels.push(ch);
      return ch;
    },
    showErrorMessage(msg, ...items) {
      world.errors.push({ msg, items });
      if (world.errorNeverAnswered) return new Promise(() => {});
      return Promise.resolve(world.errorChoice);
    },
  },
  commands: {
    executeCommand(...args) {
      world.commands.push(args);
      return Promise.resolve();
    },
  },
};

class FakeLanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    this.id = id;
    this.name = name;
    this.serverOptions = serverOptions;
    this.clientOptions = clientOptions;
    this.started = 0;
    this.stopped = 0;
    world.clients.push(this);
  }

  async start() {
    this.started++;
    world.running++;
    world.maxRunning = Math.max(world.maxRunning, world.running);
    await new Promise((r) => setTimeout(r, 5));
    if (world.startResolvesDead) {
      world.running--;
      this.failed = true;
      return;
    }
    if (world.startFails) {
      world.running--;
      this.failed = true;
      if (this.clientOptions.outputChannel) this.clientOptions.outputChannel.append('Error: unknown command "lsp" for "fabricgen"\nRun \'fabricgen --help\' for usage.\n');
      world.closedDuringStart.push(await this.clientOptions.errorHandler.closed());
      throw new Error(world.startFails);
    }
  }

  isRunning() {
    return !this.failed && this.started > this.stopped;
  }

  async stop() {
    this.stopped++;
    // The server is gone only when stop resolves.
    await new Promise((r) => setTimeout(r, 5));
    if (!this.failed) world.running--;
  }
}

const realLoad = Module._load;
Module._load = function load(request, parent, isMain) {
  if (request === 'vscode') return fakeVscode;
  if (request === 'vscode-languageclient/node') {
    return {
      LanguageClient: FakeLanguageClient,
      TransportKind: { stdio: 0 },
      ErrorAction: { Continue: 1, Shutdown: 2 },
      CloseAction: { DoNotRestart: 1, Restart: 2 },
    };
  }
  return realLoad.call(this, request, parent, isMain);
};

const extPath = path.join(__dirname, '..', 'extension.js');

function loadExtension() {
  delete require.cache[require.resolve(extPath)];
  return require(extPath);
}

function fireConfigChange(...changed) {
  // As VS Code's: a section is affected when it, a parent or a child changed.
  const e = { affectsConfiguration: (s) => changed.some((c) => c === s || c.startsWith(s + '.') || s.startsWith(c + '.')) };
  for (const l of world.configListeners) l(e);
}

function context() {
  return { subscriptions: [] };
}

// settle waits until the extension's queued operations have run.
async function settle() {
  for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fabricgen-ext-test-'));
const bin = path.join(tmp, 'bin');
fs.mkdirSync(bin);
const exe = path.join(bin, 'fabricgen');
fs.writeFileSync(exe, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
const other = path.join(tmp, 'other fabricgen');
fs.writeFileSync(other, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
const notExec = path.join(tmp, 'not-executable');
fs.writeFileSync(notExec, '#!/bin/sh\nexit 0\n', { mode: 0o644 });
const savedPath = process.env.PATH;
process.env.PATH = `${bin}${path.delimiter}${savedPath || ''}`;

function live() {
  return world.clients.filter((c) => c.started > c.stopped && !c.failed);
}

const cases = [
  ['activate starts `fabricgen lsp` on stdio for fabricgen files', async () => {
    const ext = loadExtension();
    await ext.activate(context());
    assert.strictEqual(world.clients.length, 1);
    const c = world.clients[0];
    assert.strictEqual(c.id, 'fabricgen', 'the client id makes fabricgen.trace.server the trace setting');
    assert.deepStrictEqual(c.serverOptions, { command: exe, args: ['lsp'] });
    assert.strictEqual(c.serverOptions.transport, undefined, 'TransportKind.stdio would append --stdio');
    assert.deepStrictEqual(c.clientOptions.documentSelector, [{ scheme: 'file', language: 'fabricgen' }]);
    assert.deepStrictEqual(c.clientOptions.synchronize.fileEvents.map((w) => w.glob), ['**/*.fab.{hcl,json}', '**/.fabricgen.hcl']);
    assert.strictEqual(c.started, 1);
    assert.deepStrictEqual(world.errors, []);
    await ext.deactivate();
    assert.strictEqual(c.stopped, 1, 'deactivate stops the client');
  }],
  ['a change to another setting does not restart', async () => {
    const ext = loadExtension();
    await ext.activate(context());
    fireConfigChange('fabricgen.trace.server', 'editor.fontSize');
    await settle();
    assert.strictEqual(world.clients.length, 1);
    assert.strictEqual(world.clients[0].stopped, 0);
    await ext.deactivate();
  }],
  ['a change to fabricgen.path stops the client and starts one on the new path', async () => {
    const ext = loadExtension();
    await ext.activate(context());
    world.config.path = other;
    fireConfigChange('fabricgen.path');
    await settle();
    assert.strictEqual(world.clients.length, 2);
    assert.strictEqual(world.clients[0].stopped, 1);
    assert.strictEqual(world.clients[1].serverOptions.command, other, 'a path with a space is one argument, not split');
    assert.strictEqual(live().length, 1);
    assert.deepStrictEqual(world.errors, []);
    await ext.deactivate();
    assert.strictEqual(live().length, 0);
  }],
  ['a burst of changes leaves one client and never two starting at once', async () => {
    const ext = loadExtension();
    await ext.activate(context());
    for (let i = 0; i < 5; i++) {
      world.config.path = i % 2 === 0 ? other : 'fabricgen';
      fireConfigChange(i % 2 === 0 ? 'fabricgen' : 'fabricgen.path');
    }
    await settle();
    assert.strictEqual(world.clients.length, 6, 'one start per change, after the first');
    assert.strictEqual(live().length, 1, `live clients: ${live().length}`);
    assert.strictEqual(world.maxRunning, 1, 'a restart waits for the stop before it');
    assert.strictEqual(live()[0].serverOptions.command, other, 'the last setting wins');
    await ext.deactivate();
  }],
  ['a missing executable: an error names the command and fabricgen.path, Open Settings opens it', async () => {
    world.config.path = 'no-such-fabricgen-x1';
    world.errorChoice = 'Open Settings';
    const ext = loadExtension();
    await ext.activate(context());
    assert.strictEqual(world.clients.length, 0);
    assert.strictEqual(world.errors.length, 1);
    const { msg, items } = world.errors[0];
    assert.match(msg, /no-such-fabricgen-x1 lsp/);
    assert.match(msg, /"fabricgen\.path"/);
    assert.match(msg, /PATH/);
    assert.deepStrictEqual(items, ['Open Settings']);
    await settle();
    assert.deepStrictEqual(world.commands, [['workbench.action.openSettings', 'fabricgen.path']]);
    world.config.path = 'fabricgen';
    fireConfigChange('fabricgen.path');
    await settle();
    assert.strictEqual(live().length, 1, 'fixing the setting starts the server');
    await ext.deactivate();
  }],
  ['an error nobody answers does not hold up the restart a new setting asks for', async () => {
    world.config.path = 'no-such-fabricgen-x2';
    world.errorNeverAnswered = true;
    const ext = loadExtension();
    await ext.activate(context());
    assert.strictEqual(world.errors.length, 1);
    world.config.path = 'fabricgen';
    fireConfigChange('fabricgen.path');
    await settle();
    assert.strictEqual(live().length, 1, 'the server starts while the error is still shown');
    await ext.deactivate();
  }],
  ['a path that is not an executable file is refused before spawning', async () => {
    for (const p of [notExec, tmp, path.join(tmp, 'missing', 'fabricgen'), '   ', '', 'fab\0gen', 'fabricgen; rm -rf /']) {
      world = newWorld();
      world.config.path = p;
      const ext = loadExtension();
      await ext.activate(context());
      assert.strictEqual(world.clients.length, 0, `started a client for ${JSON.stringify(p)}`);
      assert.strictEqual(world.errors.length, 1, `no error for ${JSON.stringify(p)}`);
      assert.match(world.errors[0].msg, /"fabricgen\.path"/);
      await ext.deactivate();
    }
  }],
  ['a non-string setting is treated as empty', async () => {
    world.config.path = 42;
    const ext = loadExtension();
    await ext.activate(context());
    assert.strictEqual(world.clients.length, 0);
    assert.match(world.errors[0].msg, /is empty/);
    await ext.deactivate();
  }],
  ['a relative path is resolved against the workspace folder', async () => {
    world.folder = tmp;
    world.config.path = './bin/fabricgen';
    const ext = loadExtension();
    await ext.activate(context());
    assert.strictEqual(world.clients.length, 1);
    assert.strictEqual(world.clients[0].serverOptions.command, exe);
    await ext.deactivate();
  }],
  ['a server that fails to start: the error says why and names the setting', async () => {
    world.startFails = 'write EPIPE';
    const ext = loadExtension();
    await ext.activate(context());
    assert.strictEqual(world.errors.length, 1);
    assert.match(world.errors[0].msg, /it said: Run 'fabricgen --help' for usage\. \(write EPIPE\)/, 'the last stderr line is quoted');
    assert.match(world.errors[0].msg, /"fabricgen\.path"/);
    assert.match(world.errors[0].msg, /output channel/);
    assert.deepStrictEqual(world.closedDuringStart, [{ action: 1, handled: true }], 'a server that exits while starting is not restarted');
    assert.strictEqual(world.clients[0].clientOptions.initializationFailedHandler(new Error('x')), false);
    world.startFails = undefined;
    fireConfigChange('fabricgen.path');
    await settle();
    assert.strictEqual(live().length, 1, 'a later change starts it again');
    await ext.deactivate();
    assert.strictEqual(live().length, 0);
  }],
  ['a running server that keeps exiting is restarted 4 times, then an error names the setting', async () => {
    const ext = loadExtension();
    await ext.activate(context());
    const h = world.clients[0].clientOptions.errorHandler;
    for (let i = 0; i < 4; i++) {
      assert.deepStrictEqual(await h.closed(), { action: 2, handled: true }, `exit ${i + 1} restarts`);
    }
    assert.deepStrictEqual(world.errors, []);
    world.clients[0].clientOptions.outputChannel.append('panic: boom\n\n');
    assert.deepStrictEqual(await h.closed(), { action: 1, handled: true }, 'the fifth exit in 3 minutes does not');
    await settle();
    assert.strictEqual(world.errors.length, 1);
    assert.match(world.errors[0].msg, /exited 5 times in 3 minutes, last saying: panic: boom\./);
    assert.match(world.errors[0].msg, /"fabricgen\.path"/);
    assert.deepStrictEqual(h.error(new Error('e'), undefined, 1), { action: 1, handled: true });
    assert.deepStrictEqual(h.error(new Error('e'), undefined, 4), { action: 2, handled: true });
    assert.strictEqual(world.channels.length, 1, 'one output channel for the extension');
    assert.strictEqual(world.channels[0].name, 'fabricgen');
    assert.match(world.channels[0].text, /panic: boom/, 'stderr still reaches the channel');
    await ext.deactivate();
  }],
  ['OutputTail keeps only the end of stderr', async () => {
    const { OutputTail } = loadExtension();
    const ch = fakeVscode.window.createOutputChannel('t');
    const o = new OutputTail(ch);
    assert.strictEqual(o.lastError(), '');
    o.append('x'.repeat(100000));
    o.append('\nlast line\r\n  \n');
    assert.ok(o.stderr.length <= 4096, `kept ${o.stderr.length} bytes`);
    assert.strictEqual(o.lastError(), 'last line');
    o.appendLine('[Error] the client\'s own log line');
    assert.strictEqual(o.lastError(), 'last line', 'appendLine is the client log, not stderr');
    o.reset();
    assert.strictEqual(o.lastError(), '');
  }],
  ['a start that resolves for a server already gone is a failed start', async () => {
    world.startResolvesDead = true;
    const ext = loadExtension();
    await ext.activate(context());
    assert.strictEqual(world.errors.length, 1);
    assert.match(world.errors[0].msg, /exited during the LSP handshake/);
    assert.match(world.errors[0].msg, /"fabricgen\.path"/);
    assert.deepStrictEqual(await world.clients[0].clientOptions.errorHandler.closed(), { action: 1, handled: true }, 'and it is not restarted');
    await ext.deactivate();
  }],
  ['deactivate before activate does nothing', async () => {
    const ext = loadExtension();
    assert.strictEqual(ext.deactivate(), undefined);
  }],
  ['findExecutable follows PATH the way a shell does', async () => {
    const { findExecutable } = loadExtension();
    const env = { PATH: ['', '/nonexistent', bin].join(':') };
    assert.strictEqual(findExecutable('fabricgen', env, 'linux', '/'), exe);
    assert.strictEqual(findExecutable('fabricgen', { PATH: '' }, 'linux', bin), exe, 'an empty PATH entry is the current directory');
    assert.strictEqual(findExecutable('fabricgen', {}, 'linux', '/'), undefined);
    assert.strictEqual(findExecutable('not-executable', { PATH: tmp }, 'linux', '/'), undefined);
    assert.strictEqual(findExecutable('bin', { PATH: tmp }, 'linux', '/'), undefined, 'a directory is not an executable');
    assert.strictEqual(findExecutable(exe, {}, 'linux', '/'), exe);
    assert.strictEqual(findExecutable('bin/fabricgen', {}, 'linux', tmp), exe);
    assert.strictEqual(findExecutable(undefined, env, 'linux', '/'), undefined);
  }],
];

// A case awaiting a promise that never settles empties the event loop, and
// node would exit 0 without finishing: that is a failure.
let finished = false;
process.on('exit', () => {
  if (!finished) {
    process.stdout.write('FAIL the checks stopped before the end: a case waited on a promise that never settles\n');
    process.exitCode = 1;
  }
});

async function main() {
  let failed = 0;
  for (const [name, fn] of cases) {
    world = newWorld();
    try {
      await fn();
      process.stdout.write(`ok   ${name}\n`);
    } catch (err) {
      failed++;
      process.stdout.write(`FAIL ${name}: ${err && err.stack ? err.stack : err}\n`);
    }
  }
  finished = true;
  process.env.PATH = savedPath;
  fs.rmSync(tmp, { recursive: true, force: true });
  if (failed > 0) {
    process.stdout.write(`${failed} of ${cases.length} extension checks failed\n`);
    process.exit(1);
  }
  process.stdout.write(`ok: ${cases.length} extension checks\n`);
}

main();
