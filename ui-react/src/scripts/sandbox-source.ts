/**
 * The text of a script's sandbox: a dedicated Web Worker made from a Blob (issue 16). The
 * prelude runs first: it takes away everything that reaches the network or storage (fetch,
 * XMLHttpRequest, WebSocket, importScripts, indexedDB, caches, navigator, nested workers), so
 * the script can only do what the page answers by messages, then installs the script API as
 * globals (the names of the server's trigger scripts: `context`, `fetch`, `update`,
 * `executeMultiple`, plus `alert`, `confirm`, `toast`, `navigate`, `veto`). The page's token
 * and storage never enter the worker: a worker has no localStorage or sessionStorage, and no
 * cookie carries the session. The script's source follows as the body of an async function,
 * after PRELUDE_LINES lines, so a stack line minus PRELUDE_LINES is the line of the script.
 *
 * Plain JavaScript in a string (not a function's toString): what runs in the worker is exactly
 * this text, whatever the bundler does to the page's code.
 */
const PRELUDE = `(function () {
  'use strict';
  var post = self.postMessage.bind(self);
  var listen = self.addEventListener.bind(self);
  var BLOCKED = ['fetch', 'XMLHttpRequest', 'WebSocket', 'WebTransport', 'EventSource', 'importScripts', 'indexedDB', 'caches',
    'navigator', 'Worker', 'SharedWorker', 'BroadcastChannel', 'RTCPeerConnection', 'FileSystemHandle', 'Request', 'Response',
    'requestFileSystem', 'webkitRequestFileSystem', 'cookieStore', 'storage', 'CacheStorage', 'IDBFactory'];
  BLOCKED.forEach(function (name) {
    for (var o = self; o; o = Object.getPrototypeOf(o)) {
      var d = Object.getOwnPropertyDescriptor(o, name);
      if (d && d.configurable) delete o[name];
    }
    if (name in self) {
      try { Object.defineProperty(self, name, { value: undefined, writable: false, configurable: false }); } catch (e) { /* checked below */ }
    }
  });
  var open = BLOCKED.filter(function (name) { return self[name] !== undefined; });
  var calls = new Map();
  var next = 1;
  var call = function (method, args) {
    return new Promise(function (resolve, reject) {
      var id = next++;
      calls.set(id, { resolve: resolve, reject: reject });
      post({ kind: 'call', call: id, method: method, args: args });
    });
  };
  var failed = function (e) {
    var message = e && e.name && e.message !== undefined ? e.name + ': ' + e.message : String(e);
    post({ kind: 'failed', message: message, stack: e && typeof e.stack === 'string' ? e.stack : undefined });
  };
  var clone = function (v) { return v === undefined ? undefined : JSON.parse(JSON.stringify(v)); };
  var vetoed;
  var define = function (name, value) {
    Object.defineProperty(self, name, { value: value, writable: false, configurable: false });
  };
  define('fetch', function (query) { return call('fetch', [query]); });
  define('update', function (item) { return call('update', [item]); });
  define('executeMultiple', function (items) { return call('executeMultiple', [items]); });
  define('alert', function (text) { return call('alert', [String(text)]); });
  define('confirm', function (text) { return call('confirm', [String(text)]); });
  define('toast', function (text, kind) { return call('toast', kind === undefined ? [String(text)] : [String(text), kind]); });
  define('navigate', function (path) { return call('navigate', [String(path)]); });
  define('veto', function (message) { vetoed = String(message); });
  listen('unhandledrejection', function (e) { failed(e.reason); });
  listen('message', function (e) {
    var m = e.data;
    if (!m || typeof m !== 'object') return;
    if (m.kind === 'reply') {
      var c = calls.get(m.call);
      if (!c) return;
      calls.delete(m.call);
      if (m.ok) c.resolve(m.value); else c.reject(new Error(m.error));
      return;
    }
    if (m.kind !== 'run') return;
    if (open.length > 0) { post({ kind: 'failed', message: 'the sandbox could not close ' + open.join(', ') }); return; }
    var values = Object.assign({}, m.record);
    var patch = {};
    var record = Object.freeze({
      get: function (field) { return values[field]; },
      set: function (field, value) { values[field] = clone(value); patch[field] = values[field] === undefined ? null : values[field]; },
      values: function () { return clone(values); },
      changed: Object.freeze(m.changed.slice()),
    });
    define('context', Object.freeze({
      event: m.event, entity: m.entity, script: m.script, record: record,
      selected: Object.freeze(m.selected.map(function (r) { return Object.freeze(r); })),
      params: Object.freeze(m.params),
    }));
    Promise.resolve().then(function () { return self.__tesseraScript(); }).then(function (result) {
      try { post({ kind: 'done', patch: patch, veto: vetoed, result: clone(result) }); }
      catch (e) { failed(e); }
    }, failed);
  });
})();self.__tesseraScript = async function () {
`;

/** How many lines come before the script's first line. */
export const PRELUDE_LINES = PRELUDE.split('\n').length - 1;

/** The worker's whole text: the prelude, the script's source as a function body, its end. */
export const sandboxSource = (source: string): string => `${PRELUDE}${source}\n};\n`;
