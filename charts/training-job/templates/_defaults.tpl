{{/*
What a job runs with where its values leave a key null: trainstack's default, or, with
arenaSubmit, what `arena submit` sets, as trainstack/training_job/defaults.py. What differs
by framework is data in its training-job.<framework>.info (runDefaults, arena), generated
from its registry entry, whose package cites the sources; no helper here tests a
framework's name.
*/}}

{{/*
training-job.defaults.pullPolicy: image.pullPolicy, else IfNotPresent (Always with arenaSubmit).
Usage: {{ include "training-job.defaults.pullPolicy" $root }}
*/}}
{{- define "training-job.defaults.pullPolicy" -}}
{{- $v := .Values -}}
{{- if not (kindIs "invalid" $v.image.pullPolicy) -}}
{{- $v.image.pullPolicy -}}
{{- else -}}
{{- ternary "Always" "IfNotPresent" (eq $v.arenaSubmit true) -}}
{{- end -}}
{{- end -}}

{{/*
training-job.defaults.workingDir: workingDir, else /root with arenaSubmit, else empty (the
image's).
Usage: {{ include "training-job.defaults.workingDir" $root }}
*/}}
{{- define "training-job.defaults.workingDir" -}}
{{- $v := .Values -}}
{{- if not (kindIs "invalid" $v.workingDir) -}}
{{- $v.workingDir -}}
{{- else if eq $v.arenaSubmit true -}}
/root
{{- end -}}
{{- end -}}

{{/*
training-job.defaults.cleanPodPolicy: runPolicy.cleanPodPolicy, else Running (with
arenaSubmit: Arena's where the framework's info renders it in the job's dialect, as
ack-arena's MPIJob v1alpha1: All).
Usage: {{ include "training-job.defaults.cleanPodPolicy" $root }}
*/}}
{{- define "training-job.defaults.cleanPodPolicy" -}}
{{- $v := .Values -}}
{{- if not (kindIs "invalid" $v.runPolicy.cleanPodPolicy) -}}
{{- $v.runPolicy.cleanPodPolicy -}}
{{- else -}}
{{- $byDialect := dict -}}
{{- if eq $v.arenaSubmit true -}}
{{- $byDialect = (include (printf "training-job.%s.info" $v.framework) . | fromJson).arena.cleanPodPolicy | default dict -}}
{{- end -}}
{{- get $byDialect $v.operatorApi | default "Running" -}}
{{- end -}}
{{- end -}}

{{/*
training-job.defaults.backoffLimit: runPolicy.backoffLimit, else with arenaSubmit the one
Arena's chart renders (the framework's info: arena.backoffLimit, 0 or none), else empty
(the operator's).
Usage: {{ include "training-job.defaults.backoffLimit" $root }}
*/}}
{{- define "training-job.defaults.backoffLimit" -}}
{{- $v := .Values -}}
{{- if not (kindIs "invalid" $v.runPolicy.backoffLimit) -}}
{{- $v.runPolicy.backoffLimit | int64 -}}
{{- else if eq $v.arenaSubmit true -}}
{{- $limit := (include (printf "training-job.%s.info" $v.framework) . | fromJson).arena.backoffLimit -}}
{{- if not (kindIs "invalid" $limit) -}}
{{- $limit | int64 -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/*
training-job.defaults.restartPolicy: the restart policy of one role: its own, else the
framework's pinned one (MPI workers: Never), else runPolicy.restartPolicy, else the
framework's default for the role (runDefaults.restart; with arenaSubmit arena.restart), a
role entry applying only beside pods of its `beside` role (TensorFlow workers beside a chief).
Usage: {{ include "training-job.defaults.restartPolicy" (dict "root" $ "role" "worker" "own" $v.worker.restartPolicy) }}
Parameters:
  - root - Context - Required. The chart's root context ($).
  - role - String - Required. The role (launcher, worker, chief, ps, evaluator, master).
  - own - String - Optional. The role's own restartPolicy value.
*/}}
{{- define "training-job.defaults.restartPolicy" -}}
{{- $v := .root.Values -}}
{{- $info := include (printf "training-job.%s.info" $v.framework) .root | fromJson -}}
{{- if not (kindIs "invalid" .own) -}}
{{- .own -}}
{{- else if hasKey $info.runDefaults.pinned .role -}}
{{- get $info.runDefaults.pinned .role -}}
{{- else if not (kindIs "invalid" $v.runPolicy.restartPolicy) -}}
{{- $v.runPolicy.restartPolicy -}}
{{- else -}}
{{- $defaults := $info.runDefaults.restart -}}
{{- if and (eq $v.arenaSubmit true) $info.arena -}}
{{- $defaults = $info.arena.restart -}}
{{- end -}}
{{- $replicas := dict -}}
{{- range include "training-job.framework.pods" .root | fromJsonArray -}}
{{- $_ := set $replicas (index . 2) (index . 1 | int) -}}
{{- end -}}
{{- $policy := "" -}}
{{- range $defaults.roles -}}
{{- if and (not $policy) (eq .role $.role) (or (not .beside) (gt (get $replicas .beside | int) 0)) -}}
{{- $policy = .policy -}}
{{- end -}}
{{- end -}}
{{- $policy | default $defaults.policy -}}
{{- end -}}
{{- end -}}
