{{/*
The preflight of every training pod (docs/preflight.md, trainstack/training_job/preflight.py):
an init container made from the pod's training container, which runs files/preflight.sh
with sh and fails with one line, "trainstack preflight: ...", its termination message.
*/}}

{{/*
training-job.preflight.container: the preflight init container of a pod (YAML mapping), or
nothing with preflight.enabled false. It is the training container but its name, command
and what only the training process uses (args, working dir, ports, probes): the same
image, pull policy, env, envFrom, resources (so the pod requests no more), security
context and mounts, plus the TRAINSTACK_PREFLIGHT_* variables of training-job.preflight.env.
Usage: {{ include "training-job.preflight.container" (dict "root" $ "container" ($container | fromYaml) "gpus" 4 "mountsData" true "checks" (dict "ssh" "ssh")) }}
Parameters:
  - root - Context - Required. The chart's root context ($).
  - container - Map - Required. The training container (training-job.container.main).
  - gpus - Integer - Required. The GPUs the pod asked for.
  - mountsData - Boolean - Required. The pod mounts the datasets, results and host paths.
  - checks - Map - Optional. What the kind template adds: sshd (the workers' sshd) and
    sshdArgs (its options), ssh (the launcher's client) and sshArgs (its options), sshPort
    and sshKeys (the port both agree on, where the operator mounts the keys), hosts (the
    workers' host names), noGpus (the container cannot
    hold the pod's GPUs: MPIJob v1alpha1's shared template), noData (its claims may be
    stripped: the v1alpha1 launcher without mountsOnLauncher), resources (instead of the
    training container's), report ({label, role}: pods of that role only report a failure).
*/}}
{{- define "training-job.preflight.container" -}}
{{- $root := .root -}}
{{- if $root.Values.preflight.enabled -}}
{{- $main := .container -}}
{{- $checks := .checks | default dict -}}
{{- $mountsData := and .mountsData (not $checks.noData) -}}
{{- $env := concat ($main.env | default list) (include "training-job.preflight.env" (dict "root" $root "gpus" (ternary 0 .gpus (eq $checks.noGpus true)) "mountsData" $mountsData "checks" $checks) | fromJsonArray) -}}
{{- $container := dict
  "name" "preflight"
  "image" $main.image
  "imagePullPolicy" $main.imagePullPolicy
  "command" (list "sh" "-c" (include "training-job.preflight.script" $root) "trainstack-preflight")
  "securityContext" $main.securityContext
  "terminationMessagePolicy" "FallbackToLogsOnError" -}}
{{- /* checks.report (MPIJob v1alpha1's workers, docs/preflight.md): in a pod whose label
checks.report.label is checks.report.role, a failed check leaves its line (the termination
message) and the container succeeds; files/preflight-workers.sh reads it on the launcher */ -}}
{{- with $checks.report -}}
{{- $env = concat $env (list (dict "name" "TRAINSTACK_PREFLIGHT_POD_ROLE" "valueFrom" (dict "fieldRef" (dict "fieldPath" (printf "metadata.labels['%s']" .label)))) (dict "name" "TRAINSTACK_PREFLIGHT_REPORT_ROLE" "value" .role)) -}}
{{- $_ := set $container "command" (list "sh" "-c" "tsp_script=$1; shift; (eval \"$tsp_script\") || [ \"$TRAINSTACK_PREFLIGHT_POD_ROLE\" = \"$TRAINSTACK_PREFLIGHT_REPORT_ROLE\" ]" "trainstack-preflight" (include "training-job.preflight.script" $root)) -}}
{{- end -}}
{{- with $env -}}
{{- $_ := set $container "env" . -}}
{{- end -}}
{{- with $main.envFrom -}}
{{- $_ := set $container "envFrom" . -}}
{{- end -}}
{{- $resources := ternary $checks.resources $main.resources (hasKey $checks "resources") -}}
{{- with $resources -}}
{{- $_ := set $container "resources" . -}}
{{- end -}}
{{- $mounts := $main.volumeMounts -}}
{{- if $checks.noData -}}
{{- $mounts = include "training-job.volumes.mounts" (dict "root" $root "trainingDevices" true) | fromYamlArray -}}
{{- end -}}
{{- with $mounts -}}
{{- $_ := set $container "volumeMounts" . -}}
{{- end -}}
{{- toYaml $container -}}
{{- end -}}
{{- end -}}

{{/*
training-job.preflight.env: what the preflight checks, as the TRAINSTACK_PREFLIGHT_* variables
files/preflight.sh reads (JSON list of {name, value}; a check with nothing to check is left
out): GPUs, sshd and ssh (their options, port and keys), the workers' host names (and
how long to wait for them), the
mounts to read (datasets, read-only host paths) and to write (results, writable host
paths), preflight.requiredEnv, and the datasets whose manifest digest the preflight prints
("<claimName> <mountPath>", or the claim alone when it mounts a subPath: then none).
Usage: {{ include "training-job.preflight.env" (dict "root" $ "gpus" 4 "mountsData" true "checks" $checks) | fromJsonArray }}
*/}}
{{- define "training-job.preflight.env" -}}
{{- $root := .root -}}
{{- $checks := .checks -}}
{{- $read := list -}}
{{- $write := list -}}
{{- $datasets := list -}}
{{- range include "training-job.volumes.entries" (dict "root" $root "mountsData" .mountsData) | fromJsonArray -}}
{{- if hasPrefix "datasets[" .key -}}
{{- $read = append $read (printf "dataset %s" .mount.mountPath) -}}
{{- /* the manifest is at the file system's root: a sub-path mount does not show it */ -}}
{{- $claim := .volume.persistentVolumeClaim.claimName -}}
{{- $datasets = append $datasets (ternary $claim (printf "%s %s" $claim .mount.mountPath) (not (empty .mount.subPath))) -}}
{{- else if eq .key "results.mountPath" -}}
{{- $write = append $write (printf "results %s" .mount.mountPath) -}}
{{- else if and (hasPrefix "hostPaths[" .key) .mount.readOnly -}}
{{- $read = append $read (printf "hostPath %s" .mount.mountPath) -}}
{{- else if hasPrefix "hostPaths[" .key -}}
{{- $write = append $write (printf "hostPath %s" .mount.mountPath) -}}
{{- end -}}
{{- end -}}
{{- $hosts := $checks.hosts | default list -}}
{{- $values := list
  (list "GPUS" (ternary "" (toString .gpus) (eq (.gpus | int) 0)))
  (list "SSHD" ($checks.sshd | default ""))
  (list "SSHD_ARGS" (join "\n" ($checks.sshdArgs | default list)))
  (list "SSH" ($checks.ssh | default ""))
  (list "SSH_ARGS" (join "\n" ($checks.sshArgs | default list)))
  (list "SSH_PORT" (toString ($checks.sshPort | default "")))
  (list "SSH_KEYS" ($checks.sshKeys | default ""))
  (list "HOSTS" (join "\n" $hosts))
  (list "RESOLVE_SECONDS" (ternary (include "training-job.preflight.resolveSeconds" $root) "" (gt (len $hosts) 0)))
  (list "READ" (join "\n" $read))
  (list "WRITE" (join "\n" $write))
  (list "DATASETS" (join "\n" $datasets))
  (list "ENV" (join " " ($root.Values.preflight.requiredEnv | default list))) -}}
{{- $env := list -}}
{{- range $values -}}
{{- if index . 1 -}}
{{- $env = append $env (dict "name" (printf "TRAINSTACK_PREFLIGHT_%s" (index . 0)) "value" (index . 1)) -}}
{{- end -}}
{{- end -}}
{{- toJson $env -}}
{{- end -}}

{{/*
training-job.preflight.script: files/preflight.sh as the pods carry it: its comment and
blank lines left out (the file and docs/preflight.md explain it), under one line saying so.
Usage: {{ include "training-job.preflight.script" $root }}
*/}}
{{- define "training-job.preflight.script" -}}
{{- $code := regexReplaceAll "(?m)^[ \t]*(#.*)?\n" (.Files.Get "files/preflight.sh") "" -}}
# trainstack preflight: charts/training-job/files/preflight.sh, docs/preflight.md
{{ $code -}}
{{- end -}}
