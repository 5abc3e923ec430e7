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
training-job.pods.total: how many pods the job starts (the default gang size).
Usage: {{ include "training-job.pods.total" . | int }}
*/}}
{{- define "training-job.pods.total" -}}
{{- $v := .Values -}}
{{- if eq $v.framework "tensorflow" -}}
{{- add $v.tensorflow.chief.replicas $v.worker.replicas $v.tensorflow.ps.replicas $v.tensorflow.evaluator.replicas -}}
{{- else -}}
{{- add1 $v.worker.replicas -}}
{{- end -}}
{{- end -}}

{{/*
training-job.container.shellCommand: the training command as exec-form JSON:
<shell> -c <command> [<shell> <args>...], so the command is never re-parsed by YAML.
Usage: {{ include "training-job.container.shellCommand" . }}
*/}}
{{- define "training-job.container.shellCommand" -}}
{{- $v := .Values -}}
{{- $command := list $v.shell "-c" $v.command -}}
{{- if $v.args -}}
{{- /* $0 is the shell's name in error messages; the args become "$@" */ -}}
{{- $command = concat $command (list $v.shell) $v.args -}}
{{- end -}}
{{- toJson $command -}}
{{- end -}}

{{/*
training-job.mpi.slotsPerWorker: MPI slots per worker: mpi.slotsPerWorker, else worker.gpus, else 1.
Usage: {{ include "training-job.mpi.slotsPerWorker" . }}
*/}}
{{- define "training-job.mpi.slotsPerWorker" -}}
{{- $v := .Values -}}
{{- if $v.mpi.slotsPerWorker -}}
{{- $v.mpi.slotsPerWorker | int64 -}}
{{- else -}}
{{- max 1 ($v.worker.gpus | int64) -}}
{{- end -}}
{{- end -}}

{{/*
training-job.volumes.list: the pod volumes: shared memory (pods that train), datasets, results
and host paths (pods with data).
Usage: {{- include "training-job.volumes.list" (dict "root" $ "data" true "trains" true) | nindent 8 }}
*/}}
{{- define "training-job.volumes.list" -}}
{{- $v := .root.Values -}}
{{- if and .trains $v.shm.enabled }}
- name: dshm
  emptyDir:
    medium: Memory
    sizeLimit: {{ $v.shm.sizeLimit | toJson }}
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
training-job.container.securityContext: the container's security context from security.*.
Usage: {{- include "training-job.container.securityContext" (dict "root" $ "trains" true) | nindent 12 }}
*/}}
{{- define "training-job.container.securityContext" -}}
{{- $security := .root.Values.security -}}
{{- if $security.privileged -}}
{{- /* privileged grants every capability and no seccomp filter: the other settings are moot */ -}}
privileged: true
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
{{- end -}}
{{- end -}}

{{/*
training-job.pod.template: the pod template of one role.
Parameters: root, component (role name), containerName, spec (the role's values),
gpus (number), command (JSON list), data (mount datasets/results/host paths),
trains (the pod trains: /dev/shm and RDMA devices), env (extra env: list of {name, value}).
Usage: {{- include "training-job.pod.template" (dict "root" $ "component" "worker" ...) | nindent 6 }}
*/}}
{{- define "training-job.pod.template" -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- $spec := .spec -}}
{{- $gpus := .gpus | int64 -}}
{{- $requests := deepCopy ($spec.resources.requests | default dict) -}}
{{- $limits := deepCopy ($spec.resources.limits | default dict) -}}
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
metadata:
  labels:
    {{- include "training-job.labels.standard" (dict "root" $root "component" .component) | nindent 4 }}
  {{- with $v.annotations }}
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
  containers:
    - name: {{ .containerName | toJson }}
      image: {{ $spec.image | default $v.image.name | toJson }}
      imagePullPolicy: {{ $v.image.pullPolicy | toJson }}
      command: {{ .command }}
      {{- with $v.workingDir }}
      workingDir: {{ toJson . }}
      {{- end }}
      {{- if or $v.env .env }}
      env:
        {{- /* range over a map visits keys in sorted order: the same env on every render */}}
        {{- range $name, $value := $v.env }}
        - name: {{ $name | toJson }}
          value: {{ $value | toString | toJson }}
        {{- end }}
        {{- range .env }}
        - name: {{ .name | toJson }}
          value: {{ .value | toJson }}
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
      securityContext:
        {{- include "training-job.container.securityContext" (dict "root" $root "trains" .trains) | nindent 8 }}
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
training-job.validateValues: check the combinations of values that each look valid but
cannot run, and fail once listing every one of them with the key to change. The same
rules, in the same words, as trainstack/training_job/rules.py and naming.py.
Usage: {{- include "training-job.validateValues" . }}
*/}}
{{- define "training-job.validateValues" -}}
{{- $v := .Values -}}
{{- $problems := list -}}
{{- $workers := $v.worker.replicas | int -}}

{{- /* replicas */ -}}
{{- if and (eq $v.framework "mpi") (lt $workers 1) -}}
{{- $problems = append $problems (printf "worker.replicas: found %s; allowed: at least 1 with framework mpi" (toJson $v.worker.replicas)) -}}
{{- else if and (eq $v.framework "tensorflow") (eq ($v.tensorflow.chief.replicas | int) 0) (eq $workers 0) -}}
{{- $problems = append $problems (printf "worker.replicas: found %s; allowed: at least 1 when tensorflow.chief.replicas is 0 (a TFJob needs a chief or a worker)" (toJson $v.worker.replicas)) -}}
{{- end -}}

{{- /* MPI over SSH */ -}}
{{- if eq $v.framework "mpi" -}}
{{- $sshPort := $v.mpi.sshPort | int -}}
{{- if and $v.network.hostNetwork (eq $sshPort 22) -}}
{{- $problems = append $problems (printf "mpi.sshPort: found %s; allowed: a free port other than 22 with network.hostNetwork (the node's sshd has 22), e.g. 2222" (toJson $v.mpi.sshPort)) -}}
{{- end -}}
{{- if and (ne $sshPort 22) (ne $v.mpi.implementation "OpenMPI") -}}
{{- $problems = append $problems (printf "mpi.implementation: found %s; allowed: OpenMPI when mpi.sshPort is not 22 (the operator overrides the SSH arguments of Intel MPI and MPICH)" (toJson $v.mpi.implementation)) -}}
{{- end -}}
{{- if eq $v.runPolicy.restartPolicy "ExitCode" -}}
{{- $problems = append $problems (printf "runPolicy.restartPolicy: found %s; allowed: Never or OnFailure with framework mpi" (toJson $v.runPolicy.restartPolicy)) -}}
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
{{- if eq $v.framework "mpi" -}}
{{- $mounts = append $mounts (list "mpi.sshAuthMountPath" $v.mpi.sshAuthMountPath) -}}
{{- $mounts = append $mounts (list "the mpi-operator's hostfile" "/etc/mpi") -}}
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
{{- if eq $v.framework "mpi" -}}
{{- $problems = append $problems (printf "operatorApi: found %s; allowed: kubeflow with framework mpi (Arena serves MPIJob v1alpha1, which the chart does not render)" (toJson $v.operatorApi)) -}}
{{- end -}}
{{- if and (not (kindIs "invalid" $v.security.seccompProfile)) (not $v.security.privileged) -}}
{{- $problems = append $problems (printf "security.seccompProfile: found %s; allowed: null with operatorApi arena (its CRDs have no seccompProfile: the API server would drop it)" (toJson $v.security.seccompProfile)) -}}
{{- end -}}
{{- if $v.scheduling.gang.enabled -}}
{{- $problems = append $problems "scheduling.gang.enabled: found true; allowed: false with operatorApi arena (its CRDs have no runPolicy.schedulingPolicy)" -}}
{{- end -}}
{{- if and (eq $v.framework "pytorch") (not (kindIs "invalid" $v.pytorch.nprocPerNode)) -}}
{{- $problems = append $problems (printf "pytorch.nprocPerNode: found %s; allowed: null with operatorApi arena (its PyTorchJob has no nprocPerNode)" (toJson $v.pytorch.nprocPerNode)) -}}
{{- end -}}
{{- end -}}

{{- /* gang size */ -}}
{{- $gang := $v.scheduling.gang -}}
{{- $pods := include "training-job.pods.total" . | int -}}
{{- if and $gang.enabled (not (kindIs "invalid" $gang.minAvailable)) (gt ($gang.minAvailable | int) $pods) -}}
{{- $problems = append $problems (printf "scheduling.gang.minAvailable: found %s; allowed: at most %d, the pods of the job" (toJson $gang.minAvailable) $pods) -}}
{{- end -}}

{{- /* the release name names the job and its pods */ -}}
{{- $name := .Release.Name -}}
{{- if not (regexMatch "^[a-z]([-a-z0-9]*[a-z0-9])?$" $name) -}}
{{- $problems = append $problems (printf "release name: found %s; allowed: lowercase letters, digits and '-', starting with a letter and ending with a letter or digit" (toJson $name)) -}}
{{- else -}}
{{- $suffixes := list -}}
{{- if eq $v.framework "mpi" -}}
{{- $suffixes = list "-launcher" (printf "-worker-%d" (sub $workers 1)) -}}
{{- else -}}
{{- /* roles in the order of trainstack's framework registry: ties name the same pod */ -}}
{{- $roles := list (list "master" 1) (list "worker" $workers) -}}
{{- if eq $v.framework "tensorflow" -}}
{{- $roles = list (list "chief" ($v.tensorflow.chief.replicas | int)) (list "worker" $workers) (list "ps" ($v.tensorflow.ps.replicas | int)) (list "evaluator" ($v.tensorflow.evaluator.replicas | int)) -}}
{{- end -}}
{{- range $roles -}}
{{- if gt (index . 1) 0 -}}
{{- $suffixes = append $suffixes (printf "-%s-%d" (index . 0) (sub (index . 1) 1)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $longest := "" -}}
{{- range $suffixes -}}
{{- if gt (len .) (len $longest) -}}
{{- $longest = . -}}
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
