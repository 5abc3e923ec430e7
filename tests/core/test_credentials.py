"""holds_credential: which setting and variable names hold credentials."""

from __future__ import annotations

import pytest

from trainstack.core.credentials import holds_credential


@pytest.mark.parametrize(
    "name",
    [
        "alicloud:accessKey",
        "alicloud:secretKey",
        "alicloud:securityToken",
        "aws:token",
        "azure:clientSecret",
        "gcp:credentials",
        "kubernetes:kubeconfig",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_ACCESS_KEY_ID",
        "WANDB_API_KEY",
        "HF_TOKEN",
        "GITHUB_TOKEN_2",
        "DB_PASSWORD",
        "apiKey",
    ],
)
def test_credential_names(name: str) -> None:
    assert holds_credential(name)


@pytest.mark.parametrize(
    "name",
    [
        "alicloud:region",
        "alicloud:assumeRole",
        "aws:sharedCredentialsFiles",
        "TOKENIZERS_PARALLELISM",
        "TOKEN_URL",
        "NCCL_DEBUG",
        "PERSEUS_ALLREDUCE_DTYPE",
        "MONKEY",
        "PWD",
    ],
)
def test_other_names(name: str) -> None:
    assert not holds_credential(name)
