// The few object-storage operations Folio uses, over @aws-sdk/client-s3, with every key under the
// configured prefix. Works with AWS S3 and S3-compatible servers (MinIO, Cloudflare R2, …): no
// conditional writes, no multipart (files of a docs site are small; an upload is a PUT each).
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { ObjectStorageSettings } from './settings.ts';

/** Object storage cannot be used (no such bucket, refused credentials, no answer): the server does not start. */
export class ObjectStorageError extends Error {
  override name = 'ObjectStorageError';
}

export interface ObjectStore {
  /** Where the objects are, for messages (`s3://bucket/prefix`). */
  readonly location: string;
  /** Throws an ObjectStorageError saying why the bucket cannot be listed. */
  check(): Promise<void>;
  put(key: string, body: Buffer | string | Readable, options?: { contentType?: string; contentLength?: number }): Promise<void>;
  /** The object's bytes, or undefined when there is none. */
  get(key: string): Promise<Buffer | undefined>;
  /** The object's bytes from `start` on, or undefined when there is none (or nothing past `start`). */
  getFrom(key: string, start: number): Promise<Buffer | undefined>;
  /** The object as a stream, or undefined when there is none. */
  getStream(key: string): Promise<Readable | undefined>;
  exists(key: string): Promise<boolean>;
  /** Every key under `prefix` (relative to the configured prefix, like the keys given to put). */
  list(prefix: string): AsyncIterable<string>;
  /** Removes every object under `prefix`. */
  removeAll(prefix: string): Promise<void>;
  close(): void;
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

const isEmptyRange = (error: unknown) => error instanceof S3ServiceException && (error.name === 'InvalidRange' || error.$metadata.httpStatusCode === 416);

export function createObjectStore(settings: ObjectStorageSettings): ObjectStore {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    // Checksums only where S3 requires them: several S3-compatible servers refuse the SDK's
    // default streaming (aws-chunked) checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const { bucket, prefix } = settings;
  const full = (key: string) => prefix + key;

  const getObject = async (key: string, range?: string) => {
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: full(key), ...(range ? { Range: range } : {}) }));
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error) || (range && isEmptyRange(error))) return undefined;
      throw error;
    }
  };
  const bytes = async (body: Readable | undefined) => {
    if (!body) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  async function* list(listPrefix: string): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: full(listPrefix), ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key.slice(prefix.length);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  const location = `s3://${bucket}/${prefix}`;
  return {
    location,
    async check() {
      try {
        await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: 1 }));
      } catch (error) {
        const reason = error instanceof S3ServiceException ? `${error.name}: ${error.message}` : (error as Error).message;
        const advice = error instanceof S3ServiceException && error.name === 'NoSuchBucket'
          ? 'create the bucket or fix FOLIO_STORAGE_URL'
          : 'check FOLIO_STORAGE_URL (endpoint, region, path_style) and AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY';
        throw new ObjectStorageError(`object storage ${location} cannot be used (${reason}): ${advice}`, { cause: error });
      }
    },
    async put(key, body, options = {}) {
      await client.send(new PutObjectCommand({
        Bucket: bucket,
        Key: full(key),
        Body: body,
        ...(options.contentType ? { ContentType: options.contentType } : {}),
        ...(options.contentLength !== undefined ? { ContentLength: options.contentLength } : {}),
      }));
    },
    get: async (key) => bytes(await getObject(key)),
    getFrom: async (key, start) => bytes(await getObject(key, `bytes=${start}-`)),
    getStream: (key) => getObject(key),
    async exists(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: full(key) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    list,
    async removeAll(removePrefix) {
      let batch: string[] = [];
      const remove = async () => {
        if (batch.length === 0) return;
        const keys = batch;
        batch = [];
        await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.map((Key) => ({ Key: full(Key) })), Quiet: true } }));
      };
      // Keys are collected first: deleting while listing could skip some.
      const keys: string[] = [];
      for await (const key of list(removePrefix)) keys.push(key);
      for (const key of keys) {
        batch.push(key);
        if (batch.length === 1000) await remove();
      }
      await remove();
    },
    close: () => client.destroy(),
  };
}
