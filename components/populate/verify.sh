# verify: the files of the layout (`<count> <glob>` lines of $TRAINSTACK_LAYOUT, globs
# relative to the root) counted, each a non-empty regular file, their total within
# [$TRAINSTACK_MIN_BYTES, $TRAINSTACK_MAX_BYTES]; then the manifest (docs/data.md):
#   # trainstack manifest v1 verify=<quick|full>
#   <size>\t<sha256 or ->\t<relative path>     (sorted by path, LC_ALL=C)
# and its digest `sha256:<hex>` in .trainstack-manifest.sha256, each written to a
# temporary name and renamed (never half-written), the digest file last.
verify() {
  mode="${TRAINSTACK_VERIFY:-full}"
  list="$work/layout-files"
  : >"$list"
  total=0
  while read -r count glob || [ -n "${count:-}" ]; do
    [ -n "$count" ] || continue
    safe_glob "$glob"
    found=0
    # The glob expands here (it holds no space: safe_glob); a pattern matching nothing
    # stays as it is, hence the -e test.
    for file in "$data"/$glob; do
      [ -e "$file" ] || [ -L "$file" ] || continue
      rel=${file#"$data"/}
      current="$rel"
      case "$rel" in *"$nl"* | *"$tab"*) fail "$rel" "a newline or tab in the name" ;; esac
      [ -f "$file" ] && [ ! -L "$file" ] || fail "$rel" "not a regular file"
      size=$(size_of "$file")
      [ "$size" -gt 0 ] || fail "$rel" "empty file"
      found=$((found + 1))
      total=$((total + size))
      printf '%s\t%s\n' "$rel" "$size" >>"$list"
    done
    [ "$found" -eq "$count" ] || fail "$glob" "$found files match, expected $count"
  done <"${TRAINSTACK_LAYOUT:?}"
  min="${TRAINSTACK_MIN_BYTES:?}"
  max="${TRAINSTACK_MAX_BYTES:-}"
  if [ "$total" -lt "$min" ] || { [ -n "$max" ] && [ "$total" -gt "$max" ]; }; then
    fail "$data" "the layout's files total $total bytes, expected $min to ${max:-any}"
  fi
  manifest="$data/.trainstack-manifest"
  current="$manifest"
  printf '# trainstack manifest v1 verify=%s\n' "$mode" >"$manifest.tmp"
  LC_ALL=C sort -u "$list" >"$list.sorted"
  while IFS="$tab" read -r rel size; do
    sum=-
    if [ "$mode" = full ]; then
      current="$rel"
      sum=$(sha256_of "$data/$rel")
    fi
    printf '%s\t%s\t%s\n' "$size" "$sum" "$rel" >>"$manifest.tmp"
  done <"$list.sorted"
  current="$manifest"
  manifest_sum=$(sha256_of "$manifest.tmp")
  printf 'sha256:%s\n' "$manifest_sum" >"$manifest.sha256.tmp"
  mv -f "$manifest.tmp" "$manifest"
  mv -f "$manifest.sha256.tmp" "$manifest.sha256"
  echo "verified: $(($(wc -l <"$list.sorted"))) files, $total bytes; manifest sha256:$manifest_sum"
}

safe_glob() {
  case "/$1/" in
    *//* | */.*) fail "$1" "unsafe layout pattern (empty, '.' or '..' component, or leading '/')" ;;
  esac
  rest=$(printf '%s' "$1" | tr -d 'A-Za-z0-9._+=,@/*?-')
  [ -z "$rest" ] || fail "$1" "unsafe layout pattern (only letters, digits, ._+=,@-/ and * ?)"
}
