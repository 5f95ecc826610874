import fs from 'node:fs';
import { stepTypes } from '../engine/step-types';
import { STEPS_DOC } from './steps-doc';
import { notesText, readNotes, renderStepsDoc } from './steps-doc/render';

describe('docs/steps.md', () => {
  it('is what the step registry writes (run `npx tsx server/src/cli/steps-doc.ts` after changing a step type)', () => {
    expect(fs.readFileSync(STEPS_DOC, 'utf8')).toBe(renderStepsDoc());
  });

  it('has a section for every step type, and notes only for step types that exist', () => {
    const doc = renderStepsDoc();
    for (const { description } of stepTypes)
      expect([description.id, doc.includes(`\n### ${description.id} — ${description.name}\n`)]).toEqual([description.id, true]);
    const ids = new Set(stepTypes.map((t) => t.description.id));
    const notes = readNotes(notesText());
    for (const key of notes.keys()) if (key.startsWith('step ')) expect([key, ids.has(key.slice(5))]).toEqual([key, true]);
  });
});
