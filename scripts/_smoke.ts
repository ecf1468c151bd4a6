import { buildFixture } from '/work/wt-docsjson/test/site/helpers.ts';
import { MULTI_SITE_FILES } from '/work/wt-docsjson/test/site/fixtures/multi-site.ts';
const site = await buildFixture(MULTI_SITE_FILES);
console.log(site.result.error, site.result.warnings, site.out);
