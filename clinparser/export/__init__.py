"""The output: the folder of files, and the formats made from the finished result.

Takes a parse (tree, metadata, blocks); gives document.json, toc.json, blocks.json, markdown.md,
CSV and PNG files, chunks.jsonl (retrieval) and usdm.json (CDISC USDM v4), checked by the schema."""
