import { createListenerMiddleware, isFulfilled, isRejectedWithValue, type UnknownAction } from '@reduxjs/toolkit';
import type { FetchBaseQueryError, FetchBaseQueryMeta } from '@reduxjs/toolkit/query';
import { translate } from '../../i18n/currentIntl';
import { baseApi } from '../../services/baseApi';
import { endExpiredSession } from '../auth/sessionExpired';
import { describeFailure, describeSuccess, httpStatusOf } from './describeResponse';
import { addMessage } from './noticesSlice';

// Every RTK Query call ends here: failures become error notices or modals (spec §8), successes show
// their modal, message and warnings (spec §7). Screens therefore never format API errors themselves.

interface ApiResultMeta {
  arg?: { endpointName?: string };
  baseQueryMeta?: FetchBaseQueryMeta;
}

/** A fulfilled or rejected RTK Query call of our api slice (not some other thunk). */
function apiResultMeta(action: UnknownAction): ApiResultMeta | null {
  if (!action.type.startsWith(`${baseApi.reducerPath}/execute`)) return null;
  const meta = (action as { meta?: ApiResultMeta }).meta;
  return meta?.arg?.endpointName ? meta : null;
}

export function createNoticesMiddleware() {
  const listener = createListenerMiddleware();

  listener.startListening({
    predicate: (action) => apiResultMeta(action) !== null && (isRejectedWithValue(action) || isFulfilled(action)),
    effect: (action, api) => {
      const meta = apiResultMeta(action)!;
      if (isFulfilled(action)) {
        for (const notice of describeSuccess(action.payload)) api.dispatch(addMessage(notice));
        return;
      }
      const error = (action as unknown as { payload: FetchBaseQueryError }).payload;
      // Deliberate exception: a 401 from the login call itself means "wrong email or password",
      // not "your session ended", so the user stays on the sign-in page and sees the server's
      // explanation (its `detail`) instead of being redirected.
      if (httpStatusOf(error) === 401 && meta.arg?.endpointName !== 'login') {
        endExpiredSession(api.dispatch);
        return;
      }
      for (const notice of describeFailure(error, meta.baseQueryMeta?.response?.statusText, translate)) {
        api.dispatch(addMessage(notice));
      }
    },
  });

  return listener.middleware;
}
