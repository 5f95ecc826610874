/**
 * A problem with an expression, as a catalog key (`server.expressions.*`) plus the values its text
 * needs (the offending token, its 1-based position in characters). The engine knows no language:
 * whoever shows the problem (the HTTP layer, the run's log) renders the key in the reader's.
 */
export type ExpressionErrorValues = Record<string, string | number>;

export class ExpressionError extends Error {
  constructor(
    readonly key: string,
    readonly values: ExpressionErrorValues = {},
  ) {
    super(`${key} ${JSON.stringify(values)}`);
    this.name = 'ExpressionError';
  }
}

/** How a token is quoted back in a message: whole when short, else its start (a long string would bury the point). */
export function shown(text: string): string {
  const chars = Array.from(text);
  return chars.length > 24 ? `${chars.slice(0, 24).join('')}…` : text;
}
