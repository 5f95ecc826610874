import { makeStore } from '../../app/store';
import { addMessage, modalButtonClicked, removeMessage } from './noticesSlice';

const modal = { modal_id: 'welcome', level: 'info' as const, content: 'Hello', buttons: ['OK'] };

describe('notices slice', () => {
  it('uses the modal id as the message id and shows the same modal once', () => {
    const store = makeStore();
    store.dispatch(addMessage({ type: 'info', text: 'Hello', modal }));
    store.dispatch(addMessage({ type: 'info', text: 'Hello again', modal }));
    expect(store.getState().notices.messages).toEqual([{ id: 'welcome', type: 'info', text: 'Hello', modal }]);
  });

  it('gives other messages a random id, so equal texts are all kept', () => {
    const store = makeStore();
    store.dispatch(addMessage({ type: 'error', text: 'Oops' }));
    store.dispatch(addMessage({ type: 'error', text: 'Oops' }));
    const [a, b] = store.getState().notices.messages;
    expect(a.id).toEqual(expect.any(String));
    expect(a.id).not.toBe(b.id);
  });

  it('removes by id', () => {
    const store = makeStore();
    store.dispatch(addMessage({ type: 'success', text: 'Kept' }));
    store.dispatch(addMessage({ type: 'success', text: 'Gone', duration: 100 }));
    const gone = store.getState().notices.messages[1];
    store.dispatch(removeMessage(gone.id));
    expect(store.getState().notices.messages.map((m) => m.text)).toEqual(['Kept']);
  });

  it('a modal button click removes that modal', () => {
    const store = makeStore();
    store.dispatch(addMessage({ type: 'info', text: 'Hello', modal }));
    store.dispatch(addMessage({ type: 'info', text: 'Other' }));
    store.dispatch(modalButtonClicked({ modal_id: 'welcome', button: 'OK' }));
    expect(store.getState().notices.messages.map((m) => m.text)).toEqual(['Other']);
  });
});
