import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';

/**
 * Workbooks of many tiny cells, made without exceljs (its writer would take far longer than the
 * read under test): the minimal parts of an .xlsx, one sheet "Data", a header row `c1…cN` of inline
 * text and rows of numbers. The XML compresses hundreds of times over, as the issue's bomb did.
 */

const PARTS: Record<string, string> = {
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  'xl/workbook.xml':
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>',
  'xl/_rels/workbook.xml.rels':
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
};

const SHEET = 'xl/worksheets/sheet1.xml';

/** Column letters: 1 → A, 27 → AA. */
function letters(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

export function sheetXml(rows: number, columns: number): string {
  const names = Array.from({ length: columns }, (_, c) => letters(c + 1));
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'];
  out.push(`<row r="1">${names.map((l, c) => `<c r="${l}1" t="inlineStr"><is><t>c${c + 1}</t></is></c>`).join('')}</row>`);
  for (let r = 2; r <= rows + 1; r++) out.push(`<row r="${r}">${names.map((l) => `<c r="${l}${r}"><v>1</v></c>`).join('')}</row>`);
  out.push('</sheetData></worksheet>');
  return out.join('');
}

export function zipOf(parts: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(parts)) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** A workbook of `rows` data rows of `columns` cells each (plus the header). */
export const tinyCellsWorkbook = (rows: number, columns: number) => zipOf({ ...PARTS, [SHEET]: sheetXml(rows, columns) });

/**
 * The zip with `part`'s uncompressed size rewritten to `size` in its central directory and local
 * header: a workbook that says its sheet unpacks to `size` bytes (a bomb declares what it holds;
 * a forged one declares less).
 */
export function withDeclaredSize(zip: Buffer, part: string = SHEET, size: number): Buffer {
  const out = Buffer.from(zip);
  const name = Buffer.from(part);
  let patched = 0;
  for (let at = 0; at < out.length - 46; at++) {
    const signature = out.readUInt32LE(at);
    // Central directory entry: name length at 28, name at 46, uncompressed size at 24.
    if (signature === 0x02014b50 && out.subarray(at + 46, at + 46 + out.readUInt16LE(at + 28)).equals(name)) {
      out.writeUInt32LE(size, at + 24);
      patched++;
    }
    // Local file header: name length at 26, name at 30, uncompressed size at 22.
    if (signature === 0x04034b50 && out.subarray(at + 30, at + 30 + out.readUInt16LE(at + 26)).equals(name)) {
      out.writeUInt32LE(size, at + 22);
      patched++;
    }
  }
  if (patched !== 2) throw new Error(`expected one central and one local header for ${part}, patched ${patched}`);
  return out;
}

/** The sheet's XML in pieces of 1,000 rows, so a sheet of millions of cells is never one string. */
function* sheetXmlPieces(rows: number, columns: number): Generator<string> {
  const names = Array.from({ length: columns }, (_, c) => letters(c + 1));
  yield '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
  yield `<row r="1">${names.map((l, c) => `<c r="${l}1" t="inlineStr"><is><t>c${c + 1}</t></is></c>`).join('')}</row>`;
  for (let from = 2; from <= rows + 1; from += 1000) {
    const piece: string[] = [];
    for (let r = from; r < Math.min(from + 1000, rows + 2); r++) piece.push(`<row r="${r}">${names.map((l) => `<c r="${l}${r}"><v>1</v></c>`).join('')}</row>`);
    yield piece.join('');
  }
  yield '</sheetData></worksheet>';
}

/**
 * `tinyCellsWorkbook` written to a file streaming, for sheets of millions of cells: kept in the
 * system's temporary folder under its size, so a machine makes each size once (written under a
 * temporary name and renamed, so a file cut short by a killed run is never reused).
 */
export async function tinyCellsWorkbookFile(rows: number, columns: number): Promise<string> {
  const file = path.join(os.tmpdir(), `stepwise-tiny-cells-v1-${rows}x${columns}.xlsx`);
  if (fs.existsSync(file)) return file;
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(PARTS)) zip.addBuffer(Buffer.from(content), name);
  zip.addReadStream(Readable.from(sheetXmlPieces(rows, columns)), SHEET);
  zip.end();
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await pipeline(zip.outputStream, fs.createWriteStream(partial));
  await fs.promises.rename(partial, file);
  return file;
}
