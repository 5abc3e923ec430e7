# Waits until the marker holds the digest; ends with the populate's own reason as soon
# as its failure file (digest, then the last line) names this digest. The Job's
# activeDeadlineSeconds bounds the rest.
set -eu
data="${TRAINSTACK_DATA_DIR:?}"
digest="${TRAINSTACK_POPULATE_DIGEST:?}"
marker="$data/.trainstack-populated"
failed="$data/.trainstack-populate-failed"
until [ -f "$marker" ] && [ "$(cat "$marker")" = "$digest" ]; do
  if [ -f "$failed" ] && [ "$(sed -n 1p "$failed")" = "$digest" ]; then
    reason=$(sed -n 2p "$failed")
    if [ -n "${TRAINSTACK_TERMINATION_LOG:-}" ]; then
      printf '%s\n' "$reason" >"$TRAINSTACK_TERMINATION_LOG" 2>/dev/null || :
    fi
    printf '%s\n' "$reason" >&2
    exit 1
  fi
  echo "waiting for $marker to hold $digest"
  sleep "${TRAINSTACK_WAIT_SECONDS:-30}"
done
echo "populated: $digest"
