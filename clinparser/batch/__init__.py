"""Many documents in one run: inputs found, one task each, a manifest, reruns that skip done work.

Takes files, folders and globs and an output location (a folder or an fsspec URL); gives one output
folder per document and manifest.jsonl, run in local worker processes or as Ray tasks."""
