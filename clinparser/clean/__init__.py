"""The clean step, run on the converted blocks before the structure stage: characters mended
(``clean_text``) and page furniture, the running headers and footers, marked (``furniture``)."""
