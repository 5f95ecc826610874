import { http, HttpResponse } from 'msw';
import { api } from '../../test/handlers';
import { server } from '../../test/server';
import { makeStore } from '../../app/store';
import { UploadManager } from './uploads';

// Node's File: jest-fixed-jsdom's FormData (Node's) refuses jsdom's File (no Node types here).
declare const require: (id: 'node:buffer') => { File: typeof File };
const NodeFile = require('node:buffer').File;

const file = (name: string, size = 10) => new NodeFile(['x'.repeat(size)], name) as unknown as File;

// The stand-in XHR: every upload waits until the test finishes it.
class FakeXhr {
  static all: FakeXhr[] = [];
  url = '';
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  body: FormData | null = null;
  constructor() {
    FakeXhr.all.push(this);
  }
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  finish(status = 201, body: unknown = { items: [] }) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

const realXhr = window.XMLHttpRequest;
beforeEach(() => {
  FakeXhr.all = [];
  (window as unknown as { XMLHttpRequest: unknown }).XMLHttpRequest = FakeXhr;
});
afterEach(() => {
  window.XMLHttpRequest = realXhr;
});

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('UploadManager', () => {
  it('runs a few uploads at a time, tracks progress, and cancels queued and running ones', async () => {
    const store = makeStore();
    const dispatch = jest.spyOn(store, 'dispatch');
    const dispatched = () => dispatch.mock.calls.map(([action]) => action);
    const manager = new UploadManager(() => store.dispatch, 2);
    manager.enqueue([file('a.csv'), file('b.csv'), file('c.csv'), file('d.csv')], 'folder-1');
    expect(FakeXhr.all).toHaveLength(2);
    expect(manager.getSnapshot().map((i) => i.status)).toEqual(['uploading', 'uploading', 'queued', 'queued']);

    FakeXhr.all[0].upload.onprogress?.({ loaded: 5, total: 10, lengthComputable: true });
    expect(manager.getSnapshot()[0].loaded).toBe(5);

    manager.cancel(manager.getSnapshot()[3].id);
    manager.cancel(manager.getSnapshot()[1].id);
    await flush();
    expect(manager.getSnapshot().map((i) => i.status)).toEqual(['uploading', 'cancelled', 'uploading', 'cancelled']);
    expect(FakeXhr.all).toHaveLength(3);

    FakeXhr.all[0].finish(201, { items: [{ id: 'f-new', name: 'a.csv' }] });
    FakeXhr.all[2].finish(409, { detail: 'Your storage is full.' });
    await flush();
    expect(manager.getSnapshot().map((i) => i.status)).toEqual(['done', 'cancelled', 'error', 'cancelled']);
    // A finished upload knows the file it made, so a picker can choose it.
    expect(manager.getSnapshot()[0].fileId).toBe('f-new');
    expect(manager.getSnapshot()[2].error).toBe('Your storage is full.');
    // The failure became a notice; finished uploads refreshed the folders.
    expect(dispatched()).toContainEqual(
      expect.objectContaining({ type: 'notices/addMessage', payload: expect.objectContaining({ text: 'Your storage is full.' }) }),
    );
    expect(dispatched()).toContainEqual(expect.objectContaining({ type: 'api/invalidateTags' }));
    manager.clearFinished();
    expect(manager.getSnapshot()).toEqual([]);
  });

  it('uploads a dropped folder tree: makes each folder once (reusing), then uploads into it', async () => {
    const made: Array<{ name: string; parent_id: string | null; on_conflict: string }> = [];
    server.use(
      http.post(api('/files/folders'), async ({ request }) => {
        const body = (await request.json()) as { name: string; parent_id: string | null; on_conflict: string };
        made.push(body);
        return HttpResponse.json({ id: `id-${body.name}`, name: body.name, parent_id: body.parent_id, created_at: '', updated_at: '' }, { status: 201 });
      }),
    );
    const manager = new UploadManager(() => null, 5);
    await manager.enqueueTree(
      [
        { file: file('top.csv'), dirs: [] },
        { file: file('a.csv'), dirs: ['photos'] },
        { file: file('b.csv'), dirs: ['photos', '2024'] },
        { file: file('c.csv'), dirs: ['photos', '2024'] },
        { file: null, dirs: ['empty'] },
      ],
      'target',
    );
    expect(made).toEqual([
      { name: 'empty', parent_id: 'target', on_conflict: 'reuse' },
      { name: 'photos', parent_id: 'target', on_conflict: 'reuse' },
      { name: '2024', parent_id: 'id-photos', on_conflict: 'reuse' },
    ]);
    expect(FakeXhr.all.map((x) => x.url.split('?')[1])).toEqual(['folder_id=target', 'folder_id=id-photos', 'folder_id=id-2024', 'folder_id=id-2024']);
    expect(manager.getSnapshot().map((i) => `${i.dir}/${i.name}`)).toEqual(['/top.csv', 'photos/a.csv', 'photos/2024/b.csv', 'photos/2024/c.csv']);
  });
});
