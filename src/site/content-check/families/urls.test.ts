import { describe, expect, it } from 'vitest';
import { urlValueProblem } from './urls.ts';

describe('URLs in attribute values', () => {
  it('refuses a script URL in any value, nested in objects and arrays too', () => {
    expect(urlValueProblem('a', 'title', 'java&#115;cript:alert(1)', false)).toMatch(/javascript: URLs run script/);
    expect(urlValueProblem('Card', 'href', { to: ['javascript:x'] }, false)).toMatch(/javascript: URLs run script/);
  });

  it('refuses a data: URL as a link target, allows a data:image/ one as media', () => {
    expect(urlValueProblem('a', 'href', 'data:text/html,<script>x</script>', false)).toMatch(/as a link target opens a page/);
    expect(urlValueProblem('img', 'src', 'data:image/png;base64,AAAA', false)).toBeUndefined();
    expect(urlValueProblem('img', 'src', 'data:text/html,x', false)).toMatch(/must be a data:image/);
    expect(urlValueProblem('a', 'title', 'data:text/html,x', false)).toBeUndefined();
  });

  it('allows only raster data: images where the use is not known (a snippet value)', () => {
    expect(urlValueProblem('', '', ['data:image/png;base64,AAAA'], true)).toBeUndefined();
    expect(urlValueProblem('', '', { logo: 'data:image/svg+xml,<svg/>' }, true)).toMatch(/may end up as a link target/);
  });
});
