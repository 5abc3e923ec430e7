# The populate run: marker check, fetch, convert, the optional command, verify, manifest,
# marker. Arguments, if any, are the spec's command (run as given, never through eval).
kind="${TRAINSTACK_SOURCE_KIND:?}"
overwrite="${TRAINSTACK_POPULATE_OVERWRITE:-false}"
[ -d "$data" ] || fail "$data" "not a directory (is the file system mounted?)"
if [ -f "$marker" ]; then
  found=$(cat "$marker")
  if [ "$found" = "$digest" ]; then
    rm -f "$failed"
    echo "populated already by this spec ($digest): nothing to do"
    exit 0
  fi
  [ "$overwrite" = true ] || fail "$data" "refusing to populate: it was populated by another spec ($found); set overwrite: true to rewrite it" 3
elif [ "$kind" != existing ] && [ "$overwrite" != true ]; then
  # Files and no marker: someone else's, unless a run of this very spec left them (the
  # in-progress file holds its digest): then this run resumes.
  mine=false
  [ -f "$progress" ] && [ "$(cat "$progress")" = "$digest" ] && mine=true
  if [ "$mine" = false ]; then
    for entry in "$data"/* "$data"/.[!.]* "$data"/..?*; do
      [ -e "$entry" ] || [ -L "$entry" ] || continue
      case "${entry##*/}" in
        .trainstack-populate-failed | .trainstack-populating | .trainstack-populate-work) continue ;;
      esac
      fail "$data" "refusing to populate: it holds files this populate spec did not write (${entry##*/}); set overwrite: true to write over them" 3
    done
  fi
fi
current="$data"
# No reader may take a half-filled (or re-verified) directory for a filled one.
rm -f "$marker" "$failed" "$data/.trainstack-manifest.sha256" "$data/.trainstack-manifest"
printf '%s\n' "$digest" >"$progress.tmp"
mv -f "$progress.tmp" "$progress"
mkdir -p "$work"
if [ -n "${TRAINSTACK_FETCH_TARGET:-}" ]; then
  safe_path "$TRAINSTACK_FETCH_TARGET" "$TRAINSTACK_FETCH_TARGET"
fi
case "${TRAINSTACK_FETCH:-none}" in
  oss) fetch_oss "$TRAINSTACK_FETCH_TARGET" ;;
  http)
    if [ -n "${TRAINSTACK_HTTP_MANIFEST_URL:-}" ]; then
      fetch_http_manifest "$TRAINSTACK_FETCH_TARGET" "$TRAINSTACK_HTTP_MANIFEST_URL" \
        "${TRAINSTACK_HTTP_MANIFEST_SHA256:?}"
    else
      fetch_http "$TRAINSTACK_FETCH_TARGET" "${TRAINSTACK_HTTP_FILES:?}"
    fi
    ;;
  none) ;;
  *) fail "$data" "unknown fetch '${TRAINSTACK_FETCH:-}'" ;;
esac
if [ "$kind" = convert ]; then
  safe_path "${TRAINSTACK_CONVERT_TARGET:?}" "$TRAINSTACK_CONVERT_TARGET"
  convert "$TRAINSTACK_FETCH_TARGET" "$TRAINSTACK_CONVERT_TARGET"
fi
if [ "$#" -gt 0 ]; then
  current="the command ($1)"
  status=0
  "$@" || status=$?
  [ "$status" -eq 0 ] || fail "the command ($1)" "exited $status"
fi
verify
current="$marker"
printf '%s\n' "$digest" >"$marker.tmp"
mv -f "$marker.tmp" "$marker"
rm -rf "$work"
rm -f "$progress"
echo "populated $data ($digest)"
