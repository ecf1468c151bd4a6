// The service's request pipeline (Astro's fetch file: https://docs.astro.build/en/guides/routing/#advanced-routing).
// Astro's default pipeline runs trailing-slash handling, redirects, sessions, actions, middleware,
// i18n and caching around every route; the API uses none of them (its own pipeline is
// src/api/pipeline.ts), so each request goes straight to its endpoint. Only the web console's
// requests (src/server.ts marks them in `locals`) go through its middleware first (src/console/middleware.ts).
import type { Fetchable } from 'astro';
import { FetchState, middleware, pages } from 'astro/fetch';
import { isConsoleRoute } from '../console/routes.ts';
import { errorResponse, FolioError } from './http.ts';

type RouteModule = NonNullable<FetchState['componentInstance']>;

/**
 * Each route's module, once loaded. Astro otherwise looks a route's module up with a dynamic
 * `import()` on every request: a trip through Node's module loader and several promise turns.
 */
const routeModules = new Map<string, RouteModule>();

/** Renders the matched route with its module already in hand, keeping the module Astro loads the first time. */
async function render(state: FetchState, dispatch: (state: FetchState) => Promise<Response>): Promise<Response> {
  const component = state.routeData?.component;
  const known = component === undefined ? undefined : routeModules.get(component);
  if (known) state.componentInstance = known;
  const response = await dispatch(state);
  // A rewrite in the middleware may have switched route: then what was loaded is another route's.
  if (component !== undefined && !known && state.componentInstance && state.routeData?.component === component) routeModules.set(component, state.componentInstance);
  return response;
}

export default {
  fetch: (request: Request) => {
    const state = new FetchState(request);
    if ((state.locals as App.Locals).console) {
      return render(state, (s) => middleware(s, pages)).then((response) => {
        // Astro's default pipeline adds the cookies a page set (the console's session); so must this one.
        for (const value of state.cookies.consume()) response.headers.append('set-cookie', value);
        return response;
      });
    }
    // Console pages exist only on the console host: elsewhere their paths are the API's 404.
    if (state.routeData && isConsoleRoute(state.routeData.route)) {
      return Promise.resolve(errorResponse(new FolioError('not_found', 'no such route: the API lives under /v1')));
    }
    return render(state, pages);
  },
} satisfies Fetchable;
