// Lets code outside React (the notices middleware, auth thunks) change page through the router,
// without a full reload. NavigationBinder hands React Router's navigate function to this module;
// before it is bound (or outside a router) a plain browser navigation is the fallback.

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

type NavigateFn = (to: string, options?: NavigateOptions) => void;

let navigateImpl: NavigateFn | null = null;
let currentPath = '/';

export function setNavigator(fn: NavigateFn | null): void {
  navigateImpl = fn;
}

/** Where the user is now (path + query + hash), so a forced sign-in can bring them back. */
export function setCurrentPath(path: string): void {
  currentPath = path;
}

export function getCurrentPath(): string {
  return currentPath;
}

export function navigate(to: string, options?: NavigateOptions): void {
  if (navigateImpl) navigateImpl(to, options);
  else window.location.assign(to);
}
