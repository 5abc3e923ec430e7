"""holds_credential: which setting and variable names hold credentials; masked_url."""

from __future__ import annotations

import pytest

from trainstack.core.credentials import holds_credential, masked_url


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


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://10.0.0.1:6443", "https://10.0.0.1:6443"),
        ("https://admin:s3cret@10.0.0.1:6443/", "https://***@10.0.0.1:6443/"),
        ("https://token@host/path?x=1", "https://***@host/path?***"),
        ("https://host/path?access_token=abc", "https://host/path?***"),
        ("https://host/a@b", "https://host/a@b"),
    ],
)
def test_credentials_in_server_urls_are_masked(url: str, shown: str) -> None:
    assert masked_url(url) == shown
