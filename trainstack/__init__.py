"""trainstack: a distributed GPU-training platform on Kubernetes, as code."""

__version__ = "0.1.0"
