# trainstack preflight (docs/preflight.md): what this pod's job needs, checked in the
# pod's own image before it trains. POSIX sh (dash, bash, busybox ash): no arrays, no
# [[ ]], no local. The chart passes what to check in TRAINSTACK_PREFLIGHT_* variables;
# an empty variable skips its check. On failure the last line of the output, also the
# container's termination message, is one line starting "trainstack preflight:" that
# `trainstack status` shows as the job's reason; the exit status is 1. With arguments
# (a TrainJob's trainer, which cannot have init containers), they run after the checks.
#   TRAINSTACK_PREFLIGHT_GPUS     GPUs the pod asked for: that many must be visible
#   TRAINSTACK_PREFLIGHT_SSHD     the workers' sshd (a path, or a name looked up on PATH)
#   TRAINSTACK_PREFLIGHT_SSHD_ARGS  its options as the worker runs it, one a line
#   TRAINSTACK_PREFLIGHT_SSH      the ssh client the launcher's mpirun starts ranks with
#   TRAINSTACK_PREFLIGHT_SSH_ARGS   its options as mpirun runs it, one a line
#   TRAINSTACK_PREFLIGHT_SSH_PORT   the port both sides must agree on (mpi.sshPort)
#   TRAINSTACK_PREFLIGHT_SSH_KEYS   where the operator mounts the job's ssh keys
#   TRAINSTACK_PREFLIGHT_HOSTS    the workers' host names, one a line, that must resolve
#   TRAINSTACK_PREFLIGHT_RESOLVE_SECONDS  how long to wait for them (default 60)
#   TRAINSTACK_PREFLIGHT_READ     "<what> <path>" lines: directories that must be readable
#   TRAINSTACK_PREFLIGHT_WRITE    "<what> <path>" lines: directories that must be writable
#   TRAINSTACK_PREFLIGHT_ENV      variables the job's scripts need, set and not empty
#   TRAINSTACK_PREFLIGHT_DATASETS  "<claim> <path>" lines: the datasets whose manifest
#                                 digest to print; "<claim>" alone (a sub-path): none
# Every number is checked to be digits (at most 9) before any arithmetic sees it: bash
# evaluates an array subscript's command substitution inside $(( )).
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

# 0 when $1 is a count the script may compute with: 1 to 9 digits, nothing else
tsp_digits() {
  case "$1" in '' | *[!0-9]*) return 1 ;; esac
  [ "${#1}" -le 9 ]
}

# tsp_clock: seconds since the epoch, digits only (0 if date says anything else)
tsp_now() {
  tsp_clock=$(date +%s 2>/dev/null)
  case "$tsp_clock" in '' | *[!0-9]*) tsp_clock=0 ;; esac
  [ "${#tsp_clock}" -le 12 ] || tsp_clock=0
}

# GPUs: nvidia-smi -L (the NVIDIA container runtime mounts it into a pod that has GPUs),
# else the device files /dev/nvidia<N> the runtime creates, one per visible GPU.
tsp_gpus() {
  wanted="$TRAINSTACK_PREFLIGHT_GPUS"
  case "$wanted" in '' | 0) return ;; esac
  if ! tsp_digits "$wanted"; then
    tsp_problem "TRAINSTACK_PREFLIGHT_GPUS is not a count of at most 9 digits"
    return
  fi
  if command -v nvidia-smi >/dev/null 2>&1; then
    how="nvidia-smi -L"
    seen=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
    tsp_digits "$seen" || seen=0
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

# --- ssh, the transport of MPIJob v2beta1 (docs/mpi-transport.md) -----------------------
# What mpi-operator relies on (kubeflow/mpi-operator build/base/Dockerfile): the workers'
# sshd passes its own config test, has a host key, reads the job's authorized_keys where
# the operator mounts them (a read-only Secret, so StrictModes no), logs the pod's user in
# by key; the launcher's ssh accepts unknown host keys without a terminal and finds the
# job's key there. Both agree on the port. The last failure names the setting to change.

# tsp_user, tsp_home: the pod's user as sshd and ssh look it up (getpwuid, /etc/passwd)
tsp_account() {
  tsp_uid=$(id -u)
  tsp_user=""
  tsp_home=""
  [ -r /etc/passwd ] || return 1
  while IFS=: read -r name _ uid _ _ home _; do
    if [ "$uid" = "$tsp_uid" ]; then
      tsp_user=$name
      tsp_home=${home%/}
      return 0
    fi
  done </etc/passwd
  return 1
}

# tsp_path: $1, a file name of an ssh configuration, with its user tokens expanded for
# the pod's user ($2: the letter that means the home directory, h for sshd, d for ssh;
# ~ is the home too), relative names under the home, as sshd and ssh read them
tsp_expand() {
  rest=$1
  tsp_path=""
  case "$rest" in "~" | "~/"*) tsp_path=$tsp_home rest=${rest#"~"} ;; esac
  while :; do
    case "$rest" in
      *%*)
        tsp_path="$tsp_path${rest%%[%]*}"
        rest=${rest#*[%]}
        case "$rest" in
          "$2"*) tsp_path="$tsp_path$tsp_home" rest=${rest#?} ;;
          u*) tsp_path="$tsp_path$tsp_user" rest=${rest#?} ;;
          %*) tsp_path="$tsp_path%" rest=${rest#?} ;;
          *) tsp_path="$tsp_path%" ;;
        esac ;;
      *) tsp_path="$tsp_path$rest"; break ;;
    esac
  done
  case "$tsp_path" in /*) ;; *) tsp_path="$tsp_home/$tsp_path" ;; esac
}

# 0 when one of the file names of the list $1, expanded (tsp_expand with $2), is $3
tsp_names() {
  set -f
  for file in $1; do
    set +f
    if [ "$file" != none ]; then
      tsp_expand "$file" "$2"
      [ "$tsp_path" != "$3" ] || return 0
    fi
  done
  set +f
  return 1
}

# runs $2 with the options of $1 (one a line, each kept as data) before its other arguments
tsp_with() {
  tsp_options=$1
  tsp_program=$2
  shift 2
  tsp_last=$#
  while IFS= read -r option; do
    [ -z "$option" ] || set -- "$@" "$option"
  done <<TSP_OPTIONS
$tsp_options
TSP_OPTIONS
  while [ "$tsp_last" -gt 0 ]; do
    set -- "$@" "$1"
    shift
    tsp_last=$((tsp_last - 1))
  done
  "$tsp_program" "$@"
}

# tsp_first: the first line of $1 without control characters (a tool's own message)
tsp_first() {
  tsp_line=$(printf '%s\n' "$1" | while IFS= read -r line; do
    printf '%s' "$line" | tr -d '[:cntrl:]'
    break
  done)
}

tsp_sshd() {
  program=$TRAINSTACK_PREFLIGHT_SSHD
  found=$(command -v "$program" 2>/dev/null) || found=""
  if [ -z "$found" ] && [ "$program" = sshd ] && [ -x /usr/sbin/sshd ]; then
    found=/usr/sbin/sshd
  fi
  if [ -z "$found" ]; then
    tsp_problem "the workers' sshd $program is not in the image (the MPI transport is ssh: docs/mpi-transport.md)"
    return
  fi
  case "$found" in /*) ;; *) found="./$found" ;; esac
  # sshd's own config test, as the worker starts it: syntax, host keys, privilege
  # separation user and directory (openssh-portable sshd.c)
  if ! said=$(tsp_with "$TRAINSTACK_PREFLIGHT_SSHD_ARGS" "$found" -t 2>&1); then
    tsp_first "$said"
    case "$tsp_line" in
      "Missing privilege separation directory: "*)
        tsp_problem "sshd's privilege separation directory ${tsp_line#*: } is missing: create it in the image (mpi-operator's base image: mkdir -p /var/run/sshd)" ;;
      *"no hostkeys available"*)
        tsp_problem "sshd has no host key it can read: generate them in the image (ssh-keygen -A) readable by user $(id -u)" ;;
      "Privilege separation user "*)
        tsp_problem "sshd: ${tsp_line}: install openssh-server with the image's package manager, which creates it" ;;
      *) tsp_problem "sshd -t rejects its configuration: $tsp_line" ;;
    esac
    return
  fi
  if ! config=$(tsp_with "$TRAINSTACK_PREFLIGHT_SSHD_ARGS" "$found" -T 2>&1); then
    tsp_first "$config"
    tsp_problem "sshd -T fails: $tsp_line"
    return
  fi
  if ! tsp_account; then
    tsp_problem "user $(id -u) has no entry in /etc/passwd: sshd cannot log it in (add it to the image)"
    return
  fi
  strict="" pubkey="" root_login="" keys="" port="" host_keys="" readable=""
  while read -r key value; do
    case "$key" in
      strictmodes) strict=$value ;;
      pubkeyauthentication) pubkey=$value ;;
      permitrootlogin) root_login=$value ;;
      authorizedkeysfile) keys=$value ;;
      port) port=${port:-$value} ;;
      hostkey)
        host_keys="$host_keys${host_keys:+ }$value"
        [ ! -r "$value" ] || readable=$value ;;
    esac
  done <<TSP_CONFIG
$config
TSP_CONFIG
  before=$tsp_problems
  [ "$strict" = no ] ||
    tsp_problem "sshd has StrictModes ${strict:-yes}: it refuses the job's keys on the operator's Secret volume; set StrictModes no in sshd_config (as mpi-operator's base image)"
  [ "$pubkey" != no ] ||
    tsp_problem "sshd has PubkeyAuthentication no: the launcher logs in with the job's key; set PubkeyAuthentication yes"
  if [ "$tsp_uid" = 0 ]; then
    case "$root_login" in no | forced-commands-only)
      tsp_problem "sshd has PermitRootLogin $root_login, but the pod runs as root; set PermitRootLogin prohibit-password" ;;
    esac
  fi
  [ -n "$readable" ] ||
    tsp_problem "sshd has no host key it can read (${host_keys:-none configured}): generate them in the image (ssh-keygen -A)"
  wanted="$TRAINSTACK_PREFLIGHT_SSH_KEYS/authorized_keys"
  tsp_names "$keys" h "$wanted" || [ -z "$TRAINSTACK_PREFLIGHT_SSH_KEYS" ] ||
    tsp_problem "sshd reads the keys of user $tsp_user (home $tsp_home) from AuthorizedKeysFile ${keys:-none}, not $wanted where mpi-operator mounts them (mpi.sshAuthMountPath)"
  tsp_port "the workers' sshd listens on" "$port"
  [ "$tsp_problems" != "$before" ] || tsp_passed "sshd $found (sshd -t, StrictModes no, keys in $TRAINSTACK_PREFLIGHT_SSH_KEYS)"
}

# $1: who, $2: the port it uses; both sides must use mpi.sshPort
tsp_port() {
  wanted=$TRAINSTACK_PREFLIGHT_SSH_PORT
  [ -n "$wanted" ] || return 0
  if ! tsp_digits "$wanted"; then
    tsp_problem "TRAINSTACK_PREFLIGHT_SSH_PORT is not a count of at most 9 digits"
  elif [ "$2" != "$wanted" ]; then
    tsp_problem "$1 port ${2:-none}, not mpi.sshPort $wanted: set mpi.sshPort to the port of the image's ssh configuration"
  fi
}

tsp_ssh() {
  program=$TRAINSTACK_PREFLIGHT_SSH
  if ! command -v "$program" >/dev/null 2>&1; then
    tsp_problem "the launcher's ssh client $program is not in the image (the MPI transport is ssh: docs/mpi-transport.md)"
    return
  fi
  host=""
  while IFS= read -r line; do
    [ -z "$line" ] || { host=$line; break; }
  done <<TSP_HOSTS
$TRAINSTACK_PREFLIGHT_HOSTS
TSP_HOSTS
  # the client's effective settings for a worker, without connecting (OpenSSH 6.8+)
  if ! config=$(tsp_with "$TRAINSTACK_PREFLIGHT_SSH_ARGS" "$program" -G "${host:-localhost}" 2>&1); then
    tsp_first "$config"
    tsp_problem "ssh -G rejects the client configuration: $tsp_line"
    return
  fi
  if ! tsp_account; then
    tsp_problem "user $(id -u) has no entry in /etc/passwd: ssh will not start for it (add it to the image)"
    return
  fi
  checking="" known="" port="" identities=""
  while read -r key value; do
    case "$key" in
      stricthostkeychecking) checking=$value ;;
      userknownhostsfile) known=${value%% *} ;;
      port) port=$value ;;
      identityfile) identities="$identities${identities:+ }$value" ;;
    esac
  done <<TSP_CONFIG
$config
TSP_CONFIG
  before=$tsp_problems
  case "$checking" in
    false | no | off | accept-new) ;;
    *) tsp_problem "the launcher's ssh has StrictHostKeyChecking ${checking:-ask}: with no terminal it refuses every worker's new host key; set StrictHostKeyChecking no in ssh_config (as mpi-operator's base image)" ;;
  esac
  wanted="$TRAINSTACK_PREFLIGHT_SSH_KEYS/id_rsa"
  tsp_names "$identities" d "$wanted" || [ -z "$TRAINSTACK_PREFLIGHT_SSH_KEYS" ] ||
    tsp_problem "the launcher's ssh looks for user $tsp_user's key (home $tsp_home) in IdentityFile ${identities:-none}, not $wanted where mpi-operator mounts it (mpi.sshAuthMountPath)"
  tsp_port "the launcher's ssh connects to" "$port"
  if [ -n "$known" ] && [ "$known" != /dev/null ] && [ -n "$TRAINSTACK_PREFLIGHT_SSH_KEYS" ]; then
    tsp_expand "$known" d
    case "$tsp_path" in "$TRAINSTACK_PREFLIGHT_SSH_KEYS"/*)
      printf 'preflight: note: ssh records host keys in %s, on the read-only Secret of the keys: it warns at each connection (UserKnownHostsFile /dev/null, as mpi-operator'"'"'s base image, does not)\n' "$tsp_path" >&2 ;;
    esac
  fi
  [ "$tsp_problems" != "$before" ] || tsp_passed "$program (StrictHostKeyChecking $checking, key in $TRAINSTACK_PREFLIGHT_SSH_KEYS)"
}
# --- end of ssh ---------------------------------------------------------------------------

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
  limit="${TRAINSTACK_PREFLIGHT_RESOLVE_SECONDS:-60}"
  if ! tsp_digits "$limit"; then
    tsp_problem "TRAINSTACK_PREFLIGHT_RESOLVE_SECONDS is not a count of at most 9 digits"
    return
  fi
  # something else failed already: look once, do not wait for the workers
  [ -z "$tsp_problems" ] || limit=0
  tsp_now
  deadline=$((tsp_clock + limit))
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
      elif tsp_now && [ "$tsp_clock" -ge "$deadline" ]; then
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

# --- what data the pod reads (docs/preflight.md) -------------------------------------------
# One stdout line per dataset, which `results collect` records: the manifest digest the
# populate Job's verify wrote at the root of the file system, or none. The file is data
# on a shared file system: a regular file, its first bytes only, one exact shape
# (sha256: and 64 lowercase hex digits, a newline at most); anything else is none.
tsp_hex64=""
tsp_i=0
while [ "$tsp_i" -lt 64 ]; do
  tsp_hex64="$tsp_hex64[0123456789abcdef]"
  tsp_i=$((tsp_i + 1))
done

# tsp_digest: the manifest digest at the mount path $1, or none
tsp_manifest() {
  tsp_digest=none
  file="$1/.trainstack-manifest.sha256"
  [ -f "$file" ] && [ -r "$file" ] || return 0
  # 73 bytes: one more than the line, so a longer file shows; NUL made visible (shells
  # drop it from $(...)); the "." keeps a trailing newline, of which one is allowed
  said=$(head -c 73 "$file" 2>/dev/null | tr '\000' '?'; echo .)
  said=${said%.}
  said=${said%"
"}
  case "$said" in sha256:$tsp_hex64) tsp_digest=$said ;; esac
}

tsp_datasets() {
  [ -n "$TRAINSTACK_PREFLIGHT_DATASETS" ] || return 0
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    name=${line%% *}
    case "$name" in '' | *[!abcdefghijklmnopqrstuvwxyz0123456789.-]*)
      printf 'preflight: TRAINSTACK_PREFLIGHT_DATASETS names a claim that is not a DNS name: not read\n' >&2
      continue ;;
    esac
    tsp_digest=none
    case "$line" in *" "*) tsp_manifest "${line#* }" ;; esac
    printf 'trainstack preflight: dataset %s manifest %s\n' "$name" "$tsp_digest"
  done <<EOF
$TRAINSTACK_PREFLIGHT_DATASETS
EOF
}

tsp_env() {
  set -f
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
  set +f
}

tsp_now
tsp_started=$tsp_clock
tsp_gpus
[ -z "$TRAINSTACK_PREFLIGHT_SSHD" ] || tsp_sshd
[ -z "$TRAINSTACK_PREFLIGHT_SSH" ] || tsp_ssh
tsp_mounts read "$TRAINSTACK_PREFLIGHT_READ"
tsp_mounts write "$TRAINSTACK_PREFLIGHT_WRITE"
tsp_datasets
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
tsp_now
printf 'trainstack preflight: passed in %s s: %s\n' "$((tsp_clock - tsp_started))" "${tsp_done:-nothing to check}"
if [ "$#" -gt 0 ]; then
  exec "$@"
fi
