"""The review page: one offline HTML file to check a parse against the document's pages.

Takes a finished output folder (and the source PDF for page pictures); gives report.html with the
tree, every section beside its pages, tables, images and the diagnostics, with no network use."""
