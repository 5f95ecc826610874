import { createIntl } from 'react-intl';
import { formatRunDuration, runLink } from './runFigures';

describe('run figures', () => {
  const en = createIntl({ locale: 'en', messages: {} });
  const cn = createIntl({ locale: 'zh-CN', messages: {} });

  it('says how long a run took in the reader’s language, and a dash while it has not ended', () => {
    expect(formatRunDuration(en, null)).toBe('—');
    expect(formatRunDuration(en, 420)).toBe('0.4s');
    expect(formatRunDuration(en, 45_000)).toBe('45s');
    expect(formatRunDuration(en, 120_000)).toBe('2m');
    expect(formatRunDuration(en, 125_000)).toBe('2m 5s');
    expect(formatRunDuration(en, 3_725_000)).toBe('1h 2m');
    expect(formatRunDuration(cn, 125_000)).toBe('2分钟5秒');
  });

  it("links a run to its workflow's editor showing it", () => {
    expect(runLink({ id: 'r 1', workflow_id: 'w-1' })).toBe('/workflows/w-1?run=r%201');
  });
});
