/**
 * The simulator package names the service's endpoints and streams itself, from the spec, as the
 * bot's client does (src/market/endpoints.ts): the two lists are the same, in the same order, so
 * a limit, a fault or a statistic keyed by name means the same endpoint on both sides.
 */
import { REST_ENDPOINTS, WS_STREAMS, isRestEndpoint } from 'tmds-simulator';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, STREAMS, isEndpointName } from '../../src/market/endpoints';

describe('the endpoints and streams of the simulator and of the bot', () => {
  it('are the same six REST endpoints and four streams', () => {
    expect([...REST_ENDPOINTS]).toEqual([...ENDPOINTS]);
    expect([...WS_STREAMS]).toEqual([...STREAMS]);
  });

  it('agree on what is an endpoint name', () => {
    for (const name of [...ENDPOINTS, ...STREAMS, 'token', '', 'TOKEN-DATA']) expect(isRestEndpoint(name), name).toBe(isEndpointName(name));
  });
});
