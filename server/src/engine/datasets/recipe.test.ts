import { randomUUID } from 'node:crypto';
import { runSqlStep } from '../runners';
import { datasets, owner, people, rowsOf, runner, useSqlTestbed } from '../../test/engine/sql-testbed';
import type { ParamValues } from '../params';
import { DatasetNotFound } from './errors';
import type { DatasetMetadata } from './metadata';
import { recipeRelation, shiftParams } from './recipe';

/*
 * Deferred snapshots: a chain of SQL steps registered as recipes (nothing written) gives, once
 * materialized, exactly the records and `_id`s the same chain gives writing every step.
 */
useSqlTestbed('recipes');

const chain: [string, ParamValues][] = [
  ['filter', { condition: "age > 30 OR city IS NULL OR name = '李雷'" }],
  ['add_column', { new_column: 'label', expression: "coalesce(city, '∅') || ' · ' || name" }],
  ['sort', { columns: ['label'], direction: 'descending' }],
  ['aggregate', { group_by: ['city'], aggregations: [{ column: 'score', function: 'max', as: 'best' }] }],
];

async function runChain(defer: boolean, ids: string[]): Promise<DatasetMetadata[]> {
  const out: DatasetMetadata[] = [];
  let input = people;
  for (const [i, [stepType, params]] of chain.entries()) {
    input = await runSqlStep(datasets, { runner: runner(stepType), inputs: [input], params, ownerId: owner, name: stepType, datasetId: ids[i], defer });
    out.push(input);
  }
  return out;
}

const materialize = (meta: DatasetMetadata) =>
  datasets.writeRelation({ ownerId: owner, name: meta.name, datasetId: meta.id, relation: recipeRelation(meta.recipe!), idsUnique: true });

describe('deferred SQL chains', () => {
  it('write nothing, then materialize to the same records, ids and columns as written steps', async () => {
    const written = await runChain(
      false,
      chain.map(() => randomUUID()),
    );
    const deferred = await runChain(
      true,
      chain.map(() => randomUUID()),
    );
    expect(deferred.every((d) => d.recipe && d.rowCount === 0)).toBe(true);
    // Each deferred step's recipe reads only People's snapshot: the chain is one query.
    expect(deferred.map((d) => d.recipe!.leaves.map((l) => l.datasetId))).toEqual(chain.map(() => [people.id]));
    await expect(datasets.records(deferred[1], { page: 1, pageSize: 10 })).rejects.toBeInstanceOf(DatasetNotFound);
    for (const [i, d] of deferred.entries()) {
      expect(d.columns).toEqual(written[i].columns);
      const stored = await materialize(d);
      expect([stored.rowCount, stored.columns]).toEqual([written[i].rowCount, written[i].columns]);
      // Same rows in the same order with the same ids (filter, formula, sort keep People's ids; the aggregate's come from its key).
      expect(await rowsOf(stored)).toEqual(await rowsOf(written[i]));
    }
  });

  it('keep bound values apart: a value looking like a parameter or a quote stays a value', async () => {
    const weird: [string, ParamValues][] = [
      ['filter', { condition: "name <> '$1' AND coalesce(city, '') <> 'x''$2'" }],
      ['add_column', { new_column: '$1 "q"', expression: "'$1' || coalesce(city, '')" }],
    ];
    const run = async (defer: boolean) => {
      let input = people;
      for (const [stepType, params] of weird)
        input = await runSqlStep(datasets, {
          runner: runner(stepType),
          inputs: [input],
          params,
          ownerId: owner,
          name: stepType,
          datasetId: randomUUID(),
          defer,
        });
      return input;
    };
    const written = await run(false);
    const deferred = await run(true);
    expect(deferred.recipe!.params.length).toBeGreaterThanOrEqual(3);
    expect(await rowsOf(await materialize(deferred))).toEqual(await rowsOf(written));
  });

  it('a step that can repeat records (a union with itself) is written at once, over the deferred input', async () => {
    const filtered = await runSqlStep(datasets, {
      runner: runner('filter'),
      inputs: [people],
      params: chain[0][1],
      ownerId: owner,
      name: 'f',
      datasetId: randomUUID(),
      defer: true,
    });
    expect(filtered.recipe).toBeTruthy();
    const union = await runSqlStep(datasets, {
      runner: runner('union'),
      inputs: [filtered, filtered],
      params: {},
      ownerId: owner,
      name: 'u',
      datasetId: randomUUID(),
      defer: true,
    });
    expect(union.recipe ?? null).toBeNull();
    const rows = await rowsOf(union);
    expect(rows).toHaveLength(2 * people.rowCount);
    expect(new Set(rows.map((r) => r._id)).size).toBe(rows.length);
  });
});

describe('shiftParams', () => {
  it('moves $n outside quotes only', () => {
    expect(shiftParams(`SELECT $1, '$1', "$2", $12 FROM t WHERE a = 'it''s $3' AND "b""$4" = $2`, 3)).toBe(
      `SELECT $4, '$1', "$2", $15 FROM t WHERE a = 'it''s $3' AND "b""$4" = $5`,
    );
  });
});
