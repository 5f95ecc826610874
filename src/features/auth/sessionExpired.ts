import type { Dispatch } from '@reduxjs/toolkit';
import { getCurrentPath, navigate } from '../../app/navigation';
import { getCurrentLocale, translate } from '../../i18n/currentIntl';
import { withLocalePrefix } from '../../i18n/locales';
import { clearAccessToken } from '../../services/tokenStorage';
import { addMessage } from '../notices/noticesSlice';
import { sessionEnded } from './authActions';

/**
 * What any 401 does (spec §8): the token goes, the user store is cleared, the browser goes to
 * /login (remembering where it was) and says why. Used by the notices middleware for RTK Query
 * calls and by the calls made outside it (file transfers with progress).
 */
export function endExpiredSession(dispatch: Dispatch): void {
  clearAccessToken();
  dispatch(sessionEnded());
  navigate(withLocalePrefix('/login', getCurrentLocale()), { state: { from: getCurrentPath() } });
  dispatch(addMessage({ type: 'error', text: translate('notices.unauthorized') }));
}
