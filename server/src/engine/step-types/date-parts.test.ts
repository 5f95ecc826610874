import type { DatasetMetadata } from '../datasets';
import { store, output, refused, useSqlTestbed } from '../../test/engine/sql-testbed';

// On real DuckDB over Parquet snapshots in a local storage folder, as `npm start` runs it.

useSqlTestbed('date-parts');

describe('date_parts', () => {
  let events: DatasetMetadata;
  beforeAll(async () => {
    events = await store(
      'Events',
      [
        { name: 'at', type: 'TIMESTAMP' },
        { name: 'day', type: 'DATE' },
        { name: 'text', type: 'VARCHAR' },
      ],
      [
        { at: '2024-03-05 14:30:00', day: '2024-12-30', text: '05/03/2024' },
        { at: null, day: null, text: 'nope' },
      ],
    );
  });

  it('adds the chosen parts as typed columns', async () => {
    const { rows } = await output('date_parts', [events], {
      column: 'at',
      parts: ['year', 'quarter', 'month', 'day', 'weekday', 'week', 'hour', 'minute', 'day_of_year', 'iso_date'],
    });
    expect(rows[0]).toMatchObject({
      at_year: 2024,
      at_quarter: 1,
      at_month: 3,
      at_day: 5,
      at_weekday: 2,
      at_week: 10,
      at_hour: 14,
      at_minute: 30,
      at_day_of_year: 65,
      at_iso_date: '2024-03-05',
    });
    expect(rows[1]).toMatchObject({ at_year: null, at_iso_date: null });
    expect((await output('date_parts', [events], { column: 'day', parts: ['week', 'year'] })).rows[0]).toMatchObject({ day_week: 1, day_year: 2024 });
  });

  it('reads text with a format, else refuses it naming the column', async () => {
    expect((await output('date_parts', [events], { column: 'text', parts: ['month'], format: '%d/%m/%Y' })).rows.map((r) => r.text_month)).toEqual([3, null]);
    expect(await refused('date_parts', [events], { column: 'text', parts: ['month'] })).toEqual([
      { key: 'server.steps.notDate', loc: ['column'], values: { column: 'text', type: 'VARCHAR' } },
    ]);
    expect((await refused('date_parts', [events], { column: 'at', parts: ['year', 'century'] }))[0]).toMatchObject({
      key: 'server.steps.datePart',
      loc: ['parts', 1],
    });
  });
});
