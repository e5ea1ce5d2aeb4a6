/**
 * The follow commands' services, read from a command's context. A chat wired without them (a
 * look-up-only test, an installation without a store) answers with a plain error instead of a crash.
 */
import type { CommandServices } from './command';
import type { FollowService } from '../follows/followService';
import type { StatusSource } from '../follows/status';
import type { CallBook } from '../query/callBook';

export class ServiceMissingError extends Error {
  constructor(what: string) {
    super(`${what} is not set up in this installation.`);
    this.name = 'ServiceMissingError';
  }
}

export function followsOf(services: CommandServices): FollowService {
  if (services.follows === undefined) throw new ServiceMissingError('Following tokens and wallets');
  return services.follows;
}

export function statusOf(services: CommandServices): StatusSource {
  if (services.status === undefined) throw new ServiceMissingError('The status report');
  return services.status;
}

export function callsOf(services: CommandServices): CallBook {
  if (services.calls === undefined) throw new ServiceMissingError('Calls');
  return services.calls;
}
