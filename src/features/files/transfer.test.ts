import { setCurrentLocale } from '../../i18n/currentIntl';
import { makeStore } from '../../app/store';
import { setNavigator } from '../../app/navigation';
import { AbortedError, describeTransferFailure, reportTransferFailure, TransferError, uploadFile } from './transfer';

// Node's File: jest-fixed-jsdom's FormData (Node's) refuses jsdom's File. The web tsconfig has no
// Node types, hence the local declaration.
declare const require: (id: 'node:buffer') => { File: typeof File };
const NodeFile = require('node:buffer').File;

const file = (parts: string[], name: string, options?: { type: string }) => new NodeFile(parts, name, options) as unknown as File;

// A stand-in XMLHttpRequest: records what the upload sends and lets the test drive its events.
class FakeXhr {
  static last: FakeXhr;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  statusText = '';
  responseText = '';
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  aborted = false;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(key: string, value: string) {
    this.headers[key] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const realXhr = window.XMLHttpRequest;
beforeEach(() => {
  (window as unknown as { XMLHttpRequest: unknown }).XMLHttpRequest = FakeXhr;
});
afterEach(() => {
  window.XMLHttpRequest = realXhr;
});

describe('uploadFile', () => {
  it('sends one multipart request with the same headers as the baseQuery and reports progress', async () => {
    localStorage.setItem('accessToken', 'tok-123');
    document.cookie = 'XSRF-TOKEN=xsrf-abc; path=/';
    setCurrentLocale('cn');
    const progress: number[] = [];
    const hello = file(['hello world'], 'hello.txt', { type: 'text/plain' });
    const handle = uploadFile(hello, hello.name, 'folder-9', (p) => progress.push(p.loaded));
    const xhr = FakeXhr.last;

    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('http://localhost/api/v1/files/?folder_id=folder-9');
    expect(xhr.headers.Authorization).toBe('Bearer tok-123');
    expect(xhr.headers['X-XSRF-TOKEN']).toBe('xsrf-abc');
    expect(xhr.headers['Accept-Language']).toBe('zh-CN');
    expect(xhr.headers['X-Request-Id']).toMatch(/^\d+-\w+$/);
    expect(((xhr.body as FormData).get('file') as File).name).toBe('hello.txt');

    xhr.upload.onprogress?.({ loaded: 4, total: 11, lengthComputable: true });
    xhr.upload.onprogress?.({ loaded: 11, total: 11, lengthComputable: true });
    xhr.respond(201, { items: [{ id: 'f-1' }], message: '1 file uploaded.' });
    await expect(handle.promise).resolves.toEqual({ items: [{ id: 'f-1' }], message: '1 file uploaded.' });
    expect(progress).toEqual([4, 11]);
  });

  it('uploads to the top level without a folder query', () => {
    uploadFile(file(['x'], 'x.csv'), 'x.csv', null);
    expect(FakeXhr.last.url).toBe('http://localhost/api/v1/files/');
    expect(FakeXhr.last.headers.Authorization).toBeUndefined();
  });

  it('cancels: the request is aborted and the promise rejects with AbortedError (no notice)', async () => {
    const handle = uploadFile(file(['x'], 'x.csv'), 'x.csv', null);
    handle.abort();
    expect(FakeXhr.last.aborted).toBe(true);
    const err = await handle.promise.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortedError);
    expect(describeTransferFailure(err)).toEqual([]);
  });

  it('turns a refusal into the same notices as any API error', async () => {
    const handle = uploadFile(file(['x'], 'big.bin'), 'big.bin', null);
    FakeXhr.last.respond(413, { detail: '"big.bin" is too large. Files can be at most 5 GB.' });
    const err = await handle.promise.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransferError);
    expect(describeTransferFailure(err)).toEqual([{ type: 'error', text: '"big.bin" is too large. Files can be at most 5 GB.' }]);
  });

  it('reports a network failure with the spec text', async () => {
    const handle = uploadFile(file(['x'], 'x'), 'x', null);
    FakeXhr.last.onerror?.();
    const err = await handle.promise.catch((e: unknown) => e);
    expect(describeTransferFailure(err)).toEqual([{ type: 'error', text: 'Network error. Please check your connection.' }]);
  });
});

describe('reportTransferFailure', () => {
  it('ends the session on a 401, as any API call does (spec §8)', () => {
    setCurrentLocale('en');
    const store = makeStore();
    const visited: string[] = [];
    setNavigator((to) => visited.push(to));
    localStorage.setItem('accessToken', 'stale');

    reportTransferFailure(store.dispatch, new TransferError({ status: 401, data: { detail: 'Your session has expired' } }));

    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(visited).toEqual(['/login']);
    expect(store.getState().notices.messages.map((m) => m.text)).toEqual(['Unauthorized. Redirecting to login...']);
    setNavigator(null);
  });

  it('shows any other failure as its notice and keeps the session', () => {
    const store = makeStore();
    localStorage.setItem('accessToken', 'fine');
    reportTransferFailure(store.dispatch, new TransferError({ status: 413, data: { detail: 'This file is too large.' } }));
    expect(localStorage.getItem('accessToken')).toBe('fine');
    expect(store.getState().notices.messages.map((m) => m.text)).toEqual(['This file is too large.']);
  });
});
