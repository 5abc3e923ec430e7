"""The marker logic of a populate Job, and of the wait other stacks' clusters run.

``POPULATE_SCRIPT`` wraps the spec's command (``sh -c SCRIPT populate <command...>``)
with the dataset's directory in ``$TRAINSTACK_DATA_DIR``:

- the marker ``.trainstack-populated`` holds the digest of this spec: nothing to do,
  the command is not run (exit 0);
- the directory holds a marker of another spec, or files and no marker: refused (exit
  3, nothing touched) unless ``$TRAINSTACK_POPULATE_OVERWRITE`` is ``true``;
- otherwise the marker is removed first (no reader takes a half-filled dataset for a
  filled one), the command runs, and only when it succeeds is the digest written
  (to a temporary file renamed over the marker: never a half-written marker).

``WAIT_SCRIPT`` waits until the marker holds the digest (the Job's deadline bounds it).
"""

from __future__ import annotations

MARKER = ".trainstack-populated"

POPULATE_SCRIPT = f"""set -eu
data="${{TRAINSTACK_DATA_DIR:?}}"
digest="${{TRAINSTACK_POPULATE_DIGEST:?}}"
marker="$data/{MARKER}"
if [ -f "$marker" ]; then
  found="$(cat "$marker")"
  if [ "$found" = "$digest" ]; then
    echo "populated already by this spec ($digest): nothing to do"
    exit 0
  fi
  if [ "${{TRAINSTACK_POPULATE_OVERWRITE:-false}}" != "true" ]; then
    echo "refusing to populate $data: it was populated by another spec ($found);" \\
      "set overwrite: true to rewrite it" >&2
    exit 3
  fi
elif [ -n "$(ls -A "$data")" ] && [ "${{TRAINSTACK_POPULATE_OVERWRITE:-false}}" != "true" ]; then
  echo "refusing to populate $data: it holds files this populate spec did not write;" \\
    "set overwrite: true to write over them" >&2
  exit 3
fi
rm -f "$marker"
"$@"
printf '%s\\n' "$digest" > "$marker.tmp"
mv -f "$marker.tmp" "$marker"
echo "populated $data ($digest)"
"""

WAIT_SCRIPT = f"""set -eu
marker="${{TRAINSTACK_DATA_DIR:?}}/{MARKER}"
until [ -f "$marker" ] && [ "$(cat "$marker")" = "${{TRAINSTACK_POPULATE_DIGEST:?}}" ]; do
  echo "waiting for $marker to hold $TRAINSTACK_POPULATE_DIGEST"
  sleep "${{TRAINSTACK_WAIT_SECONDS:-30}}"
done
echo "populated: $TRAINSTACK_POPULATE_DIGEST"
"""
