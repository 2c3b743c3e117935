"""Helpers every stage shares: the reading of the converters' Markdown (plain text, pipe tables)."""
