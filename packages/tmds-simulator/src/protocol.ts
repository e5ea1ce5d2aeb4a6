/**
 * Which protocol the simulator speaks. `spec` (the default) is the spec's, with the decisions of
 * docs/simulator.md where it is silent. `vendor` is the real service's, as its own pages and public
 * recordings show it (shared/spec/real-service.md): the key in the `x-api-key` header of a stream's
 * upgrade, a welcome and a confirmation, data messages with an `event` field and no snapshot, no
 * wallet stream, token-feed as a filtered feed of new tokens, and token-data in the recorded shapes.
 * The market is the same in both; only what is said about it differs.
 */
export const SIMULATOR_PROTOCOLS = ['spec', 'vendor'] as const;
export type SimulatorProtocol = (typeof SIMULATOR_PROTOCOLS)[number];

export function isSimulatorProtocol(value: string): value is SimulatorProtocol {
  return (SIMULATOR_PROTOCOLS as readonly string[]).includes(value);
}
