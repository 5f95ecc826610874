import { detectDelimiter, parseCsv } from './csv';

describe('parseCsv', () => {
  it('reads plain rows with CRLF or LF', () => {
    expect(parseCsv('a,b\r\n1,2\n3,4\n').rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('keeps delimiters, doubled quotes and line breaks inside quoted fields', () => {
    const text = 'name,quote\n"Lovelace, Ada","She said ""hi""\nthen left"\nplain,x';
    expect(parseCsv(text).rows).toEqual([
      ['name', 'quote'],
      ['Lovelace, Ada', 'She said "hi"\nthen left'],
      ['plain', 'x'],
    ]);
  });

  it('drops the unfinished last row of a cut text and says it is truncated', () => {
    const result = parseCsv('a,b\n1,2\n3,"unfinish', { complete: false });
    expect(result.rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(result.truncated).toBe(true);
  });

  it('keeps a last row without a newline when the text is the whole file', () => {
    const result = parseCsv('a,b\n1,2', { complete: true });
    expect(result.rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(result.truncated).toBe(false);
  });

  it('stops at maxRows', () => {
    const text = Array.from({ length: 100 }, (_, i) => `${i},x`).join('\n');
    const result = parseCsv(text, { maxRows: 10 });
    expect(result.rows).toHaveLength(10);
    expect(result.rows[9]).toEqual(['9', 'x']);
    expect(result.truncated).toBe(true);
  });

  it('skips a BOM and finds semicolons and tabs', () => {
    expect(parseCsv('\ufeffa;b\n1;2\n').rows).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(detectDelimiter('a\tb\tc\n')).toBe('\t');
    expect(detectDelimiter('"x;y",b,c\n')).toBe(',');
  });

  it('keeps empty fields', () => {
    expect(parseCsv('a,,c\n,,\n').rows).toEqual([
      ['a', '', 'c'],
      ['', '', ''],
    ]);
  });
});
