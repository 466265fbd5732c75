// Where the Neo4j store connects and as whom: the URI, the credentials and the driver settings, from
// explicit options, from the URI's user-info part, or from the environment (in that order of
// precedence). Secrets never leave this module in a printable form: every URI shown to a user is
// `displayUri` (no user-info), and core/redact.ts scrubs the password and user-info from any text
// (driver and server messages included) before it is thrown or logged.
import { UserError } from '../../core/errors.js';
import { redact } from '../../core/redact.js';

/** The Bolt URI schemes the driver accepts: plain, TLS with CA-verified certificates (+s), TLS trusting any certificate (+ssc). */
export const NEO4J_SCHEMES = ['bolt', 'bolt+s', 'bolt+ssc', 'neo4j', 'neo4j+s', 'neo4j+ssc'] as const;
export type Neo4jScheme = (typeof NEO4J_SCHEMES)[number];

function isNeo4jScheme(scheme: string): scheme is Neo4jScheme {
  return (NEO4J_SCHEMES as readonly string[]).includes(scheme);
}

/**
 * True when a store spec (a `--graph` / `--to` argument) names a Neo4j server rather than a SQLite
 * file: the one test of "is this a Neo4j URL" (this module loads no driver, so anyone may ask).
 */
export function isNeo4jUri(spec: string): boolean {
  const match = /^([a-z0-9+]+):\/\//i.exec(spec);
  return match !== null && isNeo4jScheme(match[1]!.toLowerCase());
}

export interface Neo4jConnectionOptions {
  /** bolt://host:7687, neo4j+s://host, …; default NEO4J_URI. User-info (`bolt://user:pw@host`) is accepted and stripped. */
  uri?: string;
  /** Default: the URI's user, then NEO4J_USER (or NEO4J_USERNAME), then `neo4j`. */
  user?: string;
  /** Default: the URI's password, then NEO4J_PASSWORD. Without any, the driver connects with no authentication. */
  password?: string;
  /** Database name; default NEO4J_DATABASE, else the server's default database. */
  database?: string;
  /** Connections kept per server (driver `maxConnectionPoolSize`); default NEO4J_MAX_CONNECTION_POOL_SIZE, else 32. */
  maxConnectionPoolSize?: number;
  /** Records per network round trip when streaming a result (driver `fetchSize`); default NEO4J_FETCH_SIZE, else 2000. */
  fetchSize?: number;
  /**
   * How long the driver keeps retrying a managed transaction after a transient failure (dropped
   * connection, leader switch, deadlock), in ms; default NEO4J_MAX_TRANSACTION_RETRY_TIME_MS, else 60000.
   */
  maxTransactionRetryTimeMs?: number;
  /** TCP connect timeout in ms; default 30000. */
  connectionTimeoutMs?: number;
  /** Where the defaults come from; default process.env (tests pass their own). */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface ResolvedNeo4jConnection {
  /** The URI handed to the driver: no user-info. */
  uri: string;
  /** The URI to show in messages (identical to `uri`: it carries no secret). */
  displayUri: string;
  scheme: Neo4jScheme;
  /** Undefined when connecting without authentication. */
  auth: { user: string; password: string } | undefined;
  /** Undefined: the server's default database. */
  database: string | undefined;
  maxConnectionPoolSize: number;
  fetchSize: number;
  maxTransactionRetryTimeMs: number;
  connectionTimeoutMs: number;
  /** Strings that must never appear in output (the password, the raw user-info). */
  secrets: string[];
}

export const DEFAULT_MAX_CONNECTION_POOL_SIZE = 32;
export const DEFAULT_FETCH_SIZE = 2000;
export const DEFAULT_MAX_TRANSACTION_RETRY_TIME_MS = 60_000;
export const DEFAULT_CONNECTION_TIMEOUT_MS = 30_000;

/** A configuration mistake the user can fix (bad URI, bad number); its message never contains a secret. */
export class Neo4jConfigError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'Neo4jConfigError';
  }
}

export function resolveNeo4jConnection(options: Neo4jConnectionOptions = {}): ResolvedNeo4jConnection {
  const env = options.env ?? process.env;
  const rawUri = nonEmpty(options.uri) ?? nonEmpty(env.NEO4J_URI);
  if (rawUri === undefined) {
    throw new Neo4jConfigError('no Neo4j URI: pass bolt://host:7687 (or neo4j://, bolt+s://, …) or set NEO4J_URI');
  }
  const parsed = parseNeo4jUri(rawUri);
  const secrets = parsed.userInfo ? [parsed.userInfo] : [];

  const user =
    nonEmpty(options.user) ?? parsed.user ?? nonEmpty(env.NEO4J_USER) ?? nonEmpty(env.NEO4J_USERNAME) ?? 'neo4j';
  const password = options.password ?? parsed.password ?? nonEmpty(env.NEO4J_PASSWORD);
  if (password !== undefined && password !== '') secrets.push(password);

  return {
    uri: parsed.uri,
    displayUri: parsed.uri,
    scheme: parsed.scheme,
    auth: password === undefined ? undefined : { user, password },
    database: nonEmpty(options.database) ?? nonEmpty(env.NEO4J_DATABASE),
    maxConnectionPoolSize: positiveInteger(
      'maxConnectionPoolSize (NEO4J_MAX_CONNECTION_POOL_SIZE)',
      options.maxConnectionPoolSize ?? env.NEO4J_MAX_CONNECTION_POOL_SIZE,
      DEFAULT_MAX_CONNECTION_POOL_SIZE,
    ),
    fetchSize: positiveInteger(
      'fetchSize (NEO4J_FETCH_SIZE)',
      options.fetchSize ?? env.NEO4J_FETCH_SIZE,
      DEFAULT_FETCH_SIZE,
    ),
    maxTransactionRetryTimeMs: positiveInteger(
      'maxTransactionRetryTimeMs (NEO4J_MAX_TRANSACTION_RETRY_TIME_MS)',
      options.maxTransactionRetryTimeMs ?? env.NEO4J_MAX_TRANSACTION_RETRY_TIME_MS,
      DEFAULT_MAX_TRANSACTION_RETRY_TIME_MS,
    ),
    connectionTimeoutMs: positiveInteger(
      'connectionTimeoutMs',
      options.connectionTimeoutMs,
      DEFAULT_CONNECTION_TIMEOUT_MS,
    ),
    secrets,
  };
}

interface ParsedNeo4jUri {
  uri: string;
  scheme: Neo4jScheme;
  user?: string;
  password?: string;
  /** The raw `user:password` text, kept only to redact it. */
  userInfo?: string;
}

/** Splits user-info off a Bolt URI. Errors quote the URI without its user-info. */
export function parseNeo4jUri(raw: string): ParsedNeo4jUri {
  const match = /^([A-Za-z0-9+]+):\/\/(?:([^@/?#]*)@)?(.*)$/.exec(raw.trim());
  if (!match) {
    throw new Neo4jConfigError(
      `not a Neo4j URI: "${redact(raw)}" (expected ${NEO4J_SCHEMES.map((s) => s + '://').join(', ')})`,
    );
  }
  const scheme = match[1]!.toLowerCase();
  const userInfo = match[2];
  const rest = match[3]!;
  if (!isNeo4jScheme(scheme)) {
    throw new Neo4jConfigError(
      `unsupported URI scheme "${scheme}://" in "${redact(raw)}": use one of ${NEO4J_SCHEMES.map((s) => s + '://').join(', ')}`,
    );
  }
  const hostPort = rest.split(/[/?#]/, 1)[0]!;
  if (hostPort === '') throw new Neo4jConfigError(`no host in Neo4j URI "${redact(`${scheme}://${rest}`)}"`);
  const result: ParsedNeo4jUri = { uri: `${scheme}://${rest}`, scheme };
  if (userInfo !== undefined && userInfo !== '') {
    result.userInfo = userInfo;
    const colon = userInfo.indexOf(':');
    const rawUser = colon < 0 ? userInfo : userInfo.slice(0, colon);
    result.user = safeDecode(rawUser);
    if (colon >= 0) result.password = safeDecode(userInfo.slice(colon + 1));
  }
  return result;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function positiveInteger(name: string, value: number | string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new Neo4jConfigError(`${name} must be a positive integer, got "${value}"`);
  return n;
}
