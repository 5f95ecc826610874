// Jest's order of test files (jest.config.ts, testSequencer): its own (failed first, then slowest
// by the last run's times, else biggest files first), with the browser journeys after everything
// else. A journey drives Chromium beside its Jest worker, so while it runs the two cores carry
// more than two busy processes; the web and server files, whose timeouts are Jest's own 5 s, run
// first with a core each, and the journeys (60 s each) share the machine at the end.
const Sequencer = require('@jest/test-sequencer').default;

class JourneysLast extends Sequencer {
  async sort(tests) {
    const sorted = await super.sort(tests);
    const isJourney = (test) => test.context.config.displayName?.name === 'e2e';
    return [...sorted.filter((test) => !isJourney(test)), ...sorted.filter(isJourney)];
  }
}

module.exports = JourneysLast;
