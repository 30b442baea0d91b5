{{/* Names. */}}
{{- define "fieldwork.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}{{ .Release.Name | trunc 50 | trimSuffix "-" }}{{- else -}}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{/* The name of one component's objects: <fullname>-<component>. Call with (dict "root" $ "name" "auth"). */}}
{{- define "fieldwork.component" -}}
{{- printf "%s-%s" (include "fieldwork.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "fieldwork.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/part-of: fieldwork
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}

{{/* Selector labels of a component. Call with (dict "root" $ "name" "auth"). */}}
{{- define "fieldwork.selector" -}}
app.kubernetes.io/name: fieldwork
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* The image of a component (results-ingest runs the results image). */}}
{{- define "fieldwork.image" -}}
{{- $name := .name | replace "-ingest" "" -}}
{{- printf "%s/%s-%s:%s" .root.Values.image.registry .root.Values.image.repository $name (default .root.Chart.AppVersion .root.Values.image.tag) -}}
{{- end -}}

{{/*
The Secret keys each consumer reads (its config loader: gateway/src/config.ts, each service's src/config.ts, the tools
CLI for backups). Each component gets a Secret with only these keys; the migrations hook gets them all.
*/}}
{{- define "fieldwork.secretKeys" -}}
{{- $objects := list "DATABASE_URL" "CONTEXT_SIGNING_SECRET" "OBJECT_STORE_SIGNING_SECRET" "S3_ACCESS_KEY" "S3_SECRET_KEY" -}}
{{- $keys := dict
  "gateway" (list "JWT_SECRET" "CONTEXT_SIGNING_SECRET" "OBJECT_STORE_SIGNING_SECRET" "S3_ACCESS_KEY" "S3_SECRET_KEY")
  "auth" (list "DATABASE_URL" "CONTEXT_SIGNING_SECRET" "JWT_SECRET" "SMTP_URL" "OIDC_PROVIDERS")
  "projects" $objects "forms" $objects "responses" $objects "exports" $objects
  "results" (list "DATABASE_URL" "CONTEXT_SIGNING_SECRET" "CLICKHOUSE_URL")
  "results-ingest" (list "DATABASE_URL" "CONTEXT_SIGNING_SECRET" "CLICKHOUSE_URL")
  "backup" (list "DATABASE_URL" "S3_ACCESS_KEY" "S3_SECRET_KEY")
  "web" (list)
-}}
{{- if eq .name "migrations" -}}
{{- toJson (keys (fromJson (include "fieldwork.secretValues" .root)) | sortAlpha) -}}
{{- else -}}
{{- toJson (required (printf "no secret keys known for component %s" .name) (index $keys .name)) -}}
{{- end -}}
{{- end -}}

{{/* Every secret value (a JSON object), from values; fails naming a missing required setting. */}}
{{- define "fieldwork.secretValues" -}}
{{- $providers := list }}
{{- range .Values.identity.providers }}
{{- $providers = append $providers (dict "id" .id "name" .name "issuer" .issuer "client_id" .clientId "client_secret" (default "" .clientSecret) "email_domains" (default (list) .emailDomains)) }}
{{- end }}
{{- $d := dict
  "DATABASE_URL" (required "postgresql.external.url is required (or postgresql.enabled, or existingSecret)" (include "fieldwork.postgresUrl" .))
  "JWT_SECRET" (required "secrets.jwtSecret is required (at least 32 characters) unless existingSecret is set" .Values.secrets.jwtSecret)
  "OBJECT_STORE_SIGNING_SECRET" (default .Values.secrets.jwtSecret .Values.secrets.objectStoreSigningSecret)
  "CONTEXT_SIGNING_SECRET" (default (sha256sum (printf "fieldwork-context:%s" .Values.secrets.jwtSecret)) .Values.secrets.contextSigningSecret)
  "CLICKHOUSE_URL" (required "clickhouse.external.url is required (or clickhouse.enabled): the embedded chDB engine is one process only" (include "fieldwork.clickhouseUrl" .))
  "SMTP_URL" .Values.secrets.smtpUrl
  "OIDC_PROVIDERS" (toJson $providers)
-}}
{{- if .Values.minio.enabled }}
{{- $_ := set $d "S3_ACCESS_KEY" .Values.minio.rootUser }}
{{- $_ := set $d "S3_SECRET_KEY" (required "minio.rootPassword is required with the in-chart MinIO" .Values.minio.rootPassword) }}
{{- else }}
{{- $_ := set $d "S3_ACCESS_KEY" .Values.objectStore.s3.accessKey }}
{{- $_ := set $d "S3_SECRET_KEY" .Values.objectStore.s3.secretKey }}
{{- end }}
{{- toJson $d -}}
{{- end -}}

{{/* The Secret a consumer reads (its own, or existingSecret for all). Call with (dict "root" $ "name" "auth"). */}}
{{- define "fieldwork.secretName" -}}
{{- default (printf "%s-%s" (include "fieldwork.fullname" .root) .name) .root.Values.existingSecret -}}
{{- end -}}

{{/* The ServiceAccount of a consumer. Call with (dict "root" $ "name" "auth"). */}}
{{- define "fieldwork.serviceAccountName" -}}
{{- if .root.Values.serviceAccount.create -}}
{{- include "fieldwork.component" . -}}
{{- else -}}
{{- default "default" .root.Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Whether the chart runs its own PostgreSQL or ClickHouse (the all-in-one install): "true" or "". */}}
{{- define "fieldwork.inChartEngines" -}}
{{- if or .Values.postgresql.enabled .Values.clickhouse.enabled -}}true{{- end -}}
{{- end -}}

{{/* host:port of every in-chart engine (space-separated), for the wait-for-engines init container. */}}
{{- define "fieldwork.inChartEndpoints" -}}
{{- $full := include "fieldwork.fullname" . -}}
{{- $e := list -}}
{{- if .Values.postgresql.enabled }}{{ $e = append $e (printf "%s-postgresql:5432" $full) }}{{ end -}}
{{- if .Values.nats.enabled }}{{ $e = append $e (printf "%s-nats:4222" $full) }}{{ end -}}
{{- if .Values.clickhouse.enabled }}{{ $e = append $e (printf "%s-clickhouse:8123" $full) }}{{ end -}}
{{- if .Values.minio.enabled }}{{ $e = append $e (printf "%s-minio:9000" $full) }}{{ end -}}
{{- join " " $e -}}
{{- end -}}

{{/*
An init container that waits (bounded: migrations.waitForEnginesSeconds) until every in-chart engine accepts TCP
connections, so that a first all-in-one install waits for its StatefulSets instead of failing. Runs node from the
auth image (no extra image). Call with (dict "root" $ "resources" ...).
*/}}
{{- define "fieldwork.waitForEngines" -}}
{{- $root := .root -}}
- name: wait-for-engines
  image: {{ include "fieldwork.image" (dict "root" $root "name" "auth") }}
  imagePullPolicy: {{ $root.Values.image.pullPolicy }}
  securityContext: {{- toYaml $root.Values.securityContext | nindent 4 }}
  command: [node, -e]
  args:
    - |
      const net = require('node:net');
      const limit = Number(process.env.WAIT_SECONDS) * 1000, start = Date.now();
      const open = (hp) => new Promise((ok) => {
        const [host, port] = hp.split(':');
        const s = net.connect({ host, port: Number(port), timeout: 2000 });
        s.on('connect', () => { s.destroy(); ok(true); });
        s.on('error', () => ok(false)); s.on('timeout', () => { s.destroy(); ok(false); });
      });
      (async () => {
        for (const hp of process.env.ENDPOINTS.split(' ')) {
          while (!(await open(hp))) {
            if (Date.now() - start > limit) {
              console.error(`gave up after ${process.env.WAIT_SECONDS} s: the in-chart engine at ${hp} does not accept connections (kubectl describe statefulset, kubectl logs of its pod)`);
              process.exit(1);
            }
            console.log(`waiting for the in-chart engine at ${hp}`);
            await new Promise((r) => setTimeout(r, 2000));
          }
          console.log(`${hp} accepts connections`);
        }
      })();
  env:
    - {name: ENDPOINTS, value: {{ include "fieldwork.inChartEndpoints" $root | quote }}}
    - {name: WAIT_SECONDS, value: {{ $root.Values.migrations.waitForEnginesSeconds | quote }}}
  resources: {{- toYaml .resources | nindent 4 }}
{{- end -}}

{{/* gRPC target of a component: DNS of its headless Service, so that clients balance over every pod (round robin). */}}
{{- define "fieldwork.grpcAddr" -}}
{{- $c := index .root.Values.components .name -}}
{{- printf "dns:///%s-headless.%s.svc.cluster.local:%v" (include "fieldwork.component" .) .root.Release.Namespace $c.port -}}
{{- end -}}

{{- define "fieldwork.postgresUrl" -}}
{{- if .Values.postgresql.enabled -}}
{{- printf "postgres://fieldwork:%s@%s-postgresql:5432/fieldwork" (required "postgresql.password is required with the in-chart PostgreSQL" .Values.postgresql.password | urlquery) (include "fieldwork.fullname" .) -}}
{{- else -}}
{{- .Values.postgresql.external.url -}}
{{- end -}}
{{- end -}}

{{- define "fieldwork.natsUrl" -}}
{{- if .Values.nats.enabled -}}
{{- printf "nats://%s-nats:4222" (include "fieldwork.fullname" .) -}}
{{- else -}}
{{- required "nats.external.url is required (or nats.enabled)" .Values.nats.external.url -}}
{{- end -}}
{{- end -}}

{{- define "fieldwork.clickhouseUrl" -}}
{{- if .Values.clickhouse.enabled -}}
{{- printf "http://fieldwork:%s@%s-clickhouse:8123" (required "clickhouse.password is required with the in-chart ClickHouse" .Values.clickhouse.password | urlquery) (include "fieldwork.fullname" .) -}}
{{- else -}}
{{- .Values.clickhouse.external.url -}}
{{- end -}}
{{- end -}}

{{/* Pod security, scheduling and the shared environment of every Fieldwork container. */}}
{{- define "fieldwork.podCommon" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets: {{ toYaml . | nindent 2 }}
{{- end }}
securityContext: {{ toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.nodeSelector }}
nodeSelector: {{ toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations: {{ toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity: {{ toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* The ConfigMap and the consumer's Secret. Call with (dict "root" $ "name" "auth" "config" "<name of the ConfigMap>"). */}}
{{- define "fieldwork.envFrom" -}}
envFrom:
  - configMapRef:
      name: {{ default (printf "%s-config" (include "fieldwork.fullname" .root)) .config }}
  - secretRef:
      name: {{ include "fieldwork.secretName" . }}
{{- end -}}

{{/* The ConfigMap's data: the settings every component shares (not secret). */}}
{{- define "fieldwork.configData" -}}
LOG_LEVEL: {{ .Values.logLevel | quote }}
GRPC_HOST: "0.0.0.0"
GATEWAY_HOST: "0.0.0.0"
GATEWAY_PORT: {{ .Values.components.gateway.port | quote }}
PUBLIC_URL: {{ .Values.publicUrl | quote }}
TLS_TERMINATED: {{ and .Values.ingress.enabled .Values.ingress.tls.enabled | quote }}
TRUSTED_PROXIES: {{ ternary (join "," .Values.ingress.trustedProxies) "" .Values.ingress.enabled | quote }}
NATS_URL: {{ include "fieldwork.natsUrl" . | quote }}
NATS_PREFIX: {{ .Values.nats.prefix | quote }}
# Replicas of the JetStream streams and KV buckets the services create (at most the number of NATS servers).
NATS_REPLICAS: {{ include "fieldwork.natsReplicas" . | quote }}
CLICKHOUSE_DATABASE: {{ .Values.clickhouse.database | quote }}
CLICKHOUSE_CLUSTER: {{ .Values.clickhouse.external.cluster | quote }}
METRICS_PORT: {{ .Values.metrics.port | quote }}
# The migrations Job runs them before install and upgrade and the services skip them; with an in-chart PostgreSQL or
# ClickHouse (not there before a first install) the services migrate at start (under an advisory lock) and the
# Job runs before upgrades only (docs/deploy.md, "Install and upgrade ordering").
MIGRATE: {{ ternary "skip" "auto" (and .Values.migrations.enabled (not (include "fieldwork.inChartEngines" .))) | quote }}
OBJECT_STORE: "s3"
{{- if .Values.minio.enabled }}
S3_ENDPOINT: {{ printf "%s-minio" (include "fieldwork.fullname" .) | quote }}
S3_PORT: "9000"
S3_USE_SSL: "false"
{{- else }}
S3_ENDPOINT: {{ required "objectStore.s3.endpoint is required (or minio.enabled)" .Values.objectStore.s3.endpoint | quote }}
S3_PORT: {{ .Values.objectStore.s3.port | quote }}
S3_USE_SSL: {{ .Values.objectStore.s3.useSsl | quote }}
{{- end }}
S3_REGION: {{ .Values.objectStore.s3.region | quote }}
S3_BUCKET: {{ .Values.objectStore.s3.bucket | quote }}
{{- range $name, $c := .Values.components }}
{{- if and (eq $c.protocol "grpc") (ne $name "results-ingest") }}
{{ $name | upper }}_GRPC_PORT: {{ $c.port | quote }}
{{ $name | upper }}_GRPC_ADDR: {{ include "fieldwork.grpcAddr" (dict "root" $ "name" $name) | quote }}
{{- end }}
{{- end }}
{{- range $k, $v := .Values.env }}
{{ $k }}: {{ $v | quote }}
{{- end }}
SIGNUP_ENABLED: {{ .Values.identity.signupEnabled | quote }}
{{- if or .Values.legal.terms .Values.legal.privacy }}
LEGAL_DIR: "/etc/fieldwork/legal"
{{- end }}
{{- end -}}

{{/* Replicas of the JetStream streams and KV buckets: nats.replicas, 1 with the one-node in-chart NATS. */}}
{{- define "fieldwork.natsReplicas" -}}
{{- if and .Values.nats.enabled (gt (int .Values.nats.replicas) 1) -}}
{{- fail "nats.replicas must be 1 with the in-chart NATS (one server); use a NATS cluster (nats.external.url) for more" -}}
{{- end -}}
{{- int .Values.nats.replicas -}}
{{- end -}}

{{/* The body of one migrations container (a service image with MIGRATE=only). Call with (dict "root" $ "name" "auth"). */}}
{{- define "fieldwork.migrationContainer" -}}
{{- $root := .root -}}
image: {{ include "fieldwork.image" . }}
imagePullPolicy: {{ $root.Values.image.pullPolicy }}
securityContext: {{- toYaml $root.Values.securityContext | nindent 2 }}
{{ include "fieldwork.envFrom" (dict "root" $root "name" "migrations" "config" (printf "%s-migrations-config" (include "fieldwork.fullname" $root))) }}
env:
  - {name: MIGRATE, value: only}
resources: {{- toYaml $root.Values.migrations.resources | nindent 2 }}
volumeMounts:
  - {name: tmp, mountPath: /tmp}
{{- end -}}
