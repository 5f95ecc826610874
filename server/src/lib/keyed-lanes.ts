/**
 * Work run one at a time per key, in the order it was asked for; work of other keys does not wait.
 * A failed piece of work does not stop the next one of its key. A key's lane is forgotten once it
 * is idle, so a process that sees many keys holds only the busy ones.
 */
export class KeyedLanes {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(work);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running. */
  get busy(): number {
    return this.tails.size;
  }
}
