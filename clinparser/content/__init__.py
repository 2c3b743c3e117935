"""What a section holds: blocks cleaned of furniture, then text, tables, images, references.

Takes the blocks and the chosen headings; gives the tree of ``Section`` nodes (``toc``, ``non_toc``)
with each node's own text, merged tables and filed pictures, and its resolved cross-references."""
