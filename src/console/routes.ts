// The console's pages (docs/decisions.md#console): one list shared by the integration that injects
// them and the middleware that serves them only on the console host.

/** Route pattern → page file under ./pages. */
export const CONSOLE_ROUTES: Record<string, string> = {
  '/': 'index.astro',
  '/sign-in': 'sign-in.astro',
  '/sign-out': 'sign-out.ts',
  '/invite/[token]': 'invite.astro',
  '/account': 'account.astro',
  '/switch-org': 'switch-org.ts',
  '/projects': 'projects.astro',
  '/projects/[id]': 'project.astro',
  '/projects/[id]/deployments': 'deployments.astro',
  '/projects/[id]/deployments/[deployment]': 'deployment.astro',
  '/projects/[id]/deployments/[deployment]/status.json': 'deployment-status.ts',
  '/projects/[id]/pages': 'pages.astro',
  '/projects/[id]/pages/[...path]': 'page.astro',
  '/settings': 'settings.astro',
  '/settings/api-keys': 'api-keys.astro',
  '/settings/organization': 'organization.astro',
  '/settings/members': 'members.astro',
};

/** Pages anyone may open; every other page needs a session. */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set(['/sign-in', '/invite/[token]']);

/** Pages only an organization's owners may open (members get 403); Members is read-only for members. */
export const OWNER_ROUTES: ReadonlySet<string> = new Set(['/settings/api-keys']);

export const isConsoleRoute = (pattern: string) => Object.hasOwn(CONSOLE_ROUTES, pattern);
