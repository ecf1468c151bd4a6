// A tiny authoritative DNS server over UDP for tests: TXT answers from a map the test edits,
// NXDOMAIN for names not in it, SERVFAIL for names the test marks as failing. Enough for
// node:dns (c-ares) to resolve `_folio-verify.{domain}` against it (FOLIO_DNS_SERVERS).
import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';

const TYPE_TXT = 16;
const CLASS_IN = 1;
const RCODE_SERVFAIL = 2;
const RCODE_NXDOMAIN = 3;

export interface TestDnsServer {
  /** `127.0.0.1:port`, for FOLIO_DNS_SERVERS. */
  address: string;
  /** TXT values per name (lower-case, no trailing dot). */
  txt: Map<string, string[]>;
  /** Names answered with SERVFAIL, as a broken upstream would. */
  failing: Set<string>;
  close(): Promise<void>;
}

interface Question {
  name: string;
  type: number;
  /** Where the question section ends in the query. */
  end: number;
}

function parseQuestion(query: Buffer): Question | undefined {
  if (query.length < 12 || query.readUInt16BE(4) !== 1) return undefined;
  const labels: string[] = [];
  let at = 12;
  while (at < query.length) {
    const length = query[at];
    if (length === 0) break;
    if (length > 63) return undefined; // compression never appears in a question of one
    labels.push(query.subarray(at + 1, at + 1 + length).toString('latin1'));
    at += 1 + length;
  }
  if (at + 5 > query.length) return undefined;
  return { name: labels.join('.').toLowerCase(), type: query.readUInt16BE(at + 1), end: at + 5 };
}

/** One TXT record's RDATA: the value as character-strings of at most 255 bytes. */
function txtData(value: string): Buffer {
  const bytes = Buffer.from(value);
  const parts: Buffer[] = [];
  for (let i = 0; i === 0 || i < bytes.length; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
}

function answer(query: Buffer, question: Question, rcode: number, values: string[]): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0); // id
  const recursionDesired = query[2] & 0x01;
  header[2] = 0x80 | 0x04 | recursionDesired; // response, authoritative
  header[3] = 0x80 | rcode; // recursion available
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(values.length, 6);
  const records = values.map((value) => {
    const data = txtData(value);
    const record = Buffer.alloc(12);
    record.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
    record.writeUInt16BE(TYPE_TXT, 2);
    record.writeUInt16BE(CLASS_IN, 4);
    record.writeUInt32BE(0, 6); // TTL 0: nothing is cached between checks
    record.writeUInt16BE(data.length, 10);
    return Buffer.concat([record, data]);
  });
  return Buffer.concat([header, query.subarray(12, question.end), ...records]);
}

export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[]>();
  const failing = new Set<string>();
  const socket = dgram.createSocket('udp4');
  socket.on('message', (query, peer) => {
    const question = parseQuestion(query);
    if (!question) return;
    let reply: Buffer;
    if (failing.has(question.name)) reply = answer(query, question, RCODE_SERVFAIL, []);
    else if (!txt.has(question.name)) reply = answer(query, question, RCODE_NXDOMAIN, []);
    else reply = answer(query, question, 0, question.type === TYPE_TXT ? txt.get(question.name)! : []);
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    txt,
    failing,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
