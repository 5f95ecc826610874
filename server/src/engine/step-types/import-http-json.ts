import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { StepType, StepTypeDescription } from './step-type';
import { sqlString } from '../datasets/sql';
import { resolveParams } from '../runners/columns';
import { StepRunFailed } from '../runners/execute';
import type { SourceRunner } from '../runners/types';
import { checkAborted, finished, quotedName, writeSelect } from '../sources/source-dataset';
import { HTTP_SOURCE_LIMITS, fetchJson, httpPlan, nextFromLinkHeader, notJson, withoutQuery } from '../sources/http-paging';
import { JsonPageReader } from '../sources/json-page-reader';

const description: StepTypeDescription = {
  id: 'import_http_json',
  name: 'Import from JSON API',
  description:
    'Call a web API that answers JSON (GET) and turn the records it lists into a table, following its pages: by page number, by a cursor in the answer or by a link to the next page.',
  category: 'source',
  tags: ['import', 'api', 'http', 'json', 'web', 'source'],
  params: [
    {
      name: 'url',
      type: 'template',
      label: 'URL',
      help: 'The address to call, e.g. https://api.example.com/orders?status=open. {{var.NAME}} inserts a workflow variable.',
      required: true,
      max_length: 2000,
    },
    {
      name: 'headers',
      type: 'json',
      label: 'Headers',
      help: 'Extra request headers as a JSON object, e.g. {"Authorization": "Bearer {{var.api_token}}"}.',
      required: false,
      default: {},
    },
    {
      name: 'records_path',
      type: 'string',
      label: 'Records path',
      help: 'Where the list of records is in the answer, with dots, e.g. data.items. Empty: the answer itself is the list.',
      required: false,
      default: '',
      max_length: 200,
    },
    {
      name: 'pagination',
      type: 'enum',
      label: 'Pages',
      help: "none: one call. page: adds a page number parameter (1, 2, …) until a page has no records. cursor: sends the cursor found in each answer. next_link: follows the next page's address found in the answer (or its Link header).",
      required: false,
      default: 'none',
      options: ['none', 'page', 'cursor', 'next_link'],
    },
    {
      name: 'page_param',
      type: 'string',
      label: 'Page or cursor parameter',
      help: 'page and cursor: the name of the query parameter that carries the page number or the cursor.',
      required: false,
      default: 'page',
      max_length: 100,
    },
    {
      name: 'next_path',
      type: 'string',
      label: 'Cursor or next link path',
      help: "cursor: where the next cursor is in the answer (e.g. meta.next_cursor); next_link: where the next page's address is (e.g. links.next; empty: the Link header). Missing or empty: the last page.",
      required: false,
      default: '',
      max_length: 200,
    },
    {
      name: 'max_pages',
      type: 'number',
      label: 'At most pages',
      help: 'Stop after this many calls (1 to 1000).',
      required: false,
      default: 10,
      min: 1,
      max: 1000,
      integer: true,
    },
  ],
  inputs: { min: 0, max: 0 },
  outputs: ['dataset'],
  cost: { per: 'run', credits: 0, note: 'Free; the API called may have its own limits or costs.' },
  i18n: {
    'zh-CN': {
      name: '从 JSON API 导入',
      description: '调用返回 JSON 的 Web API（GET），把其中列出的记录读成一张表，并按页继续读取：按页码、按响应中的游标，或按指向下一页的链接。',
      params: {
        url: { label: 'URL', help: '要调用的地址，例如 https://api.example.com/orders?status=open。{{var.NAME}} 会插入工作流变量。' },
        headers: { label: '请求头', help: '额外的请求头，JSON 对象形式，例如 {"Authorization": "Bearer {{var.api_token}}"}。' },
        records_path: { label: '记录路径', help: '记录列表在响应中的位置，用点分隔，例如 data.items。留空表示响应本身就是列表。' },
        pagination: {
          label: '分页',
          help: 'none：只调用一次。page：加上页码参数（1、2……），直到某页没有记录。cursor：发送每次响应中的游标。next_link：跟随响应（或其 Link 头）中的下一页地址。',
        },
        page_param: { label: '页码或游标参数', help: 'page 和 cursor：携带页码或游标的查询参数名。' },
        next_path: {
          label: '游标或下一页路径',
          help: 'cursor：下一个游标在响应中的位置（例如 meta.next_cursor）；next_link：下一页地址的位置（例如 links.next；留空则用 Link 头）。缺失或为空即最后一页。',
        },
        max_pages: { label: '最多页数', help: '最多调用这么多次（1 到 1000）。' },
      },
      cost_note: '免费；被调用的 API 可能有自己的限制或费用。',
    },
  },
};

const runner: SourceRunner = {
  kind: 'source',
  outputColumns: () => [],
  async run(ctx, stored) {
    const params = resolveParams(description, stored, ctx.vars);
    const plan = httpPlan(params, ctx.vars);
    const limit = Math.min(ctx.sampleSize ?? Infinity, HTTP_SOURCE_LIMITS.maxRecords);
    // Records go to JSON Lines in the scratch folder as they arrive: DuckDB then infers the types.
    const out = path.join(ctx.files.scratchDir, `api-${randomUUID()}.jsonl`);
    const stream = fs.createWriteStream(out);
    const write = (line: string) =>
      new Promise<void>((resolve, reject) => (stream.write(line) ? resolve() : stream.once('drain', resolve).once('error', reject)));
    let records = 0;
    let pages = 0;
    // Large pages are parsed in a worker thread, so the API's other users are answered meanwhile.
    const reader = new JsonPageReader(ctx);
    try {
      let url: string | null = plan.url;
      let page = 1;
      const addQuery = (base: string, value: string) => {
        const next = new URL(base);
        next.searchParams.set(plan.pageParam, value);
        return next.toString();
      };
      if (plan.pagination === 'page') url = addQuery(plan.url, String(page));
      while (url && pages < plan.maxPages && records < limit) {
        checkAborted(ctx);
        const response = await fetchJson(ctx, url, plan.headers);
        pages++;
        const read = await reader.read(response.body, {
          recordsPath: plan.recordsPath,
          pagination: plan.pagination,
          nextPath: plan.nextPath,
          limit: limit - records,
        });
        if (!read.ok && read.reason === 'notJson') throw notJson(url, response);
        if (!read.ok) throw new StepRunFailed(`The answer of GET ${withoutQuery(url)} has nothing at ${quotedName(plan.recordsPath)}`, null);
        if (read.lines) await write(read.lines);
        records += read.written;
        ctx.progress({ done: records, phase: `page ${pages}` });
        if (plan.pagination === 'none') url = null;
        else if (plan.pagination === 'page') url = read.listed ? addQuery(plan.url, String(++page)) : null;
        else if (plan.pagination === 'cursor') url = read.next === null ? null : addQuery(plan.url, read.next);
        else {
          const next = plan.nextPath ? read.next : nextFromLinkHeader(response.headers.link);
          url = next ? new URL(next, response.url).toString() : null;
        }
      }
      if (url && pages >= plan.maxPages) ctx.log('server.runLog.maxPages', { pages });
    } finally {
      await reader.close();
      await new Promise<void>((resolve) => stream.end(resolve));
    }
    try {
      const what = `the answers of ${withoutQuery(plan.url)}`;
      // No records: DuckDB infers nothing from an empty file, so the table is one empty text column.
      const meta = records
        ? await writeSelect(ctx, what, () => `SELECT * FROM read_json(${sqlString(out)}, format = 'newline_delimited', sample_size = 20480)`)
        : await writeSelect(ctx, what, () => 'SELECT CAST(NULL AS VARCHAR) AS value WHERE false');
      ctx.log('server.runLog.calledPages', { pages });
      return finished(ctx, meta, { key: 'server.runLog.source.httpAnswers', values: { url: withoutQuery(plan.url) } });
    } finally {
      await fs.promises.rm(out, { force: true });
    }
  },
};

export const importHttpJson: StepType = { description, runner, cacheable: false, billing: 'run', outsideCalls: 'http' };
