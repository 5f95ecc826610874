import { act, screen, waitFor, within } from '@testing-library/react';
import type { Modal } from '../../../server/src/http/common.schemas';
import { renderWithProviders } from '../../test/renderWithProviders';
import { MODAL_LAYER } from './NoticeModal';
import { addMessage, modalButtonClicked } from './noticesSlice';

function showModal(store: ReturnType<typeof renderWithProviders>['store'], modal: Modal) {
  act(() => {
    store.dispatch(addMessage({ type: 'info', text: modal.content, modal }));
  });
}

const base: Modal = { modal_id: 'm-1', level: 'info', content: 'Body text', buttons: ['OK'] };

describe('NoticeModal', () => {
  it.each([
    ['success', 'Success'],
    ['warning', 'Warning'],
    ['error', 'Error'],
    ['info', 'Information'],
    ['something-else', 'Information'],
  ])('titles a %s modal "%s"', async (level, title) => {
    const { store } = renderWithProviders(<div />);
    showModal(store, { ...base, level: level as Modal['level'] });
    const dialog = await screen.findByRole(level === 'error' || level === 'warning' ? 'alertdialog' : 'dialog');
    expect(within(dialog).getByRole('heading', { name: title })).toBeInTheDocument();
    expect(within(dialog).getByText('Body text')).toBeInTheDocument();
  });

  it('translates the title on Chinese pages', async () => {
    const { store } = renderWithProviders(<div />, { route: '/cn' });
    showModal(store, { ...base, level: 'success' });
    expect(await screen.findByRole('heading', { name: '成功' })).toBeInTheDocument();
  });

  it('renders one button per name; any "cancel" is secondary, the rest primary', async () => {
    const { store } = renderWithProviders(<div />);
    showModal(store, { ...base, buttons: ['Delete', 'CANCEL', 'Keep', 'cancel'] });
    const dialog = await screen.findByRole('dialog');
    const buttons = within(dialog).getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['Delete', 'CANCEL', 'Keep', 'cancel']);
    expect(buttons.map((b) => b.getAttribute('data-variant'))).toEqual(['primary', 'secondary', 'primary', 'secondary']);
  });

  it.each(['OK', 'Cancel'])('closes on "%s" and reports which button was clicked', async (button) => {
    const { store, user } = renderWithProviders(<div />);
    const dispatched: unknown[] = [];
    const original = store.dispatch;
    jest.spyOn(store, 'dispatch').mockImplementation(((action: Parameters<typeof original>[0]) => {
      dispatched.push(action);
      return original(action);
    }) as typeof store.dispatch);
    showModal(store, { ...base, buttons: ['OK', 'Cancel'] });
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: button }));
    expect(dispatched).toContainEqual(modalButtonClicked({ modal_id: 'm-1', button }));
    expect(store.getState().notices.messages).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows only the first modal message, then the next one', async () => {
    const { store, user } = renderWithProviders(<div />);
    showModal(store, { ...base, modal_id: 'first', content: 'First modal' });
    showModal(store, { ...base, modal_id: 'second', content: 'Second modal' });
    expect(await screen.findByText('First modal')).toBeInTheDocument();
    expect(screen.queryByText('Second modal')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'OK' }));
    expect(await screen.findByText('Second modal')).toBeInTheDocument();
  });

  it('sits above layer 1000', async () => {
    expect(MODAL_LAYER).toBeGreaterThan(1000);
    const { store } = renderWithProviders(<div />);
    showModal(store, base);
    const dialog = await screen.findByRole('dialog');
    const positioner = dialog.parentElement!;
    expect(positioner).toHaveStyle({ zIndex: String(MODAL_LAYER) });
  });

  it('offers an OK button when the server sends none, so it can always be closed', async () => {
    const { store, user } = renderWithProviders(<div />);
    showModal(store, { ...base, buttons: [] });
    await user.click(await screen.findByRole('button', { name: 'OK' }));
    expect(store.getState().notices.messages).toEqual([]);
  });
});
