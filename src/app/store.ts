import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { isProduction } from '../config/env';
import { authReducer } from '../features/auth/authSlice';
import { createNoticesMiddleware } from '../features/notices/noticesMiddleware';
import { noticesReducer } from '../features/notices/noticesSlice';
import { requestTimingReducer } from '../features/requestTiming/requestTimingSlice';
import { createStepDraftsMiddleware, stepDraftsReducer } from '../features/steps/stepDrafts';
import { createTopUpMiddleware } from '../features/usage/topUpListener';
import { baseApi } from '../services/baseApi';

// The single store (docs/architecture). A factory, so every test builds a fresh one.

const rootReducer = combineReducers({
  [baseApi.reducerPath]: baseApi.reducer,
  auth: authReducer,
  notices: noticesReducer,
  requestTiming: requestTimingReducer,
  stepDrafts: stepDraftsReducer,
});

export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    // The listener goes first so it sees API results even if a later middleware stops them.
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware().prepend(createNoticesMiddleware()).concat(baseApi.middleware, createStepDraftsMiddleware(), createTopUpMiddleware()),
    devTools: !isProduction,
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
