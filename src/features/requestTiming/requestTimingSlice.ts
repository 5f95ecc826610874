import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

// How long each API call took (spec §3 "Request timing record"). Kept in the store rather than a
// logger so it shows up in Redux DevTools next to the actions that caused the calls.

export interface RequestTiming {
  url: string;
  method: string;
  /** Epoch milliseconds. */
  start: number;
  end: number;
  duration: number;
}

/** Enough to debug a session without letting a long-lived tab grow without bound. */
export const MAX_TIMINGS = 200;

interface RequestTimingState {
  entries: RequestTiming[];
}

const initialState: RequestTimingState = { entries: [] };

const requestTimingSlice = createSlice({
  name: 'requestTiming',
  initialState,
  reducers: {
    requestTimed(state, action: PayloadAction<RequestTiming>) {
      state.entries.push(action.payload);
      if (state.entries.length > MAX_TIMINGS) state.entries.splice(0, state.entries.length - MAX_TIMINGS);
    },
  },
});

export const { requestTimed } = requestTimingSlice.actions;
export const requestTimingReducer = requestTimingSlice.reducer;
