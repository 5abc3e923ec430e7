{{/*
training-job.validateValues: check the combinations of values that each look valid but
cannot run, and fail once listing every one of them with the key to change. The same
rules, in the same order and words, as trainstack/training_job/rules.py and naming.py;
the framework's own come from its template (training-job.<framework>.validate, .mounts,
.pods and .info, as its registry entry in trainstack/frameworks/).
Usage: {{- include "training-job.validateValues" . }}
*/}}
{{- define "training-job.validateValues" -}}
{{- $v := .Values -}}
{{- $info := include (printf "training-job.%s.info" $v.framework) . | fromJson -}}

{{- /* the framework's own rules */ -}}
{{- $problems := include (printf "training-job.%s.validate" $v.framework) . | fromJsonArray -}}

{{- /* a role's port names the operator's port: frameworks without one take none */ -}}
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

{{- /* each claim once */ -}}
{{- $claims := dict -}}
{{- range $index, $dataset := $v.datasets -}}
{{- if hasKey $claims $dataset.claimName -}}
{{- $problems = append $problems (printf "datasets[%d].claimName: found %s; allowed: a claim not already in datasets[%s] (mount a claim once, use subPath for parts of it)" $index (toJson $dataset.claimName) (get $claims $dataset.claimName)) -}}
{{- else -}}
{{- $_ := set $claims $dataset.claimName (toString $index) -}}
{{- end -}}
{{- end -}}

{{- /* every mount path once, reserved ones first: the chart's own, then the operator's */ -}}
{{- $volumes := include "training-job.volumes.entries" (dict "root" . "mountsData" true "trainingDevices" true) | fromJsonArray -}}
{{- $mounts := list -}}
{{- $chosen := list -}}
{{- range $volumes -}}
{{- if .reserved -}}
{{- $mounts = append $mounts (list .key .mount.mountPath) -}}
{{- else -}}
{{- $chosen = append $chosen (list .key .mount.mountPath) -}}
{{- end -}}
{{- end -}}
{{- $mounts = concat $mounts (include (printf "training-job.%s.mounts" $v.framework) . | fromJsonArray) $chosen -}}
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

{{- /* what the older APIs of Arena's operators cannot say */ -}}
{{- if eq $v.operatorApi "arena" -}}
{{- $problems = concat $problems (include "training-job.validate.arena" . | fromJsonArray) -}}
{{- end -}}

{{- /* gang size */ -}}
{{- $gang := $v.scheduling.gang -}}
{{- $pods := include "training-job.pods.total" . | int -}}
{{- if and $gang.enabled (not (kindIs "invalid" $gang.minAvailable)) (gt ($gang.minAvailable | int) $pods) -}}
{{- $problems = append $problems (printf "scheduling.gang.minAvailable: found %s; allowed: at most %d, the pods of the job" (toJson $gang.minAvailable) $pods) -}}
{{- end -}}

{{- /* TensorBoard reads the log directory from a claim the job mounts */ -}}
{{- $board := $v.tensorboard | default dict -}}
{{- if $board.enabled -}}
{{- $claimPaths := list -}}
{{- range $volumes -}}
{{- if .volume.persistentVolumeClaim -}}
{{- $claimPaths = append $claimPaths (list .key .mount.mountPath) -}}
{{- end -}}
{{- end -}}
{{- $onClaim := false -}}
{{- $where := list -}}
{{- range $claimPaths -}}
{{- $root := regexReplaceAll "/+$" (index . 1) "" -}}
{{- $where = append $where (printf "%s %s" (index . 0) (index . 1)) -}}
{{- if $board.logDir -}}
{{- $log := regexReplaceAll "/+$" $board.logDir "" -}}
{{- if or (eq $log $root) (hasPrefix (printf "%s/" $root) $log) -}}
{{- $onClaim = true -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if not $onClaim -}}
{{- $problems = append $problems (printf "tensorboard.logDir: found %s; allowed: a directory on a claim the job mounts (datasets, results): %s" (toJson $board.logDir) (join ", " $where | default "none: mount one")) -}}
{{- end -}}
{{- end -}}

{{- /* the release name names the job and its pods */ -}}
{{- $name := .Release.Name -}}
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

{{- if $problems -}}
{{- fail (printf "invalid values for the training-job chart (%d problem(s)); change these keys:\n  - %s" (len $problems) (join "\n  - " $problems)) -}}
{{- end -}}
{{- end -}}

{{/*
training-job.validate.arena: what the older APIs of Arena's operators cannot say (their CRDs
would drop it, or their controller refuses it): a JSON list of problems.
Usage: {{ include "training-job.validate.arena" . | fromJsonArray }}
*/}}
{{- define "training-job.validate.arena" -}}
{{- $v := .Values -}}
{{- $info := include (printf "training-job.%s.info" $v.framework) . | fromJson -}}
{{- $problems := list -}}
{{- if not (has "arena" $info.dialects) -}}
{{- $problems = append $problems (printf "operatorApi: found %s; allowed: kubeflow with framework %s (Arena's operators do not serve %s %s)" (toJson $v.operatorApi) $v.framework $info.kind $info.apiVersion) -}}
{{- else -}}
{{- $settings := $info.settings -}}
{{- if and (has "security.seccompProfile" $settings) (not (kindIs "invalid" $v.security.seccompProfile)) (not $v.security.privileged) -}}
{{- $problems = append $problems (printf "security.seccompProfile: found %s; allowed: null with operatorApi arena (its CRDs have no seccompProfile: the API server would drop it)" (toJson $v.security.seccompProfile)) -}}
{{- end -}}
{{- if and (has "scheduling.gang.enabled" $settings) $v.scheduling.gang.enabled -}}
{{- $problems = append $problems "scheduling.gang.enabled: found true; allowed: false with operatorApi arena (its CRDs have no runPolicy.schedulingPolicy)" -}}
{{- end -}}
{{- if and (has "pytorch.nprocPerNode" $settings) (not (kindIs "invalid" $v.pytorch.nprocPerNode)) -}}
{{- $problems = append $problems (printf "pytorch.nprocPerNode: found %s; allowed: null with operatorApi arena (its PyTorchJob has no nprocPerNode)" (toJson $v.pytorch.nprocPerNode)) -}}
{{- end -}}
{{- if and (has "pytorch.elasticPolicy" $settings) $v.pytorch.elasticPolicy -}}
{{- $problems = append $problems "pytorch.elasticPolicy: found \"an elastic policy\"; allowed: null with operatorApi arena (its PyTorchJob has no elasticPolicy)" -}}
{{- end -}}
{{- if and (has "pytorch.master.replicas" $settings) (eq ($v.pytorch.master.replicas | int) 0) -}}
{{- $problems = append $problems "pytorch.master.replicas: found 0; allowed: 1 with operatorApi arena (its pytorch-operator refuses a PyTorchJob without Master)" -}}
{{- end -}}
{{- end -}}
{{- toJson $problems -}}
{{- end -}}
