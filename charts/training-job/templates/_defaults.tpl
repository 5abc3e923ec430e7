{{/*
What a job runs with where its values leave a key null: trainstack's default, or, with
arenaSubmit, what `arena submit` sets, as trainstack/training_job/defaults.py (the facts
and their sources are there).
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
training-job.defaults.mountsOnLauncher: "true" when the MPI launcher mounts the job's data:
mpi.mountsOnLauncher, else true (false with arenaSubmit); empty otherwise.
Usage: {{ if include "training-job.defaults.mountsOnLauncher" $root }}
*/}}
{{- define "training-job.defaults.mountsOnLauncher" -}}
{{- $own := .Values.mpi.mountsOnLauncher -}}
{{- if kindIs "invalid" $own -}}
{{- if ne .Values.arenaSubmit true -}}true{{- end -}}
{{- else if $own -}}true
{{- end -}}
{{- end -}}

{{/*
training-job.defaults.cleanPodPolicy: runPolicy.cleanPodPolicy, else Running (with
arenaSubmit: All for ack-arena's MPIJob v1alpha1, whose fork removes every worker either
way; Running for the others: on v2beta1 it keeps a failed worker and its preflight line).
Usage: {{ include "training-job.defaults.cleanPodPolicy" $root }}
*/}}
{{- define "training-job.defaults.cleanPodPolicy" -}}
{{- $v := .Values -}}
{{- if not (kindIs "invalid" $v.runPolicy.cleanPodPolicy) -}}
{{- $v.runPolicy.cleanPodPolicy -}}
{{- else -}}
{{- ternary "All" "Running" (and (eq $v.arenaSubmit true) (eq $v.framework "mpi") (eq $v.operatorApi "arena")) -}}
{{- end -}}
{{- end -}}

{{/*
training-job.defaults.backoffLimit: runPolicy.backoffLimit, else 0 with arenaSubmit (MPI and
PyTorch: Arena's TFJob renders none), else empty (the operator's).
Usage: {{ include "training-job.defaults.backoffLimit" $root }}
*/}}
{{- define "training-job.defaults.backoffLimit" -}}
{{- $v := .Values -}}
{{- if not (kindIs "invalid" $v.runPolicy.backoffLimit) -}}
{{- $v.runPolicy.backoffLimit | int64 -}}
{{- else if and (eq $v.arenaSubmit true) (ne $v.framework "tensorflow") -}}
0
{{- end -}}
{{- end -}}

{{/*
training-job.defaults.restartPolicy: the restart policy of one role: its own, else (MPI
workers: Never) runPolicy.restartPolicy, else OnFailure (a launcher, a batch Job: Never, so
that a failed pod and its preflight line are kept), or with arenaSubmit arena submit's:
Never, OnFailure for TensorFlow workers beside a chief and PyTorch workers.
Usage: {{ include "training-job.defaults.restartPolicy" (dict "root" $ "role" "worker" "own" $v.worker.restartPolicy) }}
Parameters:
  - root - Context - Required. The chart's root context ($).
  - role - String - Required. The role (launcher, worker, chief, ps, evaluator, master).
  - own - String - Optional. The role's own restartPolicy value.
*/}}
{{- define "training-job.defaults.restartPolicy" -}}
{{- $v := .root.Values -}}
{{- if not (kindIs "invalid" .own) -}}
{{- .own -}}
{{- else if and (eq $v.framework "mpi") (eq .role "worker") -}}
Never
{{- else if not (kindIs "invalid" $v.runPolicy.restartPolicy) -}}
{{- $v.runPolicy.restartPolicy -}}
{{- else if ne $v.arenaSubmit true -}}
{{- ternary "Never" "OnFailure" (eq .role "launcher") -}}
{{- else if and (eq .role "worker") (or (eq $v.framework "pytorch") (and (eq $v.framework "tensorflow") (gt ($v.tensorflow.chief.replicas | int) 0))) -}}
OnFailure
{{- else -}}
Never
{{- end -}}
{{- end -}}
