// A small OpenAI-compatible chat-completions server on 127.0.0.1 for tests of `ask` and its client:
// it records every request, answers through a replaceable handler, can hold requests unanswered
// (released later with a reply), and can send a body in chunks without a Content-Length.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface ChatBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  max_tokens: number;
  temperature: number;
}

export interface Recorded {
  auth: string | undefined;
  body: ChatBody;
  /** The request's path and query string. */
  path?: string;
}

/** What the server does with a request: a status and body (sent in `chunks` pieces when given), or hold it. */
export type Reply = { status: number; body: string; headers?: Record<string, string>; chunks?: number } | 'hold';
export type Handler = (body: ChatBody, auth: string | undefined) => Reply;

/** A 200 with one choice holding `content`, and token counts. */
export function completion(content: unknown, promptTokens = 50, completionTokens = 1): Reply {
  return {
    status: 200,
    body: JSON.stringify({
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    }),
  };
}

export class FakeChatServer {
  readonly requests: Recorded[] = [];
  handler: Handler = () => completion('A');
  private readonly held: ServerResponse[] = [];
  private server: Server | undefined;
  baseUrl = '';

  async start(): Promise<this> {
    this.server = createServer((req: IncomingMessage, res) => {
      let data = '';
      req.on('data', (c: Buffer) => (data += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(data) as ChatBody;
        this.requests.push({ auth: req.headers.authorization, body, path: req.url });
        const reply = this.handler(body, req.headers.authorization);
        if (reply === 'hold') this.held.push(res);
        else send(res, reply);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    this.baseUrl = `http://127.0.0.1:${address.port}/v1`;
    return this;
  }

  /** Answers every held request with `reply`. */
  release(reply: Exclude<Reply, 'hold'>): void {
    for (const res of this.held.splice(0)) send(res, reply);
  }

  async stop(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

function send(res: ServerResponse, reply: Exclude<Reply, 'hold'>): void {
  if (reply.chunks === undefined) {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body);
    return;
  }
  // Chunked transfer: no Content-Length, so the client learns the size only by reading.
  res.writeHead(reply.status, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...reply.headers });
  const size = Math.ceil(reply.body.length / reply.chunks);
  for (let i = 0; i < reply.body.length; i += size) res.write(reply.body.slice(i, i + size));
  res.end();
}
