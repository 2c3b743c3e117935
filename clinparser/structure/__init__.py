"""The numbered tree: which blocks open which section, and how the sections nest.

Takes the cleaned blocks and the document's outlines (printed TOC, bookmarks); gives the chosen
section headings (numbers, titles, pages) and any bundled documents, with their diagnostics."""
