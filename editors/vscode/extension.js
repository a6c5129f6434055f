// The fabricgen extension: starts `fabricgen lsp` (an LSP 3.17 server over
// stdio) for Fabric intent files and restarts it when fabricgen.path changes.
'use strict';

const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { LanguageClient, ErrorAction, CloseAction } = require('vscode-languageclient/node');

const CLIENT_ID = 'fabricgen';
const CLIENT_NAME = 'fabricgen';
const PATH_SETTING = 'fabricgen.path';
// A running server that exits is restarted, up to MAX_RESTARTS times in
// RESTART_WINDOW_MS (the language client's own default policy).
const MAX_RESTARTS = 4;
const RESTART_WINDOW_MS = 3 * 60 * 1000;
// How much of the server's stderr is kept to quote in an error message.
const STDERR_TAIL = 4096;
// How long a failed start waits for the server's stderr to quote.
const STDERR_WAIT_MS = 1000;

/**
 * findExecutable returns the file `command` names, as a shell would: a
 * command with a path separator is taken as it is (relative to cwd), a bare
 * name is looked up on PATH (with PATHEXT on Windows). It returns undefined
 * when there is no such executable file.
 * @param {string} command
 * @param {NodeJS.ProcessEnv} env
 * @param {string} platform
 * @param {string} cwd
 * @returns {string | undefined}
 */
function findExecutable(command, env, platform, cwd) {
  if (typeof command !== 'string' || command.trim() === '' || command.includes('\0')) {
    return undefined;
  }
  const p = platform === 'win32' ? path.win32 : path.posix;
  const exts = platform === 'win32'
    ? ['', ...String(env.PATHEXT || '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e !== '')]
    : [''];
  const candidates = [];
  if (command.includes('/') || (platform === 'win32' && command.includes('\\'))) {
    const full = p.isAbsolute(command) ? command : p.resolve(cwd, command);
    for (const e of exts) candidates.push(full + e);
  } else {
    const dirs = String(env.PATH || env.Path || '').split(platform === 'win32' ? ';' : ':');
    for (const d of dirs) {
      // An empty PATH entry means the current directory.
      const dir = d === '' ? cwd : d;
      for (const e of exts) candidates.push(p.join(dir, command + e));
    }
  }
  for (const c of candidates) {
    if (isExecutableFile(c, platform)) return c;
  }
  return undefined;
}

/**
 * isExecutableFile says whether file is a regular file this process may run.
 * @param {string} file
 * @param {string} platform
 * @returns {boolean}
 */
function isExecutableFile(file, platform) {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch (_) {
    return false;
  }
}

/**
 * serverOptions is how the client starts the server: `<command> lsp` over
 * stdio. The transport is left unset, which is stdio for a command: with
 * TransportKind.stdio, vscode-languageclient appends `--stdio` to the
 * arguments, and the server is started as exactly `fabricgen lsp`.
 * @param {string} command
 */
function serverOptions(command) {
  return { command, args: ['lsp'] };
}

/**
 * clientOptions selects Fabric intent files on disk and tells the server
 * when intent files or .fabricgen.hcl change outside the editor. The error
 * handlers keep the client's own notifications quiet (they still go to the
 * output channel): the extension shows one error, naming fabricgen.path.
 * @param {vscode.FileSystemWatcher[]} watchers
 * @param {object} [extra] outputChannel, errorHandler, initializationFailedHandler
 */
function clientOptions(watchers, extra = {}) {
  return {
    documentSelector: [{ scheme: 'file', language: 'fabricgen' }],
    synchronize: { fileEvents: watchers },
    ...extra,
  };
}

/**
 * OutputTail is the fabricgen output channel, keeping the end of what the
 * server wrote to stderr (the client writes stderr with append, its own log
 * lines with appendLine) so an error message can quote it.
 */
class OutputTail {
  /** @param {vscode.OutputChannel} channel */
  constructor(channel) {
    this.channel = channel;
    this.name = channel.name;
    this.stderr = '';
  }

  append(value) {
    this.stderr = (this.stderr + String(value)).slice(-STDERR_TAIL);
    this.channel.append(value);
  }

  appendLine(value) { this.channel.appendLine(value); }

  replace(value) { this.channel.replace(value); }

  clear() { this.channel.clear(); }

  show(...args) { this.channel.show(...args); }

  hide() { this.channel.hide(); }

  dispose() { this.channel.dispose(); }

  /** lastError returns the last non-blank stderr line, or ''. */
  lastError() {
    const lines = this.stderr.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
    return lines.length > 0 ? lines[lines.length - 1] : '';
  }

  /** reset forgets the stderr kept so far. */
  reset() { this.stderr = ''; }
}

/**
 * configuredPath reads fabricgen.path (default "fabricgen").
 * @returns {string}
 */
function configuredPath() {
  const v = vscode.workspace.getConfiguration('fabricgen').get('path', 'fabricgen');
  return typeof v === 'string' ? v.trim() : '';
}

/**
 * showStartError tells the user the server could not start and which
 * setting names its executable, with a button that opens that setting.
 * Callers do not wait for it: a notification can stay unanswered for good,
 * and a change of the setting must restart the server meanwhile.
 * @param {string} command
 * @param {string} why
 */
function showStartError(command, why) {
  const msg = `fabricgen: cannot start the language server "${command} lsp": ${why}. ` +
    `Set "${PATH_SETTING}" to the fabricgen executable (a name on PATH or an absolute path); ` +
    'the server\'s output is in the fabricgen output channel.';
  const open = 'Open Settings';
  return Promise.resolve(vscode.window.showErrorMessage(msg, open)).then((choice) => {
    if (choice === open) {
      return vscode.commands.executeCommand('workbench.action.openSettings', PATH_SETTING);
    }
    return undefined;
  });
}

/**
 * Controller owns the one language client: it starts it, stops it, and
 * restarts it, one operation after the other.
 */
class Controller {
  /**
   * @param {vscode.FileSystemWatcher[]} watchers
   * @param {{ env: NodeJS.ProcessEnv, platform: string, cwd: () => string }} host
   */
  constructor(watchers, host, output) {
    this.watchers = watchers;
    this.host = host;
    /** @type {OutputTail | undefined} */
    this.output = output;
    /** @type {number[]} when the running server exited, for the restart policy */
    this.exits = [];
    /** @type {LanguageClient | undefined} */
    this.client = undefined;
    /** @type {Promise<void>} */
    this.queue = Promise.resolve();
  }

  /** enqueue runs op after every operation before it, whatever they did. */
  enqueue(op) {
    this.queue = this.queue.then(op, op).catch(() => undefined);
    return this.queue;
  }

  /** start starts a client for the configured executable. */
  start() {
    return this.enqueue(() => this.doStart());
  }

  /** stop stops the running client, if any. */
  stop() {
    return this.enqueue(() => this.doStop());
  }

  /** restart stops the client and starts one for the configured executable. */
  restart() {
    return this.enqueue(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  async doStart() {
    const command = configuredPath();
    if (command === '') {
      void showStartError('', `"${PATH_SETTING}" is empty`);
      return;
    }
    const found = findExecutable(command, this.host.env, this.host.platform, this.host.cwd());
    if (found === undefined) {
      const why = command.includes('/') || command.includes('\\')
        ? 'no executable file at that path'
        : 'no executable of that name on PATH';
      void showStartError(command, why);
      return;
    }
    if (this.output) this.output.reset();
    this.exits = [];
    // state.client is set once the client has started; until then, and
    // once another client replaced it, a closed connection is not restarted.
    const state = { client: undefined };
    const extra = {
      errorHandler: this.errorHandler(command, state),
      initializationFailedHandler: () => false,
    };
    if (this.output) extra.outputChannel = this.output;
    const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions(found), clientOptions(this.watchers, extra));
    this.client = client;
    try {
      await client.start();
      // start can resolve for a server that exited during the handshake
      // (the client saw the pipe close first): that is a failed start too.
      if (!client.isRunning()) {
        throw new Error('the server exited during the LSP handshake');
      }
      state.client = client;
    } catch (err) {
      this.client = undefined;
      try {
        await client.stop();
      } catch (_) {
        // A client that never started has nothing to stop.
      }
      void showStartError(command, await this.reason(err));
    }
  }

  /**
   * reason explains a failed start: the server's last stderr line, else
   * err. The client can see the closed pipe before the server's stderr
   * arrives, so it waits up to STDERR_WAIT_MS for some.
   */
  async reason(err) {
    for (let waited = 0; this.output && this.output.lastError() === '' && waited < STDERR_WAIT_MS; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const said = this.output ? this.output.lastError() : '';
    const msg = err && err.message ? err.message : String(err);
    return said !== '' ? `it said: ${said} (${msg})` : msg;
  }

  /**
   * errorHandler decides, without the client's own notifications, what
   * happens when the connection errs or closes: a server that exits before
   * its client has started is not restarted (the start fails and
   * showStartError says why), nor is one whose client was replaced or
   * stopped; a running one is restarted up to MAX_RESTARTS times in
   * RESTART_WINDOW_MS, and then an error names fabricgen.path.
   * @param {string} command
   * @param {{ client: LanguageClient | undefined }} state
   */
  errorHandler(command, state) {
    return {
      error: (_error, _message, count) => (count !== undefined && count <= 3
        ? { action: ErrorAction.Continue, handled: true }
        : { action: ErrorAction.Shutdown, handled: true }),
      closed: () => {
        if (state.client === undefined || state.client !== this.client) {
          return { action: CloseAction.DoNotRestart, handled: true };
        }
        const now = Date.now();
        this.exits = this.exits.filter((t) => now - t <= RESTART_WINDOW_MS);
        this.exits.push(now);
        if (this.exits.length <= MAX_RESTARTS) {
          return { action: CloseAction.Restart, handled: true };
        }
        const said = this.output ? this.output.lastError() : '';
        void showStartError(command, `it exited ${this.exits.length} times in 3 minutes` + (said !== '' ? `, last saying: ${said}` : ''));
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    };
  }

  async doStop() {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined) {
      await client.stop();
    }
  }
}

/** @type {Controller | undefined} */
let controller;

/**
 * activate starts the language client and restarts it when fabricgen.path
 * changes.
 * @param {vscode.ExtensionContext} context
 */
function activate(context) {
  const watchers = [
    vscode.workspace.createFileSystemWatcher('**/*.fab.{hcl,json}'),
    vscode.workspace.createFileSystemWatcher('**/.fabricgen.hcl'),
  ];
  context.subscriptions.push(...watchers);
  const output = new OutputTail(vscode.window.createOutputChannel(CLIENT_NAME));
  context.subscriptions.push(output);
  const ctl = new Controller(watchers, {
    env: process.env,
    platform: process.platform,
    cwd: () => {
      const folders = vscode.workspace.workspaceFolders;
      return folders && folders.length > 0 && folders[0].uri.scheme === 'file' ? folders[0].uri.fsPath : process.cwd();
    },
  }, output);
  controller = ctl;
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(PATH_SETTING)) {
      ctl.restart();
    }
  }));
  return ctl.start();
}

/** deactivate stops the language client. */
function deactivate() {
  const ctl = controller;
  controller = undefined;
  return ctl === undefined ? undefined : ctl.stop();
}

module.exports = { activate, deactivate, findExecutable, serverOptions, clientOptions, OutputTail };
