// Proof that a project's custom domain is its owner's: a TXT record `_folio-verify.{domain}` with a
// token Folio chose for that project and domain. A domain is served only while verified. Every
// domain is looked up every FOLIO_DOMAIN_CHECK_S seconds; a newly set one also at once and then
// every few seconds for a few minutes (its owner is adding the record now); any on demand.
// The rules and their reasons: docs/decisions.md#projects.
import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import type { Config } from './config.ts';
import { isFolioError } from './errors.ts';
import type { CustomDomainStatus, ProjectRecord } from './store/records.ts';
import type { Store } from './store/store.ts';

const VERIFY_LABEL = '_folio-verify';
const VALUE_PREFIX = 'folio-verify=';

/** The DNS record a project's owner creates to prove the domain is theirs. */
export interface VerificationRecord {
  type: 'TXT';
  name: string;
  value: string;
}

export function verificationRecord(domain: string, token: string): VerificationRecord {
  return { type: 'TXT', name: `${VERIFY_LABEL}.${domain}`, value: `${VALUE_PREFIX}${token}` };
}

/** A fresh token for a project's new domain: 144 random bits. */
export function newVerificationToken(): string {
  return randomBytes(18).toString('base64url');
}

/** `unknown`: no definite answer (timeout, server failure); it changes nothing. */
type Lookup = 'found' | 'absent' | 'unknown';

/** Answers that say the name or its TXT records do not exist, as opposed to a failed lookup. */
const ABSENT_CODES = new Set(['ENOTFOUND', 'ENODATA']);

/** How many domains a periodic round looks up at the same time. */
const ROUND_CONCURRENCY = 4;
/** After a domain is set, it is looked up this often for this long, until verified. */
const FOLLOW_UP_EVERY_S = 5;
const FOLLOW_UP_FOR_S = 300;

export interface DomainVerifier {
  /** Gives domains stored before verification existed a token, then starts the periodic checks. */
  start(): Promise<void>;
  /** Looks the project's record up now, after any check of it still running; resolves when recorded. */
  check(projectId: string): Promise<void>;
  /** A project's domain was just set: looks it up now and then often for a while. */
  domainSet(projectId: string): void;
  /** Stops the periodic checks and waits for the running ones. */
  close(): Promise<void>;
}

/** The status a definite answer leads to: found is verified; not found keeps a domain never verified pending. */
function nextStatus(current: CustomDomainStatus | undefined, lookup: 'found' | 'absent'): CustomDomainStatus {
  if (lookup === 'found') return 'verified';
  return current === 'verified' || current === 'failed' ? 'failed' : 'pending';
}

export function createDomainVerifier(store: Store, config: Config): DomainVerifier {
  const resolver = new Resolver({ timeout: 3_000, tries: 2 });
  if (config.dnsServers.length) resolver.setServers(config.dnsServers);
  /** The last check of each project: a new one runs after it, so answers are recorded in order. */
  const running = new Map<string, Promise<void>>();
  /** Projects whose domain was set recently, with when their follow-up checks end (ms). */
  const followUps = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let followUpTimer: NodeJS.Timeout | undefined;
  let round: Promise<void> | undefined;
  let closed = false;

  const lookUp = async (domain: string, token: string): Promise<Lookup> => {
    const { name, value } = verificationRecord(domain, token);
    try {
      const records = await resolver.resolveTxt(name);
      // A TXT record may be split into several strings: they form one value.
      return records.some((parts) => parts.join('') === value) ? 'found' : 'absent';
    } catch (err) {
      return ABSENT_CODES.has((err as NodeJS.ErrnoException).code ?? '') ? 'absent' : 'unknown';
    }
  };

  const checkOnce = async (projectId: string): Promise<void> => {
    const project = await store.getProject(projectId);
    const domain = project?.custom_domain;
    const token = project?.custom_domain_token;
    if (!domain || !token) return;
    const lookup = await lookUp(domain, token);
    if (lookup === 'unknown' || closed) return;
    const status = nextStatus(project.custom_domain_status, lookup);
    if (status === 'verified') followUps.delete(projectId);
    const checkedAt = new Date().toISOString();
    try {
      await store.recordDomainCheck(projectId, token, status, checkedAt);
    } catch (err) {
      // Another project verified this domain first: this claim stays unverified.
      if (!isFolioError(err) || err.code !== 'domain_taken') throw err;
      await store.recordDomainCheck(projectId, token, nextStatus(project.custom_domain_status, 'absent'), checkedAt);
    }
  };

  const check = (projectId: string): Promise<void> => {
    if (closed) return Promise.resolve();
    const next = (running.get(projectId) ?? Promise.resolve()).then(() =>
      checkOnce(projectId).catch((err) => console.error(`custom domain check of project ${projectId} failed:`, err)),
    );
    running.set(projectId, next);
    void next.then(() => {
      if (running.get(projectId) === next) running.delete(projectId);
    });
    return next;
  };

  const checkAll = async (): Promise<void> => {
    const projects = await store.listProjectsWithDomain();
    let next = 0;
    const worker = async () => {
      while (next < projects.length && !closed) await check(projects[next++].id);
    };
    await Promise.all(Array.from({ length: ROUND_CONCURRENCY }, worker));
  };

  /** Domains set before verification existed: pending, with a token, until their owner adds the record. */
  const giveTokens = async (projects: ProjectRecord[]): Promise<void> => {
    for (const project of projects) {
      if (project.custom_domain_token) continue;
      await store.updateProject(project.id, { custom_domain_status: 'pending', custom_domain_token: newVerificationToken() });
    }
  };

  return {
    async start() {
      await giveTokens(await store.listProjectsWithDomain());
      timer = setInterval(() => {
        round ??= checkAll().finally(() => (round = undefined));
      }, config.domainCheckS * 1000);
      timer.unref();
      followUpTimer = setInterval(() => {
        const now = Date.now();
        for (const [projectId, until] of followUps) {
          if (until < now) followUps.delete(projectId);
          else if (!running.has(projectId)) void check(projectId);
        }
      }, FOLLOW_UP_EVERY_S * 1000);
      followUpTimer.unref();
    },

    check,

    domainSet(projectId) {
      followUps.set(projectId, Date.now() + FOLLOW_UP_FOR_S * 1000);
      void check(projectId);
    },

    async close() {
      closed = true;
      clearInterval(timer);
      clearInterval(followUpTimer);
      resolver.cancel(); // lookups in flight end now, recording nothing
      await Promise.all([round, ...running.values()]);
    },
  };
}
