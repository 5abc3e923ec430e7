# trainstack preflight (docs/preflight.md): what this pod's job needs, checked in the
# pod's own image before it trains. POSIX sh (dash, bash, busybox ash): no arrays, no
# [[ ]], no local. The chart passes what to check in TRAINSTACK_PREFLIGHT_* variables;
# an empty variable skips its check. On failure the last line of the output, also the
# container's termination message, is one line starting "trainstack preflight:" that
# `trainstack status` shows as the job's reason; the exit status is 1. With arguments
# (a TrainJob's trainer, which cannot have init containers), they run after the checks.
#   TRAINSTACK_PREFLIGHT_GPUS     GPUs the pod asked for: that many must be visible
#   TRAINSTACK_PREFLIGHT_SSHD     the workers' sshd (a path, or a name looked up on PATH)
#   TRAINSTACK_PREFLIGHT_SSH      the ssh client the launcher's mpirun starts ranks with
#   TRAINSTACK_PREFLIGHT_HOSTS    the workers' host names, one a line, that must resolve
#   TRAINSTACK_PREFLIGHT_RESOLVE_SECONDS  how long to wait for them (default 300)
#   TRAINSTACK_PREFLIGHT_READ     "<what> <path>" lines: directories that must be readable
#   TRAINSTACK_PREFLIGHT_WRITE    "<what> <path>" lines: directories that must be writable
#   TRAINSTACK_PREFLIGHT_ENV      variables the job's scripts need, set and not empty
tsp_problems=""
tsp_done=""

tsp_problem() {
  printf 'preflight: %s\n' "$1" >&2
  if [ -n "$tsp_problems" ]; then
    tsp_problems="$tsp_problems; $1"
  else
    tsp_problems="$1"
  fi
}

tsp_passed() {
  tsp_done="$tsp_done${tsp_done:+, }$1"
}

# GPUs: nvidia-smi -L (the NVIDIA container runtime mounts it into a pod that has GPUs),
# else the device files /dev/nvidia<N> the runtime creates, one per visible GPU.
tsp_gpus() {
  wanted="$TRAINSTACK_PREFLIGHT_GPUS"
  case "$wanted" in '' | 0) return ;; *[!0-9]*)
    tsp_problem "TRAINSTACK_PREFLIGHT_GPUS is not a number: $wanted"
    return ;;
  esac
  if command -v nvidia-smi >/dev/null 2>&1; then
    how="nvidia-smi -L"
    seen=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
  else
    how="/dev/nvidia<N>; no nvidia-smi in the image"
    seen=0
    for device in /dev/nvidia[0-9]*; do
      [ -e "$device" ] && seen=$((seen + 1))
    done
  fi
  if [ "${seen:-0}" -lt "$wanted" ]; then
    tsp_problem "${seen:-0} of the $wanted GPUs asked for are visible ($how)"
  else
    tsp_passed "$wanted GPU(s)"
  fi
}

tsp_command() {
  # $1: what it is for, $2: the program (a path, or a name on PATH)
  if command -v "$2" >/dev/null 2>&1; then
    tsp_passed "$2"
  elif [ "$2" = sshd ] && [ -x /usr/sbin/sshd ]; then
    tsp_passed /usr/sbin/sshd
  else
    tsp_problem "$1 $2 is not in the image (the MPI transport is ssh: docs/mpi-transport.md)"
  fi
}

tsp_resolves() {
  # 0: resolves, 1: does not (yet), 9: no tool to ask with
  if command -v getent >/dev/null 2>&1; then
    getent hosts "$1" >/dev/null 2>&1 && return 0
  elif command -v nslookup >/dev/null 2>&1; then
    nslookup "$1" >/dev/null 2>&1 && return 0
  elif command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket, sys; socket.gethostbyname(sys.argv[1])' "$1" >/dev/null 2>&1 &&
      return 0
  else
    return 9
  fi
  return 1
}

tsp_hosts() {
  [ -n "$TRAINSTACK_PREFLIGHT_HOSTS" ] || return
  limit="${TRAINSTACK_PREFLIGHT_RESOLVE_SECONDS:-300}"
  # something else failed already: look once, do not wait for the workers
  [ -z "$tsp_problems" ] || limit=0
  deadline=$(($(date +%s) + limit))
  count=0
  missing=""
  while IFS= read -r host; do
    [ -n "$host" ] || continue
    count=$((count + 1))
    while :; do
      tsp_resolves "$host"
      status=$?
      if [ "$status" -eq 0 ]; then
        break
      elif [ "$status" -eq 9 ]; then
        printf 'preflight: no getent, nslookup or python3: worker names not checked\n' >&2
        return
      elif [ "$(date +%s)" -ge "$deadline" ]; then
        missing="$missing${missing:+, }$host"
        break
      fi
      sleep 2
    done
  done <<EOF
$TRAINSTACK_PREFLIGHT_HOSTS
EOF
  if [ -n "$missing" ]; then
    tsp_problem "the launcher cannot resolve worker(s) $missing within $limit s"
  else
    tsp_passed "$count worker name(s)"
  fi
}

tsp_mounts() {
  # $1: read or write, $2: "<what> <path>" lines
  [ -n "$2" ] || return
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    what=${line%% *}
    path=${line#* }
    if [ ! -d "$path" ]; then
      tsp_problem "$what $path is not mounted (no such directory)"
    elif ! ls "$path" >/dev/null 2>&1 || [ ! -r "$path" ] || [ ! -x "$path" ]; then
      tsp_problem "$what $path is not readable by user $(id -u)"
    elif [ "$1" = write ]; then
      probe="$path/.trainstack-preflight.$(hostname 2>/dev/null || echo pod).$$"
      if (: >"$probe") 2>/dev/null; then
        rm -f "$probe"
        tsp_passed "$what $path writable"
      else
        tsp_problem "$what $path is not writable by user $(id -u)"
      fi
    else
      tsp_passed "$what $path"
    fi
  done <<EOF
$2
EOF
}

tsp_env() {
  for name in $TRAINSTACK_PREFLIGHT_ENV; do
    case "$name" in
      [!A-Za-z_]* | *[!A-Za-z0-9_]*)
        tsp_problem "TRAINSTACK_PREFLIGHT_ENV names $name, not a variable name"
        continue ;;
    esac
    eval "value=\${$name-}"
    if [ -z "$value" ]; then
      tsp_problem "environment variable $name is not set (preflight.requiredEnv)"
    else
      tsp_passed "\$$name"
    fi
  done
}

tsp_started=$(date +%s)
tsp_gpus
[ -z "$TRAINSTACK_PREFLIGHT_SSHD" ] || tsp_command "the workers' sshd" "$TRAINSTACK_PREFLIGHT_SSHD"
[ -z "$TRAINSTACK_PREFLIGHT_SSH" ] || tsp_command "the launcher's ssh client" "$TRAINSTACK_PREFLIGHT_SSH"
tsp_mounts read "$TRAINSTACK_PREFLIGHT_READ"
tsp_mounts write "$TRAINSTACK_PREFLIGHT_WRITE"
tsp_env
tsp_hosts
if [ -n "$tsp_problems" ]; then
  tsp_line="trainstack preflight: $tsp_problems"
  # the kubelet reads it as the container's termination message (terminationMessagePath)
  if [ -f /dev/termination-log ] && [ -w /dev/termination-log ]; then
    printf '%s\n' "$tsp_line" >/dev/termination-log 2>/dev/null
  fi
  printf '%s\n' "$tsp_line"
  exit 1
fi
printf 'trainstack preflight: passed in %s s: %s\n' "$(($(date +%s) - tsp_started))" "${tsp_done:-nothing to check}"
if [ "$#" -gt 0 ]; then
  exec "$@"
fi
