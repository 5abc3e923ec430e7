"""The grammars of a populate source's names, paths, URLs and prefixes.

Each refuses what a shell could read as more than one word or as a command (spaces,
quotes, ``$``, backticks, newlines, ``;``...) and every ``..`` component, so the error
names the key at plan time; the script checks them again (``components/populate``),
and reads them only as data. A placeholder (``<bucket>``) is accepted where a stack
must still set the value; the program refuses to deploy while one is left.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, StringConstraints

from trainstack.core.base_model import constraint, pattern
from trainstack.core.names import PLACEHOLDER_PATTERN

_SEGMENT = r"[A-Za-z0-9_+=,@-][A-Za-z0-9._+=,@-]{0,254}"
DATA_PATH_PATTERN = pattern(
    rf"^{_SEGMENT}(/{_SEGMENT}){{0,31}}$",
    "a relative path: letters, digits and `._+=,@-` in `/`-separated names, no leading "
    "`/` or `.`, no `..`, no spaces, quotes, `$`, backticks or newlines",
)
DataPath = Annotated[
    str,
    StringConstraints(pattern=DATA_PATH_PATTERN, max_length=1024),
]
"""A file or directory relative to the file system's root (``imagenet/imagenet_data``)."""

_GLOB_SEGMENT = r"[A-Za-z0-9_+=,@*?-][A-Za-z0-9._+=,@*?-]{0,254}"
GLOB_PATTERN = pattern(
    rf"^{_GLOB_SEGMENT}(/{_GLOB_SEGMENT}){{0,31}}$",
    "a relative path pattern: the characters of a path plus `*` and `?`, no `..`",
)
Glob = Annotated[
    str,
    StringConstraints(pattern=GLOB_PATTERN, max_length=1024),
]
"""Files relative to the root, ``*`` and ``?`` matching within one name (``train/train-*``)."""

Sha256OrPlaceholder = Annotated[
    str,
    StringConstraints(
        pattern=pattern(
            rf"^([0-9a-f]{{64}}|{PLACEHOLDER_PATTERN})$",
            "a sha256 (64 lowercase hexadecimal digits) or a `<placeholder>`",
        )
    ),
]


def _no_dot_segments_in_url(url: str) -> str:
    path = url.partition("://")[2].partition("/")[2].partition("?")[0]
    if ".." in path.split("/"):
        raise constraint("", url, "a URL whose path has no `..` component")
    return url


# No `@` in the authority (no `user:password@` in a stack file), and no character a
# shell would split or expand: presigned S3/OSS URLs (`?X-Amz-Signature=...&...`) fit.
HTTP_URL_PATTERN = pattern(
    rf"^(https?://[A-Za-z0-9.-]{{1,253}}(:[0-9]{{1,5}})?(/[A-Za-z0-9._~%/+=,:&?!*-]*)?"
    rf"|{PLACEHOLDER_PATTERN})$",
    "an https:// (or http://) URL without credentials, spaces, quotes, `$`, `;`, "
    "backticks or newlines (percent-encode them), or a `<placeholder>`",
)
HttpUrl = Annotated[
    str,
    StringConstraints(pattern=HTTP_URL_PATTERN, max_length=4096),
    AfterValidator(_no_dot_segments_in_url),
]


# OSS's bucket naming rule: 3-63 lowercase letters, digits and `-`, starting and ending
# with a letter or digit.
Bucket = Annotated[
    str,
    StringConstraints(
        pattern=pattern(
            rf"^([a-z0-9][a-z0-9-]{{1,61}}[a-z0-9]|{PLACEHOLDER_PATTERN})$",
            "an OSS bucket name (3-63 lowercase letters, digits and `-`) or a `<placeholder>`",
        )
    ),
]
Prefix = Annotated[
    str,
    StringConstraints(
        pattern=pattern(
            rf"^({_SEGMENT}(/{_SEGMENT}){{0,31}}|{PLACEHOLDER_PATTERN})$",
            "an object prefix: `/`-separated names of letters, digits and `._+=,@-` (no "
            "leading `/` or `.`, no `..`), or a `<placeholder>`",
        ),
        max_length=1024,
    ),
]
Region = Annotated[
    str,
    StringConstraints(
        pattern=pattern(
            rf"^([a-z]{{2}}(-[a-z0-9]{{1,20}}){{1,3}}|{PLACEHOLDER_PATTERN})$",
            "an Alibaba Cloud region ID such as cn-beijing, or a `<placeholder>`",
        )
    ),
]
Host = Annotated[
    str,
    StringConstraints(
        pattern=pattern(
            r"^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$",
            "a host name such as oss-cn-beijing-internal.aliyuncs.com (no scheme, no path)",
        )
    ),
]
SecretKey = Annotated[str, StringConstraints(pattern=r"^[-._a-zA-Z0-9]{1,253}$")]
Commit = Annotated[
    str,
    StringConstraints(
        pattern=pattern(r"^[0-9a-f]{40}$", "a full git commit: 40 lowercase hex digits")
    ),
]
