/**
 * Child process of relaunch.test.ts: relaunches itself as the agent's entry point does, then
 * prints what the process that runs looks like.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { relaunchWithFlags } from '../relaunch.ts';

relaunchWithFlags();
const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
console.log(
  JSON.stringify({
    pid: process.pid,
    execArgv: process.execArgv,
    args: process.argv.slice(2),
    young: young?.space_size,
  }),
);
