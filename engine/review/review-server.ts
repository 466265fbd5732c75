// The review page's web server (node:http). It serves three files of its own (the page, its style
// sheet and its script, from a fixed table: no request path ever reaches the file system) and a small
// JSON API. Every API call names its annotator by token (`Authorization: Bearer …`); the links carry
// the token in the URL fragment, which browsers never send, so no request line, log or Referer holds
// one. Bodies are limited in size; on a loopback address the Host header must be a loopback name
// (no DNS rebinding); on any other address the server refuses to start without tokens.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { timingSafeEqual } from 'node:crypto';
import { ConfigError, UserError } from '../../core/errors.js';
import { projectRoot } from '../../core/shared-files.js';
import { REASONS, VALIDITIES, type ReviewMarks, type ReviewStore } from './review-store.js';
import type { ReviewItem } from './review-items.js';
import {
  BLIND_REASONS,
  blindLetters,
  blindView,
  itemLettersOf,
  shownLettersOf,
  type BlindLetters,
} from './blind-view.js';

/** Largest request body the API reads (a label is a few hundred bytes). */
export const REVIEW_BODY_LIMIT = 16 * 1024;
const OTHER_TEXT_LIMIT = 2000;

export interface ReviewServerOptions {
  store: ReviewStore;
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (any free one). */
  port?: number;
  /**
   * False: annotators are named in the link and need no token (`X-Annotator`). Only on a loopback
   * host; default true.
   */
  tokens?: boolean;
}

export interface ReviewServer {
  /** The base URL, e.g. http://127.0.0.1:41234/ */
  url: string;
  /** One link per annotator (carrying the token in its fragment). */
  links: Array<{ annotator: string; url: string }>;
  close(): Promise<void>;
}

/**
 * The page's own files, by request path. The page declares its icon (favicon.svg): without one, the
 * browser asked for /favicon.ico and logged the 404 in the console of every annotator.
 */
const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'review.html', type: 'text/html; charset=utf-8' },
  '/review.css': { file: 'review.css', type: 'text/css; charset=utf-8' },
  '/review.js': { file: 'review.js', type: 'text/javascript; charset=utf-8' },
  '/favicon.svg': { file: 'favicon.svg', type: 'image/svg+xml' },
};

/** The folder of the page's files (read from the project folder, so dist/ needs no copy). */
export function reviewAssetsDir(): string {
  return join(projectRoot(), 'engine', 'review', 'assets');
}

const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function serveReview(options: ReviewServerOptions): Promise<ReviewServer> {
  const host = options.host ?? '127.0.0.1';
  const tokens = options.tokens ?? true;
  const requestedPort = options.port ?? 0;
  // Node throws a RangeError (a stack) for any other.
  if (!Number.isInteger(requestedPort) || requestedPort < 0 || requestedPort > 65535)
    throw new ConfigError('port', `must be a port, 0 to 65535, got ${requestedPort}`);
  // The host as the printed link names it; on a loopback address it is also a Host header the server
  // accepts (issue 45: `--host 127.0.0.2` printed a link that answered 421).
  const shown = host === '0.0.0.0' || host === '::' ? hostname() : host.includes(':') ? `[${host}]` : host;
  if (!tokens && !isLoopbackHost(host)) {
    throw new UserError(`refusing to serve the review on ${host} without tokens: only a loopback host may go without`);
  }
  const store = options.store;
  const assets = new Map(
    Object.entries(ASSETS).map(([path, a]) => [
      path,
      { body: readFileSync(join(reviewAssetsDir(), a.file)), type: a.type },
    ]),
  );
  const items: ReviewItem[] = store.items();
  const annotators = store.annotators();
  const settings = store.settings();
  const blind = settings.blind === true;
  // Blind: the page gets views without the gold and deals in the letters it shows.
  const letters: BlindLetters[] = blind ? items.map((item) => blindLetters(item, settings.seed)) : [];

  let port = 0;
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const status = err instanceof HttpError ? err.status : 500;
      const message = err instanceof HttpError ? err.message : 'internal error';
      if (!res.headersSent) sendJson(res, status, { error: message });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (isLoopbackHost(host) && !loopbackHostHeader(req.headers.host, port, shown)) {
      throw new HttpError(421, 'unexpected Host header');
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const asset = assets.get(path);
    if (asset) {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'method not allowed');
      res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': asset.type, 'Content-Length': asset.body.length });
      res.end(req.method === 'HEAD' ? undefined : asset.body);
      return;
    }
    if (!path.startsWith('/api/')) throw new HttpError(404, 'not found');
    const annotator = whoIs(req);
    const labels = () => new Map(store.labels(annotator).map((l) => [l.position, l]));
    if (req.method === 'GET' && path === '/api/session') {
      const done = labels();
      const next = items.findIndex((_, i) => !done.has(i));
      sendJson(res, 200, {
        annotator,
        ...(blind ? { blind } : {}),
        total: items.length,
        done: done.size,
        next: next < 0 ? items.length : next,
      });
      return;
    }
    const m = /^\/api\/items\/(\d{1,9})$/.exec(path);
    if (m) {
      const position = Number(m[1]);
      if (position >= items.length) throw new HttpError(404, `no item ${position}`);
      if (req.method === 'GET') {
        const done = labels();
        const label = done.get(position);
        const marks = label === undefined ? null : marksOf(label);
        if (blind && marks) marks.correct = shownLettersOf(marks.correct, letters[position]!);
        sendJson(res, 200, {
          position,
          total: items.length,
          done: done.size,
          blind,
          item: blind ? blindView(items[position]!, settings.seed) : items[position],
          label: marks,
        });
        return;
      }
      if (req.method === 'PUT') {
        const body = await readBody(req);
        const marks = blind
          ? blindMarks(body, items[position]!, letters[position]!, settings.seed)
          : parseMarks(body, items[position]!);
        store.save(annotator, position, marks, new Date(), 'browser');
        sendJson(res, 200, { saved: position, total: items.length, done: labels().size });
        return;
      }
      throw new HttpError(405, 'method not allowed');
    }
    throw new HttpError(404, 'not found');
  }

  function whoIs(req: IncomingMessage): string {
    if (!tokens) {
      const name = req.headers['x-annotator'];
      const found = annotators.find((a) => a.name === name);
      if (!found) throw new HttpError(401, 'unknown annotator');
      return found.name;
    }
    const auth = req.headers.authorization ?? '';
    const given = Buffer.from(auth.startsWith('Bearer ') ? auth.slice(7) : '');
    const found = annotators.find((a) => {
      const want = Buffer.from(a.token);
      return want.length === given.length && timingSafeEqual(want, given);
    });
    if (!found) throw new HttpError(401, 'a valid annotator token is needed');
    return found.name;
  }

  await new Promise<void>((resolveListen, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new UserError(
          `cannot serve the review on ${host}:${requestedPort}: ${err.code ?? err.message}` +
            (err.code === 'EADDRINUSE'
              ? ' (another program, or another review, listens there): give another port, or 0 for any free one'
              : err.code === 'EADDRNOTAVAIL'
                ? ' (no interface of this machine has that address): give one of its addresses as host, or 127.0.0.1'
                : ''),
        ),
      ),
    );
    server.listen(requestedPort, host, () => resolveListen());
  });
  const address = server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
  const url = `http://${shown}:${port}/`;
  return {
    url,
    links: annotators.map((a) => ({
      annotator: a.name,
      url: tokens
        ? `${url}#annotator=${encodeURIComponent(a.name)}&token=${encodeURIComponent(a.token)}`
        : `${url}#annotator=${encodeURIComponent(a.name)}`,
    })),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A Host header naming the loopback server: a loopback name, or the host its link names, with its port. */
function loopbackHostHeader(header: string | undefined, port: number, shown: string): boolean {
  if (header === undefined) return false;
  return ['127.0.0.1', 'localhost', '[::1]', shown.toLowerCase()].some((h) => header.toLowerCase() === `${h}:${port}`);
}

function marksOf(m: ReviewMarks): ReviewMarks {
  return { correct: m.correct, validity: m.validity, reasons: m.reasons, otherText: m.otherText, ms: m.ms };
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new HttpError(415, 'the body must be application/json');
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > REVIEW_BODY_LIMIT) throw new HttpError(413, `body over ${REVIEW_BODY_LIMIT} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > REVIEW_BODY_LIMIT) throw new HttpError(413, `body over ${REVIEW_BODY_LIMIT} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new HttpError(400, 'the body is not JSON');
  }
}

/** Checks a label sent by the page against the item: known letters, validity and reasons. */
export function parseMarks(body: unknown, item: ReviewItem): ReviewMarks {
  if (typeof body !== 'object' || body === null) throw new HttpError(400, 'expected a JSON object');
  const b = body as Record<string, unknown>;
  const letters = new Set(item.options.map((o) => o.letter));
  const correct = b.correct;
  if (!Array.isArray(correct) || !correct.every((l) => typeof l === 'string' && letters.has(l))) {
    throw new HttpError(400, `correct must list letters of ${[...letters].join(', ')}`);
  }
  if (!VALIDITIES.includes(b.validity as never)) throw new HttpError(400, `validity must be ${VALIDITIES.join(', ')}`);
  const reasons = b.reasons;
  if (!Array.isArray(reasons) || !reasons.every((r) => REASONS.includes(r as never))) {
    throw new HttpError(400, `reasons must list some of ${REASONS.join(', ')}`);
  }
  const otherText = b.otherText ?? '';
  if (typeof otherText !== 'string' || otherText.length > OTHER_TEXT_LIMIT) {
    throw new HttpError(400, `otherText must be a string of at most ${OTHER_TEXT_LIMIT} characters`);
  }
  const ms = b.ms;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new HttpError(400, 'ms must be a number ≥ 0');
  return {
    correct: [...new Set(correct as string[])].sort(),
    validity: b.validity as ReviewMarks['validity'],
    reasons: REASONS.filter((r) => (reasons as string[]).includes(r)),
    otherText,
    ms: Math.min(ms, 24 * 3600 * 1000),
  };
}

/** A blind page's label: checked against the view it was shown, its letters mapped back to the item's. */
function blindMarks(body: unknown, item: ReviewItem, letters: BlindLetters, seed: number): ReviewMarks {
  const marks = parseMarks(body, { ...item, options: blindView(item, seed).options });
  const notOffered = marks.reasons.find((r) => !BLIND_REASONS.includes(r));
  if (notOffered !== undefined) throw new HttpError(400, `a blind review offers no reason "${notOffered}"`);
  return { ...marks, correct: itemLettersOf(marks.correct, letters)! };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const data = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'application/json', 'Content-Length': data.length });
  res.end(data);
}
