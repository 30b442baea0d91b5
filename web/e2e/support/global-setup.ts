// Starts the whole test stack once per run (the launcher's code: free ports, a fresh database and stream prefix,
// the demo seeded) and stops it when the run ends. Process logs go to artifacts/logs/<run>/.
import { existsSync, mkdirSync } from 'node:fs';
import { aptInstall, startTestStack } from '@fieldwork/launcher';
import { artifactsPath, CHROMIUM, ROOT } from './paths.js';
import { STACK_ENV, type StackInfo } from './stack.js';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const log = (msg: string) => process.stderr.write(`[e2e] ${msg}\n`);
  if (!existsSync(CHROMIUM)) await aptInstall(['chromium'], log);
  if (!existsSync(`${ROOT}/web/dist/index.html`))
    throw new Error('web/dist is missing: build the web app first (pnpm run build)');
  mkdirSync(artifactsPath('screenshots'), { recursive: true });
  const started = Date.now();
  const t = await startTestStack({ oidc: true });
  log(`stack up in ${((Date.now() - started) / 1000).toFixed(1)} s at ${t.baseUrl} (logs in ${t.logDir})`);
  const info: StackInfo = {
    baseUrl: t.baseUrl,
    ports: t.ports,
    databaseUrl: t.infra.databaseUrl,
    demo: t.demo,
    contextSecret: t.contextSecret,
    oidcIssuer: t.oidc?.issuer ?? '',
  };
  process.env[STACK_ENV] = JSON.stringify(info);
  // Returned, Playwright runs it as the global teardown (the stack's handle lives in this process).
  return async () => {
    await t.stop();
  };
}
