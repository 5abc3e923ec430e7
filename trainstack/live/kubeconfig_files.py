"""The files a kubeconfig names, found and read as kubectl finds them, and read bounded.

A kubeconfig names files: ``certificate-authority``, ``client-certificate``,
``client-key``, ``tokenFile``, and an ``exec`` plugin's ``command``. client-go resolves a
relative one against the kubeconfig's own directory, not the working directory
(``tools/clientcmd/loader.go`` at v0.36.3, commit
44a8af2fee834a8fc3523360e029cf7ea7104622: ``ResolveLocalPaths`` joins each of
``GetClusterFileReferences`` and ``GetAuthInfoFileReferences`` to
``filepath.Abs(filepath.Dir(LocationOfOrigin))``). The exec command is resolved so only
when it holds a path separator ("Only resolve exec command if it isn't PATH based");
``plugin/pkg/client/auth/exec/exec.go`` then runs ``exec.Command(filepath.Clean(command))``,
so a bare name is looked up on ``$PATH`` and ``./get-token.sh`` is the file next to the
kubeconfig. Resolving against the working directory instead would let a file in whatever
directory trainstack runs from (a checked-out pull request) choose the code that runs with
the user's credentials.

Every file is read by :func:`read_named_file`: opened only if regular (a FIFO would wait
for a writer, ``/dev/zero`` never ends) and read up to :data:`MAX_KUBECONFIG_FILE_BYTES`.
"""

from __future__ import annotations

import os
from pathlib import Path

from trainstack.console.safe_text import printable
from trainstack.core.errors import ClusterError
from trainstack.core.files import open_regular, read_at_most
from trainstack.core.limits import MAX_FILE_BYTES

MAX_KUBECONFIG_FILE_BYTES = MAX_FILE_BYTES
"""A certificate, key, CA bundle or token file a kubeconfig names: 1 MiB (a CA bundle of
every public root is about 200 KiB)."""


def resolved(name: str, source: Path) -> Path:
    """``name`` as client-go resolves it: absolute as written, else against the directory
    of the kubeconfig ``source``."""
    path = Path(name)
    return path if path.is_absolute() else Path(os.path.abspath(source.parent)) / path


def plugin_command(command: str, source: Path) -> str:
    """The program an ``exec`` plugin's ``command`` runs: a bare name on ``$PATH`` (left
    as written), a name with a separator against the kubeconfig's directory."""
    if os.sep not in command:
        return command
    return os.path.normpath(resolved(command, source))


def read_named_file(name: str, source: Path, key: str, context: str | None = None) -> bytes:
    """The bytes of the file ``key`` of the kubeconfig ``source`` names; one clear error
    naming the kubeconfig (or ``context``), the key and the file when it is not a regular
    file, cannot be read or is larger than :data:`MAX_KUBECONFIG_FILE_BYTES` (never what
    it holds)."""
    where = f"{context or f'kubeconfig {source}:'} {key} {printable(name, 120)}"
    allowed = "allowed: a regular file (not a device or pipe) of at most 1 MiB"
    try:
        descriptor = open_regular(resolved(name, source), follow_links=True)
    except OSError as error:
        raise ClusterError(f"{where} cannot be read ({type(error).__name__}); {allowed}") from None
    try:
        data = read_at_most(descriptor, MAX_KUBECONFIG_FILE_BYTES + 1)
    except OSError as error:
        raise ClusterError(f"{where} cannot be read ({type(error).__name__})") from None
    finally:
        os.close(descriptor)
    if len(data) > MAX_KUBECONFIG_FILE_BYTES:
        raise ClusterError(f"{where} is larger than 1 MiB: refused; {allowed}")
    return data
