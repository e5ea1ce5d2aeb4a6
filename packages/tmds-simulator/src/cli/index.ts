/** The command line of `tmds-simulator`, as functions: its flags parsed and checked, and the program that runs them. */
export { DEFAULT_TRADES_PER_SECOND, PROTOCOL_ENV, SimulatorUsageError, USAGE, parseCliArgs, usage, type CliOptions } from './args';
export { BIN_INVOCATION, runSimulatorCli, type CliInvocation } from './main';
