/**
 * The JavaScript that runs inside each batch's QuickJS context before the user's code: it defines
 * `console` (lines kept in the context, bounded), then answers an object with
 *
 * - `run(fn, input, perBatch, first)`: parses the batch (`{"r": records, "v": vars}`), calls the
 *   user's function per record or once per batch, checks and serialises what it returns, and answers
 *   ONE JSON string (`{"records": [...], "sources": [...] | null, "logs": [...], "dropped": n}` or
 *   `{"error": {...}}`), so a whole batch crosses the WebAssembly boundary twice (in and out) however
 *   many records it has;
 * - `where()`: the record being worked on, for a batch the host had to interrupt.
 *
 * Everything it relies on is captured before the user's code runs, so code that replaces
 * `JSON.stringify` or `Array.prototype.join` changes nothing here. The host still checks the answer's
 * shape: tampering can only spoil the user's own results, never reach the host.
 */
export interface HarnessLimits {
  maxLogLines: number;
  maxLogLineChars: number;
  maxOutputChars: number;
}

export function harnessSource(limits: HarnessLimits): string {
  return `(function () {
  'use strict';
  const LIMITS = ${JSON.stringify(limits)};
  const stringify = JSON.stringify, parse = JSON.parse, isArray = Array.isArray;
  const getProto = Object.getPrototypeOf, objectProto = Object.prototype, freeze = Object.freeze;
  const keys = Object.keys, isFinite_ = Number.isFinite, toText = String, apply = Reflect.apply;
  const join = Array.prototype.join, slice = String.prototype.slice, match = String.prototype.match;
  const logs = [];
  let dropped = 0;
  let current = -1;

  function show(value) {
    if (typeof value === 'string') return value;
    try {
      const text = stringify(value);
      return text === undefined ? toText(value) : text;
    } catch (e) {
      try { return toText(value); } catch (e2) { return '[unprintable]'; }
    }
  }
  function logger(level) {
    return function () {
      if (logs.length >= LIMITS.maxLogLines) { dropped++; return; }
      const parts = [];
      for (let i = 0; i < arguments.length; i++) parts[i] = show(arguments[i]);
      let text = apply(join, parts, [' ']);
      if (text.length > LIMITS.maxLogLineChars) text = apply(slice, text, [0, LIMITS.maxLogLineChars]) + '…';
      logs[logs.length] = { level: level, text: text, record: current < 0 ? null : current };
    };
  }
  globalThis.console = freeze({ log: logger('log'), info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('debug') });

  function deepFreeze(value) {
    if (value !== null && typeof value === 'object') {
      const names = keys(value);
      for (let i = 0; i < names.length; i++) deepFreeze(value[names[i]]);
      freeze(value);
    }
    return value;
  }
  function NotJson(path, what) { this.path = path; this.what = what; }
  function checked(key, value) {
    const type = typeof value;
    if (type === 'function' || type === 'symbol' || type === 'bigint') throw new NotJson(key, type);
    if (type === 'number' && !isFinite_(value)) throw new NotJson(key, toText(value));
    return value;
  }
  function isRecord(value) {
    if (value === null || typeof value !== 'object' || isArray(value)) return false;
    const proto = getProto(value);
    return proto === objectProto || proto === null;
  }
  function lineOf(e) {
    try {
      const found = apply(match, toText(e.stack), [/code\\.js:(\\d+)/]);
      return found ? +found[1] : null;
    } catch (e2) { return null; }
  }
  function failure(code, index, extra) {
    const error = { code: code, index: index };
    for (const k in extra) error[k] = extra[k];
    return stringify({ error: error });
  }
  function thrown(e, index) {
    // Out of memory while making its own error object, QuickJS throws null; the host tells that
    // from the user's own \`throw null\` by whether the memory is at its cap.
    if (e === null) return failure('thrown', index, { name: 'null', message: 'null', line: null, isNull: true });
    let name = 'Error', message = '';
    try {
      if (e !== null && typeof e === 'object') { name = toText(e.name); message = toText(e.message); }
      else { name = 'Thrown'; message = show(e); }
    } catch (e2) { message = '[unprintable]'; }
    if (message.length > 500) message = apply(slice, message, [0, 500]) + '…';
    if (name === 'InternalError' && message === 'out of memory') return failure('memory', index, {});
    if (name === 'InternalError' && message === 'stack overflow') return failure('stack', index, { line: lineOf(e) });
    return failure('thrown', index, { name: name, message: message, line: lineOf(e) });
  }

  function run(fn, input, perBatch, first) {
    const data = parse(input);
    const records = data.r;
    const vars = deepFreeze(data.v);
    const parts = [];
    const sources = [];
    let size = 0;
    data.r = null;

    function emit(value, index, source) {
      if (value === null || value === undefined) return null;
      if (!isRecord(value)) return failure('bad_return', index, { got: isArray(value) ? 'nested array' : value === null ? 'null' : typeof value });
      let text;
      try {
        text = stringify(value, checked);
      } catch (e) {
        if (e instanceof NotJson) return failure('not_json', index, { key: toText(e.path), what: e.what });
        return failure('not_json', index, { key: '', what: 'circular' });
      }
      size += text.length + 1;
      if (size > LIMITS.maxOutputChars) return failure('output_too_large', index, { limit: LIMITS.maxOutputChars });
      parts[parts.length] = text;
      sources[sources.length] = source;
      return null;
    }
    function emitAll(result, index, source) {
      if (isArray(result)) {
        for (let j = 0; j < result.length; j++) {
          const problem = emit(result[j], index, source);
          if (problem) return problem;
        }
        return null;
      }
      return emit(result, index, source);
    }

    if (perBatch) {
      let result;
      try {
        result = fn.call(undefined, records, vars);
      } catch (e) {
        return thrown(e, null);
      }
      if (!isArray(result)) return failure('bad_return', null, { got: result === null ? 'null' : typeof result });
      const problem = emitAll(result, null, -1);
      if (problem) return problem;
    } else {
      for (let i = 0; i < records.length; i++) {
        current = first + i;
        let result;
        try {
          result = fn.call(undefined, records[i], vars);
        } catch (e) {
          return thrown(e, current);
        }
        records[i] = null;
        const problem = emitAll(result, current, i);
        if (problem) return problem;
      }
      current = -1;
    }
    return '{"records":[' + apply(join, parts, [',']) + '],"sources":' + (perBatch ? 'null' : stringify(sources)) +
      ',"logs":' + stringify(logs) + ',"dropped":' + dropped + '}';
  }
  function where() { return current; }
  return { run: run, where: where };
})()`;
}
