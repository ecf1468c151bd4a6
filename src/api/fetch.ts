// The service's request pipeline (Astro's fetch file: https://docs.astro.build/en/guides/routing/#advanced-routing).
// Astro's default pipeline runs trailing-slash handling, redirects, sessions, actions, middleware,
// i18n and caching around every route; the API uses none of them (its own pipeline is
// src/api/pipeline.ts), so each request goes straight to its endpoint. Only the web console's
// requests (src/server.ts marks them in `locals`) go through its middleware first (src/console/middleware.ts).
import type { Fetchable } from 'astro';
import { FetchState, middleware, pages } from 'astro/fetch';
import { isConsoleRoute } from '../console/routes.ts';
import { errorResponse, FolioError } from './http.ts';

export default {
  fetch: (request: Request) => {
    const state = new FetchState(request);
    if ((state.locals as App.Locals).console) {
      return middleware(state, pages).then((response) => {
        // Astro's default pipeline adds the cookies a page set (the console's session); so must this one.
        for (const value of state.cookies.consume()) response.headers.append('set-cookie', value);
        return response;
      });
    }
    // Console pages exist only on the console host: elsewhere their paths are the API's 404.
    if (state.routeData && isConsoleRoute(state.routeData.route)) {
      return Promise.resolve(errorResponse(new FolioError('not_found', 'no such route: the API lives under /v1')));
    }
    return pages(state);
  },
} satisfies Fetchable;
