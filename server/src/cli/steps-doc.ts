import fs from 'node:fs';
import path from 'node:path';
import { renderStepsDoc } from './steps-doc/render';

/**
 *   npx tsx server/src/cli/steps-doc.ts      (or npm run docs:steps)
 * Writes docs/steps.md from the step registry and the hand-written notes in ./steps-doc/; run it
 * after adding or changing a step type (a test fails while the committed file differs).
 */
export const STEPS_DOC = path.join(__dirname, '../../../docs/steps.md');

if (require.main === module) {
  fs.writeFileSync(STEPS_DOC, renderStepsDoc());
  console.log(`Wrote ${path.relative(process.cwd(), STEPS_DOC)}`);
}
