{{/*
training-job.scheduling.pod: where a role's pods run and how they are placed, as pod spec
fields (YAML): scheduler, priority class, node selector (the role's merged over
scheduling.nodeSelector), tolerations (the role's, its node pool's, first, then the job's)
and, for workers, the spread over nodes (scheduling.workerSpread).
Usage: {{- include "training-job.scheduling.pod" (dict "root" $ "spec" $spec "component" "worker") | nindent 2 }}
Parameters:
  - root - Context - Required. The chart's root context ($).
  - spec - Map - Required. The role's values: nodeSelector and tolerations.
  - component - String - Required. The role; "worker" pods are spread (workerSpread).
*/}}
{{- define "training-job.scheduling.pod" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $spec := .spec -}}
{{- $nodeSelector := merge (deepCopy ($spec.nodeSelector | default dict)) ($v.scheduling.nodeSelector | default dict) -}}
{{- /* the role's own tolerations (its node pool's) first, then the job's */ -}}
{{- $tolerations := concat ($spec.tolerations | default list) ($v.scheduling.tolerations | default list) -}}
{{- with $v.scheduling.schedulerName }}
schedulerName: {{ toJson . }}
{{- end }}
{{- with $v.scheduling.priorityClassName }}
priorityClassName: {{ toJson . }}
{{- end }}
{{- with $nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $tolerations }}
tolerations:
  {{- range . }}
  - operator: {{ .operator | default "Equal" | toJson }}
    {{- with .key }}
    key: {{ toJson . }}
    {{- end }}
    {{- if kindIs "string" .value }}
    value: {{ .value | toJson }}
    {{- end }}
    {{- with .effect }}
    effect: {{ toJson . }}
    {{- end }}
    {{- if not (kindIs "invalid" .tolerationSeconds) }}
    tolerationSeconds: {{ .tolerationSeconds | int64 }}
    {{- end }}
  {{- end }}
{{- end }}
{{- if and (eq .component "worker") (ne $v.scheduling.workerSpread "none") }}
{{- $term := dict "topologyKey" "kubernetes.io/hostname" "labelSelector" (dict "matchLabels" (dict "app.kubernetes.io/instance" $root.Release.Name "app.kubernetes.io/component" "worker")) }}
affinity:
  podAntiAffinity:
    {{- if eq $v.scheduling.workerSpread "required" }}
    requiredDuringSchedulingIgnoredDuringExecution:
      {{- list $term | toYaml | nindent 6 }}
    {{- else }}
    preferredDuringSchedulingIgnoredDuringExecution:
      {{- list (dict "weight" 100 "podAffinityTerm" $term) | toYaml | nindent 6 }}
    {{- end }}
{{- end }}
{{- end -}}
