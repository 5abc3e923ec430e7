"""Range queries of a Prometheus HTTP API, within bounds, with one clear error each.

The one call: ``GET /api/v1/query_range?query=...&start=...&end=...&step=...`` (Prometheus
docs, ``docs/querying/api.md`` at v3.14.0, "Range queries"): the answer is the JSON
envelope ``{"status": "success"|"error", "data": {"resultType": "matrix", "result":
[{"metric": {...}, "values": [[<unix time>, "<value>"], ...]}, ...]}, "errorType",
"error", "warnings"}``, each value a string since JSON has no NaN or Inf ("Expression
query result formats"); errors are 400 (bad parameters), 422 (cannot be executed) and
503 (timed out or aborted), other codes from before the API handler.

Every request goes through a :class:`~trainstack.live.transport.GuardedTransport`: the
command's ``--timeout`` per request and ``--deadline`` for all of them, an answer refused
past :data:`MAX_ANSWER_BYTES` as it arrives, its nesting checked before it is decoded.
The decoded answer is checked field by field (msgspec); a series past
:data:`MAX_SERIES` or a point count past what the query can return is refused. A value
that is ``NaN`` (a gap the exporter reported) is left out and counted, never summed.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx2
import msgspec

from trainstack.console.safe_text import printable
from trainstack.core.errors import TelemetryError
from trainstack.core.json_depth import TOO_DEEP
from trainstack.live.transport import GuardedTransport, LimitExceeded

QUERY_RANGE = "/api/v1/query_range"
MAX_ANSWER_BYTES = 16 << 20
"""A range answer larger than this is refused (a run's query asks for at most
:data:`~trainstack.results.telemetry_query.MAX_SAMPLES` samples, about 5 MB)."""
MAX_SERIES = 8192
"""Series in one answer: beyond it the label matchers caught more than one run's GPUs."""
MAX_ERROR_CHARS = 300


class _Point(msgspec.Struct, array_like=True):
    time: float
    value: str


class _Series(msgspec.Struct):
    metric: dict[str, str]
    values: list[_Point] = []


class _Data(msgspec.Struct):
    resultType: str  # noqa: N815 (the API's key)
    result: list[_Series]


class _Answer(msgspec.Struct):
    status: str
    data: _Data | None = None
    errorType: str | None = None  # noqa: N815
    error: str | None = None
    warnings: list[str] = []
    message: str | None = None
    """A Kubernetes ``Status``'s words (the API server's service proxy answers with one)."""


@dataclass(frozen=True)
class Series:
    """One series of a range answer: its labels, its finite samples, how many were NaN."""

    labels: dict[str, str]
    times: tuple[float, ...]
    values: tuple[float, ...]
    not_a_number: int


@dataclass(frozen=True)
class RangeAnswer:
    """The series of one range query, and the warnings Prometheus sent with them."""

    series: tuple[Series, ...]
    warnings: tuple[str, ...]


class PrometheusReader:
    """Range queries of one Prometheus HTTP API (``base``: the URL up to ``/api/v1``)."""

    def __init__(self, client: httpx2.Client, transport: GuardedTransport, where: str) -> None:
        self.client = client
        self.transport = transport
        self.where = where
        """``Prometheus at URL`` for messages (credentials never in it)."""
        self.requests = 0

    def query_range(
        self, query: str, start: float, end: float, step: int, what: str
    ) -> RangeAnswer:
        """The matrix of ``query`` from ``start`` to ``end`` (Unix seconds) every ``step`` s."""
        params = {"query": query, "start": f"{start:.3f}", "end": f"{end:.3f}", "step": str(step)}
        points = int((end - start) // step) + 1
        self.requests += 1
        with self._errors(what):
            response = self.client.get(QUERY_RANGE.lstrip("/"), params=params)
            kind = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
            content = response.content
            if kind != "application/json":
                raise TelemetryError(
                    f"{what}: {self.where} answered {response.status_code} "
                    f"({printable(kind or 'no content type', 60)}), not the JSON of the "
                    "Prometheus HTTP API; is the URL the API's (up to `/api/v1`)?"
                )
            answer = msgspec.json.decode(content, type=_Answer)
        if answer.status != "success" or response.is_error:
            raise TelemetryError(f"{what}: {self._refused(response.status_code, answer)}")
        if answer.data is None or answer.data.resultType != "matrix":
            found = answer.data.resultType if answer.data else "no data"
            raise TelemetryError(
                f"{what}: {self.where} answered a {printable(found, 40)}, not the matrix of a "
                "range query"
            )
        if len(answer.data.result) > MAX_SERIES:
            raise TelemetryError(
                f"{what}: {self.where} answered {len(answer.data.result)} series, more than "
                f"{MAX_SERIES} (trainstack's limit): do the label names of "
                "trainstack:telemetry.labels match the exporter's?"
            )
        series = tuple(_series(item, points, what, self.where) for item in answer.data.result)
        warnings = tuple(printable(text, MAX_ERROR_CHARS) for text in answer.warnings[:5])
        return RangeAnswer(series, warnings)

    def _refused(self, status: int, answer: _Answer) -> str:
        kind = printable(answer.errorType or "", 40)
        said = printable(answer.error or answer.message or "", MAX_ERROR_CHARS)
        words = f"{kind}: {said}" if kind and said else kind or said
        text = f"{self.where} answered {status}" + (f" ({words})" if words else "")
        if status == 503:
            return f"{text}: the query timed out or was aborted there; try a coarser " + (
                "trainstack:telemetry.resolutionSeconds"
            )
        if status in (401, 403):
            return (
                f"{text}: the credentials were not accepted or may not read it (a service: "
                "the kubeconfig's user needs `get` on services/proxy; a URL: the Secret's)"
            )
        return text

    @contextmanager
    def _errors(self, what: str) -> Iterator[None]:
        """Whatever the client raises as one :class:`TelemetryError` about ``what``."""
        try:
            yield
        except LimitExceeded as error:
            raise TelemetryError(f"{what}: {error} ({self.where})") from None
        except httpx2.TimeoutException:
            if self.transport.remaining() <= 0:
                raise TelemetryError(
                    f"{what}: {self.transport.past_deadline()} ({self.where}); a slow or "
                    "trickling answer (--deadline)"
                ) from None
            raise TelemetryError(
                f"{what}: no answer from {self.where} within "
                f"{self.transport.limits.timeout:g} s (--timeout)"
            ) from None
        except (httpx2.HTTPError, OSError) as error:
            reason = printable((str(error) or type(error).__name__).splitlines()[0])
            raise TelemetryError(f"{what}: cannot reach {self.where}: {reason}") from None
        except RecursionError:
            raise TelemetryError(f"{what}: {TOO_DEEP} ({self.where})") from None
        except (msgspec.MsgspecError, ValueError) as error:
            raise TelemetryError(
                f"{what}: {self.where}'s answer is not the Prometheus HTTP API's JSON: "
                f"{printable(str(error), 160)}"
            ) from None

    def close(self) -> None:
        self.client.close()


def _series(item: _Series, points: int, what: str, where: str) -> Series:
    if len(item.values) > points:
        raise TelemetryError(
            f"{what}: {where} answered {len(item.values)} points in one series, more than the "
            f"{points} the query's start, end and step allow"
        )
    times, values, missing = [], [], 0
    for point in item.values:
        try:
            value = float(point.value)
        except ValueError:
            raise TelemetryError(
                f"{what}: {where} answered the value {printable(repr(point.value), 40)}, not a "
                "number (the API sends numbers, NaN and Inf as strings)"
            ) from None
        if math.isfinite(value):
            times.append(point.time)
            values.append(value)
        else:
            missing += 1
    return Series(dict(item.metric), tuple(times), tuple(values), missing)
