{{/*
The preflight of ack-arena's MPIJob v1alpha1 (docs/preflight.md): its workers are a
StatefulSet that would retry a failed preflight forever, and the fork creates the launcher
only once every worker is Ready; so the workers only report a failure (the preflight's
checks.report) and the launcher reads their reports before its command
(files/preflight-workers.sh). mpijob-v1alpha1.yaml uses these helpers.
*/}}

{{/*
training-job.preflightReport.workerPods: the names of the v1alpha1 workers, the fork's
StatefulSet <job>-worker's pods <job>-worker-<i> (JSON list).
Usage: {{ include "training-job.preflightReport.workerPods" . | fromJsonArray }}
*/}}
{{- define "training-job.preflightReport.workerPods" -}}
{{- $pods := list -}}
{{- range $index := until (.Values.worker.replicas | int) -}}
{{- $pods = append $pods (printf "%s-worker-%d" $.Release.Name $index) -}}
{{- end -}}
{{- toJson $pods -}}
{{- end -}}

{{/*
training-job.preflightReport.script: files/preflight-workers.sh as the launcher carries it:
its comment and blank lines left out, under one line saying so.
Usage: {{ include "training-job.preflightReport.script" $root }}
*/}}
{{- define "training-job.preflightReport.script" -}}
{{- $code := regexReplaceAll "(?m)^[ \t]*(#.*)?\n" (.Files.Get "files/preflight-workers.sh") "" -}}
# trainstack preflight: charts/training-job/files/preflight-workers.sh, docs/preflight.md
{{ $code -}}
{{- end -}}

{{/*
training-job.preflightReport.validate: the launcher reads the workers' reports before its
command, so a job with the preflight has one (JSON list of problems), as
trainstack/training_job/frameworks/mpi/arena.py _launcher_reads_workers.
Usage: {{ include "training-job.preflightReport.validate" . | fromJsonArray }}
*/}}
{{- define "training-job.preflightReport.validate" -}}
{{- $v := .Values -}}
{{- $problems := list -}}
{{- if and $v.preflight.enabled (kindIs "invalid" $v.command) -}}
{{- $problems = append $problems "preflight.enabled: found true; allowed: false with operatorApi arena and no command (the workers' StatefulSet would retry a failed check forever, so they only report it and the launcher fails with their lines before it runs the command; set command, or preflight.enabled: false)" -}}
{{- end -}}
{{- toJson $problems -}}
{{- end -}}
