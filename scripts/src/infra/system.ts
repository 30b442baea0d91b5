// Running system commands and installing Debian packages when something is missing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a command to completion; rejects with its output when it fails. */
export function run(
  cmd: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: options.env ?? process.env,
      cwd: options.cwd,
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${out}`)),
    );
  });
}

export function which(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  const path = r.stdout.trim();
  return r.status === 0 && path !== '' ? path : undefined;
}

export function firstExisting(paths: string[]): string | undefined {
  return paths.find((p) => existsSync(p));
}

/** Installs Debian packages (as root, or through sudo). */
export async function aptInstall(packages: string[], log: (msg: string) => void): Promise<void> {
  const sudo = isRoot() ? [] : which('sudo') ? ['sudo'] : undefined;
  if (sudo === undefined)
    throw new Error(
      `${packages.join(', ')} missing and not root: install them with apt-get install -y ${packages.join(' ')}`,
    );
  const exec = (args: string[]) =>
    sudo.length > 0
      ? run('sudo', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
      : run(args[0]!, args.slice(1), { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  log(`installing ${packages.join(', ')} from Debian's packages`);
  try {
    await exec(['apt-get', 'install', '-y', '--no-install-recommends', ...packages]);
  } catch {
    await exec(['apt-get', 'update']);
    await exec(['apt-get', 'install', '-y', '--no-install-recommends', ...packages]);
  }
}
