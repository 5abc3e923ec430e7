{{/*
training-job.container.command: the container's command and args as JSON {command, args}
(either may be missing): a string command runs as <shell> -c <command> [<shell> <args>...],
so it is never re-parsed by YAML; a list runs as written with args as the container's
args; no command runs the image's ENTRYPOINT with args (if any) instead of its CMD.
Usage: {{ include "training-job.container.command" (dict "root" $ "command" $v.command "args" $v.args) | fromJson }}
Parameters:
  - root - Context - Required. The chart's root context ($): its shell.
  - command - String or List - Optional. The command (default: none, the image's ENTRYPOINT).
  - args - List - Optional. The args (default none).
*/}}
{{- define "training-job.container.command" -}}
{{- $v := .root.Values -}}
{{- $out := dict -}}
{{- $args := .args | default list -}}
{{- if kindIs "string" .command -}}
{{- $command := list $v.shell "-c" .command -}}
{{- if $args -}}
{{- /* $0 is the shell's name in error messages; the args become "$@" */ -}}
{{- $command = concat $command (list $v.shell) $args -}}
{{- end -}}
{{- $_ := set $out "command" $command -}}
{{- else -}}
{{- with .command -}}
{{- $_ := set $out "command" . -}}
{{- end -}}
{{- with $args -}}
{{- $_ := set $out "args" . -}}
{{- end -}}
{{- end -}}
{{- toJson $out -}}
{{- end -}}

{{/*
training-job.container.env: the env of a container: the job's env with the role's over it
and Arena's over both (arenaSubmit), in name order, then the chart's own (list of {name,
value}). A value is a string or {valueFrom: ...}; a null means unset.
Usage: {{- include "training-job.container.env" (dict "root" $ "role" $spec.env "extra" list) | nindent 8 }}
Parameters:
  - root - Context - Required. The chart's root context ($): the job's env.
  - role - Map - Optional. The role's env, over the job's (default none).
  - arena - Map - Optional. What Arena sets (training-job.arena.env), over both (default none).
  - extra - List - Optional. The chart's own env: list of {name, value} or {name,
    valueFrom} (default none).
*/}}
{{- define "training-job.container.env" -}}
{{- $env := deepCopy (.root.Values.env | default dict) -}}
{{- range $name, $value := .role | default dict -}}
{{- $_ := set $env $name $value -}}
{{- end -}}
{{- range $name, $value := .arena | default dict -}}
{{- $_ := set $env $name $value -}}
{{- end -}}
{{- /* range over a map visits keys in sorted order: the same env on every render */ -}}
{{- range $name, $value := $env }}
{{- if kindIs "map" $value }}
- name: {{ $name | toJson }}
  valueFrom:
    {{- include "training-job.util.compact" $value.valueFrom | fromJson | toYaml | nindent 4 }}
{{- else if not (kindIs "invalid" $value) }}
- name: {{ $name | toJson }}
  value: {{ $value | toString | toJson }}
{{- end }}
{{- end }}
{{- range .extra }}
- name: {{ .name | toJson }}
  {{- if .valueFrom }}
  valueFrom:
    {{- toYaml .valueFrom | nindent 4 }}
  {{- else }}
  value: {{ .value | toJson }}
  {{- end }}
{{- end }}
{{- end -}}

{{/*
training-job.util.compact: a map without its null values (nested maps too; maps left empty
are dropped), as JSON: values read from `helm show values` hold explicit nulls, which mean
"unset" here as they do to trainstack.
Usage: {{ include "training-job.util.compact" $map | fromJson }}
*/}}
{{- define "training-job.util.compact" -}}
{{- $out := dict -}}
{{- range $key, $value := . -}}
{{- if kindIs "map" $value -}}
{{- $inner := include "training-job.util.compact" $value | fromJson -}}
{{- if $inner -}}
{{- $_ := set $out $key $inner -}}
{{- end -}}
{{- else if not (kindIs "invalid" $value) -}}
{{- $_ := set $out $key $value -}}
{{- end -}}
{{- end -}}
{{- toJson $out -}}
{{- end -}}

{{/*
training-job.container.main: a role's training container (YAML mapping): image, command,
working dir, port, env (the job's, the role's, Arena's, the chart's), envFrom, resources
(GPUs and RDMA devices included), probes, security context and mounts. The preflight init
container is made from it (training-job.preflight.container).
Usage: {{ include "training-job.container.main" (dict "root" $ "spec" $spec "containerName" "worker" "command" $command "component" "worker" "gpus" 4 "requests" $requests "limits" $limits "security" $security "env" list "port" "" "mountsData" true "trainingDevices" true) }}
Parameters: those of training-job.pod.template, and requests, limits (the container's
resources, GPUs included), security (training-job.security.role of the role) and
extraMounts (list of volumeMounts the pod template adds after the chart's own).
*/}}
{{- define "training-job.container.main" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $spec := .spec -}}
{{- $command := .command | fromJson -}}
{{- $requests := .requests -}}
{{- $limits := .limits -}}
{{- $security := .security -}}
{{- $gpus := .gpus | int64 -}}
name: {{ .containerName | toJson }}
image: {{ $spec.image | default $v.image.name | toJson }}
imagePullPolicy: {{ include "training-job.defaults.pullPolicy" $root | toJson }}
{{- with $command.command }}
command: {{ toJson . }}
{{- end }}
{{- with $command.args }}
args: {{ toJson . }}
{{- end }}
{{- with include "training-job.defaults.workingDir" $root }}
workingDir: {{ toJson . }}
{{- end }}
{{- with .port }}
{{- if not (kindIs "invalid" $spec.port) }}
ports:
  - name: {{ toJson . }}
    containerPort: {{ $spec.port | int64 }}
{{- end }}
{{- end }}
{{- $arena := include "training-job.arena.env" (dict "root" $root "component" .component "gpus" $gpus) | fromJson }}
{{- $env := include "training-job.container.env" (dict "root" $root "role" $spec.env "arena" $arena "extra" .env) | trim }}
{{- if $env }}
env:
  {{- $env | nindent 2 }}
{{- end }}
{{- with $v.envFrom }}
envFrom:
  {{- range . }}
  - {{- include "training-job.util.compact" . | fromJson | toYaml | nindent 4 }}
  {{- end }}
{{- end }}
{{- if or $requests $limits }}
resources:
  {{- with $requests }}
  requests:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $limits }}
  limits:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}
{{- range $probe := list "readinessProbe" "livenessProbe" }}
{{- with get $spec $probe }}
{{ $probe }}:
  {{- include "training-job.util.compact" . | fromJson | toYaml | nindent 2 }}
{{- end }}
{{- end }}
securityContext:
  {{- include "training-job.container.securityContext" (dict "root" $root "security" $security "trainingDevices" .trainingDevices) | nindent 2 }}
{{- $mounts := include "training-job.volumes.mounts" (dict "root" $root "mountsData" .mountsData "trainingDevices" .trainingDevices) | trim }}
{{- if or $mounts .extraMounts }}
volumeMounts:
  {{- with $mounts }}
  {{- . | nindent 2 }}
  {{- end }}
  {{- with .extraMounts }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end }}
{{- end -}}
