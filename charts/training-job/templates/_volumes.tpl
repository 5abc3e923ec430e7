{{/*
training-job.volumes.entries: every volume of a pod, stated once: a JSON list of {key, name,
volume, mount}, where key is the values key of the mount path, name the volume's name,
volume its source (emptyDir, persistentVolumeClaim or hostPath) and mount the training
container's mount (mountPath, subPath, readOnly). In order: shared memory (reserved: its
path is the chart's, not a value), the synced code, datasets, the results claim and host
paths. volumes.list and volumes.mounts write them; validateValues' mount-path and
TensorBoard rules, codeSync.container and tensorboard.yaml read them.
Usage: {{ include "training-job.volumes.entries" (dict "root" $ "mountsData" true "trainingDevices" true) | fromJsonArray }}
Parameters:
  - root - Context - Required. The chart's root context ($).
  - mountsData - Boolean - Optional. With the datasets, results and host paths (default false).
  - trainingDevices - Boolean - Optional. With shared memory at /dev/shm (default false).
*/}}
{{- define "training-job.volumes.entries" -}}
{{- $v := .root.Values -}}
{{- $entries := list -}}
{{- if and .trainingDevices $v.shm.enabled -}}
{{- $memory := dict "medium" "Memory" -}}
{{- with $v.shm.sizeLimit -}}
{{- $_ := set $memory "sizeLimit" (toString .) -}}
{{- end -}}
{{- $entries = append $entries (dict "key" "shm.enabled" "name" "dshm" "reserved" true
  "volume" (dict "emptyDir" $memory) "mount" (dict "mountPath" "/dev/shm")) -}}
{{- end -}}
{{- if include "training-job.codeSync.enabled" .root -}}
{{- $entries = append $entries (dict "key" "codeSync.mountPath" "name" "code-sync"
  "volume" (dict "emptyDir" dict) "mount" (dict "mountPath" $v.codeSync.mountPath)) -}}
{{- end -}}
{{- if .mountsData -}}
{{- range $index, $dataset := $v.datasets -}}
{{- $entries = append $entries (dict "key" (printf "datasets[%d].mountPath" $index) "name" (printf "dataset-%d" $index)
  "volume" (dict "persistentVolumeClaim" (dict "claimName" $dataset.claimName "readOnly" $dataset.readOnly))
  "mount" (dict "mountPath" $dataset.mountPath "subPath" $dataset.subPath "readOnly" $dataset.readOnly)) -}}
{{- end -}}
{{- with $v.results.claimName -}}
{{- $entries = append $entries (dict "key" "results.mountPath" "name" "results"
  "volume" (dict "persistentVolumeClaim" (dict "claimName" .))
  "mount" (dict "mountPath" $v.results.mountPath "subPath" $v.results.subPath)) -}}
{{- end -}}
{{- range $index, $hostPath := $v.hostPaths -}}
{{- /* Directory: fail instead of silently creating an empty directory on the node; host
paths are read-only unless the values say false */ -}}
{{- $entries = append $entries (dict "key" (printf "hostPaths[%d].mountPath" $index) "name" (printf "host-path-%d" $index)
  "volume" (dict "hostPath" (dict "path" $hostPath.path "type" "Directory"))
  "mount" (dict "mountPath" $hostPath.mountPath "readOnly" (or (kindIs "invalid" $hostPath.readOnly) $hostPath.readOnly))) -}}
{{- end -}}
{{- end -}}
{{- toJson $entries -}}
{{- end -}}

{{/*
training-job.volumes.list: the pod's volumes: those of training-job.volumes.entries, written
as YAML (the parameters are the entries').
Usage: {{- include "training-job.volumes.list" (dict "root" $ "mountsData" true "trainingDevices" true) | nindent 4 }}
*/}}
{{- define "training-job.volumes.list" -}}
{{- range include "training-job.volumes.entries" . | fromJsonArray }}
- name: {{ .name }}
  {{- if hasKey .volume "emptyDir" }}
  {{- with .volume.emptyDir }}
  emptyDir:
    medium: {{ .medium }}
    {{- with .sizeLimit }}
    sizeLimit: {{ toJson . }}
    {{- end }}
  {{- else }}
  emptyDir: {}
  {{- end }}
  {{- end }}
  {{- with .volume.persistentVolumeClaim }}
  persistentVolumeClaim:
    claimName: {{ .claimName | toJson }}
    {{- if .readOnly }}
    readOnly: true
    {{- end }}
  {{- end }}
  {{- with .volume.hostPath }}
  hostPath:
    path: {{ .path | toJson }}
    type: {{ .type }}
  {{- end }}
{{- end }}
{{- end -}}

{{/*
training-job.volumes.mounts: the training container's mounts of the volumes of
training-job.volumes.entries, written as YAML (the parameters are the entries').
Usage: {{- include "training-job.volumes.mounts" (dict "root" $ "mountsData" true "trainingDevices" true) | nindent 8 }}
*/}}
{{- define "training-job.volumes.mounts" -}}
{{- range include "training-job.volumes.entries" . | fromJsonArray }}
- name: {{ .name }}
  {{- /* the chart's own (reserved) path as it is, a path of the values as JSON */}}
  mountPath: {{ if .reserved }}{{ .mount.mountPath }}{{ else }}{{ .mount.mountPath | toJson }}{{ end }}
  {{- with .mount.subPath }}
  subPath: {{ toJson . }}
  {{- end }}
  {{- if .mount.readOnly }}
  readOnly: true
  {{- end }}
{{- end }}
{{- end -}}
