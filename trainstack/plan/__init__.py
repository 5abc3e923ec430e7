"""The offline plan: the real program under Pulumi's mock engine, every registration kept."""
