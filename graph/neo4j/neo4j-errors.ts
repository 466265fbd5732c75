// Turns what neo4j-driver throws into errors a user can act on: what went wrong, where (the URI
// without credentials, the database), and what to do next. Every message is passed through
// core/redact.ts, so neither the password nor URI user-info can leak through a driver or server text.
import { Neo4jError } from 'neo4j-driver';
import { redact } from '../../core/redact.js';
import { MIN_NEO4J_MAJOR_VERSION } from './neo4j-schema.js';
import { UserError } from '../../core/errors.js';

export type Neo4jFailureKind =
  | 'unreachable'
  | 'connection-lost'
  | 'authentication'
  | 'credentials-expired'
  | 'forbidden'
  | 'database-not-found'
  | 'protocol'
  | 'schema-missing'
  | 'schema-version'
  | 'server-version'
  | 'constraint'
  | 'transient'
  | 'query';

export class Neo4jStoreError extends UserError {
  readonly kind: Neo4jFailureKind;
  /** The driver or server error code (`ServiceUnavailable`, `Neo.ClientError.Security.Unauthorized`, …), when there was one. */
  readonly code: string | undefined;

  constructor(kind: Neo4jFailureKind, message: string, code?: string) {
    super(message);
    this.name = 'Neo4jStoreError';
    this.kind = kind;
    this.code = code;
  }
}

/** Where an error happened, for the message: never contains a secret. */
export interface Neo4jErrorContext {
  displayUri: string;
  database: string | undefined;
  /** Strings to scrub from driver and server messages. */
  secrets: readonly string[];
  /** The user name, to say whose credentials were refused (a user name is not a secret). */
  user?: string;
}

/** The command that creates the schema and loads a graph; quoted in every "not initialised" message. */
export const IMPORT_HINT = 'intentsim graph import <ASER .db or edges .jsonl> --to bolt://host:7687';

function where(ctx: Neo4jErrorContext): string {
  return ctx.database === undefined ? ctx.displayUri : `${ctx.displayUri} (database "${ctx.database}")`;
}

/**
 * Why the driver could not connect, in one line: the socket's error at the end of the driver's cause
 * chain ("connect ECONNREFUSED 127.0.0.1:1"), else its first sentence. Never the routing-table dump
 * that a neo4j:// URI's failed discovery gives as its message ("Known routing table: RoutingTable[…]").
 */
export function unreachableReason(err: Error): string {
  let deepest = err.message;
  for (let e: unknown = err.cause; e instanceof Error; e = e.cause) deepest = e.message;
  const caused = /Caused by: (.+)/.exec(deepest)?.[1]?.trim();
  const reason = caused ?? (deepest.split(/(?<=\.)\s/)[0] ?? deepest).trim();
  return /No routing servers available/.test(err.message)
    ? `${caused ?? 'no server answered'} (the neo4j:// discovery found no routing server)`
    : reason;
}

/**
 * Maps a driver/server error to a Neo4jStoreError. Errors that are not from the driver (programming
 * errors, our own Neo4jStoreErrors) are returned unchanged apart from scrubbing their message.
 */
export function mapNeo4jError(err: unknown, ctx: Neo4jErrorContext): Error {
  if (err instanceof Neo4jStoreError) return err;
  if (!(err instanceof Neo4jError)) {
    if (err instanceof Error) {
      const scrubbed = redact(err.message, ctx.secrets);
      if (scrubbed !== err.message) err.message = scrubbed;
      return err;
    }
    return new Error(redact(String(err), ctx.secrets));
  }
  const code = err.code;
  const detail = redact(err.message, ctx.secrets);
  const at = where(ctx);
  const make = (kind: Neo4jFailureKind, message: string) => new Neo4jStoreError(kind, message, code);

  // The driver reports a Bolt URI pointed at the HTTP port with a message, not a code.
  if (/responded HTTP/i.test(err.message)) {
    return make(
      'protocol',
      `${at} answered in HTTP, not Bolt: ${detail}\n` +
        'Point the URI at the Bolt port (default 7687), not the HTTP port of Neo4j Browser (default 7474).',
    );
  }
  switch (code) {
    case 'ServiceUnavailable':
      return make(
        'unreachable',
        `cannot reach Neo4j at ${at}: ${redact(unreachableReason(err), ctx.secrets)}\n` +
          'Check that the server is running and listening for Bolt on that host and port (default 7687, not the HTTP port 7474), ' +
          'and that the URI scheme matches its TLS setting: bolt:// or neo4j:// for plain connections, ' +
          'bolt+s:// or neo4j+s:// for TLS with a CA-signed certificate, bolt+ssc:// or neo4j+ssc:// for a self-signed one.',
      );
    case 'SessionExpired':
      return make(
        'connection-lost',
        `the connection to Neo4j at ${at} was lost and the driver's retries ran out: ${detail}\n` +
          'Rerun the command once the server is back: reads are stateless, and imports resume ' +
          '(every batch is an idempotent MERGE, so batches already written are not duplicated). ' +
          'NEO4J_MAX_TRANSACTION_RETRY_TIME_MS sets how long the driver keeps retrying.',
      );
    case 'ProtocolError':
      return make(
        'protocol',
        `Neo4j at ${at} did not answer in a Bolt protocol version this driver speaks: ${detail}\n` +
          `Is this a Bolt port of a Neo4j ${MIN_NEO4J_MAJOR_VERSION} or later server (default 7687, not the HTTP port 7474)?`,
      );
    case 'Neo.ClientError.Security.Unauthorized':
      return make(
        'authentication',
        `Neo4j at ${at} refused the credentials${ctx.user ? ` of user "${ctx.user}"` : ''}: ${detail}\n` +
          'Set NEO4J_USER and NEO4J_PASSWORD (or pass them as options); for the official container they are those of NEO4J_AUTH=user/password.',
      );
    case 'Neo.ClientError.Security.AuthenticationRateLimit':
      return make(
        'authentication',
        `Neo4j at ${at} is rate-limiting authentication after repeated failures: ${detail}\n` +
          'Wait a few seconds, then retry with the right NEO4J_USER and NEO4J_PASSWORD.',
      );
    case 'Neo.ClientError.Security.CredentialsExpired':
      return make(
        'credentials-expired',
        `the password of${ctx.user ? ` user "${ctx.user}"` : ' this user'} at ${at} has expired and must be changed first: ${detail}\n` +
          'Change it with cypher-shell or Neo4j Browser (ALTER CURRENT USER SET PASSWORD FROM … TO …), then set NEO4J_PASSWORD.',
      );
    case 'Neo.ClientError.Security.Forbidden':
      return make(
        'forbidden',
        `Neo4j at ${at} does not allow${ctx.user ? ` user "${ctx.user}"` : ' this user'} to do this: ${detail}\n` +
          'Reading needs MATCH privileges on the database; `graph import --to` also needs write, index and constraint privileges.',
      );
    case 'Neo.ClientError.Database.DatabaseNotFound':
      return make(
        'database-not-found',
        `Neo4j at ${ctx.displayUri} has no database "${ctx.database ?? '(default)'}": ${detail}\n` +
          'Set NEO4J_DATABASE to an existing database (SHOW DATABASES lists them), or create it (CREATE DATABASE name, Enterprise Edition).',
      );
    case 'Neo.ClientError.Statement.SyntaxError':
    case 'Neo.ClientError.Procedure.ProcedureNotFound':
      return make(
        'server-version',
        `Neo4j at ${at} rejected a query this program sends (${code}): ${detail}\n` +
          `intentsim needs Neo4j ${MIN_NEO4J_MAJOR_VERSION} or later.`,
      );
    case 'Neo.ClientError.Schema.ConstraintValidationFailed':
      return make(
        'constraint',
        `a write to Neo4j at ${at} broke a uniqueness constraint: ${detail}\n` +
          'Another program may have created Eventuality nodes without the id allocator; rerunning the import resumes safely.',
      );
    default:
      break;
  }
  if (code.startsWith('Neo.TransientError.') || err.retriable) {
    return make(
      'transient',
      `Neo4j at ${at} kept failing with a transient error after the driver's retries (${code}): ${detail}\n` +
        'Rerun the command; imports resume where they stopped.',
    );
  }
  return make('query', `Neo4j at ${at} failed (${code}): ${detail}`);
}

/** The database has no intentsim schema (no marker node): nothing was imported there yet. */
export function schemaMissingError(ctx: Neo4jErrorContext): Neo4jStoreError {
  return new Neo4jStoreError(
    'schema-missing',
    `Neo4j at ${where(ctx)} holds no intentsim graph (no schema marker node :IntentsimMeta {key: 'schema'}).\n` +
      `Load one first: ${IMPORT_HINT}\n` +
      'After a bulk `neo4j-admin database import` of files from `intentsim graph export --neo4j-admin DIR`, ' +
      'run DIR/schema.cypher (cypher-shell -f DIR/schema.cypher) to create the constraints and the marker.',
  );
}

export function schemaVersionError(ctx: Neo4jErrorContext, found: unknown, expected: number): Neo4jStoreError {
  return new Neo4jStoreError(
    'schema-version',
    `Neo4j at ${where(ctx)} holds an intentsim graph with schema version ${String(found)}, but this program reads version ${expected}.\n` +
      `Re-import the graph into an empty database: ${IMPORT_HINT}`,
  );
}

export function serverVersionError(ctx: Neo4jErrorContext, version: string): Neo4jStoreError {
  return new Neo4jStoreError(
    'server-version',
    `Neo4j at ${where(ctx)} is version ${version}; intentsim needs Neo4j ${MIN_NEO4J_MAJOR_VERSION} or later ` +
      '(it creates its constraints with `CREATE CONSTRAINT … IF NOT EXISTS FOR … REQUIRE`). Upgrade the server, or use the embedded SQLite store.',
  );
}

/** A row that does not have the shape a query promises: the database was changed by something else. */
export function unexpectedRowError(ctx: Neo4jErrorContext, query: string, problem: string): Neo4jStoreError {
  return new Neo4jStoreError(
    'query',
    `unexpected result from Neo4j at ${where(ctx)} (query ${query}): ${problem}.\n` +
      'Every :Eventuality node needs an integer `id` and a string `text`; was this database loaded by intentsim?',
  );
}
