import en from '../../../i18n/en.json';
import zh from '../../../i18n/zh-CN.json';
import { formatValidationItem } from './describeResponse';
import { fieldLabelIds } from './fieldLabels';

const catalog = (messages: Record<string, string>) => (id: string) => messages[id] ?? `<missing ${id}>`;
const t = catalog(en);

describe('formatValidationItem', () => {
  it('says after the message, in brackets, the field as the page names it (after the request part)', () => {
    expect(formatValidationItem({ msg: 'Must be at most 40 characters.', loc: ['body', 'invitation_code'] }, t)).toBe(
      'Must be at most 40 characters. (Invitation code)',
    );
    expect(formatValidationItem({ msg: 'Must be at most 100.', loc: ['query', 'page_size'] }, t)).toBe('Must be at most 100. (Rows per page)');
  });

  it('in the user’s language', () => {
    expect(formatValidationItem({ msg: '长度不能超过 40 个字符。', loc: ['body', 'invitation_code'] }, catalog(zh))).toBe('长度不能超过 40 个字符。 (邀请码)');
  });

  it('never shows an API name: the quoted cases of issue 11/13', () => {
    const code = formatValidationItem({ msg: 'There is no such invitation code.', loc: ['body', 'invitation_code'] }, t);
    expect(code).toBe('There is no such invitation code. (Invitation code)');
    // The server's label (the step's name, a param as the step form shows it) wins.
    const step = formatValidationItem(
      { msg: 'The step “Load CSV” needs settings before it can run: check “File”.', loc: ['path', 'stepId'], label: 'Load CSV' },
      t,
    );
    expect(step).toBe('The step “Load CSV” needs settings before it can run: check “File”. (Load CSV)');
    expect(formatValidationItem({ msg: 'Required.', loc: ['body', 'param_inputs', 'file'], label: 'File' }, t)).toBe('Required. (File)');
    for (const text of [code, step]) expect(text).not.toMatch(/invitation_code|stepId|\(file\)/);
  });

  it('names the innermost part it has words for, and shows the spec’s dotted path for a field it has none for', () => {
    expect(formatValidationItem({ msg: 'Too short', loc: ['body', 'items', 0, 'name'] }, t)).toBe('Too short (Name)');
    expect(formatValidationItem({ msg: 'Field required', loc: ['body', 'address', 'city'] }, t)).toBe('Field required (address.city)');
  });

  it('shows just the message when nothing is left after dropping the first element', () => {
    expect(formatValidationItem({ msg: 'Invalid body', loc: ['body'] }, t)).toBe('Invalid body');
    expect(formatValidationItem({ msg: 'Invalid', loc: [] }, t)).toBe('Invalid');
    expect(formatValidationItem({ msg: 'Invalid' }, t)).toBe('Invalid');
  });

  it('has every field label in English and Chinese', () => {
    for (const id of fieldLabelIds()) {
      expect([id, typeof (en as Record<string, string>)[id]]).toEqual([id, 'string']);
      expect([id, typeof (zh as Record<string, string>)[id]]).toEqual([id, 'string']);
    }
  });
});
