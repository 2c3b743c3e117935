"""The engines: PyMuPDF's layout converter (run page by page in worker processes, each page's
layout model chosen first) and docling."""
