import { startSimulator, type Simulator } from '../../simulator';
import { startGateway, type RunningGateway } from './start-gateway';

/**
 * The mocha hooks of an end-to-end suite: the simulator, and a gateway whose platforms point at it, started before
 * the suite's tests and closed after them (`extra`: the rest of its config). Read `sim` and `gw` inside tests (they are
 * set once `before` has run).
 */
export function useSimulatorGateway(
  platforms: (sim: Simulator) => Parameters<typeof startGateway>[0],
  extra: Parameters<typeof startGateway>[1] = {},
): { sim: Simulator; gw: RunningGateway } {
  const running = {} as { sim: Simulator; gw: RunningGateway };
  before(async () => {
    running.sim = await startSimulator({ port: 0 });
    running.gw = await startGateway(platforms(running.sim), extra);
  });
  after(async () => {
    await running.gw?.close();
    await running.sim?.close();
  });
  return running;
}
