"""Pulumi ComponentResources: one per file, each named after what it creates."""
