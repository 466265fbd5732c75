// Driver and server failures → messages a user can act on, with no secret in them.
import { Neo4jError } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import {
  Neo4jStoreError,
  mapNeo4jError,
  schemaMissingError,
  schemaVersionError,
  serverVersionError,
  type Neo4jErrorContext,
} from '../graph/neo4j/neo4j-errors.js';

const ctx: Neo4jErrorContext = {
  displayUri: 'bolt://db.example.com:7687',
  database: 'aser',
  secrets: ['hunter2'],
  user: 'reader',
};

function driverError(code: string, message: string): Neo4jError {
  // The GQL status arguments do not matter to the mapping, which keys on the classic code.
  return new Neo4jError(message, code, '50N42', 'general processing exception');
}

describe('Neo4j error mapping', () => {
  const cases: Array<[string, string, RegExp]> = [
    [
      'ServiceUnavailable',
      'unreachable',
      /cannot reach Neo4j at bolt:\/\/db\.example\.com:7687 \(database "aser"\).*\n.*7687, not the HTTP port 7474.*bolt\+ssc:\/\//,
    ],
    ['SessionExpired', 'connection-lost', /connection to Neo4j .* was lost.*\n.*imports resume/],
    ['ProtocolError', 'protocol', /Bolt protocol version.*\n.*Neo4j 5 or later/],
    [
      'Neo.ClientError.Security.Unauthorized',
      'authentication',
      /refused the credentials of user "reader".*\n.*NEO4J_USER and NEO4J_PASSWORD/,
    ],
    ['Neo.ClientError.Security.AuthenticationRateLimit', 'authentication', /rate-limiting authentication/],
    [
      'Neo.ClientError.Security.CredentialsExpired',
      'credentials-expired',
      /password of user "reader" .* has expired.*ALTER CURRENT USER/s,
    ],
    ['Neo.ClientError.Security.Forbidden', 'forbidden', /does not allow user "reader"/],
    ['Neo.ClientError.Database.DatabaseNotFound', 'database-not-found', /has no database "aser".*\n.*NEO4J_DATABASE/],
    ['Neo.ClientError.Statement.SyntaxError', 'server-version', /rejected a query .*\n.*needs Neo4j 5 or later/],
    ['Neo.ClientError.Procedure.ProcedureNotFound', 'server-version', /needs Neo4j 5 or later/],
    ['Neo.ClientError.Schema.ConstraintValidationFailed', 'constraint', /uniqueness constraint/],
    [
      'Neo.TransientError.Transaction.DeadlockDetected',
      'transient',
      /transient error after the driver's retries.*\n.*Rerun/,
    ],
    ['Neo.DatabaseError.General.UnknownError', 'query', /failed \(Neo\.DatabaseError\.General\.UnknownError\)/],
  ];
  for (const [code, kind, pattern] of cases) {
    it(`${code} → ${kind}`, () => {
      const mapped = mapNeo4jError(
        driverError(code, 'server said: password hunter2 is wrong for bolt://reader:hunter2@db'),
        ctx,
      );
      expect(mapped).toBeInstanceOf(Neo4jStoreError);
      const e = mapped as Neo4jStoreError;
      expect(e.kind).toBe(kind);
      expect(e.code).toBe(code);
      expect(e.message).toMatch(pattern);
      expect(e.message).not.toContain('hunter2');
      expect(e.message).toContain('bolt://***@db');
    });
  }

  it('passes non-driver errors through (scrubbed), and leaves its own errors alone', () => {
    const plain = new TypeError('bad thing with hunter2');
    const mapped = mapNeo4jError(plain, ctx);
    expect(mapped).toBe(plain);
    expect(mapped.message).toBe('bad thing with ***');
    const own = schemaMissingError(ctx);
    expect(mapNeo4jError(own, ctx)).toBe(own);
    expect(mapNeo4jError('string thrown: hunter2', ctx).message).toBe('string thrown: ***');
  });

  it('missing schema, other schema version and too-old servers say what to run', () => {
    const missing = schemaMissingError(ctx);
    expect(missing.kind).toBe('schema-missing');
    expect(missing.message).toMatch(
      /holds no intentsim graph.*\n.*intentsim graph import .* --to bolt:\/\/host:7687\n.*cypher-shell -f DIR\/schema\.cypher/,
    );
    expect(schemaVersionError(ctx, 7, 1).message).toMatch(/schema version 7, but this program reads version 1/);
    const old = serverVersionError(ctx, '4.4.30');
    expect(old.kind).toBe('server-version');
    expect(old.message).toMatch(/is version 4\.4\.30; intentsim needs Neo4j 5 or later/);
  });

  it("says why in one line: the socket's error from the cause chain, never neo4j://'s routing-table dump", () => {
    // What the driver throws for neo4j://127.0.0.1:1 (nothing listening): the dump, its cause underneath.
    const discovery = driverError(
      'ServiceUnavailable',
      'Could not perform discovery. No routing servers available. Known routing table: RoutingTable[database=default database, ' +
        'expirationTime=0, currentTime=1795702104343, routers=[], readers=[], writers=[]]',
    );
    discovery.cause = driverError(
      'ServiceUnavailable',
      'Failed to connect to server. Please ensure that your database is listening on the correct host and port. ' +
        'Caused by: connect ECONNREFUSED 127.0.0.1:1',
    );
    const e = mapNeo4jError(discovery, { ...ctx, displayUri: 'neo4j://127.0.0.1:1', database: undefined });
    expect(e.message.split('\n')[0]).toBe(
      'cannot reach Neo4j at neo4j://127.0.0.1:1: connect ECONNREFUSED 127.0.0.1:1 (the neo4j:// discovery found no routing server)',
    );
    expect(e.message).not.toContain('RoutingTable');
    // Without a cause: no dump either.
    const bare = driverError('ServiceUnavailable', discovery.message);
    expect(mapNeo4jError(bare, ctx).message.split('\n')[0]).toBe(
      'cannot reach Neo4j at bolt://db.example.com:7687 (database "aser"): no server answered (the neo4j:// discovery found no routing server)',
    );
    // bolt://: the driver's own "Caused by" is the reason.
    const bolt = driverError(
      'ServiceUnavailable',
      'Failed to connect to server. Please ensure that your database is listening. Caused by: connect ECONNREFUSED 10.0.0.5:7687',
    );
    expect(mapNeo4jError(bolt, ctx).message.split('\n')[0]).toBe(
      'cannot reach Neo4j at bolt://db.example.com:7687 (database "aser"): connect ECONNREFUSED 10.0.0.5:7687',
    );
  });

  it('without a database name, says where without one', () => {
    const e = mapNeo4jError(driverError('ServiceUnavailable', 'connect ECONNREFUSED'), {
      ...ctx,
      database: undefined,
    }) as Neo4jStoreError;
    expect(e.message.split('\n')[0]).toBe('cannot reach Neo4j at bolt://db.example.com:7687: connect ECONNREFUSED');
  });
});

describe('Neo4j error mapping: driver messages without a code', () => {
  it('a Bolt URI pointed at the HTTP port', () => {
    const e = mapNeo4jError(
      new Neo4jError(
        'Server responded HTTP. Make sure you are not trying to connect to the http endpoint',
        'N/A',
        '50N42',
        'x',
      ),
      ctx,
    ) as Neo4jStoreError;
    expect(e.kind).toBe('protocol');
    expect(e.message).toMatch(/answered in HTTP, not Bolt.*\n.*Bolt port \(default 7687\)/);
  });
});
