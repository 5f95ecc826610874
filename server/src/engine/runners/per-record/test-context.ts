import type { Datasets } from '../../datasets';
import type { OutboundHttpClient } from '../../outbound-http';
import type { RunContext, UserFiles, Vars } from '../types';

/**
 * A RunContext for per-record runners' tests: what they use (signal, vars, http, log, progress) is
 * real and recorded; what they must not touch (datasets, files) throws when reached, so a runner
 * that starts reading them fails its tests instead of passing against a stand-in.
 */
export interface TestRunContext extends RunContext {
  readonly lines: string[];
  /** What `usage` recorded. */
  readonly used: { kind: string; quantity: number; key: string }[];
  readonly controller: AbortController;
}

function untouchable<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      throw new Error(`per-record runners do not use ctx.${what} (read ${String(property)})`);
    },
  });
}

export function testRunContext(options: { http?: OutboundHttpClient; vars?: Vars } = {}): TestRunContext {
  const lines: string[] = [];
  const used: TestRunContext['used'] = [];
  const controller = new AbortController();
  return {
    ownerId: 'owner-1',
    stepRunId: 'step-run-1',
    signal: controller.signal,
    controller,
    dataset: () => Promise.reject(new Error('a per-record runner reads no dataset by id')),
    vars: options.vars ?? {},
    sampleSize: null,
    datasets: untouchable<Datasets>('datasets'),
    files: untouchable<UserFiles>('files'),
    http: options.http ?? untouchable<OutboundHttpClient>('http'),
    output: { datasetId: '00000000-0000-4000-8000-000000000001', name: 'output' },
    lines,
    used,
    usage: (event) => used.push(event),
    log: (line) => lines.push(line),
    progress: () => undefined,
  };
}
