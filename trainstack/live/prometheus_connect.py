"""Open the Prometheus a stack names (``trainstack:telemetry.prometheus``) for range queries.

- ``service``: through the API server's service proxy, ``/api/v1/namespaces/NS/services/
  [https:]NAME:PORT/proxy/`` (the proxy URL's "Literal Syntax", ``[https:]<service-name>
  [:<port-name>]``, ``https://kubectl.docs.kubernetes.io/references/kubectl/proxy/``),
  on the kubeconfig's connection and credentials;
- ``http-api``: the URL itself, the system's certificate authorities, and the credentials of
  the Kubernetes Secret the stack names, read once with the kubeconfig's user and kept
  in memory (never printed, never written): ``basic`` sends ``username:password``
  (ARMS V2 instances take an AccessKey pair so: Alibaba Cloud, "Access Prometheus
  monitoring data through HTTP API URLs", ``https://www.alibabacloud.com/help/en/
  prometheus/user-guide/http-api-urls``), ``bearer`` sends ``token``.

Each gets a transport of its own (:class:`~trainstack.live.transport.GuardedTransport`)
with the command's ``--timeout`` and ``--deadline`` (counted from the first query) and
:data:`~trainstack.live.prometheus.MAX_ANSWER_BYTES` per answer.
"""

from __future__ import annotations

import base64
import binascii
import ssl
from collections.abc import Callable
from urllib.parse import quote

import httpx2
from lightkube.generic_resource import create_namespaced_resource

from trainstack.config.telemetry import PrometheusService, PrometheusUrl, SecretCredentials
from trainstack.core.credentials import masked_url
from trainstack.core.errors import ClusterError, TelemetryError
from trainstack.live.api import ApiReader
from trainstack.live.options import ClusterOptions
from trainstack.live.prometheus import MAX_ANSWER_BYTES, PrometheusReader
from trainstack.live.transport import GuardedTransport, ReadLimits

SECRETS = create_namespaced_resource("", "v1", "Secret", "secrets")
_KEYS = {"basic": ("username", "password"), "bearer": ("token",)}
CREDENTIALS_KEY = "trainstack:telemetry.prometheus.credentials"


def connect_prometheus(
    prometheus: PrometheusService | PrometheusUrl,
    api: Callable[[], ApiReader],
    options: ClusterOptions,
) -> PrometheusReader:
    """A reader of ``prometheus`` (``api``: the cluster's reader, opened when needed)."""
    limits = ReadLimits(
        timeout=options.timeout, deadline=options.deadline, max_response_bytes=MAX_ANSWER_BYTES
    )
    headers: dict[str, str] = {}
    if isinstance(prometheus, PrometheusService):
        reader = api()
        server = str(reader.target.config().cluster.server).rstrip("/")
        # The literal syntax: `https:` before the name for HTTPS, nothing for HTTP.
        scheme = "https:" if prometheus.scheme == "https" else ""
        target = f"{scheme}{prometheus.name}:{prometheus.port}"
        base = (
            f"{server}/api/v1/namespaces/{quote(prometheus.namespace, safe='')}/services/"
            f"{quote(target, safe=':')}/proxy/"
        )
        inner = reader.transport.inner
        transport = GuardedTransport(inner, limits, reader.transport.authorizer)
        where = (
            f"Prometheus service {prometheus.namespace}/{prometheus.name}:{prometheus.port} "
            f"(through {reader.where()})"
        )
    else:
        if prometheus.credentials is not None:
            headers["Authorization"] = _authorization(prometheus.credentials, api)
        base = prometheus.url.rstrip("/") + "/"
        transport = GuardedTransport(
            httpx2.HTTPTransport(verify=ssl.create_default_context()), limits
        )
        where = f"Prometheus at {masked_url(prometheus.url)}"
    client = httpx2.Client(
        base_url=base,
        transport=transport,
        timeout=httpx2.Timeout(options.timeout),
        trust_env=False,
        headers=headers,
    )
    return PrometheusReader(client, transport, where)


def _authorization(credentials: SecretCredentials, api: Callable[[], ApiReader]) -> str:
    """The ``Authorization`` header from the Secret; errors name the Secret and the key,
    never a value."""
    name = f"Secret {credentials.namespace}/{credentials.name}"
    what = f"reading {name} ({CREDENTIALS_KEY})"
    try:
        secret = api().get(SECRETS, credentials.name, what, namespace=credentials.namespace)
    except ClusterError as error:
        raise TelemetryError(str(error)) from None
    if secret is None:
        raise TelemetryError(
            f"{what}: no such Secret; create it (keys {', '.join(_KEYS[credentials.kind])}) "
            "or correct the reference"
        )
    data = secret.get("data")
    values = []
    for key in _KEYS[credentials.kind]:
        raw = data.get(key) if isinstance(data, dict) else None
        if not isinstance(raw, str) or not raw:
            raise TelemetryError(f"{what}: it has no `{key}` key ({credentials.kind} credentials)")
        try:
            text = base64.b64decode(raw, validate=True).decode("utf-8").strip()
        except (binascii.Error, ValueError):
            raise TelemetryError(f"{what}: `{key}` is not base64 of UTF-8 text") from None
        if not text.isprintable() or not text:
            raise TelemetryError(f"{what}: `{key}` is empty or holds control characters")
        values.append(text)
    if credentials.kind == "bearer":
        return f"Bearer {values[0]}"
    return "Basic " + base64.b64encode(":".join(values).encode()).decode("ascii")
