import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../test/renderWithProviders';
import { RunPanel } from './RunPanel';
import type { EditorRun } from './useLiveRun';
import { DEFAULT_BODY_PX, MAX_BODY_SHARE, MIN_BODY_PX } from './useRunPanelLayout';

// The run panel shares the canvas: it can be collapsed or made taller or shorter, and stays as the
// user left it (a reload, another workflow).

const noRun: EditorRun = {
  workflowId: 'w-1',
  runId: null,
  run: undefined,
  byStep: new Map(),
  busy: false,
  pausedForCredits: false,
  history: undefined,
  pick: () => undefined,
};

const body = () => document.getElementById('run-panel-body');

beforeEach(() => localStorage.clear());

it('stays collapsed once collapsed, after the editor is opened again', async () => {
  const { user, unmount } = renderWithProviders(<RunPanel editorRun={noRun} />);
  expect(body()).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Hide the run panel' }));
  expect(body()).not.toBeInTheDocument();
  unmount();

  renderWithProviders(<RunPanel editorRun={noRun} />);
  expect(body()).not.toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Show the run panel' })).toHaveAttribute('aria-expanded', 'false');
});

it('is resized from its top edge with the keyboard, within bounds, and keeps its height', async () => {
  const { user, unmount } = renderWithProviders(<RunPanel editorRun={noRun} />);
  const handle = screen.getByRole('separator', { name: 'Resize the run panel (arrow keys)' });
  expect(body()).toHaveStyle({ height: `${DEFAULT_BODY_PX}px` });
  handle.focus();
  await user.keyboard('{ArrowUp}{ArrowUp}');
  expect(body()).toHaveStyle({ height: `${DEFAULT_BODY_PX + 48}px` });
  expect(handle).toHaveAttribute('aria-valuenow', String(DEFAULT_BODY_PX + 48));
  unmount();

  renderWithProviders(<RunPanel editorRun={noRun} />);
  const again = screen.getByRole('separator', { name: 'Resize the run panel (arrow keys)' });
  expect(body()).toHaveStyle({ height: `${DEFAULT_BODY_PX + 48}px` });
  again.focus();
  await user.keyboard('{Home}');
  expect(body()).toHaveStyle({ height: `${MIN_BODY_PX}px` });
  await user.keyboard('{End}');
  expect(body()).toHaveStyle({ height: `${Math.round(window.innerHeight * MAX_BODY_SHARE)}px` });
});
