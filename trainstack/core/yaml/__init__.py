"""YAML as trainstack reads it: the pre-scan, the two readers, the writer, key positions."""
