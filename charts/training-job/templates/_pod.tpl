{{/*
The pod of every role: each kind template (mpijob.yaml, tfjob.yaml, pytorchjob.yaml,
trainjob.yaml) renders its job when .Values.framework names it, calls
training-job.pod.template once per role, and defines its framework's helpers, as its
registry entry in trainstack/training_job/frameworks/ does, but .info, which `trainstack
chart generate` writes from that entry into _frameworks.tpl:
  training-job.<framework>.info      what it renders: kind, apiVersion, plural, lead role,
                                     port, dialects, settings, role values keys, run
                                     defaults, Arena settings (JSON)
  training-job.<framework>.lead      the role whose logs carry the results (info's lead)
  training-job.<framework>.pods      [host-name suffix of the last pod, replicas, role,
                                     GPUs per pod] per role (JSON)
  training-job.<framework>.mounts    [key, path] of the container paths its operator takes (JSON)
  training-job.<framework>.validate  the framework's own rules: a JSON list of problems
The shared helpers dispatch by computed name (include (printf "training-job.%s.info"
.Values.framework)): an unknown framework has no helpers, so it never falls into another
framework's branch.
*/}}

{{/*
training-job.pod.template: the pod template of one role: its metadata, and a spec with one
container, its preflight init container (and code sync's) and the role's volumes.
Usage: {{- include "training-job.pod.template" (dict "root" $ "component" "worker" "containerName" "pytorch" "spec" $v.worker "gpus" $v.worker.gpus "command" $command "mountsData" true "trainingDevices" true "env" list "port" "pytorchjob-port") | nindent 8 }}
Parameters:
  - root - Context - Required. The chart's root context ($).
  - component - String - Required. The role, as the app.kubernetes.io/component label;
    "worker" pods are spread over nodes (scheduling.workerSpread).
  - containerName - String - Required. The name of the training container.
  - spec - Map - Required. The role's values (worker, mpi.launcher, tensorflow.chief, ...):
    image, resources, nodeSelector, tolerations, env, probes, security and port.
  - command - String - Required. JSON {command, args} of training-job.container.command.
  - gpus - Integer - Optional. nvidia.com/gpu the container requests and is limited to
    (default 0: none).
  - mountsData - Boolean - Optional. Mount the datasets, the results claim and the host
    paths (default false).
  - trainingDevices - Boolean - Optional. The pod trains: it gets /dev/shm and the RDMA
    devices, with IPC_LOCK (default false).
  - env - List - Optional. The chart's own env, after the job's and the role's: list of
    {name, value} or {name, valueFrom} (default none).
  - port - String - Optional. The name of the operator's port; "" (the default): the role's
    port is not rendered.
  - restartPolicy - String - Optional. The pod's own restartPolicy, for APIs that take it
    from the template (MPIJob v1alpha1); "" (the default): not rendered.
  - serviceAccountToken - Boolean - Optional. Mount the ServiceAccount's token whatever
    security.automountServiceAccountToken says, when the operator's transport needs it
    (MPIJob v1alpha1's kubectl exec) (default false).
  - preflight - Map - Optional. What the kind template adds to the preflight's checks (the
    checks parameter of training-job.preflight.container: sshd, ssh, hosts, noGpus, noData,
    resources) (default none: GPUs, mounts and preflight.requiredEnv only).
  - annotationFile - Map - Optional. A file the kind template gives the training container,
    written by the kubelet from a pod annotation (a downwardAPI volume, no other object):
    annotation (its key), content, mountPath (the directory, read-only) and file (its
    name) (default none).
*/}}
{{- define "training-job.pod.template" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $spec := .spec -}}
{{- $gpus := .gpus | int64 -}}
{{- $resources := include "training-job.util.compact" ($spec.resources | default dict) | fromJson -}}
{{- $requests := $resources.requests | default dict -}}
{{- $limits := $resources.limits | default dict -}}
{{- if gt $gpus 0 -}}
{{- $_ := set $requests "nvidia.com/gpu" $gpus -}}
{{- $_ := set $limits "nvidia.com/gpu" $gpus -}}
{{- end -}}
{{- if and .trainingDevices $v.network.rdma.enabled -}}
{{- $_ := set $requests $v.network.rdma.resourceName ($v.network.rdma.count | int64) -}}
{{- $_ := set $limits $v.network.rdma.resourceName ($v.network.rdma.count | int64) -}}
{{- end -}}
{{- $security := include "training-job.security.role" (dict "root" $root "role" $spec.security) | fromJson -}}
{{- $annotations := merge (include "training-job.arena.annotations" $root | fromJson) (deepCopy ($v.podAnnotations | default dict)) ($v.annotations | default dict) -}}
{{- $file := .annotationFile | default dict -}}
{{- $fileMounts := list -}}
{{- if $file -}}
{{- $_ := set $annotations $file.annotation $file.content -}}
{{- $fileMounts = list (dict "name" "trainstack-annotation-file" "mountPath" $file.mountPath "readOnly" true) -}}
{{- end -}}
metadata:
  labels:
    {{- include "training-job.labels.standard" (dict "root" $root "component" .component) | nindent 4 }}
    {{- with include "training-job.arena.labels" $root | fromJson }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with $annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  {{- if $v.network.hostNetwork }}
  hostNetwork: true
  {{- /* keep cluster DNS (the operators' per-replica Services) on the host network */}}
  dnsPolicy: ClusterFirstWithHostNet
  {{- end }}
  {{- if $v.security.hostIPC }}
  hostIPC: true
  {{- end }}
  {{- if $v.security.hostPID }}
  hostPID: true
  {{- end }}
  automountServiceAccountToken: {{ or .serviceAccountToken $v.security.automountServiceAccountToken }}
  {{- with .restartPolicy }}
  restartPolicy: {{ toJson . }}
  {{- end }}
  {{- if not (kindIs "invalid" $security.fsGroup) }}
  securityContext:
    fsGroup: {{ $security.fsGroup | int64 }}
  {{- end }}
  {{- with $v.security.serviceAccountName }}
  serviceAccountName: {{ toJson . }}
  {{- end }}
  {{- include "training-job.scheduling.pod" (dict "root" $root "spec" $spec "component" .component) | nindent 2 }}
  {{- with $v.image.pullSecrets }}
  imagePullSecrets:
    {{- range . }}
    - name: {{ toJson . }}
    {{- end }}
  {{- end }}
  {{- $container := include "training-job.container.main" (dict
    "root" $root "spec" $spec "containerName" .containerName "command" .command
    "component" .component "gpus" $gpus "requests" $requests "limits" $limits
    "security" $security "env" .env "port" .port "mountsData" .mountsData
    "trainingDevices" .trainingDevices "extraMounts" $fileMounts) }}
  {{- $preflight := include "training-job.preflight.container" (dict
    "root" $root "container" ($container | fromYaml) "gpus" $gpus "mountsData" .mountsData
    "checks" (.preflight | default dict)) | trim }}
  {{- if or $preflight (include "training-job.codeSync.enabled" $root) }}
  initContainers:
    {{- with $preflight }}
    - {{- . | nindent 6 }}
    {{- end }}
    {{- if include "training-job.codeSync.enabled" $root }}
    {{- include "training-job.codeSync.container" (dict "root" $root "security" $security) | nindent 4 }}
    {{- end }}
  {{- end }}
  containers:
    - {{- $container | nindent 6 }}
  {{- $volumes := include "training-job.volumes.list" (dict "root" $root "mountsData" .mountsData "trainingDevices" .trainingDevices) | trim }}
  {{- if or $volumes $file }}
  volumes:
    {{- with $volumes }}
    {{- . | nindent 4 }}
    {{- end }}
    {{- with $file }}
    - name: trainstack-annotation-file
      downwardAPI:
        items:
          - path: {{ .file | toJson }}
            fieldRef:
              fieldPath: {{ printf "metadata.annotations['%s']" .annotation | toJson }}
    {{- end }}
  {{- end }}
{{- end -}}
