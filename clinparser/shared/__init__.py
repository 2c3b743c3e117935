"""Helpers every stage shares, each in one home: the reading of the converters' Markdown (plain
text, pipe tables), the grammar of a section number, and the geometry of boxes on a page."""
