import { checkName, firstFreeName, MAX_NAME_LENGTH, numberedName, zipEntryName } from './names';
import { sniffContentType } from './sniff';
import { contentDisposition, parseRange } from './http-download';

describe('stored names made safe as zip entries', () => {
  it.each([
    ['../../etc/passwd', '._._etc_passwd'],
    ['C:\\Users\\ada\\report.csv', 'C__Users_ada_report.csv'],
    ['C:', 'C_'],
    ['D:evil.txt', 'D_evil.txt'],
    ['..', 'file'],
    ['...', 'file'],
    ['a\u2215..\u2215b.txt', 'a_._b.txt'], // division slash
    ['evil\u202Etxt.exe', 'eviltxt.exe'], // right-to-left override removed
    ['tab\tnew\nline\u0000.csv', 'tabnewline.csv'],
    ['lone\uD800.csv', 'lone\uFFFD.csv'],
    ['报告：2024.csv', '报告：2024.csv'],
  ])('%j becomes %j', (raw, expected) => {
    expect(zipEntryName(raw)).toBe(expected);
  });

  it('keeps names to 255 characters and keeps the extension', () => {
    const long = zipEntryName(`${'x'.repeat(400)}.parquet`);
    expect(Array.from(long)).toHaveLength(MAX_NAME_LENGTH);
    expect(long.endsWith('.parquet')).toBe(true);
  });
});

describe('names checked once, for every way in', () => {
  it.each([
    '../x',
    'a/b',
    'a\\b',
    '..',
    '.',
    'a..b',
    'x\u2215y',
    'x\uFF0Fy',
    'bell\u0007',
    'rtl\u202Egnp.exe',
    ' ',
    '',
    'y'.repeat(256),
    'C:',
    'D:evil.txt',
    'c:\\windows',
    'file:stream',
    'lone\uD800',
    '\uDC00trail',
  ])('refuses %j with 422 at the field', (name) => {
    expect(() => checkName(name)).toThrow(
      expect.objectContaining({ problems: [expect.objectContaining({ key: 'server.files.invalidName', loc: ['body', 'name'] })] }),
    );
    expect(() => checkName(name, ['body', 'upload'])).toThrow(expect.objectContaining({ problems: [expect.objectContaining({ loc: ['body', 'upload'] })] }));
  });
  it('accepts and trims ordinary names', () => {
    expect(checkName('  Q3 results ')).toBe('Q3 results');
    expect(checkName('数据')).toBe('数据');
    expect(checkName('报告：2024 😀.csv')).toBe('报告：2024 😀.csv');
    expect(checkName('.env')).toBe('.env');
    expect(checkName('y'.repeat(255))).toHaveLength(255);
  });
});

describe('numbered names', () => {
  it('adds (n) before the extension, first free one', () => {
    expect(numberedName('report.csv', 1)).toBe('report (1).csv');
    expect(numberedName('README', 2)).toBe('README (2)');
    expect(numberedName('.env', 1)).toBe('.env (1)');
    expect(firstFreeName('report.csv', new Set(['report.csv', 'report (1).csv']))).toBe('report (2).csv');
    expect(firstFreeName('new.csv', new Set(['report.csv']))).toBe('new.csv');
  });
});

describe('content sniffing', () => {
  it.each([
    [Buffer.from('89504e470d0a1a0a0000', 'hex'), 'x.bin', 'image/png'],
    [Buffer.from('ffd8ffe000104a46', 'hex'), 'photo', 'image/jpeg'],
    [Buffer.from('%PDF-1.7\n'), 'doc.txt', 'application/pdf'],
    [Buffer.from('PAR1\u0015\u0004'), 'data.parquet', 'application/vnd.apache.parquet'],
    [Buffer.from('504b030414000600', 'hex'), 'book.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    [Buffer.from('504b030414000600', 'hex'), 'archive.zip', 'application/zip'],
    [Buffer.from('a,b\n1,2\n'), 'data.csv', 'text/csv'],
    [Buffer.from('{"a":1}'), 'data.json', 'application/json'],
    [Buffer.from('名字,年龄\n'), 'people.csv', 'text/csv'],
    [Buffer.from('just words'), 'notes', 'text/plain'],
    [Buffer.from([0, 1, 2, 255, 254]), 'data.csv', 'application/octet-stream'],
    [Buffer.from('<html><script>alert(1)</script>'), 'innocent.png', 'text/plain'],
  ])('%#: %s named %s is %s', (head, name, type) => {
    expect(sniffContentType(head, name)).toBe(type);
  });
});

describe('download headers', () => {
  it('gives an ASCII filename and the exact one in filename*', () => {
    expect(contentDisposition('attachment', '报告 "Q3"; final.csv')).toBe(
      `attachment; filename="__ _Q3__ final.csv"; filename*=UTF-8''%E6%8A%A5%E5%91%8A%20%22Q3%22%3B%20final.csv`,
    );
    expect(contentDisposition('inline', "it's (1).txt")).toBe(`inline; filename="it's (1).txt"; filename*=UTF-8''it%27s%20%281%29.txt`);
  });

  it('never throws, even on a stored name with a lone surrogate', () => {
    expect(contentDisposition('attachment', 'a\uD800b.zip')).toBe(`attachment; filename="a_b.zip"; filename*=UTF-8''a%EF%BF%BDb.zip`);
    expect(contentDisposition('attachment', '\uDFFF')).toBe(`attachment; filename="_"; filename*=UTF-8''%EF%BF%BD`);
  });

  it.each([
    [undefined, null],
    ['bytes=0-9', { start: 0, end: 9 }],
    ['bytes=90-', { start: 90, end: 99 }],
    ['bytes=95-200', { start: 95, end: 99 }],
    ['bytes=-10', { start: 90, end: 99 }],
    ['bytes=-500', { start: 0, end: 99 }],
    ['bytes=100-', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=5-1', null],
    ['bytes=0-1,5-6', null],
    ['items=0-1', null],
  ])('Range %s on 100 bytes → %j', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });
});
