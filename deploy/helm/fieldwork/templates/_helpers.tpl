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

{{/* The Secret holding DATABASE_URL, JWT_SECRET and the other secrets. */}}
{{- define "fieldwork.secretName" -}}
{{- default (printf "%s-secrets" (include "fieldwork.fullname" .)) .Values.existingSecret -}}
{{- end -}}

{{/* gRPC target of a component: DNS of its headless Service, so that clients balance over every pod (round robin). */}}
{{- define "fieldwork.grpcAddr" -}}
{{- $c := index .root.Values.components .name -}}
{{- printf "dns:///%s-headless.%s.svc.cluster.local:%v" (include "fieldwork.component" .) .root.Release.Namespace $c.port -}}
{{- end -}}

{{- define "fieldwork.postgresUrl" -}}
{{- if .Values.postgresql.enabled -}}
{{- printf "postgres://fieldwork:%s@%s-postgresql:5432/fieldwork" (required "postgresql.password is required with the in-chart PostgreSQL" .Values.postgresql.password) (include "fieldwork.fullname" .) -}}
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
{{- printf "http://%s-clickhouse:8123" (include "fieldwork.fullname" .) -}}
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

{{- define "fieldwork.envFrom" -}}
envFrom:
  - configMapRef:
      name: {{ include "fieldwork.fullname" . }}-config
  - secretRef:
      name: {{ include "fieldwork.secretName" . }}
{{- end -}}
