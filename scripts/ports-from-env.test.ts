import { describe, expect, it } from 'vitest';
import { clusterPortsFromEnv } from './cluster.mjs';
import { portsFromEnv } from './stack.mjs';

// The ports `npm start` and `npm run cluster` take (scripts/start.mjs): the documented defaults, or
// what the environment says, for a machine where something else has 8080 or 8432 already.

describe('the ports of npm start', () => {
  it('are the defaults unless a variable moves them, each the one its app reads', () => {
    expect(portsFromEnv({ PORT: '' })).toEqual({
      server: 8080,
      provider: 8081,
      propertyPortal: 8082,
      smtp: 1025,
      mail: 8025,
      postgres: 8432,
    });
    expect(
      portsFromEnv({
        PORT: '9080',
        PROVIDER_PORT: '9081',
        PROPERTY_PORTAL_PORT: '9082',
        MAIL_SMTP_PORT: '2025',
        MAIL_HTTP_PORT: '9025',
        POSTGRES_PORT: '9432',
      }),
    ).toEqual({ server: 9080, provider: 9081, propertyPortal: 9082, smtp: 2025, mail: 9025, postgres: 9432 });
    expect(portsFromEnv({ POSTGRES_PORT: '15432' })).toMatchObject({ server: 8080, postgres: 15432 });
  });

  it('refuse a value that is no port, and two apps on one port, naming the variables', () => {
    for (const value of ['abc', '0', '65536', '80 80', '-1', '8080.5']) {
      expect(() => portsFromEnv({ PROVIDER_PORT: value })).toThrow(
        `PROVIDER_PORT must be a port number from 1 to 65535, not "${value}".`,
      );
    }
    expect(() => portsFromEnv({ POSTGRES_PORT: '8080' })).toThrow('PORT and POSTGRES_PORT are both 8080');
  });
});

describe('the ports of npm run cluster', () => {
  it('put nginx on PORT and the instances and their metrics where the lists say', () => {
    expect(clusterPortsFromEnv({})).toMatchObject({
      server: 8080,
      balancer: 8080,
      postgres: 8432,
      instances: [8090, 8091, 8092],
      metrics: [9464, 9465, 9466],
    });
    expect(
      clusterPortsFromEnv({
        PORT: '18080',
        CLUSTER_INSTANCE_PORTS: '18090, 18091',
        CLUSTER_METRICS_PORTS: '19464,19465',
      }),
    ).toMatchObject({ balancer: 18080, provider: 8081, instances: [18090, 18091], metrics: [19464, 19465] });
    // Three instances elsewhere keep the three metrics ports.
    expect(clusterPortsFromEnv({ CLUSTER_INSTANCE_PORTS: '18090,18091,18092' })).toMatchObject({
      instances: [18090, 18091, 18092],
      metrics: [9464, 9465, 9466],
    });
  });

  it('refuse lists of different lengths, a bad entry and an instance on another app’s port', () => {
    expect(() => clusterPortsFromEnv({ CLUSTER_INSTANCE_PORTS: '18090,18091' })).toThrow(
      'CLUSTER_METRICS_PORTS must name one port per instance of CLUSTER_INSTANCE_PORTS (2).',
    );
    expect(() => clusterPortsFromEnv({ CLUSTER_INSTANCE_PORTS: '18090,,18092' })).toThrow(
      'CLUSTER_INSTANCE_PORTS must be a port number from 1 to 65535, not "".',
    );
    expect(() => clusterPortsFromEnv({ CLUSTER_INSTANCE_PORTS: '8090,8081,8092' })).toThrow(
      'PROVIDER_PORT and CLUSTER_INSTANCE_PORTS[1] are both 8081',
    );
  });
});
