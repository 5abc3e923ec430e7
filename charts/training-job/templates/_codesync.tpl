{{/*
training-job.codeSync.enabled: "true" when pods get the code-sync init container, else empty.
Usage: {{ if include "training-job.codeSync.enabled" . }}
*/}}
{{- define "training-job.codeSync.enabled" -}}
{{- if and .Values.codeSync (ne (.Values.codeSync.mode | default "none") "none") -}}true{{- end -}}
{{- end -}}

{{/*
training-job.codeSync.container: the init container that fetches the code into the
code-sync volume before training starts (Arena's init-code): git-sync once, or rsync.
Usage: {{- include "training-job.codeSync.container" (dict "root" $ "security" $security) | nindent 4 }}
*/}}
{{- define "training-job.codeSync.container" -}}
{{- $v := .root.Values -}}
{{- $sync := $v.codeSync -}}
{{- $images := dict "git" "registry.cn-zhangjiakou.aliyuncs.com/acs/git-sync:v3.3.5" "rsync" "registry.cn-zhangjiakou.aliyuncs.com/acs/rsync:v3.1.0-aliyun" -}}
{{- /* the volume it fills, from training-job.volumes.entries; the container takes its name */ -}}
{{- $volume := dict -}}
{{- range include "training-job.volumes.entries" (dict "root" .root) | fromJsonArray -}}
{{- if eq .key "codeSync.mountPath" -}}
{{- $volume = . -}}
{{- end -}}
{{- end -}}
- name: {{ $volume.name }}
  image: {{ $sync.image | default (get $images $sync.mode) | toJson }}
  imagePullPolicy: {{ include "training-job.defaults.pullPolicy" .root | toJson }}
  {{- if eq $sync.mode "rsync" }}
  command: {{ list "rsync" "-avP" $sync.rsync.source "/code" | toJson }}
  {{- else }}
  {{- $git := $sync.git }}
  {{- $directory := $git.directory | default (regexReplaceAll "^.*[/:]" (trimSuffix ".git" $git.repository) "") }}
  env:
    - name: GIT_SYNC_REPO
      value: {{ $git.repository | toJson }}
    {{- with $git.branch }}
    - name: GIT_SYNC_BRANCH
      value: {{ toJson . }}
    {{- end }}
    {{- with $git.revision }}
    - name: GIT_SYNC_REV
      value: {{ toJson . }}
    {{- end }}
    {{- with $git.depth }}
    - name: GIT_SYNC_DEPTH
      value: {{ int64 . | toString | toJson }}
    {{- end }}
    - name: GIT_SYNC_ROOT
      value: "/code"
    - name: GIT_SYNC_DEST
      value: {{ $directory | toJson }}
    - name: GIT_SYNC_ONE_TIME
      value: "true"
    {{- with $git.credentialsSecret }}
    - name: GIT_SYNC_USERNAME
      valueFrom:
        secretKeyRef:
          name: {{ toJson . }}
          key: username
    - name: GIT_SYNC_PASSWORD
      valueFrom:
        secretKeyRef:
          name: {{ toJson . }}
          key: password
    {{- end }}
  {{- end }}
  {{- $resources := include "training-job.util.compact" ($sync.resources | default dict) | fromJson }}
  {{- with $resources }}
  resources:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  securityContext:
    {{- include "training-job.container.securityContext" (dict "root" .root "security" .security "trainingDevices" false) | nindent 4 }}
  volumeMounts:
    - name: {{ $volume.name }}
      mountPath: "/code"
{{- end -}}
