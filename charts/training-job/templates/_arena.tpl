{{/*
What `arena submit` gives every job beyond its flags, rendered with arenaSubmit: true, as
trainstack/training_job/arena_submit.py (the facts and their sources are there; Arena's
defaults for null keys: _defaults.tpl).
*/}}

{{/*
training-job.arena.workers: Arena's --workers: worker.replicas, plus the master of a PyTorch job
unless worker.replicas already counts it (pytorch.countMasterAsWorker).
Usage: {{ include "training-job.arena.workers" $root }}
*/}}
{{- define "training-job.arena.workers" -}}
{{- $v := .Values -}}
{{- if and (eq $v.framework "pytorch") (not (and $v.pytorch.countMasterAsWorker (gt ($v.pytorch.master.replicas | int) 0))) -}}
{{- add ($v.worker.replicas | int) ($v.pytorch.master.replicas | int) -}}
{{- else -}}
{{- $v.worker.replicas | int -}}
{{- end -}}
{{- end -}}

{{/*
training-job.arena.env: the variables Arena sets on a role's containers (JSON map; empty
without arenaSubmit): workers, gpus, and NVIDIA_VISIBLE_DEVICES=void when the workers have
no GPU (on a TensorFlow parameter server without GPUs too).
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
{{- $env = dict "gpus" (toString ($v.worker.gpus | int)) "workers" (include "training-job.arena.workers" .root) -}}
{{- if or (eq ($v.worker.gpus | int) 0) (and (eq $v.framework "tensorflow") (eq .component "ps") (eq (.gpus | int) 0)) -}}
{{- $_ := set $env "NVIDIA_VISIBLE_DEVICES" "void" -}}
{{- end -}}
{{- end -}}
{{- toJson $env -}}
{{- end -}}

{{/*
training-job.arena.labels: Arena's labels on the job and its pods (JSON map; empty without
arenaSubmit): app (mpijob, tfjob, pytorchjob), release and createdBy (the kind).
Usage: {{ include "training-job.arena.labels" $root | fromJson }}
*/}}
{{- define "training-job.arena.labels" -}}
{{- $labels := dict -}}
{{- if eq .Values.arenaSubmit true -}}
{{- $kind := (include (printf "training-job.%s.info" .Values.framework) . | fromJson).kind -}}
{{- $labels = dict "app" (lower $kind) "release" .Release.Name "createdBy" $kind -}}
{{- end -}}
{{- toJson $labels -}}
{{- end -}}

{{/*
training-job.arena.annotations: Arena's annotation on the job and its pods (JSON map; empty
without arenaSubmit): requestGPUsOfJobOwner, the GPUs of the job's pods but parameter
servers'.
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
training-job.arena.requestedGpus: replicas x GPUs of every role but TensorFlow's parameter
servers (a role's null gpus: worker.gpus; the MPI launcher: none; PyTorch's Workers as
rendered, without the master that worker.replicas may count).
Usage: {{ include "training-job.arena.requestedGpus" $root }}
*/}}
{{- define "training-job.arena.requestedGpus" -}}
{{- $v := .Values -}}
{{- $info := include (printf "training-job.%s.info" $v.framework) . | fromJson -}}
{{- $total := 0 -}}
{{- range $key := $info.roles -}}
{{- if and (ne $key "tensorflow.ps") (ne $key "mpi.launcher") -}}
{{- $role := $v -}}
{{- range splitList "." $key -}}
{{- $role = get $role . -}}
{{- end -}}
{{- $gpus := ternary $v.worker.gpus $role.gpus (kindIs "invalid" $role.gpus) -}}
{{- $replicas := $role.replicas | int -}}
{{- if and (eq $v.framework "pytorch") (eq $key "worker") -}}
{{- $replicas = include "training-job.pytorch.workers" $ | int -}}
{{- end -}}
{{- $total = add $total (mul $replicas ($gpus | int)) -}}
{{- end -}}
{{- end -}}
{{- $total -}}
{{- end -}}
