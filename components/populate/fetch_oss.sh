# fetch_oss TARGET: `oss://$BUCKET/$PREFIX/` copied to TARGET with ossutil 1.7
# (aliyun/ossutil v1.7.19, lib/option.go and lib/cp.go): `cp -r` (--recursive) `-f`
# (--force: no prompt) `--disable-ignore-error` (a failed object fails the batch), `-e`
# (--endpoint), `--sign-version v4 --region` (V4 signatures need the region),
# `--config-file` (the credentials: a file, never the command line), `--checkpoint-dir`
# and `--output-dir` (ossutil's own files, inside the work directory).
fetch_oss() {
  target="$data/$1"
  url="oss://${TRAINSTACK_OSS_BUCKET:?}/${TRAINSTACK_OSS_PREFIX:+$TRAINSTACK_OSS_PREFIX/}"
  current="$url"
  region="${TRAINSTACK_OSS_REGION:?}"
  endpoint="${TRAINSTACK_OSS_ENDPOINT:-oss-$region.aliyuncs.com}"
  command -v ossutil >/dev/null 2>&1 || fail "$url" "ossutil is not in the image (PATH=$PATH)"
  mkdir -p "$target" "$work/tmp"
  config="$work/tmp/ossutil.conf"
  (
    umask 077
    if [ -n "${TRAINSTACK_OSS_RRSA:-}" ]; then
      rrsa_credentials >"$config"
    else
      printf '[Credentials]\nlanguage=EN\nendpoint=%s\naccessKeyID=%s\naccessKeySecret=%s\n' \
        "$endpoint" "${OSS_ACCESS_KEY_ID:?}" "${OSS_ACCESS_KEY_SECRET:?}" >"$config"
    fi
  ) || fail "$url" "no credentials: $(credentials_missing)"
  code=0
  ossutil cp -r -f --disable-ignore-error --config-file "$config" -e "$endpoint" \
    --sign-version v4 --region "$region" --checkpoint-dir "$work/tmp/checkpoint" \
    --output-dir "$work/tmp/output" "$url" "$target/" || code=$?
  rm -f "$config"
  [ "$code" -eq 0 ] || fail "$url" "ossutil cp exited $code (its error is above: 403 AccessDenied, NoSuchBucket, ...)"
}

credentials_missing() {
  if [ -n "${TRAINSTACK_OSS_RRSA:-}" ]; then
    echo "RRSA variables ALIBABA_CLOUD_ROLE_ARN, ALIBABA_CLOUD_OIDC_PROVIDER_ARN, ALIBABA_CLOUD_OIDC_TOKEN_FILE not all set"
  else
    echo "OSS_ACCESS_KEY_ID and OSS_ACCESS_KEY_SECRET (from the Secret) not both set"
  fi
}
