// The part of s3rver's API test/helpers/s3-server.ts uses (the package ships no types).
declare module '@20minutes/s3rver' {
  export default class S3rver {
    constructor(options: { port: number; address: string; silent: boolean; directory: string; allowMismatchedSignatures: boolean });
    run(): Promise<{ port: number }>;
    close(): Promise<void>;
  }
}
