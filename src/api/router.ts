// A tiny router for the /v1 route table: `:name` matches one path segment; a last segment `*name`
// matches one or more segments, joined with `/` (a page path such as `guides/install`).
import type { Scope } from '../service/scopes.ts';
import type { Folio, Principal } from '../service/folio.ts';
import type { ApiRequest } from './http.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteInput {
  folio: Folio;
  /** Undefined only on public routes. */
  principal: Principal;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON object body, for routes that read one. */
  body: Record<string, unknown>;
  request: ApiRequest;
}

/** What a handler returns: a JSON body and status, or a ready Response. */
export type RouteResult = { status: number; body?: unknown } | Response;

export interface Route {
  method: Method;
  path: string;
  /** The scope a key needs; `null` for the few public routes that need no key. */
  scope: Scope | null;
  /**
   * Whether the route reads a JSON object body (and its size limit in bytes). `optional`: a request
   * without one (or with only blanks) is the empty object, whatever its Content-Type.
   */
  body?: { maxBytes: number; optional?: boolean };
  handler(input: RouteInput): Promise<RouteResult>;
}

export type Match =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'wrong_method'; allow: Method[] }
  | { kind: 'none' };

interface Compiled {
  route: Route;
  segments: string[];
  /** The index of a last `*name` segment, or -1. */
  rest: number;
}

export function createRouter(routes: Route[]): (method: string, pathname: string) => Match {
  const compiled: Compiled[] = routes.map((route) => {
    const segments = route.path.split('/').slice(1);
    return { route, segments, rest: segments.at(-1)?.startsWith('*') ? segments.length - 1 : -1 };
  });

  const matchPath = ({ segments, rest }: Compiled, parts: string[]): Record<string, string> | undefined => {
    if (rest >= 0 ? parts.length <= rest : segments.length !== parts.length) return undefined;
    const params: Record<string, string> = {};
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i];
      if (i === rest) {
        params[segment.slice(1)] = parts.slice(i).join('/');
      } else if (segment.startsWith(':')) {
        if (parts[i] === '') return undefined;
        params[segment.slice(1)] = parts[i];
      } else if (segment !== parts[i]) return undefined;
    }
    return params;
  };

  return (method, pathname) => {
    let parts: string[];
    try {
      parts = pathname.replace(/\/$/, '').split('/').slice(1).map(decodeURIComponent);
    } catch {
      return { kind: 'none' };
    }
    const wanted = method === 'HEAD' ? 'GET' : method;
    const allow: Method[] = [];
    for (const entry of compiled) {
      const params = matchPath(entry, parts);
      const { route } = entry;
      if (!params) continue;
      if (route.method === wanted) return { kind: 'found', route, params };
      allow.push(route.method);
    }
    return allow.length ? { kind: 'wrong_method', allow } : { kind: 'none' };
  };
}
