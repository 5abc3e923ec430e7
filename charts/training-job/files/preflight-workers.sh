# trainstack preflight, the launcher of ack-arena's MPIJob v1alpha1 (docs/preflight.md):
# its workers are a StatefulSet that would retry a failed preflight forever, and the fork
# creates this launcher only once every worker is Ready, so the workers' preflight only
# reports a failure (its line, their init container's termination message). Before the
# job's command, the launcher reads each worker's report with the kubectl the fork
# delivers and the get on its workers its Role grants; a failure ends the launcher with
# one line naming the worker, its termination message. Else it runs the command ("$@").
# POSIX sh; what the API server sent is printed as data, never run.
#   TRAINSTACK_PREFLIGHT_WORKERS  the worker pods' names, separated by spaces
#   TRAINSTACK_KUBECTL            the kubectl to read them with
set -f
tsw_prefix="trainstack preflight: "
tsw_failed=""
for tsw_worker in $TRAINSTACK_PREFLIGHT_WORKERS; do
  if ! tsw_message=$("$TRAINSTACK_KUBECTL" get pod "$tsw_worker" -o \
    'jsonpath={.status.initContainerStatuses[?(@.name=="preflight")].state.terminated.message}' \
    2>/dev/null); then
    printf '%s\n' "preflight: worker $tsw_worker's report not read ($TRAINSTACK_KUBECTL get pod failed): not checked" >&2
    continue
  fi
  tsw_last=""
  while IFS= read -r tsw_line; do
    case "$tsw_line" in "$tsw_prefix"*) tsw_last="$tsw_line" ;; esac
  done <<EOF
$tsw_message
EOF
  case "$tsw_last" in
    "" | "${tsw_prefix}passed"*) ;;
    *) tsw_failed="$tsw_failed${tsw_failed:+; }$tsw_worker: ${tsw_last#"$tsw_prefix"}" ;;
  esac
done
if [ -n "$tsw_failed" ]; then
  tsw_line="$tsw_prefix$tsw_failed"
  printf '%s\n' "$tsw_line"
  # the kubelet reads it as the container's termination message (terminationMessagePath)
  if [ -f /dev/termination-log ] && [ -w /dev/termination-log ]; then
    printf '%s\n' "$tsw_line" >/dev/termination-log 2>/dev/null
  fi
  exit 1
fi
exec "$@"
