{{/*
training-job.volumes.list: the pod volumes: shared memory (pods that train), the synced code,
datasets, results and host paths (pods with data).
Usage: {{- include "training-job.volumes.list" (dict "root" $ "mountsData" true "trainingDevices" true) | nindent 8 }}
*/}}
{{- define "training-job.volumes.list" -}}
{{- $v := .root.Values -}}
{{- if and .trainingDevices $v.shm.enabled }}
- name: dshm
  emptyDir:
    medium: Memory
    {{- with $v.shm.sizeLimit }}
    sizeLimit: {{ toString . | toJson }}
    {{- end }}
{{- end }}
{{- if include "training-job.codeSync.enabled" .root }}
- name: code-sync
  emptyDir: {}
{{- end }}
{{- if .mountsData }}
{{- range $index, $dataset := $v.datasets }}
- name: {{ printf "dataset-%d" $index }}
  persistentVolumeClaim:
    claimName: {{ $dataset.claimName | toJson }}
    {{- if $dataset.readOnly }}
    readOnly: true
    {{- end }}
{{- end }}
{{- with $v.results.claimName }}
- name: results
  persistentVolumeClaim:
    claimName: {{ toJson . }}
{{- end }}
{{- range $index, $hostPath := $v.hostPaths }}
- name: {{ printf "host-path-%d" $index }}
  hostPath:
    path: {{ $hostPath.path | toJson }}
    {{- /* Directory: fail instead of silently creating an empty directory on the node */}}
    type: Directory
{{- end }}
{{- end }}
{{- end -}}

{{/*
training-job.volumes.mounts: the container mounts of the volumes of training-job.volumes.list.
Usage: {{- include "training-job.volumes.mounts" (dict "root" $ "mountsData" true "trainingDevices" true) | nindent 12 }}
*/}}
{{- define "training-job.volumes.mounts" -}}
{{- $v := .root.Values -}}
{{- if and .trainingDevices $v.shm.enabled }}
- name: dshm
  mountPath: /dev/shm
{{- end }}
{{- if include "training-job.codeSync.enabled" .root }}
- name: code-sync
  mountPath: {{ $v.codeSync.mountPath | toJson }}
{{- end }}
{{- if .mountsData }}
{{- range $index, $dataset := $v.datasets }}
- name: {{ printf "dataset-%d" $index }}
  mountPath: {{ $dataset.mountPath | toJson }}
  {{- with $dataset.subPath }}
  subPath: {{ toJson . }}
  {{- end }}
  {{- if $dataset.readOnly }}
  readOnly: true
  {{- end }}
{{- end }}
{{- if $v.results.claimName }}
- name: results
  mountPath: {{ $v.results.mountPath | toJson }}
  {{- with $v.results.subPath }}
  subPath: {{ toJson . }}
  {{- end }}
{{- end }}
{{- range $index, $hostPath := $v.hostPaths }}
- name: {{ printf "host-path-%d" $index }}
  mountPath: {{ $hostPath.mountPath | toJson }}
  {{- /* host paths are read-only unless the values say false */}}
  {{- if or (kindIs "invalid" $hostPath.readOnly) $hostPath.readOnly }}
  readOnly: true
  {{- end }}
{{- end }}
{{- end }}
{{- end -}}
