# rrsa_credentials: an ossutil credentials section from the cluster's RRSA. ACK's
# ack-pod-identity-webhook gives a pod whose service account is annotated
# `pod-identity.alibabacloud.com/role-name` the variables ALIBABA_CLOUD_ROLE_ARN,
# ALIBABA_CLOUD_OIDC_PROVIDER_ARN and ALIBABA_CLOUD_OIDC_TOKEN_FILE; STS's
# AssumeRoleWithOIDC (API 2015-04-01, https://help.aliyun.com/zh/ram/api-assumerolewithoidc:
# anonymous, no signature; DurationSeconds 900 to the role's MaxSessionDuration, 3600 by
# default) trades the token for an STS token, which ossutil 1.7 takes as `stsToken`.
# The token file is read by curl (`@file`), never put on a command line.
rrsa_credentials() {
  : "${ALIBABA_CLOUD_ROLE_ARN:?}" "${ALIBABA_CLOUD_OIDC_PROVIDER_ARN:?}"
  [ -r "${ALIBABA_CLOUD_OIDC_TOKEN_FILE:?}" ] || return 1
  answer=$(curl --fail --silent --show-error --proto '=https,http' \
    --connect-timeout 30 --max-time 120 \
    --data-urlencode "Action=AssumeRoleWithOIDC" --data-urlencode "Version=2015-04-01" \
    --data-urlencode "Format=JSON" --data-urlencode "RoleSessionName=trainstack-populate" \
    --data-urlencode "DurationSeconds=${TRAINSTACK_RRSA_SECONDS:-3600}" \
    --data-urlencode "RoleArn=$ALIBABA_CLOUD_ROLE_ARN" \
    --data-urlencode "OIDCProviderArn=$ALIBABA_CLOUD_OIDC_PROVIDER_ARN" \
    --data-urlencode "OIDCToken@$ALIBABA_CLOUD_OIDC_TOKEN_FILE" \
    "${TRAINSTACK_STS_ENDPOINT:-https://sts.aliyuncs.com}/") || return 1
  id=$(printf '%s' "$answer" | sed -n 's/.*"AccessKeyId" *: *"\([^"]*\)".*/\1/p')
  key=$(printf '%s' "$answer" | sed -n 's/.*"AccessKeySecret" *: *"\([^"]*\)".*/\1/p')
  token=$(printf '%s' "$answer" | sed -n 's/.*"SecurityToken" *: *"\([^"]*\)".*/\1/p')
  [ -n "$id" ] && [ -n "$key" ] && [ -n "$token" ] || return 1
  printf '[Credentials]\nlanguage=EN\nendpoint=%s\naccessKeyID=%s\naccessKeySecret=%s\nstsToken=%s\n' \
    "$endpoint" "$id" "$key" "$token"
}
