// Loaded into each process of a benchmark's stack with `--profile` (NODE_OPTIONS=--import): a V8 CPU profile,
// started on SIGUSR1 and written to FIELDWORK_PROFILE_DIR on SIGUSR2, so that only the load is profiled.
import inspector from 'node:inspector';
import fs from 'node:fs';
import path from 'node:path';

const dir = process.env.FIELDWORK_PROFILE_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  process.on('SIGUSR1', () => session.post('Profiler.start'));
  process.on('SIGUSR2', () =>
    session.post('Profiler.stop', (err, res) => {
      if (err) return;
      const name = path.basename(path.dirname(path.dirname(process.argv[1] ?? 'node')));
      fs.writeFileSync(path.join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    }),
  );
}
