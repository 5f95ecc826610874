import { createListenerMiddleware } from '@reduxjs/toolkit';
import { navigate } from '../../app/navigation';
import { getCurrentLocale } from '../../i18n/currentIntl';
import { withLocalePrefix } from '../../i18n/locales';
import { modalButtonClicked } from '../notices/noticesSlice';

// A run refused for lack of credits answers 402 with the modal 'insufficient-credits' (buttons
// "Top up" and "Cancel"). "Top up" opens the billing page in the language being shown; the modal
// itself is closed by the notices slice either way.

export const INSUFFICIENT_CREDITS_MODAL = 'insufficient-credits';
export const TOP_UP_BUTTON = 'Top up';

export function createTopUpMiddleware() {
  const listener = createListenerMiddleware();
  listener.startListening({
    actionCreator: modalButtonClicked,
    effect: ({ payload }) => {
      // Compared loosely: the button's name is the server's text.
      if (payload.modal_id === INSUFFICIENT_CREDITS_MODAL && payload.button.trim().toLowerCase() === TOP_UP_BUTTON.toLowerCase()) {
        navigate(withLocalePrefix('/billing', getCurrentLocale()));
      }
    },
  });
  return listener.middleware;
}
