import type { Expr } from './ast';

/** The direct sub-expressions of a node, in the order they are written. */
export function childrenOf(expr: Expr): Expr[] {
  switch (expr.type) {
    case 'number':
    case 'string':
    case 'boolean':
    case 'null':
    case 'column':
    case 'variable':
      return [];
    case 'unary':
    case 'is':
    case 'cast':
      return [expr.operand];
    case 'binary':
      return [expr.left, expr.right];
    case 'in':
      return [expr.operand, ...expr.list];
    case 'like':
      return [expr.operand, expr.pattern];
    case 'between':
      return [expr.operand, expr.low, expr.high];
    case 'case':
      return [...(expr.operand ? [expr.operand] : []), ...expr.whens.flatMap((w) => [w.when, w.then]), ...(expr.else ? [expr.else] : [])];
    case 'call':
      return expr.args;
  }
}

/** Every node, depth first in reading order, without recursion (trees of long chains are deep). */
function* nodesOf(expr: Expr): Generator<Expr> {
  const stack = [expr];
  while (stack.length) {
    const node = stack.pop()!;
    yield node;
    stack.push(...childrenOf(node).reverse());
  }
}

/**
 * The input columns an expression reads, each once in the order they first appear, as written.
 * DuckDB matches column names case-insensitively (quoted ones too), so `Price` and `"price"` are
 * one column: the first spelling is kept. The run engine checks these against the input's columns.
 */
export function columnsRead(expr: Expr): string[] {
  const seen = new Map<string, string>();
  for (const node of nodesOf(expr)) {
    if (node.type === 'column' && !seen.has(node.name.toLowerCase())) seen.set(node.name.toLowerCase(), node.name);
  }
  return [...seen.values()];
}

/** The workflow variables an expression reads (`{{var.NAME}}`), each once, in order of appearance. */
export function variablesRead(expr: Expr): string[] {
  const seen = new Set<string>();
  for (const node of nodesOf(expr)) if (node.type === 'variable') seen.add(node.name);
  return [...seen];
}
