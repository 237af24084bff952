import { startSimulator } from '../simulator';
import { serveStats } from './process-stats';

/** The upstream simulator in its own process, so its CPU never competes with the load generator's event loop. */
void startSimulator({ port: 0 }).then((simulator) => {
  serveStats();
  process.send?.({ ready: true, url: simulator.url });
});
