/**
 * For a wait on the workflow editor's first render in a test file: its lazy chunk and React Flow
 * load and render for the first time, up to 5 s in jsdom on a 2-core machine running the other
 * projects beside it (longer than the 3 s every other wait gets, src/test/setup.ts).
 */
export const EDITOR_FIRST_RENDER = { timeout: 5_000 };
