"""Worker processes that never re-run the caller's script: the pool the converter and the batch both use."""
