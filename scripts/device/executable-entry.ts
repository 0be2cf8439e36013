/**
 * The entry point of the single executable (scripts/device/build-executables.ts): one file per
 * architecture holds both programs, chosen by the name it is run as, busybox-style. `hzn…` (e.g.
 * `/usr/local/bin/hzn`, a link to the executable, or a copy named `hzn-linux-arm64`) runs the CLI;
 * any other name runs the node agent. One Node runtime on the device instead of two (~100 MB each).
 * CommonJS (Node 22 runs a single executable's main script as CommonJS): no top-level await.
 */
import { basename } from 'node:path';

const name = basename(process.argv[1] ?? '');
if (name.startsWith('hzn')) {
  void Promise.all([import('../../cli/program.ts'), import('../../cli/io.ts')]).then(
    async ([{ run }, { processIo }]) => process.exit(await run(process.argv.slice(2), processIo())),
  );
} else {
  void import('../../agent/main.ts');
}
