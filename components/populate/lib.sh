# Shared by the populate steps: the directory, the digest, and the one way to fail.
# Every value below comes from the environment or a file as data: it is quoted
# wherever it is expanded and never evaluated.
set -eu
umask 022
data="${TRAINSTACK_DATA_DIR:?}"
digest="${TRAINSTACK_POPULATE_DIGEST:?}"
marker="$data/.trainstack-populated"
progress="$data/.trainstack-populating"
failed="$data/.trainstack-populate-failed"
work="$data/.trainstack-populate-work"
nl='
'
tab='	'
# What the script is doing, named in the last line when a command fails on its own.
current="$data"
reported=""

# fail WHAT WHY [STATUS]: the one last line ("populate failed: WHAT: WHY"), also in the
# failure file (with the digest, for the Jobs waiting on other clusters) and in the
# termination log (the container's termination message), then exit non-zero.
fail() {
  reported="populate failed: $1: $2"
  { printf '%s\n%s\n' "$digest" "$reported" >"$failed.tmp" && mv -f "$failed.tmp" "$failed"; } \
    2>/dev/null || rm -f "$failed.tmp" 2>/dev/null || :
  if [ -n "${TRAINSTACK_TERMINATION_LOG:-}" ]; then
    printf '%s\n' "$reported" >"$TRAINSTACK_TERMINATION_LOG" 2>/dev/null || :
  fi
  printf '%s\n' "$reported" >&2
  exit "${3:-1}"
}

# A command failing under `set -e` (mkdir on a full disk...) still ends with one line.
on_exit() {
  status=$?
  rm -rf "$work/tmp" 2>/dev/null || :
  if [ "$status" -ne 0 ] && [ -z "$reported" ]; then
    fail "$current" "failed (exit status $status)" "$status"
  fi
}
trap on_exit EXIT

# safe_path WHAT PATH: PATH is relative, made of `/`-separated names of letters, digits
# and `._+=,@-`, none starting with `.` (so no `..`): it cannot leave the directory.
safe_path() {
  case "/$2/" in
    *//* | */.*) fail "$1" "unsafe path '$2' (empty, '.' or '..' component, or leading '/')" ;;
  esac
  rest=$(printf '%s' "$2" | tr -d 'A-Za-z0-9._+=,@/-')
  [ -z "$rest" ] || fail "$1" "unsafe path '$2' (only letters, digits and ._+=,@-/ allowed)"
}

# sha256_of FILE: its sha256, 64 lowercase hex digits (sha256sum: coreutils or busybox).
sha256_of() {
  sum=$(sha256sum <"$1") || fail "$1" "cannot read it to hash it"
  sum=${sum%% *}
  case "$sum" in *[!0-9a-f]* | "") fail "$1" "sha256sum printed no digest" ;; esac
  printf '%s\n' "$sum"
}

# size_of FILE: its size in bytes (from `ls -ln`, which does not read the file).
size_of() {
  # shellcheck disable=SC2046
  set -- $(ls -ln "$1")
  printf '%s\n' "$5"
}
