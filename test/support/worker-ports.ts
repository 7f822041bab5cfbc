// Setup file of the projects that start processes: gives this vitest worker its own range of loopback ports
// (GW_PORT_RANGE, read by src/up/ports.ts freePort, inherited by every process the tests start). With files in
// parallel, a port the kernel handed one worker for a gateway still starting was sometimes handed to another
// worker's dashboard too: the second failed to bind, and its test talked to the first (seen as a session cookie of
// another dashboard's configuration). Ranges sit below the kernel's ephemeral ports (32768 and up on Linux), so
// outgoing connections never take them either.
import { workerPortRange } from './worker-port-range.ts';

const range = workerPortRange(process.env.VITEST_POOL_ID);
if (range) process.env.GW_PORT_RANGE = `${range.first}-${range.last}`;
