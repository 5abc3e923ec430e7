{{/*
training-job.names.chart: chart name and version, the value of the helm.sh/chart label.
Usage: {{ include "training-job.names.chart" . }}
*/}}
{{- define "training-job.names.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
training-job.labels.standard: the app.kubernetes.io labels plus the user's labels (YAML).
Usage: {{ include "training-job.labels.standard" (dict "root" $ "component" "worker") }}
*/}}
{{- define "training-job.labels.standard" -}}
{{- $root := .root -}}
{{- $labels := dict
  "app.kubernetes.io/name" $root.Chart.Name
  "app.kubernetes.io/instance" $root.Release.Name
  "app.kubernetes.io/version" $root.Chart.AppVersion
  "app.kubernetes.io/managed-by" $root.Release.Service
  "helm.sh/chart" (include "training-job.names.chart" $root) -}}
{{- with .component }}
{{- $_ := set $labels "app.kubernetes.io/component" . -}}
{{- end }}
{{- /* the chart's own labels win: selectors and tooling rely on them */ -}}
{{- toYaml (merge $labels ($root.Values.labels | default dict)) -}}
{{- end -}}

{{/*
training-job.job.metadata: metadata of the job object (name, namespace, labels, annotations).
Usage: {{- include "training-job.job.metadata" . | nindent 2 }}
*/}}
{{- define "training-job.job.metadata" -}}
name: {{ .Release.Name | toJson }}
namespace: {{ .Release.Namespace | toJson }}
labels:
  {{- include "training-job.labels.standard" (dict "root" .) | nindent 2 }}
{{- with .Values.annotations }}
annotations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/*
training-job.job.runPolicy: the run policy of the job, where the serving operator's API
has it: under spec.runPolicy (operatorApi kubeflow) or directly under spec (arena).
Usage: {{- include "training-job.job.runPolicy" . | nindent 2 }}
*/}}
{{- define "training-job.job.runPolicy" -}}
{{- if eq .Values.operatorApi "arena" -}}
{{- include "training-job.job.runPolicyFields" . -}}
{{- else -}}
runPolicy:
  {{- include "training-job.job.runPolicyFields" . | nindent 2 }}
  {{- $gang := .Values.scheduling.gang }}
  {{- if $gang.enabled }}
  schedulingPolicy:
    minAvailable: {{ $gang.minAvailable | default (include "training-job.pods.total" .) | int64 }}
    {{- with $gang.queue }}
    queue: {{ toJson . }}
    {{- end }}
    {{- with .Values.scheduling.priorityClassName }}
    priorityClass: {{ toJson . }}
    {{- end }}
    {{- with $gang.scheduleTimeoutSeconds }}
    scheduleTimeoutSeconds: {{ int64 . }}
    {{- end }}
  {{- end }}
{{- end -}}
{{- end -}}

{{/*
training-job.job.runPolicyFields: clean-up, retries and time limits (both APIs spell them alike).
Usage: {{- include "training-job.job.runPolicyFields" . | nindent 2 }}
*/}}
{{- define "training-job.job.runPolicyFields" -}}
{{- $policy := .Values.runPolicy -}}
cleanPodPolicy: {{ $policy.cleanPodPolicy | toJson }}
{{- /* 0 is meaningful for these three, so test for presence, not truth */}}
{{- if not (kindIs "invalid" $policy.ttlSecondsAfterFinished) }}
ttlSecondsAfterFinished: {{ $policy.ttlSecondsAfterFinished | int64 }}
{{- end }}
{{- if not (kindIs "invalid" $policy.backoffLimit) }}
backoffLimit: {{ $policy.backoffLimit | int64 }}
{{- end }}
{{- if not (kindIs "invalid" $policy.activeDeadlineSeconds) }}
activeDeadlineSeconds: {{ $policy.activeDeadlineSeconds | int64 }}
{{- end }}
{{- end -}}

{{/*
training-job.framework.pods: the pods of the job, role by role, as the framework's template
counts them: a JSON list of [host-name suffix of the role's last pod, replicas].
Usage: {{ include "training-job.framework.pods" . | fromJsonArray }}
*/}}
{{- define "training-job.framework.pods" -}}
{{- include (printf "training-job.%s.pods" .Values.framework) . -}}
{{- end -}}

{{/*
training-job.pods.total: how many pods the job starts (the default gang size).
Usage: {{ include "training-job.pods.total" . | int }}
*/}}
{{- define "training-job.pods.total" -}}
{{- $total := 0 -}}
{{- range include "training-job.framework.pods" . | fromJsonArray -}}
{{- $total = add $total (index . 1) -}}
{{- end -}}
{{- $total -}}
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
training-job.container.command: the container's command and args as JSON {command, args}
(either may be missing): a string command runs as <shell> -c <command> [<shell> <args>...],
so it is never re-parsed by YAML; a list runs as written with args as the container's
args; no command runs the image's ENTRYPOINT with args (if any) instead of its CMD.
Parameters: root, command (string, list or null), args (list).
Usage: {{ include "training-job.container.command" (dict "root" $ "command" $v.command "args" $v.args) | fromJson }}
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
training-job.container.env: the env of a container: the job's env with the role's over it,
in name order, then the chart's own (list of {name, value}). A value is a string or
{valueFrom: ...}; a null means unset.
Parameters: root, role (the role's env map), extra (list).
Usage: {{- include "training-job.container.env" (dict "root" $ "role" $spec.env "extra" list) | nindent 8 }}
*/}}
{{- define "training-job.container.env" -}}
{{- $env := deepCopy (.root.Values.env | default dict) -}}
{{- range $name, $value := .role | default dict -}}
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
training-job.volumes.list: the pod volumes: shared memory (pods that train), the synced code,
datasets, results and host paths (pods with data).
Usage: {{- include "training-job.volumes.list" (dict "root" $ "data" true "trains" true) | nindent 8 }}
*/}}
{{- define "training-job.volumes.list" -}}
{{- $v := .root.Values -}}
{{- if and .trains $v.shm.enabled }}
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
{{- if .data }}
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
Usage: {{- include "training-job.volumes.mounts" (dict "root" $ "data" true "trains" true) | nindent 12 }}
*/}}
{{- define "training-job.volumes.mounts" -}}
{{- $v := .root.Values -}}
{{- if and .trains $v.shm.enabled }}
- name: dshm
  mountPath: /dev/shm
{{- end }}
{{- if include "training-job.codeSync.enabled" .root }}
- name: code-sync
  mountPath: {{ $v.codeSync.mountPath | toJson }}
{{- end }}
{{- if .data }}
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
the role's overrides). Parameters: root, security (training-job.security.role of the role),
trains (RDMA's IPC_LOCK).
Usage: {{- include "training-job.container.securityContext" (dict "root" $ "security" $security "trains" true) | nindent 12 }}
*/}}
{{- define "training-job.container.securityContext" -}}
{{- $security := .security -}}
{{- if $security.privileged -}}
{{- /* privileged grants every capability and no seccomp filter: only what was asked for
is kept (added capabilities say what the job relies on) */ -}}
privileged: true
{{- $add := $security.capabilities.add | default list -}}
{{- if and .trains .root.Values.network.rdma.enabled -}}
{{- $add = append $add "IPC_LOCK" | uniq -}}
{{- end }}
{{- with $add }}
capabilities:
  add: {{ toJson . }}
{{- end }}
{{- else -}}
allowPrivilegeEscalation: {{ $security.allowPrivilegeEscalation }}
{{- $add := $security.capabilities.add | default list -}}
{{- if and .trains .root.Values.network.rdma.enabled -}}
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
- name: code-sync
  image: {{ $sync.image | default (get $images $sync.mode) | toJson }}
  imagePullPolicy: {{ $v.image.pullPolicy | toJson }}
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
    {{- include "training-job.container.securityContext" (dict "root" .root "security" .security "trains" false) | nindent 4 }}
  volumeMounts:
    - name: code-sync
      mountPath: "/code"
{{- end -}}

{{/*
training-job.pod.template: the pod template of one role.
Parameters: root, component (role name), containerName, spec (the role's values),
gpus (number), command (JSON {command, args} of training-job.container.command),
data (mount datasets/results/host paths), trains (the pod trains: /dev/shm and RDMA
devices), env (extra env: list of {name, value}), port (name of the operator's port, or
empty: the role's port is not rendered).
Usage: {{- include "training-job.pod.template" (dict "root" $ "component" "worker" ...) | nindent 6 }}
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
{{- if and .trains $v.network.rdma.enabled -}}
{{- $_ := set $requests $v.network.rdma.resourceName ($v.network.rdma.count | int64) -}}
{{- $_ := set $limits $v.network.rdma.resourceName ($v.network.rdma.count | int64) -}}
{{- end -}}
{{- $nodeSelector := merge (deepCopy ($spec.nodeSelector | default dict)) ($v.scheduling.nodeSelector | default dict) -}}
{{- /* the role's own tolerations (its node pool's) first, then the job's */ -}}
{{- $tolerations := concat ($spec.tolerations | default list) ($v.scheduling.tolerations | default list) -}}
{{- $security := include "training-job.security.role" (dict "root" $root "role" $spec.security) | fromJson -}}
{{- $command := .command | fromJson -}}
{{- $annotations := merge (deepCopy ($v.podAnnotations | default dict)) ($v.annotations | default dict) -}}
metadata:
  labels:
    {{- include "training-job.labels.standard" (dict "root" $root "component" .component) | nindent 4 }}
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
  automountServiceAccountToken: {{ $v.security.automountServiceAccountToken }}
  {{- if not (kindIs "invalid" $security.fsGroup) }}
  securityContext:
    fsGroup: {{ $security.fsGroup | int64 }}
  {{- end }}
  {{- with $v.security.serviceAccountName }}
  serviceAccountName: {{ toJson . }}
  {{- end }}
  {{- with $v.scheduling.schedulerName }}
  schedulerName: {{ toJson . }}
  {{- end }}
  {{- with $v.scheduling.priorityClassName }}
  priorityClassName: {{ toJson . }}
  {{- end }}
  {{- with $nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $tolerations }}
  tolerations:
    {{- range . }}
    - operator: {{ .operator | default "Equal" | toJson }}
      {{- with .key }}
      key: {{ toJson . }}
      {{- end }}
      {{- if kindIs "string" .value }}
      value: {{ .value | toJson }}
      {{- end }}
      {{- with .effect }}
      effect: {{ toJson . }}
      {{- end }}
      {{- if not (kindIs "invalid" .tolerationSeconds) }}
      tolerationSeconds: {{ .tolerationSeconds | int64 }}
      {{- end }}
    {{- end }}
  {{- end }}
  {{- if and (eq .component "worker") (ne $v.scheduling.workerSpread "none") }}
  {{- $term := dict "topologyKey" "kubernetes.io/hostname" "labelSelector" (dict "matchLabels" (dict "app.kubernetes.io/instance" $root.Release.Name "app.kubernetes.io/component" "worker")) }}
  affinity:
    podAntiAffinity:
      {{- if eq $v.scheduling.workerSpread "required" }}
      requiredDuringSchedulingIgnoredDuringExecution:
        {{- list $term | toYaml | nindent 8 }}
      {{- else }}
      preferredDuringSchedulingIgnoredDuringExecution:
        {{- list (dict "weight" 100 "podAffinityTerm" $term) | toYaml | nindent 8 }}
      {{- end }}
  {{- end }}
  {{- with $v.image.pullSecrets }}
  imagePullSecrets:
    {{- range . }}
    - name: {{ toJson . }}
    {{- end }}
  {{- end }}
  {{- if include "training-job.codeSync.enabled" $root }}
  initContainers:
    {{- include "training-job.codeSync.container" (dict "root" $root "security" $security) | nindent 4 }}
  {{- end }}
  containers:
    - name: {{ .containerName | toJson }}
      image: {{ $spec.image | default $v.image.name | toJson }}
      imagePullPolicy: {{ $v.image.pullPolicy | toJson }}
      {{- with $command.command }}
      command: {{ toJson . }}
      {{- end }}
      {{- with $command.args }}
      args: {{ toJson . }}
      {{- end }}
      {{- with $v.workingDir }}
      workingDir: {{ toJson . }}
      {{- end }}
      {{- with .port }}
      {{- if not (kindIs "invalid" $spec.port) }}
      ports:
        - name: {{ toJson . }}
          containerPort: {{ $spec.port | int64 }}
      {{- end }}
      {{- end }}
      {{- $env := include "training-job.container.env" (dict "root" $root "role" $spec.env "extra" .env) | trim }}
      {{- if $env }}
      env:
        {{- $env | nindent 8 }}
      {{- end }}
      {{- with $v.envFrom }}
      envFrom:
        {{- range . }}
        - {{- include "training-job.util.compact" . | fromJson | toYaml | nindent 10 }}
        {{- end }}
      {{- end }}
      {{- if or $requests $limits }}
      resources:
        {{- with $requests }}
        requests:
          {{- toYaml . | nindent 10 }}
        {{- end }}
        {{- with $limits }}
        limits:
          {{- toYaml . | nindent 10 }}
        {{- end }}
      {{- end }}
      {{- range $probe := list "readinessProbe" "livenessProbe" }}
      {{- with get $spec $probe }}
      {{ $probe }}:
        {{- include "training-job.util.compact" . | fromJson | toYaml | nindent 8 }}
      {{- end }}
      {{- end }}
      securityContext:
        {{- include "training-job.container.securityContext" (dict "root" $root "security" $security "trains" .trains) | nindent 8 }}
      {{- $mounts := include "training-job.volumes.mounts" (dict "root" $root "data" .data "trains" .trains) | trim }}
      {{- if $mounts }}
      volumeMounts:
        {{- $mounts | nindent 8 }}
      {{- end }}
  {{- $volumes := include "training-job.volumes.list" (dict "root" $root "data" .data "trains" .trains) | trim }}
  {{- if $volumes }}
  volumes:
    {{- $volumes | nindent 4 }}
  {{- end }}
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

{{- /* every mount path once, reserved ones first */ -}}
{{- $mounts := list -}}
{{- if $v.shm.enabled -}}
{{- $mounts = append $mounts (list "shm.enabled" "/dev/shm") -}}
{{- end -}}
{{- $mounts = concat $mounts (include (printf "training-job.%s.mounts" $v.framework) . | fromJsonArray) -}}
{{- if include "training-job.codeSync.enabled" . -}}
{{- $mounts = append $mounts (list "codeSync.mountPath" $v.codeSync.mountPath) -}}
{{- end -}}
{{- range $index, $dataset := $v.datasets -}}
{{- $mounts = append $mounts (list (printf "datasets[%d].mountPath" $index) $dataset.mountPath) -}}
{{- end -}}
{{- if $v.results.claimName -}}
{{- $mounts = append $mounts (list "results.mountPath" $v.results.mountPath) -}}
{{- end -}}
{{- range $index, $hostPath := $v.hostPaths -}}
{{- $mounts = append $mounts (list (printf "hostPaths[%d].mountPath" $index) $hostPath.mountPath) -}}
{{- end -}}
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
{{- range $index, $dataset := $v.datasets -}}
{{- $claimPaths = append $claimPaths (list (printf "datasets[%d].mountPath" $index) $dataset.mountPath) -}}
{{- end -}}
{{- if $v.results.claimName -}}
{{- $claimPaths = append $claimPaths (list "results.mountPath" $v.results.mountPath) -}}
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
