{{/*
What the serving operator's API and Arena's contract allow: validateValues' rules
operatorApi and arenaSubmit (the others: _validate.tpl).
*/}}

{{/*
training-job.validate.operatorApi: with operatorApi arena, what the older APIs of Arena's
operators cannot say: their CRDs would drop it, or their controller refuses it (rules.py
_operator_api_rules).
Usage: {{ include "training-job.validate.operatorApi" . | fromJsonArray }}
*/}}
{{- define "training-job.validate.operatorApi" -}}
{{- $v := .Values -}}
{{- $problems := list -}}
{{- if eq $v.operatorApi "arena" -}}
{{- $info := include (printf "training-job.%s.info" $v.framework) . | fromJson -}}
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
{{- end -}}
{{- toJson $problems -}}
{{- end -}}

{{/*
training-job.validate.arenaSubmit: with arenaSubmit, a framework arena submit has (its info
has arena settings), and none of the variables, labels or annotation Arena sets written by
hand, on any role of its pods helper (rules.py _arena_submit_rules,
trainstack/training_job/arena_submit.py).
Usage: {{ include "training-job.validate.arenaSubmit" . | fromJsonArray }}
*/}}
{{- define "training-job.validate.arenaSubmit" -}}
{{- $v := .Values -}}
{{- $problems := list -}}
{{- if eq $v.arenaSubmit true -}}
{{- $info := include (printf "training-job.%s.info" $v.framework) . | fromJson -}}
{{- if not $info.arena -}}
{{- $submits := include "training-job.frameworks.arenaSubmits" . | fromJsonArray -}}
{{- $problems = append $problems (printf "arenaSubmit: found true; allowed: false with framework %s (arena submit has no such job: %s)" $v.framework (join ", " $submits)) -}}
{{- else -}}
{{- $sources := list (list "env" $v.env "worker" $v.worker.gpus) -}}
{{- $seen := dict "env" true -}}
{{- range include "training-job.framework.pods" . | fromJsonArray -}}
{{- $key := get $info.roleKeys (index . 2) -}}
{{- if not (hasKey $seen (printf "%s.env" $key)) -}}
{{- $_ := set $seen (printf "%s.env" $key) true -}}
{{- $role := $v -}}
{{- range splitList "." $key -}}
{{- $role = get $role . -}}
{{- end -}}
{{- $sources = append $sources (list (printf "%s.env" $key) $role.env (index . 2) (index . 3 | int)) -}}
{{- end -}}
{{- end -}}
{{- range $sources -}}
{{- $env := index . 1 | default dict -}}
{{- $arena := include "training-job.arena.env" (dict "root" $ "component" (index . 2) "gpus" (index . 3)) | fromJson -}}
{{- $key := index . 0 -}}
{{- range $name := list "workers" "gpus" "NVIDIA_VISIBLE_DEVICES" -}}
{{- $value := index $env $name -}}
{{- if and (hasKey $env $name) (not (kindIs "invalid" $value)) (hasKey $arena $name) -}}
{{- $shown := ternary (toJson $value) "\"a valueFrom reference\"" (kindIs "string" $value) -}}
{{- $problems = append $problems (printf "%s.%s: found %s; allowed: unset with arenaSubmit (arena submit sets it: %s)" $key $name $shown (get $arena $name)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- range $name := list "app" "release" "createdBy" -}}
{{- if hasKey ($v.labels | default dict) $name -}}
{{- $problems = append $problems (printf "labels.%s: found %s; allowed: unset with arenaSubmit (Arena's labels app, release and createdBy are the chart's)" $name (toJson (get $v.labels $name))) -}}
{{- end -}}
{{- end -}}
{{- range $key := list "annotations" "podAnnotations" -}}
{{- $written := get $v $key | default dict -}}
{{- if hasKey $written "requestGPUsOfJobOwner" -}}
{{- $problems = append $problems (printf "%s.requestGPUsOfJobOwner: found %s; allowed: unset with arenaSubmit (arena submit sets it: %s)" $key (toJson (get $written "requestGPUsOfJobOwner")) (include "training-job.arena.requestedGpus" $)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toJson $problems -}}
{{- end -}}
