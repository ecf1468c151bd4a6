// A content-check process of the pool in check-pool.ts: reads `{ id, text, options }` messages and
// answers `{ id, analysis }` (or `{ id, error }`). A separate process so a page that makes the parser
// slow (some inputs are quadratic) costs only this process, which the pool kills at its time limit:
// a thread could not be stopped while it is inside the native parser.
import { analyzeContent, type CheckOptions } from './check-content.ts';

export interface CheckRequest {
  id: number;
  text: string;
  options: CheckOptions;
}

/**
 * Sends to the pool; when the pool is already gone (a build that failed stops its checkers while one
 * is still starting or answering), this process just ends instead of printing an EPIPE stack trace
 * into the build's output.
 */
function answer(message: object): void {
  process.send!(message, undefined, undefined, (error) => {
    if (error) process.exit(0);
  });
}

process.on('message', (message: CheckRequest) => {
  let reply: object;
  try {
    reply = { id: message.id, analysis: analyzeContent(message.text, message.options) };
  } catch (error) {
    reply = { id: message.id, error: (error as Error).message };
  }
  answer(reply);
});
// The pool closes the channel when it is done with this process (or when the server exits).
process.on('disconnect', () => process.exit(0));
answer({ ready: true });
