// The order in which the suite's files start when vitest has no record of an earlier run (a fresh
// clone, as CI's): the slowest first, by test/durations.json, so the suite does not end with one
// long file running alone while the other worker waits (vitest's fallback, the largest file first,
// left files of one long test, such as the soak test, for the end). With a record, vitest's own
// order, which is also the slowest first. `npm run test:durations` writes the file from the record.
import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const DURATIONS_FILE = path.join(import.meta.dirname, '..', 'durations.json');

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    if (files.every((file) => this.ctx.cache.getTestSpecificationResult(file))) return super.sort(files);
    const seconds = JSON.parse(fs.readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
    const root = path.join(import.meta.dirname, '..', '..');
    // A file with no figure (a new one) first, as vitest runs files it knows nothing of.
    const duration = (file: TestSpecification) => seconds[path.relative(root, file.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => duration(b) - duration(a) || (a.moduleId < b.moduleId ? -1 : 1));
  }
}
