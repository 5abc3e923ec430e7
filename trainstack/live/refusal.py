"""What the API server said when it refused a write, as one line: its code, reason and
message (every string it sent escaped), the fields it names, and what to do.

The usual refusals of ``trainstack run`` and ``trainstack runs --delete``:

- 403 Forbidden from RBAC: the user may not patch (server-side apply) or create the kind
  in the namespace;
- 403 (or the webhook's own code) from an admission webhook: the API server words it
  ``<resource> "<name>" is forbidden: admission webhook "<webhook>" denied the request:
  <the webhook's message>``, 403 Forbidden when the webhook gives no code
  (kubernetes/kubernetes 3d7848758c5f79b1d313f52b584e925b32262c69,
  ``staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go``,
  ``ToStatusErr``), and 400 ``admission webhook "<webhook>" does not support dry run``
  for a webhook with side effects (``NewDryRunUnsupportedErr``, same file);
- 409 Conflict: the object has fields another manager owns (server-side apply without
  ``force``) or changed meanwhile;
- 422 Invalid: a value the API's schema or validation refuses, each in ``details.causes``;
- 404 NotFound: the namespace, or the kind (its operator's CRD), does not exist.
"""

from __future__ import annotations

from typing import Any

from trainstack.console.safe_text import printable

_MAX_CAUSES = 5


def refused(code: int, content_type: str, status: Any) -> str:
    """``the API server answered 403 Forbidden: ...`` with what to do about it."""
    if not isinstance(status, dict) or status.get("kind") != "Status":
        kind = printable(content_type or "no content type", 60)
        return f"the API server answered {code} ({kind}), not as the Kubernetes API does"
    reason = printable(str(status.get("reason") or ""), 40)
    message = printable(str(status.get("message") or ""), 600)
    text = f"the API server answered {code}{' ' + reason if reason else ''}: {message}"
    causes = _causes(status.get("details"))
    if causes:
        text += f" ({causes})"
    return text + _remedy(code, str(status.get("message") or ""))


def _causes(details: Any) -> str:
    """The fields a 422 names (``details.causes``), at most :data:`_MAX_CAUSES`."""
    if not isinstance(details, dict) or not isinstance(details.get("causes"), list):
        return ""
    shown = []
    for cause in details["causes"][:_MAX_CAUSES]:
        if isinstance(cause, dict):
            field = printable(str(cause.get("field") or "(object)"), 120)
            shown.append(f"{field}: {printable(str(cause.get('message') or ''), 200)}")
    more = len(details["causes"]) - _MAX_CAUSES
    return "; ".join(shown) + (f"; and {more} more" if more > 0 else "")


def _remedy(code: int, message: str) -> str:
    if "admission webhook" in message and "does not support dry run" in message:
        return (
            "; trainstack submits nothing without a server dry run first: ask the cluster's "
            "administrators to declare the webhook's sideEffects None (or NoneOnDryRun)"
        )
    if "admission webhook" in message:
        return "; the cluster's admission policy refused it (not trainstack's checks)"
    if code == 401:
        return "; the kubeconfig's credentials were not accepted (expired?)"
    if code == 403:
        return (
            "; the kubeconfig's user may not do this here (RBAC: `trainstack run` needs get, "
            "create and patch on the job's kind in its namespace, `runs --delete` get, list "
            "and delete: a team's members have them in the team's namespace)"
        )
    if code == 409:
        return (
            "; another manager owns fields of an object of this name, or it changed meanwhile: "
            "trainstack never takes fields over (force=false); choose another --name"
        )
    if code == 422:
        return "; the API server's validation refused the object"
    if code == 404:
        return (
            "; the namespace or the kind does not exist on the cluster: is the stack deployed "
            "(`pulumi up`: its teams' namespaces and the operators' CRDs)?"
        )
    return ""
