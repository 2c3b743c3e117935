"""Word documents: automatic paragraph numbering as Word displays it, written into docling's blocks."""
