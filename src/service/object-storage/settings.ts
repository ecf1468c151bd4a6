// FOLIO_STORAGE_URL (docs/decisions.md#object-storage): `s3://bucket/prefix?endpoint=…&region=…&path_style=true`,
// read once at start. What the URL leaves out comes from the standard AWS variables
// (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, AWS_REGION, AWS_DEFAULT_REGION); credentials only from
// them (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, or the SDK's other usual
// sources), never from the URL, so that they stay out of process listings and logs.

export interface ObjectStorageSettings {
  bucket: string;
  /** Prepended to every key ('' or `some/prefix/`). */
  prefix: string;
  /** An S3-compatible server's address (MinIO, R2, …); absent: AWS S3 itself. */
  endpoint?: string;
  region: string;
  /** `https://endpoint/bucket/key` rather than `https://bucket.endpoint/key`. */
  forcePathStyle: boolean;
}

/** https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** Key characters S3 documents as safe, in segments separated by `/`. */
const PREFIX_SEGMENT = /^[A-Za-z0-9!_.*'()-]+$/;
const QUERY_KEYS = ['endpoint', 'region', 'path_style', 'force_path_style'] as const;
const REGION = /^[a-z0-9-]{1,40}$/;
const BOOLEAN: Record<string, boolean> = { true: true, '1': true, false: false, '0': false };

/** The settings a FOLIO_STORAGE_URL names, or a message saying what is wrong and how to write it. */
export function parseStorageUrl(value: string, env: NodeJS.ProcessEnv = process.env): ObjectStorageSettings | { problem: string } {
  const example = 'write s3://BUCKET or s3://BUCKET/PREFIX, e.g. s3://folio-sites/production?endpoint=http://minio.internal:9000';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `is not a URL: ${example}` };
  }
  if (url.protocol !== 's3:') return { problem: `must start with s3://: ${example}` };
  if (url.username || url.password) return { problem: 'must not hold credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY instead' };
  if (url.port) return { problem: `names a port after the bucket: put the server in ?endpoint=http://host:port and ${example}` };
  const bucket = url.hostname;
  if (!BUCKET.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) {
    return { problem: `bucket "${bucket}" is not a valid bucket name: 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit` };
  }
  const rawPrefix = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  const segments = rawPrefix === '' ? [] : rawPrefix.split('/');
  if (segments.some((s) => !PREFIX_SEGMENT.test(s) || s === '.' || s === '..') || rawPrefix.length > 512) {
    return { problem: `prefix "${rawPrefix}" is not valid: folders of letters, digits and !_.*'()- separated by single slashes, no . or .. (e.g. s3://${bucket}/folio/production)` };
  }
  for (const key of url.searchParams.keys()) {
    if (!(QUERY_KEYS as readonly string[]).includes(key)) return { problem: `has an unknown setting "${key}": the query may hold ${QUERY_KEYS.join(', ')}` };
  }
  const endpoint = url.searchParams.get('endpoint') ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL ?? undefined;
  if (endpoint !== undefined && !(URL.canParse(endpoint) && /^https?:$/.test(new URL(endpoint).protocol))) {
    return { problem: `endpoint "${endpoint}" is not an http(s) URL such as http://minio.internal:9000 or https://ACCOUNT.r2.cloudflarestorage.com` };
  }
  const region = url.searchParams.get('region') ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1';
  if (!REGION.test(region)) return { problem: `region "${region}" is not a region name such as us-east-1 or auto` };
  const pathStyle = url.searchParams.get('path_style') ?? url.searchParams.get('force_path_style');
  if (pathStyle !== null && !(pathStyle in BOOLEAN)) return { problem: `path_style must be true or false, not "${pathStyle}"` };
  return {
    bucket,
    prefix: segments.length ? `${segments.join('/')}/` : '',
    endpoint: endpoint || undefined,
    region,
    // S3-compatible servers mostly want path style; AWS S3 itself prefers virtual hosts.
    forcePathStyle: pathStyle === null ? !!endpoint : BOOLEAN[pathStyle],
  };
}
