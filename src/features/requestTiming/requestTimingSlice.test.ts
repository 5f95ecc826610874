import { MAX_TIMINGS, requestTimed, requestTimingReducer } from './requestTimingSlice';

it('keeps only the most recent entries', () => {
  let state = requestTimingReducer(undefined, { type: 'init' });
  for (let i = 0; i < MAX_TIMINGS + 5; i += 1) {
    state = requestTimingReducer(state, requestTimed({ url: `/r/${i}`, method: 'GET', start: i, end: i + 1, duration: 1 }));
  }
  expect(state.entries).toHaveLength(MAX_TIMINGS);
  expect(state.entries[0].url).toBe('/r/5');
  expect(state.entries.at(-1)!.url).toBe(`/r/${MAX_TIMINGS + 4}`);
});
