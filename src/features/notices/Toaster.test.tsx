import { act, screen } from '@testing-library/react';
import { renderWithProviders } from '../../test/renderWithProviders';
import { addMessage } from './noticesSlice';

describe('Toaster', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function setup(route = '/') {
    return renderWithProviders(<div />, { route, userEventOptions: { advanceTimers: jest.advanceTimersByTime } });
  }

  it('shows each non-modal message in the bottom-left area, 200–400 px wide', () => {
    const { store } = setup();
    act(() => {
      store.dispatch(addMessage({ type: 'success', text: 'Saved.' }));
      store.dispatch(addMessage({ type: 'warning', text: 'Careful.' }));
    });
    const region = screen.getByRole('region', { name: 'Notifications' });
    expect(region).toHaveStyle({ position: 'fixed' });
    const items = screen.getAllByRole('status');
    expect(items.map((el) => el.textContent)).toEqual(['Saved.', 'Careful.']);
    expect(items[0]).toHaveAttribute('data-type', 'success');
    expect(items[1]).toHaveAttribute('data-type', 'warning');
    expect(items[0]).toHaveStyle({ minWidth: '200px', maxWidth: '400px' });
  });

  it('removes a message after 5000 ms by default', () => {
    const { store } = setup();
    act(() => {
      store.dispatch(addMessage({ type: 'error', text: 'Boom' }));
    });
    act(() => jest.advanceTimersByTime(4999));
    expect(screen.getByText('Boom')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByText('Boom')).not.toBeInTheDocument();
    expect(store.getState().notices.messages).toEqual([]);
  });

  it('honours a custom duration', () => {
    const { store } = setup();
    act(() => {
      store.dispatch(addMessage({ type: 'info', text: 'Quick', duration: 1000 }));
      store.dispatch(addMessage({ type: 'info', text: 'Slow', duration: 8000 }));
    });
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.queryByText('Quick')).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(6000));
    expect(screen.getByText('Slow')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1000));
    expect(screen.queryByText('Slow')).not.toBeInTheDocument();
  });

  it('never expires a modal message and does not show it here', () => {
    const { store } = setup();
    act(() => {
      store.dispatch(addMessage({ type: 'info', text: 'Modal text', modal: { modal_id: 'm', level: 'info', content: 'Modal text', buttons: ['OK'] } }));
    });
    act(() => jest.advanceTimersByTime(60_000));
    expect(store.getState().notices.messages).toHaveLength(1);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('closes a message with its close button', async () => {
    const { store, user } = setup();
    act(() => {
      store.dispatch(addMessage({ type: 'error', text: 'First' }));
      store.dispatch(addMessage({ type: 'error', text: 'Second' }));
    });
    const closeButtons = screen.getAllByRole('button', { name: 'Close' });
    await user.click(closeButtons[0]);
    expect(screen.queryByText('First')).not.toBeInTheDocument();
    expect(screen.getByText('Second')).toBeInTheDocument();
    expect(store.getState().notices.messages.map((m) => m.text)).toEqual(['Second']);
  });

  it('labels the close button in Chinese on Chinese pages', () => {
    const { store } = setup('/cn');
    act(() => {
      store.dispatch(addMessage({ type: 'error', text: '出错了' }));
    });
    expect(screen.getByRole('button', { name: '关闭' })).toBeInTheDocument();
  });
});
