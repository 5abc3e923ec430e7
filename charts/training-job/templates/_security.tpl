{{/*
training-job.security.role: the job's security with one role's overrides: the user, group,
fsGroup and added capabilities of the role win where set (JSON of security.*).
Usage: {{ include "training-job.security.role" (dict "root" $ "role" $spec.security) | fromJson }}
*/}}
{{- define "training-job.security.role" -}}
{{- $security := deepCopy .root.Values.security -}}
{{- $role := .role | default dict -}}
{{- range $key := list "runAsUser" "runAsGroup" "runAsNonRoot" "fsGroup" -}}
{{- if and (hasKey $role $key) (not (kindIs "invalid" (index $role $key))) -}}
{{- $_ := set $security $key (index $role $key) -}}
{{- end -}}
{{- end -}}
{{- $add := ($role.capabilities | default dict).add -}}
{{- if not (kindIs "invalid" $add) -}}
{{- $_ := set $security "capabilities" (merge (dict "add" $add) ($security.capabilities | default dict)) -}}
{{- end -}}
{{- toJson $security -}}
{{- end -}}

{{/*
training-job.container.securityContext: a container's security context from security.* (with
the role's overrides).
Usage: {{- include "training-job.container.securityContext" (dict "root" $ "security" $security "trainingDevices" true) | nindent 12 }}
Parameters:
  - root - Context - Required. The chart's root context ($).
  - security - Map - Required. training-job.security.role of the container's role.
  - trainingDevices - Boolean - Optional. The pod trains: with network.rdma.enabled the
    container gets IPC_LOCK, as RDMA verbs pin memory (default false).
*/}}
{{- define "training-job.container.securityContext" -}}
{{- $security := .security -}}
{{- if $security.privileged -}}
{{- /* privileged grants every capability and no seccomp filter: only what was asked for
is kept (added capabilities say what the job relies on) */ -}}
privileged: true
{{- $add := $security.capabilities.add | default list -}}
{{- if and .trainingDevices .root.Values.network.rdma.enabled -}}
{{- $add = append $add "IPC_LOCK" | uniq -}}
{{- end }}
{{- with $add }}
capabilities:
  add: {{ toJson . }}
{{- end }}
{{- else -}}
allowPrivilegeEscalation: {{ $security.allowPrivilegeEscalation }}
{{- $add := $security.capabilities.add | default list -}}
{{- if and .trainingDevices .root.Values.network.rdma.enabled -}}
{{- /* RDMA verbs pin (lock) memory */ -}}
{{- $add = append $add "IPC_LOCK" | uniq -}}
{{- end }}
{{- if or $add $security.capabilities.drop }}
capabilities:
  {{- with $add }}
  add: {{ toJson . }}
  {{- end }}
  {{- with $security.capabilities.drop }}
  drop: {{ toJson . }}
  {{- end }}
{{- end }}
{{- with $security.seccompProfile }}
seccompProfile:
  type: {{ toJson . }}
{{- end }}
{{- end }}
{{- if not (kindIs "invalid" $security.runAsUser) }}
runAsUser: {{ $security.runAsUser | int64 }}
{{- end }}
{{- if not (kindIs "invalid" $security.runAsGroup) }}
runAsGroup: {{ $security.runAsGroup | int64 }}
{{- end }}
{{- if not (kindIs "invalid" $security.runAsNonRoot) }}
runAsNonRoot: {{ $security.runAsNonRoot }}
{{- end }}
{{- end -}}
