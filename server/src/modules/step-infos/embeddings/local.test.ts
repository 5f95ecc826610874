import { cosine, textHash } from './embedder';
import { embedLocal, LOCAL_EMBEDDING_DIMENSIONS, localEmbedder, stem } from './local';

describe('the local text embedding', () => {
  it('is deterministic, fixed-size and unit length', async () => {
    const [a, b] = await localEmbedder.embed(['Remove duplicate rows', 'Remove duplicate rows']);
    expect(a).toEqual(b);
    expect(a).toHaveLength(LOCAL_EMBEDDING_DIMENSIONS);
    expect(Math.hypot(...a)).toBeCloseTo(1, 6);
    expect(embedLocal('')).toEqual(new Array(LOCAL_EMBEDDING_DIMENSIONS).fill(0));
  });

  it('meets inflections in one stem', () => {
    for (const [words, stemmed] of [
      [['duplicate', 'duplicates', 'duplicated'], 'duplicat'],
      [['combine', 'combined', 'combining'], 'combin'],
      [['row', 'rows'], 'row'],
      [['entries', 'entry'], 'entry'],
      [['sorting', 'sorted', 'sorts'], 'sort'],
    ] as const) {
      for (const word of words) expect([word, stem(word)]).toEqual([word, stemmed]);
    }
  });

  it('puts synonyms close and unrelated texts apart', () => {
    const near = cosine(embedLocal('remove repeated records'), embedLocal('delete duplicate rows'));
    const far = cosine(embedLocal('remove repeated records'), embedLocal('export a parquet file'));
    expect(near).toBeGreaterThan(0.6);
    expect(far).toBeLessThan(0.15);
  });

  it('matches Chinese by characters', () => {
    expect(cosine(embedLocal('去除重复的行'), embedLocal('删除重复的行，只保留一行'))).toBeGreaterThan(0.3);
    expect(cosine(embedLocal('去除重复的行'), embedLocal('导出 CSV 文件'))).toBeLessThan(0.1);
  });

  it('cosine and textHash behave at the edges', () => {
    expect(cosine([], [])).toBe(0);
    expect(cosine([1, 0], [1])).toBe(0);
    expect(cosine([1, 0], [2, 0])).toBeCloseTo(1);
    expect(textHash('a')).toBe(textHash('a'));
    expect(textHash('a')).not.toBe(textHash('b'));
  });
});
