{{/*
training-job.validateValues: check the combinations of values that each look valid but
cannot run, and fail once listing every one with the key to change. One helper per rule,
each a JSON list of problems worded as its Python twin's: the framework's own
(training-job.<framework>.validate, in its template), then training-job.validate.<rule>
for trainstack/training_job/rules.py's _<rule>_rules (in violations()'s order) and naming.py
(what the serving API and Arena's contract allow: _validate_api.tpl).
Usage: {{- include "training-job.validateValues" . }}
*/}}
{{- define "training-job.validateValues" -}}
{{- $problems := list -}}
{{- range $found := list
  (include (printf "training-job.%s.validate" .Values.framework) .)
  (include "training-job.validate.port" .)
  (include "training-job.validate.dataset" .)
  (include "training-job.validate.mountPath" .)
  (include "training-job.validate.operatorApi" .)
  (include "training-job.validate.arenaSubmit" .)
  (include "training-job.validate.gang" .)
  (include "training-job.validate.tensorboard" .)
  (include "training-job.validate.releaseName" .) -}}
{{- $problems = concat $problems ($found | fromJsonArray) -}}
{{- end -}}
{{- if $problems -}}
{{- fail (printf "invalid values for the training-job chart (%d problem(s)); change these keys:\n  - %s" (len $problems) (join "\n  - " $problems)) -}}
{{- end -}}
{{- end -}}

{{/*
training-job.validate.port: a role's port names the operator's port: frameworks without one
take none (rules.py _port_rules).
Usage: {{ include "training-job.validate.port" . | fromJsonArray }}
*/}}
{{- define "training-job.validate.port" -}}
{{- $v := .Values -}}
{{- $info := include (printf "training-job.%s.info" $v.framework) . | fromJson -}}
{{- $problems := list -}}
{{- if not $info.port -}}
{{- range $key := $info.roles -}}
{{- $role := $v -}}
{{- range splitList "." $key -}}
{{- $role = get $role . -}}
{{- end -}}
{{- if not (kindIs "invalid" $role.port) -}}
{{- $problems = append $problems (printf "%s.port: found %s; allowed: null with framework %s (its operator names no port)" $key (toJson $role.port) $v.framework) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toJson $problems -}}
{{- end -}}

{{/*
training-job.validate.dataset: each claim mounted once (rules.py _dataset_rules).
Usage: {{ include "training-job.validate.dataset" . | fromJsonArray }}
*/}}
{{- define "training-job.validate.dataset" -}}
{{- $problems := list -}}
{{- $claims := dict -}}
{{- range $index, $dataset := .Values.datasets -}}
{{- if hasKey $claims $dataset.claimName -}}
{{- $problems = append $problems (printf "datasets[%d].claimName: found %s; allowed: a claim not already in datasets[%s] (mount a claim once, use subPath for parts of it)" $index (toJson $dataset.claimName) (get $claims $dataset.claimName)) -}}
{{- else -}}
{{- $_ := set $claims $dataset.claimName (toString $index) -}}
{{- end -}}
{{- end -}}
{{- toJson $problems -}}
{{- end -}}

{{/*
training-job.validate.mountPath: every mount path once, reserved ones first: the chart's own
(/dev/shm), then those the framework's operator takes (training-job.<framework>.mounts),
then the values' (rules.py _mount_path_rules over mount_paths).
Usage: {{ include "training-job.validate.mountPath" . | fromJsonArray }}
*/}}
{{- define "training-job.validate.mountPath" -}}
{{- $mounts := list -}}
{{- $chosen := list -}}
{{- range include "training-job.volumes.entries" (dict "root" . "mountsData" true "trainingDevices" true) | fromJsonArray -}}
{{- if .reserved -}}
{{- $mounts = append $mounts (list .key .mount.mountPath) -}}
{{- else -}}
{{- $chosen = append $chosen (list .key .mount.mountPath) -}}
{{- end -}}
{{- end -}}
{{- $mounts = concat $mounts (include (printf "training-job.%s.mounts" .Values.framework) . | fromJsonArray) $chosen -}}
{{- $problems := list -}}
{{- $owners := dict -}}
{{- range $mounts -}}
{{- $key := index . 0 -}}
{{- $path := index . 1 -}}
{{- $normal := regexReplaceAll "/+$" $path "" -}}
{{- if hasKey $owners $normal -}}
{{- $problems = append $problems (printf "%s: found %s; allowed: a path not already used by %s" $key (toJson $path) (get $owners $normal)) -}}
{{- else -}}
{{- $_ := set $owners $normal $key -}}
{{- end -}}
{{- end -}}
{{- toJson $problems -}}
{{- end -}}

{{/*
training-job.validate.gang: a gang no larger than the job's pods (rules.py _gang_rules).
Usage: {{ include "training-job.validate.gang" . | fromJsonArray }}
*/}}
{{- define "training-job.validate.gang" -}}
{{- $gang := .Values.scheduling.gang -}}
{{- $pods := include "training-job.pods.total" . | int -}}
{{- $problems := list -}}
{{- if and $gang.enabled (not (kindIs "invalid" $gang.minAvailable)) (gt ($gang.minAvailable | int) $pods) -}}
{{- $problems = append $problems (printf "scheduling.gang.minAvailable: found %s; allowed: at most %d, the pods of the job" (toJson $gang.minAvailable) $pods) -}}
{{- end -}}
{{- toJson $problems -}}
{{- end -}}

{{/*
training-job.validate.tensorboard: TensorBoard reads the log directory from a claim the job
mounts (rules.py _tensorboard_rules).
Usage: {{ include "training-job.validate.tensorboard" . | fromJsonArray }}
*/}}
{{- define "training-job.validate.tensorboard" -}}
{{- $board := .Values.tensorboard | default dict -}}
{{- $problems := list -}}
{{- if $board.enabled -}}
{{- $onClaim := false -}}
{{- $where := list -}}
{{- range include "training-job.volumes.entries" (dict "root" . "mountsData" true) | fromJsonArray -}}
{{- if .volume.persistentVolumeClaim -}}
{{- $root := regexReplaceAll "/+$" .mount.mountPath "" -}}
{{- $where = append $where (printf "%s %s" .key .mount.mountPath) -}}
{{- if $board.logDir -}}
{{- $log := regexReplaceAll "/+$" $board.logDir "" -}}
{{- if or (eq $log $root) (hasPrefix (printf "%s/" $root) $log) -}}
{{- $onClaim = true -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if not $onClaim -}}
{{- $problems = append $problems (printf "tensorboard.logDir: found %s; allowed: a directory on a claim the job mounts (datasets, results): %s" (toJson $board.logDir) (join ", " $where | default "none: mount one")) -}}
{{- end -}}
{{- end -}}
{{- toJson $problems -}}
{{- end -}}

{{/*
training-job.validate.releaseName: the release name names the job and its pods: a DNS label,
short enough for the longest pod name (naming.py release_name_problems).
Usage: {{ include "training-job.validate.releaseName" . | fromJsonArray }}
*/}}
{{- define "training-job.validate.releaseName" -}}
{{- $name := .Release.Name -}}
{{- $problems := list -}}
{{- if not (regexMatch "^[a-z]([-a-z0-9]*[a-z0-9])?$" $name) -}}
{{- $problems = append $problems (printf "release name: found %s; allowed: lowercase letters, digits and '-', starting with a letter and ending with a letter or digit" (toJson $name)) -}}
{{- else -}}
{{- $longest := "" -}}
{{- range include "training-job.framework.pods" . | fromJsonArray -}}
{{- if and (gt (index . 1 | int) 0) (gt (len (index . 0)) (len $longest)) -}}
{{- $longest = index . 0 -}}
{{- end -}}
{{- end -}}
{{- if gt (add (len $name) (len $longest)) 63 -}}
{{- $problems = append $problems (printf "release name: found %s; allowed: at most %d characters: the pod name %s%s must fit in 63" (toJson $name) (sub 63 (len $longest)) $name $longest) -}}
{{- end -}}
{{- end -}}
{{- toJson $problems -}}
{{- end -}}
