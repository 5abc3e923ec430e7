# fetch_http TARGET LIST: every `<sha256> <url> <path>` line of LIST downloaded with
# curl to TARGET/<path> and checked against its sha256. curl (7.x, `man curl`):
# --fail makes an HTTP error (>= 400) exit 22, --connect-timeout bounds the connection,
# --speed-limit/--speed-time end a stalled transfer (exit 28), a body shorter than its
# Content-Length exits 18, a write error (full disk) 23. A file already there with the
# right sha256 is kept (a retried Job resumes).
fetch_http() {
  target="$data/$1"
  mkdir -p "$target"
  mkdir -p "$work/tmp"
  while IFS=' ' read -r sum url path extra || [ -n "$sum" ]; do
    [ -n "$sum$url$path" ] || continue
    current="$url"
    [ -z "$extra" ] || fail "$2" "a line with more than '<sha256> <url> <path>'"
    case "$sum" in *[!0-9a-f]*) fail "$url" "sha256 '$sum' is not 64 lowercase hex digits" ;; esac
    [ "${#sum}" -eq 64 ] || fail "$url" "sha256 '$sum' is not 64 lowercase hex digits"
    case "$url" in http://?* | https://?*) ;; *) fail "$url" "not an http(s) URL" ;; esac
    rest=$(printf '%s' "$url" | tr -d 'A-Za-z0-9._~%/+=,:&?!*-')
    [ -z "$rest" ] || fail "$url" "unsafe characters in the URL"
    safe_path "$url" "$path"
    dest="$target/$path"
    if [ -f "$dest" ] && [ "$(sha256_of "$dest")" = "$sum" ]; then
      echo "kept $path (sha256 matches)"
      continue
    fi
    mkdir -p "${dest%/*}"
    part="$dest.part"
    code=0
    http=$(curl --fail --silent --show-error --location --proto '=http,https' \
      --connect-timeout "${TRAINSTACK_HTTP_CONNECT_TIMEOUT:-30}" \
      --speed-limit 1024 --speed-time "${TRAINSTACK_HTTP_STALL_SECONDS:-120}" \
      --write-out '%{http_code}' --output "$part" "$url") || code=$?
    if [ "$code" -ne 0 ]; then
      rm -f "$part"
      case "$code" in
        22) fail "$url" "HTTP $http" ;;
        28) fail "$url" "timed out: no connection within ${TRAINSTACK_HTTP_CONNECT_TIMEOUT:-30}s or under 1024 B/s for ${TRAINSTACK_HTTP_STALL_SECONDS:-120}s" ;;
        18) fail "$url" "short file: the connection closed before the whole body arrived" ;;
        23) fail "$url" "cannot write $dest (disk full?)" ;;
        6 | 7) fail "$url" "cannot connect (curl exit $code)" ;;
        *) fail "$url" "curl exit $code" ;;
      esac
    fi
    got=$(sha256_of "$part")
    if [ "$got" != "$sum" ]; then
      rm -f "$part"
      fail "$url" "sha256 $got, expected $sum"
    fi
    mv -f "$part" "$dest"
    echo "fetched $path"
  done <"$2"
}

# fetch_http_manifest TARGET URL SHA256: the list itself downloaded and checked first.
fetch_http_manifest() {
  mkdir -p "$work/list"
  printf '%s %s %s\n' "$3" "$2" "files" >"$work/list.in"
  saved_target=$1
  fetch_http ".trainstack-populate-work/list" "$work/list.in"
  fetch_http "$saved_target" "$work/list/files"
}
