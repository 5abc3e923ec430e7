{{/*
What `arena submit` gives every job beyond its flags, rendered with arenaSubmit: true, as
trainstack/training_job/arena_submit.py (the facts and their sources are there; Arena's
defaults for null keys: _defaults.tpl). What differs by framework is its info's arena
settings (generated from its registry entry): no helper here tests a framework's name.
*/}}

{{/*
training-job.arena.workers: Arena's --workers: the pods of the roles the framework's info
counts (arena.workers: PyTorch's master too, as rendered: worker.replicas may count it).
Usage: {{ include "training-job.arena.workers" $root }}
*/}}
{{- define "training-job.arena.workers" -}}
{{- $counted := (include (printf "training-job.%s.info" .Values.framework) . | fromJson).arena.workers -}}
{{- $total := 0 -}}
{{- range include "training-job.framework.pods" . | fromJsonArray -}}
{{- if has (index . 2) $counted -}}
{{- $total = add $total (index . 1 | int) -}}
{{- end -}}
{{- end -}}
{{- $total -}}
{{- end -}}

{{/*
training-job.arena.env: the variables Arena sets on a role's containers (JSON map; empty
without arenaSubmit): workers, gpus, and NVIDIA_VISIBLE_DEVICES=void when the workers have
no GPU (on the roles of the info's arena.hidesGpus without GPUs too: TensorFlow's PS).
Usage: {{ include "training-job.arena.env" (dict "root" $ "component" "ps" "gpus" 0) | fromJson }}
Parameters:
  - root - Context - Required. The chart's root context ($).
  - component - String - Required. The role (launcher, worker, chief, ps, evaluator, master).
  - gpus - Integer - Required. The GPUs of the role's containers.
*/}}
{{- define "training-job.arena.env" -}}
{{- $v := .root.Values -}}
{{- $env := dict -}}
{{- if eq $v.arenaSubmit true -}}
{{- $arena := (include (printf "training-job.%s.info" $v.framework) .root | fromJson).arena -}}
{{- $env = dict "gpus" (toString ($v.worker.gpus | int)) "workers" (include "training-job.arena.workers" .root) -}}
{{- if or (eq ($v.worker.gpus | int) 0) (and (has .component $arena.hidesGpus) (eq (.gpus | int) 0)) -}}
{{- $_ := set $env "NVIDIA_VISIBLE_DEVICES" "void" -}}
{{- end -}}
{{- end -}}
{{- toJson $env -}}
{{- end -}}

{{/*
training-job.arena.labels: Arena's labels on the job and its pods (JSON map; empty without
arenaSubmit): app (the info's arena.app: mpijob, tfjob, pytorchjob), release and createdBy
(the kind).
Usage: {{ include "training-job.arena.labels" $root | fromJson }}
*/}}
{{- define "training-job.arena.labels" -}}
{{- $labels := dict -}}
{{- if eq .Values.arenaSubmit true -}}
{{- $info := include (printf "training-job.%s.info" .Values.framework) . | fromJson -}}
{{- $labels = dict "app" $info.arena.app "release" .Release.Name "createdBy" $info.kind -}}
{{- end -}}
{{- toJson $labels -}}
{{- end -}}

{{/*
training-job.arena.annotations: Arena's annotation on the job and its pods (JSON map; empty
without arenaSubmit): requestGPUsOfJobOwner, the GPUs of the roles Arena counts.
Usage: {{ include "training-job.arena.annotations" $root | fromJson }}
*/}}
{{- define "training-job.arena.annotations" -}}
{{- $annotations := dict -}}
{{- if eq .Values.arenaSubmit true -}}
{{- $_ := set $annotations "requestGPUsOfJobOwner" (include "training-job.arena.requestedGpus" .) -}}
{{- end -}}
{{- toJson $annotations -}}
{{- end -}}

{{/*
training-job.arena.requestedGpus: replicas x GPUs of the pods of the roles the framework's
info counts (arena.gpuRoles: every role but TensorFlow's parameter servers and the MPI
launcher), as the framework's pods helper counts them.
Usage: {{ include "training-job.arena.requestedGpus" $root }}
*/}}
{{- define "training-job.arena.requestedGpus" -}}
{{- $counted := (include (printf "training-job.%s.info" .Values.framework) . | fromJson).arena.gpuRoles -}}
{{- $total := 0 -}}
{{- range include "training-job.framework.pods" . | fromJsonArray -}}
{{- if has (index . 2) $counted -}}
{{- $total = add $total (mul (index . 1 | int) (index . 3 | int)) -}}
{{- end -}}
{{- end -}}
{{- $total -}}
{{- end -}}
