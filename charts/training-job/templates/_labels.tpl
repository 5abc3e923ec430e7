{{/*
training-job.names.chart: chart name and version, the value of the helm.sh/chart label.
Usage: {{ include "training-job.names.chart" . }}
*/}}
{{- define "training-job.names.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
training-job.labels.standard: the app.kubernetes.io labels plus the user's labels (YAML).
Usage: {{ include "training-job.labels.standard" (dict "root" $ "component" "worker") }}
*/}}
{{- define "training-job.labels.standard" -}}
{{- $root := .root -}}
{{- $labels := dict
  "app.kubernetes.io/name" $root.Chart.Name
  "app.kubernetes.io/instance" $root.Release.Name
  "app.kubernetes.io/version" $root.Chart.AppVersion
  "app.kubernetes.io/managed-by" $root.Release.Service
  "helm.sh/chart" (include "training-job.names.chart" $root) -}}
{{- with .component }}
{{- $_ := set $labels "app.kubernetes.io/component" . -}}
{{- end }}
{{- /* the chart's own labels win: selectors and tooling rely on them */ -}}
{{- toYaml (merge $labels ($root.Values.labels | default dict)) -}}
{{- end -}}

{{/*
training-job.job.metadata: metadata of the job object (name, namespace, labels, annotations).
Usage: {{- include "training-job.job.metadata" . | nindent 2 }}
*/}}
{{- define "training-job.job.metadata" -}}
name: {{ .Release.Name | toJson }}
namespace: {{ .Release.Namespace | toJson }}
labels:
  {{- include "training-job.labels.standard" (dict "root" .) | nindent 2 }}
  {{- with include "training-job.arena.labels" . | fromJson }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- with merge (include "training-job.arena.annotations" . | fromJson) (deepCopy (.Values.annotations | default dict)) }}
annotations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}
