import { KeyedLanes } from './keyed-lanes';

/** A piece of work that runs until `finish` is called, recording when it started. */
function held(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { work: () => (log.push(`start ${name}`), done.then(() => log.push(`end ${name}`))), finish };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedLanes', () => {
  it('runs the work of one key one at a time, in the order asked, and other keys alongside', async () => {
    const lanes = new KeyedLanes();
    const log: string[] = [];
    const a1 = held(log, 'a1');
    const a2 = held(log, 'a2');
    const b1 = held(log, 'b1');
    const runs = [lanes.run('a', a1.work), lanes.run('a', a2.work), lanes.run('b', b1.work)];
    await settle();
    expect(log).toEqual(['start a1', 'start b1']);
    a1.finish();
    await settle();
    expect(log).toEqual(['start a1', 'start b1', 'end a1', 'start a2']);
    a2.finish();
    b1.finish();
    await Promise.all(runs);
    expect(lanes.busy).toBe(0);
  });

  it('goes on with the next work of a key after one failed, and answers each its own outcome', async () => {
    const lanes = new KeyedLanes();
    const failed = lanes.run('a', () => Promise.reject(new Error('no')));
    const next = lanes.run('a', () => Promise.resolve('yes'));
    await expect(failed).rejects.toThrow('no');
    await expect(next).resolves.toBe('yes');
    await settle();
    expect(lanes.busy).toBe(0);
  });
});
