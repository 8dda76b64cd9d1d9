import fs from 'node:fs';
import { Session } from 'node:inspector';

// Preloaded into a server under test by `--profile` (node --import tsx --import ./bench/profile-hook.ts):
// SIGUSR2 starts the V8 CPU profiler, the next SIGUSR2 writes the profile to
// BENCH_PROFILE_FILE. The parent brackets the measured window with them, so start-up,
// seeding and warm-up stay out of the profile.
const file = process.env.BENCH_PROFILE_FILE;
if (file) {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
  let running = false;
  process.on('SIGUSR2', () => {
    void (async () => {
      if (!running) {
        running = true;
        await post('Profiler.enable');
        await post('Profiler.setSamplingInterval', { interval: 500 });
        await post('Profiler.start');
      } else {
        running = false;
        const { profile } = await post('Profiler.stop');
        fs.writeFileSync(`${file}.tmp`, JSON.stringify(profile));
        fs.renameSync(`${file}.tmp`, file);
      }
    })();
  });
}
