"""Each page's text layer judged, pages turned upright, and unreadable pages recovered (OCR or a
rebuild), with the page ledger."""
