import type { RowColumn } from '../engine/datasets';

// A table of cells a spreadsheet would run as formulas (docs/decisions/0060-csv-formula-injection.md)
// and the CSV written of it, with and without the `'` in front: the export_csv sink (through the
// sinks' test bed) and a dataset's CSV download both write exactly this file.

/** Texts a spreadsheet would run as formulas (OWASP's six leading characters), beside negative numbers. */
export const formulaColumns: RowColumn[] = [
  { name: 'text', type: 'VARCHAR' },
  { name: 'amount', type: 'DOUBLE' },
  { name: '-delta', type: 'BIGINT' },
];
export const formulaRows = [
  { text: '=1+1', amount: -5, '-delta': -1 },
  { text: "+cmd|' /C calc'!A0", amount: -0.5, '-delta': -2 },
  { text: '-2+3', amount: 1.5, '-delta': 3 },
  { text: '@SUM(A1)', amount: -2, '-delta': 0 },
  { text: '\tx', amount: 0, '-delta': -4 },
  { text: '\rx', amount: -1e6, '-delta': -5 },
  { text: 'a normal text', amount: -7.25, '-delta': null },
];

/**
 * The CSV's lines by default (the last one empty: the file ends with a line break): a `'` before
 * each text cell and column name a spreadsheet would run; numbers, negative ones too, as they are.
 */
export const formulaCsvLines = [
  "text,amount,'-delta",
  "'=1+1,-5.0,-1",
  "'+cmd|' /C calc'!A0,-0.5,-2",
  "'-2+3,1.5,3",
  "'@SUM(A1),-2.0,0",
  "'\tx,0.0,-4",
  // A carriage return is a line break to CSV, so DuckDB quotes the cell.
  `"'\rx",-1000000.0,-5`,
  'a normal text,-7.25,',
  '',
];

/** The CSV's lines with formulas kept: every value and name exactly as stored. */
export const rawFormulaCsvLines = [
  'text,amount,-delta',
  '=1+1,-5.0,-1',
  "+cmd|' /C calc'!A0,-0.5,-2",
  '-2+3,1.5,3',
  '@SUM(A1),-2.0,0',
  '\tx,0.0,-4',
  '"\rx",-1000000.0,-5',
  'a normal text,-7.25,',
  '',
];
