import { describe, expect, it } from 'vitest';
import { endsInsideTag } from './raw-html.ts';

describe('raw HTML that ends inside a tag', () => {
  it('is a block whose last tag or quoted value never closes', () => {
    expect(endsInsideTag('<a title="')).toBe(true);
    expect(endsInsideTag('<div class=\'x\'>ok</div><img src=x')).toBe(true);
    expect(endsInsideTag('<a title="x>y">ok</a>')).toBe(false);
  });

  it('reads comments as browsers close them', () => {
    expect(endsInsideTag('<!--> <b>')).toBe(false);
    expect(endsInsideTag('<!-- <a title=" --> text')).toBe(false);
    expect(endsInsideTag('<!-- open comment <a title="')).toBe(false); // it only hides what follows
    expect(endsInsideTag('<!-- x --!> <a href="')).toBe(true);
  });

  it('is not text with a lone <', () => {
    expect(endsInsideTag('1 < 2 and 3 > 2')).toBe(false);
  });
});
