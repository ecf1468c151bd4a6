// /llms-full.txt of the site (see machine-readable.ts).
import { llmsFullTxt } from '../machine-readable.ts';

export async function GET(): Promise<Response> {
  const pieces = await llmsFullTxt();
  // A stream of the pieces: the body is put together once, where Astro reads it (a Uint8Array body is copied first).
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
