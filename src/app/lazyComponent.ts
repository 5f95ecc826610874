import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export type LazyComponent<P extends object = object> = LazyExoticComponent<ComponentType<P>> & {
  /** Starts the download now (e.g. the page while its frame is still loading); idempotent. */
  preload(): Promise<unknown>;
};

/**
 * A component whose code is fetched the first time it renders (React.lazy over a module's named
 * export), so the first page downloads only what it shows. Render it inside a Suspense.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): LazyComponent<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => (loading ??= load().then((component) => ({ default: component })));
  return Object.assign(lazy(preload), { preload });
}
