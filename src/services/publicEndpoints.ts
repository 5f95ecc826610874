// Public calls send no token even when one is stored (spec §6). Names are RTK Query endpoint
// names; an area that adds a public call (public workflow list, videos) adds its name here.

export const publicEndpoints = new Set<string>([
  'login',
  'signup',
  'requestPasswordReset',
  'resetPassword',
  'listPublicWorkflows',
  'getPublicWorkflow',
  'listVideos',
  'getSignupMode',
  'requestInvitation',
]);

export function isPublicEndpoint(endpoint: string): boolean {
  return publicEndpoints.has(endpoint);
}
