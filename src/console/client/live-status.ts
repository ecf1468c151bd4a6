// Enhancement only: pages work without it (reload shows the newest state). Follows a running
// deployment's log and status, and keeps a deployments list's statuses current. Text is set with
// textContent, never parsed as markup.
import type { DeploymentProgress } from '../../service/store/records.ts';
import { progressText } from '../format.ts';

const FINAL = new Set(['succeeded', 'failed', 'canceled']);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Status {
  status: string;
  error: { code: string; message: string } | null;
  started_at: string | null;
  finished_at: string | null;
  progress: DeploymentProgress | null;
  log: string;
}

async function read(url: string): Promise<Status | undefined> {
  const res = await fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  return res.ok ? ((await res.json()) as Status) : undefined;
}

function setStatus(el: Element, status: string): void {
  el.textContent = status;
  el.className = `status status-${status}`;
}

async function followLog(pre: HTMLElement, url: string): Promise<void> {
  const statusEl = document.getElementById('deployment-status');
  const errorEl = document.getElementById('deployment-error');
  const finishedEl = document.getElementById('deployment-finished');
  const progressEl = document.getElementById('deployment-progress');
  const elapsedEl = document.getElementById('deployment-elapsed');
  const barEl = progressEl?.querySelector('progress');
  for (;;) {
    const state = await read(url).catch(() => undefined);
    if (state) {
      const atBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 8;
      if (state.log && pre.textContent !== state.log) pre.textContent = state.log;
      if (atBottom) pre.scrollTop = pre.scrollHeight;
      if (statusEl) setStatus(statusEl, state.status);
      if (elapsedEl) elapsedEl.textContent = progressText(state.status, state.started_at ? (Date.now() - Date.parse(state.started_at)) / 1000 : undefined, state.progress);
      if (barEl) showPages(barEl, state.progress);
      if (FINAL.has(state.status)) {
        if (progressEl) progressEl.hidden = true;
        if (finishedEl && state.finished_at) finishedEl.textContent = `${state.finished_at.slice(0, 10)} ${state.finished_at.slice(11, 16)} UTC`;
        if (errorEl && state.error) {
          errorEl.textContent = `${state.error.code}: ${state.error.message}`;
          errorEl.hidden = false;
        }
        return;
      }
    }
    await wait(1000);
  }
}

/** A determinate bar once the build counted its pages; indeterminate (no value) before. */
function showPages(bar: HTMLProgressElement, progress: DeploymentProgress | null): void {
  if (progress?.pages_total) {
    bar.max = progress.pages_total;
    bar.value = Math.min(progress.pages_done ?? 0, progress.pages_total);
  } else bar.removeAttribute('value');
}

async function followList(cells: HTMLElement[]): Promise<void> {
  let pending = cells;
  while (pending.length > 0) {
    await wait(1500);
    const next: HTMLElement[] = [];
    for (const cell of pending) {
      const state = await read(cell.dataset.statusOf!).catch(() => undefined);
      if (state) setStatus(cell, state.status);
      if (!state || !FINAL.has(state.status)) next.push(cell);
    }
    pending = next;
  }
}

const pre = document.querySelector<HTMLElement>('pre[data-follow]');
if (pre) void followLog(pre, pre.dataset.follow!);
const list = document.querySelector<HTMLElement>('[data-live-list]');
if (list) {
  const cells = [...list.querySelectorAll<HTMLElement>('[data-status-of]')].filter((c) => !FINAL.has(c.textContent ?? ''));
  void followList(cells);
}
