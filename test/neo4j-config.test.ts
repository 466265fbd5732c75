// Where the Neo4j store connects and as whom, and that no secret can reach a message.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FETCH_SIZE,
  DEFAULT_MAX_CONNECTION_POOL_SIZE,
  Neo4jConfigError,
  NEO4J_SCHEMES,
  isNeo4jUri,
  parseNeo4jUri,
  resolveNeo4jConnection,
} from '../graph/neo4j/neo4j-config.js';

describe('Neo4j connection settings', () => {
  it('takes URI, credentials, database and sizes from the environment', () => {
    const c = resolveNeo4jConnection({
      env: {
        NEO4J_URI: 'neo4j+s://db.example.com:7687',
        NEO4J_USER: 'reader',
        NEO4J_PASSWORD: 's3cret',
        NEO4J_DATABASE: 'aser',
        NEO4J_MAX_CONNECTION_POOL_SIZE: '8',
        NEO4J_FETCH_SIZE: '500',
        NEO4J_MAX_TRANSACTION_RETRY_TIME_MS: '120000',
      },
    });
    expect(c).toEqual({
      uri: 'neo4j+s://db.example.com:7687',
      displayUri: 'neo4j+s://db.example.com:7687',
      scheme: 'neo4j+s',
      auth: { user: 'reader', password: 's3cret' },
      database: 'aser',
      maxConnectionPoolSize: 8,
      fetchSize: 500,
      maxTransactionRetryTimeMs: 120000,
      connectionTimeoutMs: 30000,
      secrets: ['s3cret'],
    });
  });

  it('explicit options beat URI user-info, which beats the environment; NEO4J_USERNAME is accepted too', () => {
    const env = { NEO4J_URI: 'bolt://ignored:1', NEO4J_USERNAME: 'envuser', NEO4J_PASSWORD: 'envpw' };
    expect(resolveNeo4jConnection({ env, uri: 'bolt://localhost:7687' }).auth).toEqual({
      user: 'envuser',
      password: 'envpw',
    });
    const fromUri = resolveNeo4jConnection({ env, uri: 'bolt://alice:p%40ss%3Aword@localhost:7687/?x=1' });
    expect(fromUri.uri).toBe('bolt://localhost:7687/?x=1');
    expect(fromUri.auth).toEqual({ user: 'alice', password: 'p@ss:word' });
    expect(fromUri.secrets.sort()).toEqual(['alice:p%40ss%3Aword', 'p@ss:word'].sort());
    const explicit = resolveNeo4jConnection({
      env,
      uri: 'bolt://alice:pw@localhost',
      user: 'bob',
      password: 'bobpw',
      database: 'x',
    });
    expect(explicit.auth).toEqual({ user: 'bob', password: 'bobpw' });
    expect(explicit.database).toBe('x');
  });

  it('defaults: user neo4j, no authentication without a password, server default database, pool 32, fetch 2000', () => {
    const c = resolveNeo4jConnection({ env: {}, uri: 'bolt://localhost' });
    expect(c.auth).toBeUndefined();
    expect(c.database).toBeUndefined();
    expect(c.maxConnectionPoolSize).toBe(DEFAULT_MAX_CONNECTION_POOL_SIZE);
    expect(c.fetchSize).toBe(DEFAULT_FETCH_SIZE);
    expect(resolveNeo4jConnection({ env: { NEO4J_PASSWORD: 'pw' }, uri: 'bolt://localhost' }).auth).toEqual({
      user: 'neo4j',
      password: 'pw',
    });
  });

  it('accepts every TLS variant of both schemes, case-insensitively, and tells a Neo4j URI from a file path or another URL', () => {
    for (const scheme of NEO4J_SCHEMES) {
      expect(parseNeo4jUri(`${scheme}://h:7687`).scheme).toBe(scheme);
      expect(parseNeo4jUri(`${scheme.toUpperCase()}://h:7687`).scheme).toBe(scheme);
    }
    const specs = [
      ...NEO4J_SCHEMES.map((s) => `${s}://h`),
      'http://h',
      'bolt+x://h',
      'graph.sqlite',
      '/data/bolt.sqlite',
      'neo4j:/h',
      'boltx://h',
    ];
    for (const scheme of NEO4J_SCHEMES) expect(isNeo4jUri(`${scheme.toUpperCase()}://h`), scheme).toBe(true);
    expect(specs.filter(isNeo4jUri)).toEqual(NEO4J_SCHEMES.map((s) => `${s}://h`));
  });

  it('rejects bad URIs and sizes with messages that never contain the password', () => {
    expect(() => resolveNeo4jConnection({ env: {} })).toThrow(/set NEO4J_URI/);
    const bad = () => resolveNeo4jConnection({ env: {}, uri: 'http://user:hunter2@localhost:7474' });
    expect(bad).toThrow(Neo4jConfigError);
    expect(bad).toThrow(/unsupported URI scheme "http:\/\/" in "http:\/\/\*\*\*@localhost:7474"/);
    try {
      bad();
    } catch (err) {
      expect((err as Error).message).not.toContain('hunter2');
    }
    expect(() => resolveNeo4jConnection({ env: {}, uri: 'bolt://' })).toThrow(/no host/);
    expect(() => resolveNeo4jConnection({ env: { NEO4J_FETCH_SIZE: '0' }, uri: 'bolt://h' })).toThrow(
      /fetchSize \(NEO4J_FETCH_SIZE\) must be a positive integer, got "0"/,
    );
    expect(() => resolveNeo4jConnection({ env: {}, uri: 'bolt://h', maxConnectionPoolSize: 2.5 })).toThrow(
      /maxConnectionPoolSize/,
    );
  });
});
