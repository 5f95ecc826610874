import { useState, type ComponentProps } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { api } from '../../test/handlers';
import { renderWithProviders } from '../../test/renderWithProviders';
import { server } from '../../test/server';
import { UndoRedoControls } from './UndoRedoControls';

// Sends as the editor's write queue would, with the version the tab last saw.
const write: ComponentProps<typeof UndoRedoControls>['write'] = async (send) => send(5);

function record() {
  const calls: { action: string; body: unknown }[] = [];
  const answer = (action: string) =>
    http.post(api(`/workflow-history/${action}`), async ({ request }) => {
      calls.push({ action, body: await request.json() });
      return HttpResponse.json({
        id: 'w-1',
        version: 6,
        can_undo: true,
        can_redo: true,
        message: action === 'undo' ? 'Undid: Added step' : 'Redid: Added step',
      });
    });
  server.use(answer('undo'), answer('redo'));
  return calls;
}

describe('undo / redo', () => {
  it('buttons call the endpoints with the workflow id', async () => {
    const calls = record();
    const { user } = renderWithProviders(<UndoRedoControls workflowId="w-1" canUndo canRedo write={write} />);
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Undid: Added step')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Redo' }));
    await waitFor(() => expect(calls.map((c) => c.action)).toEqual(['undo', 'redo']));
    expect(calls[0].body).toEqual({ workflow_id: 'w-1', version: 5 });
  });

  it('are disabled from can_undo / can_redo, and so are the shortcuts', async () => {
    const calls = record();
    /** The controls as the editor shows them, with history to undo once the workflow says so. */
    function Controls() {
      const [enabled, setEnabled] = useState(false);
      return (
        <>
          <button onClick={() => setEnabled(true)}>Load history</button>
          <UndoRedoControls workflowId="w-1" canUndo={enabled} canRedo={enabled} write={write} />
        </>
      );
    }
    renderWithProviders(<Controls />);
    expect(screen.getByRole('button', { name: 'Undo' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Redo' })).toBeDisabled();
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    // Then, enabled, the same shortcut and a redo: those two calls are all that reach the server
    // (a call from the disabled press would have been sent before them).
    fireEvent.click(screen.getByRole('button', { name: 'Load history' }));
    expect(screen.getByRole('button', { name: 'Undo' })).toBeEnabled();
    fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    await waitFor(() => expect(calls).toHaveLength(1));
    fireEvent.keyDown(window, { key: 'Z', ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls.map((c) => c.action)).toEqual(['undo', 'redo']);
  });

  it('Ctrl/Cmd+Z undoes, Shift+Ctrl/Cmd+Z redoes, but not while typing', async () => {
    const calls = record();
    renderWithProviders(
      <>
        <input aria-label="Somewhere to type" />
        <UndoRedoControls workflowId="w-1" canUndo canRedo write={write} />
      </>,
    );
    // Typed into the field: no call. The calls after it are all that reach the server (one from
    // the typing would have been sent before them).
    fireEvent.keyDown(screen.getByLabelText('Somewhere to type'), { key: 'z', ctrlKey: true });
    fireEvent.keyDown(document.body, { key: 'z', ctrlKey: true });
    await waitFor(() => expect(calls).toHaveLength(1));
    fireEvent.keyDown(document.body, { key: 'Z', metaKey: true, shiftKey: true });
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls.map((c) => c.action)).toEqual(['undo', 'redo']);
  });
});
