import { act, screen } from '@testing-library/react';
import { renderWithProviders } from '../../test/renderWithProviders';
import { UPLOAD_PANEL_DISMISS_MS, UploadPanel } from './UploadPanel';
import type { UploadItem, UploadManager, UploadStatus } from './uploads';

/** A stand-in queue whose items the test sets; clearFinished behaves as the real one. */
function fakeManager(statuses: UploadStatus[]) {
  let items: UploadItem[] = statuses.map((status, i) => ({ id: `u${i}`, name: `file${i}.csv`, dir: '', size: 10, loaded: status === 'done' ? 10 : 0, status }));
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  const manager = {
    subscribe: (l: () => void) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getSnapshot: () => items,
    clearFinished: jest.fn(() => {
      items = items.filter((i) => i.status === 'queued' || i.status === 'uploading');
      notify();
    }),
    cancel: jest.fn(),
    cancelAll: jest.fn(),
    set(id: string, status: UploadStatus) {
      items = items.map((i) => (i.id === id ? { ...i, status, loaded: status === 'done' ? i.size : i.loaded } : i));
      notify();
    },
  };
  return manager;
}

const render = (manager: ReturnType<typeof fakeManager>) => renderWithProviders(<UploadPanel manager={manager as unknown as UploadManager} />);

describe('UploadPanel', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('clears itself a few seconds after every upload finished without a failure', async () => {
    const manager = fakeManager(['done', 'uploading']);
    render(manager);
    expect(await screen.findByRole('region', { name: 'Uploads' })).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(UPLOAD_PANEL_DISMISS_MS * 2));
    expect(screen.getByRole('region', { name: 'Uploads' })).toBeInTheDocument(); // still uploading

    act(() => manager.set('u1', 'done'));
    expect(screen.getByText('2 uploads complete')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(UPLOAD_PANEL_DISMISS_MS));
    expect(manager.clearFinished).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('region', { name: 'Uploads' })).not.toBeInTheDocument();
  });

  it('stays open while an upload failed, until closed by hand', async () => {
    const manager = fakeManager(['done', 'error']);
    render(manager);
    expect(await screen.findByRole('region', { name: 'Uploads' })).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(UPLOAD_PANEL_DISMISS_MS * 5));
    expect(manager.clearFinished).not.toHaveBeenCalled();
    expect(screen.getByRole('region', { name: 'Uploads' })).toBeInTheDocument();
  });

  it('leaves room at the end of the page as tall as the part of the screen it covers', async () => {
    jest.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
      top: window.innerHeight - 180,
      height: 156,
      bottom: window.innerHeight - 24,
      left: 0,
      right: 0,
      width: 384,
      x: 0,
      y: 0,
      toJSON: () => ({}),
    });
    const manager = fakeManager(['uploading']);
    render(manager);
    expect(await screen.findByRole('region', { name: 'Uploads' })).toBeInTheDocument();
    expect(screen.getByTestId('upload-panel-spacer')).toHaveStyle({ height: '180px' });
  });
});
