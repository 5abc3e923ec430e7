{{/*
training-job.job.runPolicy: the run policy of the job, where the serving operator's API
has it: under spec.runPolicy (operatorApi kubeflow) or directly under spec (arena).
Usage: {{- include "training-job.job.runPolicy" . | nindent 2 }}
*/}}
{{- define "training-job.job.runPolicy" -}}
{{- if eq .Values.operatorApi "arena" -}}
{{- include "training-job.job.runPolicyFields" . -}}
{{- else -}}
runPolicy:
  {{- include "training-job.job.runPolicyFields" . | nindent 2 }}
  {{- $gang := .Values.scheduling.gang }}
  {{- if $gang.enabled }}
  schedulingPolicy:
    minAvailable: {{ $gang.minAvailable | default (include "training-job.pods.total" .) | int64 }}
    {{- with $gang.queue }}
    queue: {{ toJson . }}
    {{- end }}
    {{- with .Values.scheduling.priorityClassName }}
    priorityClass: {{ toJson . }}
    {{- end }}
    {{- with $gang.scheduleTimeoutSeconds }}
    scheduleTimeoutSeconds: {{ int64 . }}
    {{- end }}
  {{- end }}
{{- end -}}
{{- end -}}

{{/*
training-job.job.runPolicyFields: clean-up, retries and time limits (both APIs spell them alike).
Usage: {{- include "training-job.job.runPolicyFields" . | nindent 2 }}
*/}}
{{- define "training-job.job.runPolicyFields" -}}
{{- $policy := .Values.runPolicy -}}
cleanPodPolicy: {{ include "training-job.defaults.cleanPodPolicy" . | toJson }}
{{- /* 0 is meaningful for these three, so test for presence, not truth */}}
{{- if not (kindIs "invalid" $policy.ttlSecondsAfterFinished) }}
ttlSecondsAfterFinished: {{ $policy.ttlSecondsAfterFinished | int64 }}
{{- end }}
{{- with include "training-job.defaults.backoffLimit" . }}
backoffLimit: {{ . | int64 }}
{{- end }}
{{- if not (kindIs "invalid" $policy.activeDeadlineSeconds) }}
activeDeadlineSeconds: {{ $policy.activeDeadlineSeconds | int64 }}
{{- end }}
{{- end -}}

{{/*
training-job.framework.pods: the pods of the job, role by role, as the framework's template
counts them (its registry entry's role_pods): a JSON list of [host-name suffix of the
role's last pod, replicas, role, GPUs per pod].
Usage: {{ include "training-job.framework.pods" . | fromJsonArray }}
*/}}
{{- define "training-job.framework.pods" -}}
{{- include (printf "training-job.%s.pods" .Values.framework) . -}}
{{- end -}}

{{/*
training-job.pods.total: how many pods the job starts (the default gang size).
Usage: {{ include "training-job.pods.total" . | int }}
*/}}
{{- define "training-job.pods.total" -}}
{{- $total := 0 -}}
{{- range include "training-job.framework.pods" . | fromJsonArray -}}
{{- $total = add $total (index . 1) -}}
{{- end -}}
{{- $total -}}
{{- end -}}
